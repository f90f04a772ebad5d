"""Compiling ahead: the declared argument types are the ones the callers pass, and the helper
process compiles into the cache that the caller then loads from."""

import os
import re
import subprocess
import sys
import time

import numpy as np
import pytest

import kakuro_np as kn
from kakuro_np import generator, solve, techniques, turns  # noqa: F401  (declare groups)
from kakuro_np.engine.core import ahead, policy
from kakuro_np.engine.core.jit import NO_DEADLINE
from conftest import PUZZLES, ROOT
from strategies import OPEN_BLOCK

K2 = str(PUZZLES / "k2.txt")
K3 = str(PUZZLES / "k3.txt")                      # logic alone gets stuck: the grade fans out


def thrashing_solve():
    """``kakuro`` of k3 (its 40 solutions, under a limit) with a search that thrashes at
    once: the checks run. (Without a limit a thrashing walk counts first.)"""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(policy, "THRASH_NODES", 0)
        return kn.kakuro(K3, limit=100)


#: The names whose kernels a caller runs before its own: a search thrashes before it checks.
BEFORE = {"checks": ("search", "proof-checks", "hunt"), "proof-checks": ("search",)}
CALLERS = {
    "model": lambda: solve.model(K2),
    "search": lambda: kn.kakuro(K2),
    "proof-checks": thrashing_solve,
    "checks": thrashing_solve,
    "learn": lambda: turns.Learner(solve.model(K3), 50).turn(100_000, NO_DEADLINE),
    "hunt": lambda: kn.count(K2, limit=2),
    "readback": lambda: turns.solutions_in_any_order(solve.model(K3), 2, NO_DEADLINE, None,
                                                     turns=(1, 2)),     # the count's turns run
    "count": lambda: kn.count(K2),
    "climb": lambda: kn.explain(K2),
    "fanouts": lambda: kn.grade(K3),
    "generate": lambda: (kn.generate(9, 9, seed=1), kn.generate(layout=kn.read(K2).blank, seed=1)),
    "steer": lambda: kn.generate(9, 9, grade="expert", seed=1),
    "many": lambda: kn.solve_many([K2, str(PUZZLES / "k0.txt")], workers=1),
}


@pytest.fixture(autouse=True)
def no_helper_left():
    """Each test starts and ends with no helper of this process compiling. A thrashing
    search starts helpers for what it may need next (``readback``, ``learn``); on a loaded
    machine one was still compiling several tests later, and the tests that count the
    helpers failed. A helper killed only loses its head start."""
    ahead.stop_all()
    yield
    ahead.stop_all()


def test_every_kernel_compiled_ahead_has_a_caller_here():
    assert set(CALLERS) == set(ahead.KERNELS)


@pytest.mark.parametrize("name", sorted(CALLERS))
def test_the_caller_needs_no_other_compile_than_the_one_ahead(name):
    for before_it in BEFORE.get(name, ()):     # kernels of theirs the caller runs first
        for kernel, types in ahead.kernels_of(before_it):
            kernel.compile(types)
    kernels = ahead.kernels_of(name)
    for kernel, types in kernels:               # what the helper does (here: from the cache)
        kernel.compile(types)
    before = [set(kernel.signatures) for kernel, _ in kernels]
    CALLERS[name]()
    after = [set(kernel.signatures) for kernel, _ in kernels]
    assert after == before, "the caller passes other types than *_TYPES"


def test_nothing_to_wait_for_returns_at_once():
    ahead.wait("search")
    assert ahead._helpers == {}


def test_a_cached_kernel_is_not_compiled_again(monkeypatch):
    [(kernel, types)] = ahead.kernels_of("search")
    kernel.compile(types)                       # now in the cache (or loaded from it)
    started = []
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: started.append(a))
    ahead.start("search")
    assert started == [] and ahead._helpers == {}


def test_the_cache_holds_a_name_only_with_its_own_types(monkeypatch):
    """``search`` without checks and with them share one kernel, so one cache index: the
    checked search is cached only when the index holds types other than SEARCH_TYPES."""
    from kakuro_np.engine.search import SEARCH_TYPES, search
    index = {(SEARCH_TYPES, "magic", "stamp"): "file"}
    monkeypatch.setattr(search._cache._cache_file, "_load_index", lambda: dict(index))
    assert ahead.is_cached(search, SEARCH_TYPES) and not ahead.is_cached(search)
    index[(SEARCH_TYPES[:-1] + ("checks",), "magic", "stamp")] = "file"
    assert ahead.is_cached(search)
    index.clear()
    assert not ahead.is_cached(search, SEARCH_TYPES) and not ahead.is_cached(search)


def test_a_failing_helper_costs_only_its_time(monkeypatch):
    monkeypatch.setattr(ahead, "cached", lambda name: False)
    monkeypatch.setitem(ahead.KERNELS, "nothing", ahead.KERNELS["search"])
    real = subprocess.Popen
    monkeypatch.setattr(subprocess, "Popen",
                        lambda args, **k: real([sys.executable, "-c", "raise SystemExit(3)"], **k))
    ahead.start("nothing")
    assert "nothing" in ahead._helpers
    ahead.wait("nothing")                       # the caller then compiles, as without a helper
    assert ahead._helpers == {}
    assert len(kn.kakuro(K2)) == 1


def test_a_thrashing_search_compiles_the_checks_parts_in_helpers(monkeypatch):
    """On an empty cache, the checks' parts (clause learning's, the hunt's) compile in two
    helpers, after the model's group they call (here cached as nothing is: its helper comes
    first), then their top; the answer is the same."""
    monkeypatch.setattr(ahead, "cached", lambda name: False)
    real = subprocess.Popen
    started = []

    def helper(args, **kw):                     # records the name, compiles nothing
        started.append(args[-1])
        return real([sys.executable, "-c", "pass"], **kw)

    monkeypatch.setattr(subprocess, "Popen", helper)
    assert np.array_equal(thrashing_solve(), kn.kakuro(K3))
    assert started == ["model", "proof-checks", "hunt"]
    ahead.stop_all()


def test_a_helper_compiles_a_group_a_module_above_the_engine_declares():
    """Run as ``-m``, the helper's file is ``__main__``, apart from the ``ahead`` the
    declaring module fills: it still finds the group (``kakuro-np compile`` failed so)."""
    assert ahead.DECLARED_IN["climb"] == "kakuro_np.techniques"
    done = subprocess.run([sys.executable, "-m", "kakuro_np.engine.core.ahead",
                           "--import=kakuro_np.techniques", "climb"], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
def test_the_helper_fills_an_empty_cache(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "kakuro_np.engine.core.ahead", "search"], env=env, check=True,
                   timeout=300)
    assert list(tmp_path.rglob("search.search-*.nbi"))
    code = ("import kakuro_np as kn, kakuro_np.solve as s; kn.first_run.ENABLED = False; "
            "kn.kakuro(%r); "
            "print(sum(s.search.stats.cache_hits.values()), "
            "sum(s.search.stats.cache_misses.values()))" % K3)   # k2's fixpoint solves it
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True, timeout=300)
    hits, misses = map(int, out.stdout.split())
    assert (hits, misses) == (1, 0)


CHILD_TIMED_OUT = r'''
import time
from numba.core import event
import kakuro_np as kn
from kakuro_np.engine.core import ahead
started, worked = time.monotonic(), time.process_time()
with event.install_recorder("numba:compile") as rec:
    try:
        kn.{call}
        print("answered")
    except kn.SolveTimeout as e:
        print("timed out", time.monotonic() - started, time.process_time() - worked,
              len(ahead._helpers), sum(1 for _, ev in rec.buffer if ev.is_start))
'''


def helpers_compiling_into(cache) -> list:
    """The pids of helper processes (``-m kakuro_np.engine.core.ahead``) whose cache is ``cache``."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"kakuro_np.engine.core.ahead" not in f.read():
                    continue
            with open(f"/proc/{pid}/environ", "rb") as f:
                if f"NUMBA_CACHE_DIR={cache}".encode() in f.read().split(b"\0"):
                    found.append(pid)
        except OSError:                         # gone meanwhile, or not ours to read
            continue
    return found


@pytest.mark.skipif(not os.path.exists("/proc/self/cmdline"), reason="reads /proc")
@pytest.mark.parametrize("call", ["kakuro(%r, limit=1, timeout=0.5)" % OPEN_BLOCK,
                                  "count(%r, limit=2, timeout=0.5)" % OPEN_BLOCK])
def test_a_timeout_counts_the_compile_and_leaves_no_helper(tmp_path, call):
    """On an empty cache a call with a timeout compiles nothing itself: helpers compile, and
    when the timeout passes first SolveTimeout is raised in time; the helpers go on for the
    next call, and die with the process. (The open block's tables are past what the essay
    builds on a first run, ``first_run.MOST_ROWS``: only the engine answers it.)"""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", CHILD_TIMED_OUT.format(call=call)], env=env,
                         capture_output=True, text=True, check=True, timeout=300)
    said = out.stdout.split()
    assert said[:2] == ["timed", "out"], out.stdout + out.stderr
    seconds, worked, helpers, compiled = float(said[2]), float(said[3]), int(said[4]), int(said[5])
    assert compiled == 0, said                 # nothing compiled here: the helpers compile
    assert helpers >= 1, said                  # still compiling when the call gave up
    # the wait's end and the raise, not a compile (a minute and more of processor time)
    assert worked < 0.5 + 2.0, said
    assert seconds < 0.5 + 30, said            # bounded, however loaded the machine
    waited = 0.0
    while helpers_compiling_into(tmp_path) and waited < 5.0:
        time.sleep(0.1)
        waited += 0.1
    assert helpers_compiling_into(tmp_path) == []


def test_ready_without_a_deadline_only_waits(monkeypatch):
    started = []
    monkeypatch.setattr(ahead, "start", lambda *names: started.append(names))
    before = dict(ahead._helpers)               # helpers an earlier test's thrashing started
    ahead.ready(("search", "count"), NO_DEADLINE)
    assert started == [] and set(ahead._helpers) <= set(before)


def test_the_compile_command_fills_the_cache_and_says_how_long(capsys, monkeypatch):
    """On one group (the whole cache takes minutes on a cold one): a helper compiles what
    is not cached (on a warm cache, nothing) and the command says how long it took."""
    from kakuro_np.cli import main
    monkeypatch.setattr(ahead, "KERNELS", {"climb": ahead.KERNELS["climb"]})
    assert main(["compile", "--jobs", "2"]) == 0
    said = capsys.readouterr().out                      # and where, in the per-user cache
    assert re.fullmatch(r"kernels compiled and cached in \d+\.\d s( \(.+\))?\n", said)
    assert ahead.cached("climb")


def test_a_helper_another_process_started_is_waited_for_not_started_again(monkeypatch):
    """A batch's workers are forked after the batch started the helpers: a worker finds them
    in ``_helpers``, starts none of its own, waits for them by their end (not its child: no
    ``wait``), and leaves them to their starter at exit."""
    monkeypatch.setattr(ahead, "cached", lambda name: False)      # it ends without saving
    monkeypatch.setitem(ahead.KERNELS, "nothing", ahead.KERNELS["search"])
    helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1.5)"])
    monkeypatch.setitem(ahead._helpers, "nothing", helper)
    monkeypatch.setitem(ahead._owner, "nothing", os.getppid())      # as if forked after it
    started = []
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: started.append(a))
    ahead.start("nothing")
    assert started == []                        # the other process's helper is at work
    assert ahead._join("nothing", helper, 0.1) is False             # still running
    assert ahead._join("nothing", helper, 30) is True               # ended (a zombie here)
    ahead._helpers["nothing"] = helper
    ahead.stop_all()                            # not this process's to stop
    assert ahead._helpers == {} and helper.returncode is None
    helper.wait()


def test_the_command_line_stops_the_helpers_it_leaves(monkeypatch):
    """``cli._stop_helpers`` (at Ctrl-C, SIGTERM and the command's end) kills the helpers still
    compiling, wherever ``ahead`` lives."""
    from kakuro_np import cli
    monkeypatch.delitem(sys.modules, "kakuro_np.batch", raising=False)  # it would stop batches
    monkeypatch.setattr(ahead, "cached", lambda name: False)
    monkeypatch.setattr(ahead, "_helper",
                        lambda name, **_: subprocess.Popen([sys.executable, "-c",
                                                       "import time; time.sleep(60)"]))
    ahead.start("search")
    helper = ahead._helpers["search"]
    cli._stop_helpers()
    assert ahead._helpers == {} and helper.poll() is not None


def test_a_helper_started_for_a_call_yields_to_the_essay():
    """A helper compiling for a call runs BACKGROUND_NICE nicer than its caller (the essay
    answering meanwhile comes first on a busy machine); ``kakuro-np compile``'s do not."""
    said = subprocess.run([sys.executable, "-c",
                           "import os; from kakuro_np.engine.core import ahead; "
                           "before = os.nice(0); ahead._in_background(); "
                           "print(before, os.nice(0))"],
                          capture_output=True, text=True, check=True, cwd=ROOT)
    before, after = map(int, said.stdout.split())
    assert after == min(before + ahead.BACKGROUND_NICE, 19)


def test_a_helper_waits_for_the_groups_its_group_comes_after(monkeypatch):
    """``start`` of a group whose AFTER groups are not cached starts theirs first, and tells
    its own helper to wait for them (``--after=NAME:PID``): two helpers compiling the same
    callees at once took twice as long on two cores."""
    monkeypatch.setattr(ahead, "cached", lambda name: False)
    real = subprocess.Popen
    started = []

    def helper(args, **kw):                     # records the arguments, compiles nothing
        started.append([a for a in args if a.startswith("--after=") or not a.startswith("-")])
        return real([sys.executable, "-c", "import time; time.sleep(30)"], **kw)

    monkeypatch.setattr(subprocess, "Popen", helper)
    ahead.start("readback")
    model_pid = ahead._helpers["model"].pid
    assert started[0][-1] == "model" and started[1][-1] == "readback"
    assert f"--after=model:{model_pid}" in started[1]
    ahead.stop_all()


def test_a_waiting_helper_stops_waiting_when_the_other_ends():
    """The helper's wait ends when the process it waits on has ended, cached or not."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    began = time.monotonic()
    assert ahead.main([f"--after=search:{gone.pid}"]) == 0     # nothing named to compile
    assert time.monotonic() - began < 5
