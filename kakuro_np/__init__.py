"""kakuro_np: Kakuro (cross sums) solved the array way, after the J essay "Essays/Kakuro".

The data flow, one module per stage::

    text ──formats──▶ Puzzle ──entries──▶ (cells, sums) ──jposs──▶ tables
         ──force──▶ reduced tables ──solve──▶ solutions (n, H, W)

Above the solver: ``explain`` and ``hint`` (the solve by logic as steps a person
takes, from ``techniques``), ``grade``, ``check`` (a player's digits against
every solution) and ``stats`` (the search-space figures of Davies et al.).

Examples
--------
>>> import kakuro_np as kn
>>> p = kn.parse("x ; 4 0 ; 3 0\\n0 3 ; _ ; _\\n0 4 ; _ ; _")
>>> kn.kakuro(p).shape, kn.count(p), kn.reduce(p).status
((1, 3, 3), 1, 'solved')
>>> kn.kc(18, 4).shape
(11, 4)

Each public name is imported on first use (PEP 562), so ``import kakuro_np`` is
light: the command line's ``--help`` and ``kc`` never load numba.
"""

from __future__ import annotations

import os as _os
import signal as _signal
import sys


def _interrupted_early(signum=None, frame=None):
    """Ctrl-C before the command line's own handler is set (``cli.main``): its one line."""
    _os.write(2, b"kakuro-np: interrupted\n")
    _os._exit(130)


# Run as the command (the kakuro-np script, or python -m kakuro_np while it is being found),
# Ctrl-C is one line from the first statement of the package on, not a traceback of an import.
if sys.argv[:1] == ["-m"] or _os.path.basename(sys.argv[0] if sys.argv else "") == "kakuro-np":
    _signal.signal(_signal.SIGINT, _interrupted_early)

import importlib  # noqa: E402  (after the handler: an import may take a while on a busy machine)
import importlib.util  # noqa: E402
import types  # noqa: E402
from typing import TYPE_CHECKING  # noqa: E402

if TYPE_CHECKING:  # for type checkers and editors; at run time each name loads on first use
    from .checking import CheckResult, check
    from .combos import kc
    from .engine.build.entries import entries
    from .errors import BudgetError, PuzzleError, SolveTimeout, TooManySolutions
    from .explanation import Explanation, Step, explain, hint
    from .engine.force import force
    from .formats import as_puzzle, detect, format, parse, parse_all, read, read_all
    from .batch import Result, solve_many
    from .generator import differences, generate
    from .grading import Grade, grade
    from .engine.build.jposs import jposs
    from .puzzle import Puzzle
    from .render import boxed
    from .solve import Reduction, count, kakuro, reduce
    from .search_space import stats
    from .drawing import svg
    from .printing import book

#: The module each public name comes from: ``kakuro_np.<module>.<name>``.
_HOME = {
    "CheckResult": "checking", "check": "checking", "kc": "combos", "entries": "engine.build.entries",
    "BudgetError": "errors", "PuzzleError": "errors", "SolveTimeout": "errors",
    "TooManySolutions": "errors", "Explanation": "explanation", "Step": "explanation",
    "explain": "explanation", "hint": "explanation", "force": "engine.force", "as_puzzle": "formats",
    "detect": "formats", "format": "formats", "parse": "formats", "read": "formats",
    "read_all": "formats", "parse_all": "formats",
    "Grade": "grading", "grade": "grading", "jposs": "engine.build.jposs", "Puzzle": "puzzle", "boxed": "render",
    "Reduction": "solve", "count": "solve", "kakuro": "solve", "reduce": "solve",
    "stats": "search_space", "generate": "generator", "differences": "generator",
    "solve_many": "batch", "Result": "batch", "svg": "drawing", "book": "printing",
}
#: Stages that take a Puzzle, offered here taking text, a path or rows too.
_TAKING_TEXT = {"entries"}

__all__ = [
    "Puzzle", "PuzzleError", "TooManySolutions", "BudgetError", "SolveTimeout", "Reduction",
    "read", "parse", "read_all", "parse_all", "format", "detect", "as_puzzle",
    "entries", "jposs", "force", "kakuro", "count", "reduce", "kc", "boxed", "svg",
    "explain", "hint", "grade", "check", "stats", "Step", "Explanation", "Grade", "CheckResult",
    "generate", "differences", "solve_many", "Result", "book",
]
__version__ = "0.1.0"


def __getattr__(name):
    """A public name, or a submodule, imported on first use (PEP 562)."""
    home = _HOME.get(name)
    if home is None:
        if not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}"):
            return importlib.import_module(f"{__name__}.{name}")
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    if name in _TAKING_TEXT:
        value = importlib.import_module(f"{__name__}.formats").taking_text(value)
        value.__module__ = __name__             # kakuro_np.entries, as pickle finds it
    globals()[name] = value
    return value


def __dir__():
    """The public names, the version and the submodules loaded (not the helpers of this
    file: ``importlib``, ``sys``, ``types``, ``TYPE_CHECKING``)."""
    modules = {name for name, value in globals().items()
               if isinstance(value, types.ModuleType) and value.__name__.startswith(__name__ + ".")}
    return sorted(set(__all__) | modules | {"__version__", "__doc__", "__name__", "__file__"})
