"""The play server's library work, on one background thread, with a time limit for each answer.

The game asks the library (``kakuro``, ``check``, ``hint``, ``grade``, ``reduce``)
through ``run``: the work goes to one thread shared by the process, and the
caller waits at most its ``seconds``. Past that it gets ``TooLong`` and answers
"unknown" or "ask again", while the work runs on to its end (each piece of work
passes its own time limit to the library, so it ends soon after) and keeps what
it found for the next request. A request for work already queued or running
under the same key waits for that one instead of queueing another, and at most
``MOST_WAITING`` pieces wait: past that the caller gets ``TooLong`` at once.

Nothing here holds the game's lock: the game takes it only to read the board
before and to write what was found after.

Examples
--------
>>> run(("double", 21), lambda: 2 * 21, seconds=5.0)
42
>>> import time
>>> try:
...     run(("sleep",), lambda: time.sleep(0.3), seconds=0.01)
... except TooLong as e:
...     print(e)
the work takes longer than 0.01 s; it goes on, ask again soon
"""

from __future__ import annotations

import queue
import threading
from concurrent.futures import Future, TimeoutError as FutureTimeout

#: The most pieces of work that may wait for the thread.
MOST_WAITING = 8


class TooLong(Exception):
    """The work did not end within the caller's seconds (it goes on)."""


class Busy(TooLong):
    """Too much work waits already: this one was not queued."""


_queue: queue.Queue = queue.Queue(MOST_WAITING)
_pending: dict = {}                 # key -> Future of the work queued or running
_lock = threading.Lock()            # guards _pending and the thread's start
_thread: list = []


def _work_forever() -> None:
    while True:
        key, work, future = _queue.get()
        if future.set_running_or_notify_cancel():
            try:
                future.set_result(work())
            except BaseException as e:          # handed to the waiters, who raise it
                future.set_exception(e)
        with _lock:
            if _pending.get(key) is future:
                del _pending[key]


def _submit(key, work) -> Future:
    with _lock:
        future = _pending.get(key)
        if future is not None:
            return future
        if not _thread:
            _thread.append(threading.Thread(target=_work_forever, name="kakuro-np-play-work",
                                            daemon=True))
            _thread[0].start()
        future = Future()
        try:
            _queue.put_nowait((key, work, future))
        except queue.Full:
            raise Busy(f"{MOST_WAITING} answers are being worked out; ask again soon") from None
        _pending[key] = future
        return future


def run(key, work, seconds: float):
    """``work()``'s result, worked out on the background thread, waiting at most ``seconds``.

    Parameters
    ----------
    key : hashable
        What the work answers: a request with the key of work queued or running
        waits for that work.
    work : callable
        Takes no argument; whatever it raises is raised here.
    seconds : float or None
        The longest wait; ``TooLong`` past it (the work goes on). None: no limit.
    """
    future = _submit(key, work)
    try:
        return future.result(timeout=seconds)
    except FutureTimeout:
        raise TooLong(f"the work takes longer than {seconds:g} s; it goes on, ask again soon") \
            from None
