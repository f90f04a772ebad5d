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
"""

from .check import CheckResult, check
from .combos import kc
from .entries import entries
from .errors import BudgetError, PuzzleError, SolveTimeout, TooManySolutions
from .explain import Explanation, Step, explain, hint
from .force import force
from .formats import as_puzzle, detect, format, parse, read
from .grade import Grade, grade
from .jposs import jposs
from .puzzle import Puzzle
from .render import boxed
from .solve import Reduction, count, kakuro, reduce
from .stats import stats

__all__ = [
    "Puzzle", "PuzzleError", "TooManySolutions", "BudgetError", "SolveTimeout", "Reduction",
    "read", "parse", "format", "detect", "as_puzzle",
    "entries", "jposs", "force", "kakuro", "count", "reduce", "kc", "boxed",
    "explain", "hint", "grade", "check", "stats", "Step", "Explanation", "Grade", "CheckResult",
]
__version__ = "0.1.0"
