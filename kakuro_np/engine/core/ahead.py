"""Compile a kernel in a helper process while this one compiles others: the first run, on two cores.

On an empty cache, ``kakuro-np solve`` compiles two trees of kernels one after the
other: the model (``model.puzzle_model``: entries, tables, forced moves) and the search
(``engine.search.search``). The command line starts a helper process that compiles the
search for the types the solver will call it with and saves it in numba's cache,
while the main process builds the tables; just before its first call, the solver
waits for the helper (``ready``), and the call then loads the kernel from the cache.
A search that thrashes does the same on its own (``solve.essay_solutions``): two
helpers compile the checks' parts at once (``proof-checks``, clause learning, and
``hunt``), then it compiles their top while helpers compile what may come next.

Glossary
--------
ahead   : a name in ``KERNELS`` for the kernels one caller needs, in the order
          it calls them: where each lives and the argument types its caller
          passes (the ``*_TYPES`` tuples next to each kernel; a test holds them
          equal to what the callers really pass), declared beside them (``declare``).
helper  : ``python -m kakuro_np.engine.core.ahead NAME``, started by ``start(NAME)`` only when
          the kernel's cache index is missing; its output is dropped, and a
          helper that fails costs nothing but the time: the caller compiles.
wait    : block until the helper for NAME ends (at most ``WAIT_S`` seconds, then
          it is killed); a no-op when none was started.
ready   : what each Python caller of a group's kernels calls first (without a
          deadline, ``wait`` for each). A call with a time limit compiles nothing
          itself: ``ready(names, deadline)`` has helpers compile what the cache
          lacks and waits for them until the deadline, then raises SolveTimeout.
          Compiling counts in every ``timeout=`` that way, and never runs past it.
          The helpers go on filling the cache for the next call (which waits for
          the same helpers), until this process ends: they die with it
          (``stop_all`` at exit, and the kernel's parent-death signal on Linux).
compile_all : every kernel of ``KERNELS`` into the cache, a helper per core
          (``kakuro-np compile``); a name waits for those ``AFTER`` names.
declare : each module that defines kernels adds its groups to ``KERNELS`` (the engine's
          stages, the climb of ``techniques``, the generator's).

Examples
--------
>>> wait("search")            # nothing started: returns at once
"""

from __future__ import annotations

import atexit
import importlib
import os
import signal
import subprocess
import sys
import time

from .jit import NO_DEADLINE

#: name -> ((module, kernel, the module's tuple of argument types, or its function that
#: returns them when they hold a type a kernel returns), ...): filled by ``declare``, which
#: each module that defines kernels calls for its own groups.
KERNELS: dict[str, tuple] = {}
#: name -> the module that declared it (``declare``): a helper imports it first.
DECLARED_IN: dict[str, str] = {}
#: name -> the names whose kernels it calls, compiled first (``compile_all`` waits for them)
#: so that it loads those from the cache instead of compiling them twice at once.
AFTER: dict[str, tuple] = {}
#: The longest wait for a helper before it is killed and the caller compiles alone.
WAIT_S = 300
#: How much nicer than its caller a helper started for a call runs (``_helper``).
BACKGROUND_NICE = 5
_helpers: dict[str, subprocess.Popen] = {}
#: name -> the pid of the process that started its helper: a process forked after (a batch
#: worker) finds the helper in ``_helpers`` and waits for it without starting its own.
_owner: dict[str, int] = {}
#: Called once, the first time a caller waits for a helper still at work (``when_waiting``).
_on_wait = []
#: The names ``cached`` found in the cache (or compiled) in this process: they stay so.
_CACHED: set[str] = set()


def declare(name: str, module: str, kernels: tuple, after: tuple = ()) -> None:
    """A group of kernels declared by the module that defines them (``module``, its
    ``__name__``): ``kernels`` as ``KERNELS`` lists them, ``after`` the groups whose
    kernels they call. ``ahead`` names no module above the engine: a helper is told which
    module to import (``_helper``), and ``compile_all`` compiles the groups of the modules
    imported so far (a name asked for before its module was imported: see ``_declared``)."""
    KERNELS[name] = tuple(kernels)
    DECLARED_IN[name] = module
    if after:
        AFTER[name] = tuple(after)


def _declared(name: str) -> tuple:
    """``KERNELS[name]``; a name not declared yet has every module of the engine imported
    first (each declares its groups where its kernels are defined). KeyError for a name
    that no module declares."""
    if name not in KERNELS:
        _import_engine()
    return KERNELS[name]


def _import_engine() -> None:
    """Import every module of the engine: each declares its groups (``declare``)."""
    import pkgutil
    engine = importlib.import_module("kakuro_np.engine")
    for info in pkgutil.walk_packages(engine.__path__, "kakuro_np.engine."):
        importlib.import_module(info.name)


def when_waiting(say) -> None:
    """Call ``say()`` once, the first time a caller without a time limit waits for a helper
    that is still compiling (the command line says then that it compiles, as
    ``jit.when_compiling`` does for a compile in the process itself; with a time limit, the
    timeout's message says it)."""
    _on_wait[:] = [say]


def _waiting(helper) -> None:
    """Before a wait for ``helper``: the ``when_waiting`` call, once, if it still runs."""
    if _on_wait and helper.poll() is None:
        _on_wait.pop()()


def _listed(name: str) -> list:
    """``[(kernel, argument types, or the function that gives them), ...]`` for ``name``, in
    call order, as ``KERNELS`` lists them."""
    found = []
    for module, kernel, types in _declared(name):
        mod = importlib.import_module(module)
        found.append((getattr(mod, kernel), getattr(mod, types)))
    return found


def kernels_named(name: str) -> list:
    """``[(kernel, argument types or None), ...]`` for ``name``, in call order: the types of
    a kernel whose types a function gives are None (that function may compile; see
    ``kernels_of``)."""
    return [(kernel, None if callable(types) else tuple(types))
            for kernel, types in _listed(name)]


def kernels_of(name: str) -> list:
    """``[(kernel, argument types), ...]`` for ``name``, in call order (a function giving the
    types is called: it may compile, or load, the kernel whose return type they hold)."""
    return [(kernel, types() if callable(types) else types) for kernel, types in _listed(name)]


def _named_signatures(kernel) -> set:
    """The argument types ``KERNELS`` names for ``kernel`` (those a function gives left out)."""
    return {types for name in KERNELS for k, types in kernels_named(name)
            if k is kernel and types is not None}


def is_cached(dispatcher, types=None) -> bool:
    """Whether numba's cache holds this kernel for ``types`` (True when it cannot tell).

    ``types`` None: for some argument types other than those ``KERNELS`` names for it
    (the types a function gives, such as the checked search's, which cannot be named
    without compiling). The cache's index is read: its file alone says only that some
    types are there (``search`` without its checks, but not with them)."""
    try:
        index = dispatcher._cache._cache_file._load_index()
    except AttributeError:                     # numba's internals moved: do nothing ahead
        return True
    except Exception:                          # an unreadable index: numba compiles anew
        return False
    return _holds({key[0] for key in index}, dispatcher, types)


def _holds(signatures, kernel, types) -> bool:
    """Whether ``signatures`` (argument types) hold ``types``, or with ``types`` None, some
    other than those ``KERNELS`` names for ``kernel``."""
    if types is not None:
        return tuple(types) in signatures
    return bool(set(signatures) - _named_signatures(kernel))


def start(*names: str) -> None:
    """Start a helper compiling each named kernel that is not in the cache yet, and first
    one for each group it comes ``AFTER`` that is neither cached nor compiling: its helper
    waits for those to be cached (``main``'s ``--after``), then loads them instead of
    compiling their kernels again beside them (two helpers on two cores compiling the
    same callees took twice as long)."""
    for name in names:
        if name in _helpers or cached(name):
            continue
        after = tuple(dep for dep in AFTER.get(name, ()) if not cached(dep))
        start(*after)
        try:
            _helpers[name] = _helper(name, background=True,
                                     after=tuple(dep for dep in after if dep in _helpers))
            _owner[name] = os.getpid()
        except OSError:                        # no interpreter to start: compile here
            continue
        if len(_helpers) == 1:
            atexit.register(stop_all)


def _helper(*names: str, background: bool = False, after: tuple = ()) -> subprocess.Popen:
    """A helper process compiling ``names``, once the groups ``after`` are cached (or their
    helpers, of this process, have ended); on Linux it dies with this process. A
    ``background`` one (started for a call, while the essay may answer it) runs at a lower
    priority (``BACKGROUND_NICE``), so that on a busy machine the essay's answer comes
    first."""
    imports = sorted({f"--import={DECLARED_IN[name]}" for name in names + after
                      if name in DECLARED_IN})
    return subprocess.Popen([sys.executable, "-m", "kakuro_np.engine.core.ahead", *imports,
                             *(f"--after={dep}:{_helpers[dep].pid}" for dep in after), *names],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL,
                            preexec_fn=_in_background if background else _die_with_parent)


def _in_background() -> None:
    """In a background helper before it starts: a lower priority, and death with its parent."""
    try:
        os.nice(BACKGROUND_NICE)
    except (OSError, AttributeError):
        pass
    _die_with_parent()


def _die_with_parent() -> None:
    """In a helper before it starts: the kernel kills it when its parent dies (Linux)."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)          # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


def cached(name: str) -> bool:
    """Whether every kernel of ``name`` is in the cache, or compiled in this process; once
    true it is remembered for the process (``_CACHED``), so a warm call asks nothing."""
    if name in _CACHED:
        return True
    found = all(_holds(kernel.overloads, kernel, types) or is_cached(kernel, types)
                for kernel, types in kernels_named(name))
    if found:
        _CACHED.add(name)
    return found


def all_cached(names) -> bool:
    """Whether every kernel of each of ``names`` is in the cache (``cached``): once they are,
    a set's look-up."""
    return _CACHED.issuperset(names) or all(cached(name) for name in names)


def ready(names, deadline: int = NO_DEADLINE) -> None:
    """Have the kernels of ``names`` compiled by ``deadline`` (monotonic ns), else raise
    SolveTimeout (see the glossary); without a deadline, only ``wait`` for each. Once they
    are known to be in the cache, or no helper runs and there is no deadline, it returns at
    once. The one call a kernel's Python caller makes before it calls the kernels."""
    if _CACHED.issuperset(names) or (deadline == NO_DEADLINE and not _helpers):
        return
    from ...errors import SolveTimeout
    if deadline == NO_DEADLINE:
        for name in names:
            wait(name)
        return
    missing = [name for name in names if name in _helpers or not cached(name)]
    start(*missing)
    for name in missing:
        helper = _helpers.get(name)
        if helper is None:                     # cached meanwhile, or no helper could start
            continue
        if not _join(name, helper, max(0.0, (deadline - time.monotonic_ns()) / 1e9)):
            raise SolveTimeout("timed out while compiling the solver's kernels (a first run "
                               "compiles them once; `kakuro-np compile` does it ahead)")
        _helpers.pop(name, None)


def wait(name: str) -> None:
    """Wait for the helper compiling ``name``, if one was started (see the glossary)."""
    helper = _helpers.pop(name, None)
    if helper is None:
        return
    _waiting(helper)
    if not _join(name, helper, WAIT_S) and _owner.get(name) == os.getpid():
        helper.kill()
        helper.wait()


def compiling(name: str) -> bool:
    """Whether a helper is compiling ``name`` now (then a caller with other work may do that
    first: a count up to a limit hunts while the count compiles)."""
    helper = _helpers.get(name)
    return helper is not None and not _join(name, helper, 0.0)


def _join(name: str, helper, seconds: float) -> bool:
    """Wait up to ``seconds`` for the helper compiling ``name``: True once it has ended.

    A helper another process started (this one was forked after, as a batch's workers
    are) is not this process's child: it has ended when the cache holds its kernels or
    it no longer runs."""
    if _owner.get(name) == os.getpid():
        try:
            helper.wait(timeout=seconds)
            return True
        except subprocess.TimeoutExpired:
            return False
    end = time.monotonic() + seconds
    while not cached(name) and _running(helper.pid):
        if time.monotonic() >= end:
            return False
        time.sleep(0.05)
    return True


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (not ended, nor a zombie waiting for its parent)."""
    if os.path.exists("/proc/self"):
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
        except OSError:                         # no entry: gone
            return False
    try:                                        # no /proc: ask the kernel
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:                             # not ours to signal, but there
        pass
    return True


def stop_all() -> None:
    """Kill the helpers this process started that still run (at exit, or when a run stops
    early); those of the process it was forked from are theirs to stop."""
    while _helpers:
        name, helper = _helpers.popitem()
        if _owner.pop(name, None) == os.getpid() and helper.poll() is None:
            helper.kill()
            helper.wait()


def compile_all(jobs: int = 2, said=None) -> float:
    """Compile every kernel of ``KERNELS`` not yet in the cache (the engine's groups, and
    those of the modules above it imported so far), ``jobs`` helpers at once;
    ``said(name, seconds, done, total)`` after each. Returns the seconds it took.

    Raises RuntimeError naming the kernels whose helper failed.
    """
    started = time.monotonic()
    _import_engine()                           # the engine's groups, all declared
    todo = [name for name in KERNELS if not cached(name)]
    total, done, failed, running = len(todo), 0, [], {}
    while todo or running:
        while len(running) < max(1, jobs):
            free = [name for name in todo            # what it calls is compiled already
                    if not any(n in todo or n in running for n in AFTER.get(name, ()))]
            if not free:
                break
            todo.remove(free[0])
            running[free[0]] = (_helper(free[0]), time.monotonic())
        time.sleep(0.05)
        for name, (helper, since) in list(running.items()):
            if helper.poll() is not None:
                del running[name]
                done += 1
                if helper.returncode != 0:
                    failed.append(name)
                if said is not None:
                    said(name, time.monotonic() - since, done, total)
    if failed:
        raise RuntimeError(f"compiling {', '.join(failed)} failed")
    return time.monotonic() - started


def main(argv=None) -> int:
    """The helper: compile the named kernels for their types (numba saves them in the cache),
    after importing each module named by ``--import=MODULE`` (where they are declared), and
    once each group named by ``--after=NAME:PID`` is in the cache or its helper, process
    PID, has ended (at most WAIT_S seconds)."""
    args = sys.argv[1:] if argv is None else argv
    for arg in args:
        if arg.startswith("--import=kakuro_np."):           # the package's own modules only
            importlib.import_module(arg.split("=", 1)[1])
    # run as ``-m``, this file is ``__main__``: the modules declared their groups in the
    # package's own ``ahead``
    registry = importlib.import_module("kakuro_np.engine.core.ahead")
    after = [arg.split("=", 1)[1].rsplit(":", 1) for arg in args if arg.startswith("--after=")]
    end = time.monotonic() + WAIT_S
    while time.monotonic() < end and any(not registry.cached(name) and _running(int(pid))
                                         for name, pid in after):
        time.sleep(0.1)
    for name in (arg for arg in args if not arg.startswith("--")):
        for kernel, types in registry.kernels_of(name):
            kernel.compile(types)
    return 0


if __name__ == "__main__":
    sys.exit(main())
