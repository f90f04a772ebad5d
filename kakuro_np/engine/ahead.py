"""Compile a kernel in a helper process while this one compiles others: the first run, on two cores.

On an empty cache, ``kakuro-np solve`` compiles two trees of kernels one after the
other: the table build (``force.build_forced_tables``) and the search
(``engine.search.search``). The command line starts a helper process that compiles the
search for the types the solver will call it with and saves it in numba's cache,
while the main process builds the tables; just before its first call, the solver
waits for the helper (``wait``), and the call then loads the kernel from the cache.
A search that thrashes does the same on its own (``solve.essay_solutions``): while it
compiles its checks, helpers compile the hunt in any order and clause learning that
may come next (open-10 of bench/open_grids.py, a first ``kakuro(limit=1)`` on an
empty cache: 157 -> 132 s).

Glossary
--------
ahead   : a name in ``KERNELS`` for the kernels one caller needs, in the order
          it calls them: where each lives and the argument types its caller
          passes (the ``*_TYPES`` tuples next to each kernel; a test holds them
          equal to what the callers really pass).
helper  : ``python -m kakuro_np.engine.ahead NAME``, started by ``start(NAME)`` only when
          the kernel's cache index is missing; its output is dropped, and a
          helper that fails costs nothing but the time: the caller compiles.
wait    : block until the helper for NAME ends (at most ``WAIT_S`` seconds, then
          it is killed); a no-op when none was started.

Examples
--------
>>> wait("search")            # nothing started: returns at once
"""

from __future__ import annotations

import atexit
import importlib
import os
import subprocess
import sys

#: name -> ((module, kernel, the module's tuple of argument types, or its function that
#: returns them when they hold a type a kernel returns), ...).
KERNELS = {
    "search": (("kakuro_np.engine.search", "search", "SEARCH_TYPES"),),
    "checks": (("kakuro_np.engine.search", "new_checks", "NEW_CHECKS_TYPES"),
               ("kakuro_np.engine.search", "search", "checked_search_types")),
    "learn": (("kakuro_np.engine.cdcl", "sat_of_root", "SAT_OF_ROOT_TYPES"),
              ("kakuro_np.engine.cdcl", "sat_solutions", "sat_solutions_types")),
    "hunt": (("kakuro_np.engine.anyorder", "find_solutions", "FIND_TYPES"),),
    "any": (("kakuro_np.engine.anyorder", "any_solutions", "ANY_TYPES"),
            ("kakuro_np.engine.counting", "counted_solutions", "SOLUTIONS_TYPES")),
    "count": (("kakuro_np.engine.counting", "count_pieces", "COUNT_TYPES"),),
    "climb": (("kakuro_np.techniques", "climb", "CLIMB_TYPES"),),
    "fanouts": (("kakuro_np.engine.search", "count_fanouts", "FANOUT_TYPES"),),
}
#: The longest wait for a helper before it is killed and the caller compiles alone.
WAIT_S = 300
_helpers: dict[str, subprocess.Popen] = {}


def dispatchers_of(name: str) -> list:
    """The kernels of ``name``: numba dispatchers, in call order."""
    return [getattr(importlib.import_module(module), kernel)
            for module, kernel, _ in KERNELS[name]]


def kernels_of(name: str) -> list:
    """``[(kernel, argument types), ...]`` for ``name``, in call order (a function giving the
    types is called: it may compile, or load, the kernel whose return type they hold)."""
    found = []
    for module, kernel, types in KERNELS[name]:
        mod = importlib.import_module(module)
        types = getattr(mod, types)
        found.append((getattr(mod, kernel), types() if callable(types) else types))
    return found


def is_cached(dispatcher) -> bool:
    """Whether numba's cache has an index for this kernel (True when it cannot tell)."""
    try:
        return os.path.exists(dispatcher._cache._cache_file._index_path)
    except AttributeError:                     # numba's internals moved: do nothing ahead
        return True


def start(*names: str) -> None:
    """Start a helper compiling each named kernel that is not in the cache yet."""
    for name in names:
        if name in _helpers or all(is_cached(kernel) for kernel in dispatchers_of(name)):
            continue
        try:
            _helpers[name] = subprocess.Popen(
                [sys.executable, "-m", "kakuro_np.engine.ahead", name], stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except OSError:                        # no interpreter to start: compile here
            continue
        if len(_helpers) == 1:
            atexit.register(stop_all)


def wait(name: str) -> None:
    """Wait for the helper compiling ``name``, if one was started (see the glossary)."""
    helper = _helpers.pop(name, None)
    if helper is None:
        return
    try:
        helper.wait(timeout=WAIT_S)
    except subprocess.TimeoutExpired:
        helper.kill()
        helper.wait()


def stop_all() -> None:
    """Kill the helpers still running (at exit, or when a run stops early)."""
    while _helpers:
        _, helper = _helpers.popitem()
        if helper.poll() is None:
            helper.kill()
            helper.wait()


def main(argv=None) -> int:
    """The helper: compile the named kernels for their types (numba saves them in the cache)."""
    for name in (sys.argv[1:] if argv is None else argv):
        for kernel, types in kernels_of(name):
            kernel.compile(types)
    return 0


if __name__ == "__main__":
    sys.exit(main())
