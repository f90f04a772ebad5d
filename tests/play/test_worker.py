"""kakuro_np.play.worker: the play page's library work, on one background thread."""

import threading

import pytest

from kakuro_np.play import worker
from kakuro_np.play.worker import MOST_WAITING, Busy, TooLong, run

#: The longest any test here waits for work it has let go (never reached unless broken).
PATIENCE = 60.0


class Gate:
    """Work that says when it started and waits until it is let go, then returns ``value``."""

    def __init__(self, value=None):
        self.value, self.started, self.go = value, threading.Event(), threading.Event()
        self.calls = 0

    def __call__(self):
        self.calls += 1
        self.started.set()
        assert self.go.wait(PATIENCE), "the test never let the work go"
        return self.value


@pytest.fixture
def idle():
    """The thread with nothing queued or running: work left by another test (or a doctest's
    sleep) is waited for first, and every gate a test opens is let go at its end."""
    run(("idle", object()), lambda: None, seconds=PATIENCE)
    gates = []
    yield gates
    for gate in gates:
        gate.go.set()
    run(("idle", object()), lambda: None, seconds=PATIENCE)
    assert worker._pending == {}


def test_run_returns_the_works_result():
    assert run(("double", 21), lambda: 2 * 21, seconds=PATIENCE) == 42
    assert run(("none",), lambda: None, seconds=None) is None


def test_the_work_runs_on_one_daemon_thread_not_the_callers(idle):
    names = {run(("where", i), lambda: threading.current_thread(), seconds=PATIENCE)
             for i in range(5)}
    assert len(names) == 1
    thread = names.pop()
    assert thread is not threading.current_thread()
    assert thread.daemon and thread.name == "kakuro-np-play-work"
    assert worker._thread == [thread] and thread.is_alive()


def test_what_the_work_raises_is_raised_to_the_caller_and_the_thread_goes_on(idle):
    class Odd(Exception):
        pass

    def fails():
        raise Odd("no luck")

    with pytest.raises(Odd, match="no luck"):
        run(("fails",), fails, seconds=PATIENCE)

    def exits():
        raise SystemExit(3)

    with pytest.raises(SystemExit):
        run(("exits",), exits, seconds=PATIENCE)
    assert run(("after",), lambda: "still here", seconds=PATIENCE) == "still here"


def test_past_its_seconds_the_caller_gets_too_long_and_the_work_goes_on(idle):
    gate = Gate("done")
    idle.append(gate)
    with pytest.raises(TooLong) as info:
        run(("slow",), gate, seconds=0)
    assert type(info.value) is TooLong
    assert str(info.value) == "the work takes longer than 0 s; it goes on, ask again soon"
    assert gate.started.wait(PATIENCE)                  # it runs although nobody waits
    gate.go.set()
    assert run(("slow",), gate, seconds=PATIENCE) == "done"


def test_too_long_says_the_seconds_waited_in_short(idle):
    gate = Gate()
    idle.append(gate)
    with pytest.raises(TooLong, match=r"^the work takes longer than 0\.25 s; it goes on"):
        run(("short",), gate, seconds=0.25)


def test_a_request_for_work_already_running_waits_for_that_work(idle):
    gate = Gate("first")
    idle.append(gate)
    with pytest.raises(TooLong):
        run(("same",), gate, seconds=0)
    assert gate.started.wait(PATIENCE)
    other = Gate("second")
    idle.append(other)
    answers = []
    waiter = threading.Thread(target=lambda: answers.append(run(("same",), other,
                                                                seconds=PATIENCE)))
    waiter.start()
    gate.go.set()
    waiter.join(PATIENCE)
    assert answers == ["first"]
    assert (gate.calls, other.calls) == (1, 0)


def test_a_request_for_work_already_queued_does_not_queue_it_again(idle):
    blocker = Gate()
    idle.append(blocker)
    with pytest.raises(TooLong):
        run(("blocker",), blocker, seconds=0)
    assert blocker.started.wait(PATIENCE)
    calls = []
    for _ in range(3):                                  # queued behind the blocker
        with pytest.raises(TooLong):
            run(("queued",), lambda: calls.append(1) or len(calls), seconds=0)
    assert worker._queue.qsize() == 1
    blocker.go.set()
    assert run(("queued",), lambda: "anew", seconds=PATIENCE) in (1, "anew")
    assert calls == [1]


def test_past_most_waiting_pieces_a_new_one_is_refused_at_once_as_busy(idle):
    blocker = Gate()
    idle.append(blocker)
    with pytest.raises(TooLong):
        run(("blocker",), blocker, seconds=0)
    assert blocker.started.wait(PATIENCE)               # running: off the queue
    ran = []
    for i in range(MOST_WAITING):
        with pytest.raises(TooLong) as info:
            run(("waiting", i), lambda i=i: ran.append(i), seconds=0)
        assert type(info.value) is TooLong
    with pytest.raises(Busy) as info:
        run(("one too many",), lambda: ran.append("too many"), seconds=PATIENCE)
    assert isinstance(info.value, TooLong)              # the game answers it as TooLong
    assert str(info.value) == f"{MOST_WAITING} answers are being worked out; ask again soon"
    assert ("one too many",) not in worker._pending
    with pytest.raises(TooLong) as info:                # the same key as one waiting: waits
        run(("waiting", 0), lambda: ran.append("again"), seconds=0)
    assert type(info.value) is TooLong
    blocker.go.set()
    last = ("waiting", MOST_WAITING - 1)                # waits for the last one queued
    assert run(last, lambda: "anew", seconds=PATIENCE) in (None, "anew")
    assert ran == list(range(MOST_WAITING))             # in the order queued, each once
    assert run(("one too many",), lambda: "now", seconds=PATIENCE) == "now"


def test_finished_work_is_forgotten_so_the_same_key_works_again(idle):
    assert run(("again",), lambda: 1, seconds=PATIENCE) == 1
    run(("idle", object()), lambda: None, seconds=PATIENCE)
    assert ("again",) not in worker._pending
    assert run(("again",), lambda: 2, seconds=PATIENCE) == 2
