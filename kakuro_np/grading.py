"""How hard a puzzle is for a person: a score and a label from the techniques it needs.

The score runs from 0 to 100 in bands of ten, one band per level of the
hardest technique the solve by logic needs (``explain``); within a band it
rises with how often the harder techniques are needed. Above the ladder of
one-run techniques come region sums and x-wings (level 7) and chains (level 8), where the
score rises with the chains' links, in the spirit of the W rating (the longer
the chains a solve needs, the harder it is). A puzzle that logic alone cannot
finish needs fan-out (guessing): its score starts at 90 and rises with the
number of fan-outs.

A grade claims only what it proved: where the fan-out count stops short (``complete``
False) with fewer than two solutions found, the solver counts them up to two, so that
``solutions`` and ``unique`` say what ``check`` says.

Glossary
--------
level    : how hard a technique is, 0 to 8 (``LEVELS``); fan-out is level 9.
effort   : the steps weighed by level, ``WEIGHTS[level]`` each (trivial steps weigh 0);
           where chains are the hardest, the chains' links in all.
fan-out  : a branch point of the essay's search from the fixpoint of ``force``:
           the table with the fewest live rows above one is split row by row.
label    : easy (levels 0-1), medium (2-3), hard (4-5), expert (6-8, or any fan-out).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .engine.core import ahead
from .engine.core.codes import OK, TIMED_OUT
from .engine.core.jit import NO_DEADLINE, deadline_ns, kernel
from .engine.search import walk_fanouts
from .explanation import logic_summary
from .puzzle import PuzzleLike
from .techniques import NAMES

#: The level of each technique of the ladder.
LEVELS = {"no repeats": 0, "lone square": 0, "unique combination": 1, "cross reference": 1,
          "bounds": 2, "complement": 2, "required digit": 3, "naked pair": 3, "hidden pair": 3,
          "naked triple": 4, "hidden triple": 4, "combination elimination": 4,
          "combination placement": 5, "joint possibilities": 6, "region sum": 7, "x-wing": 7,
          "chain": 8}
CHAIN_LEVEL, FANOUT_LEVEL = 8, 9
#: What one step of each level adds to the effort.
WEIGHTS = (0, 0.25, 1, 2, 4, 8, 16, 32)
#: The effort (and the chains' links, and the fan-outs) at which the score is halfway
#: up its band.
HALF_EFFORT, HALF_LINKS, HALF_FANOUTS = 32, 32, 8
#: The labels, each for two levels from 0 (fan-out counts as expert).
LABELS = ("easy", "medium", "hard", "expert")
#: Each technique's level and weight, in the ladder's order (``techniques.NAMES``; the
#: generator's kernels weigh these alone).
TECHNIQUE_LEVEL = np.array([LEVELS[name] for name in NAMES], np.int64)
TECHNIQUE_WEIGHT = np.array(WEIGHTS, np.float64)[TECHNIQUE_LEVEL]
#: Each label's band of scores, ``[low, high)``.
BANDS = {"easy": (0.0, 20.0), "medium": (20.0, 40.0), "hard": (40.0, 60.0), "expert": (60.0, 100.1)}
#: The techniques (a prefix of the ladder) whose levels each label allows.
LABEL_TOP = {label: int(np.sum(TECHNIQUE_LEVEL < 2 * (i + 1))) if i < len(LABELS) - 1
             else len(NAMES) for i, label in enumerate(LABELS)}
#: The most fan-outs counted; past them the count stops (and the score is near 100).
MAX_FANOUTS = 1000
#: Table rows the fan-out count may sweep in all (each fan-out sweeps every row once):
#: on a grid with very many rows it stops after FANOUT_WORK // rows fan-outs (at least 10).
FANOUT_WORK = 20_000_000


class Grade(NamedTuple):
    """A puzzle's difficulty.

    score      : 0-100 (see the module's docstring).
    label      : "easy", "medium", "hard" or "expert".
    fanouts    : fan-outs the solve needs after logic (0 when logic alone solves it),
                 at most MAX_FANOUTS (fewer on grids with very many table rows, see
                 FANOUT_WORK); with ``complete`` False, those counted before the count
                 stopped (the score is then a lower bound).
    techniques : {technique: how many steps used it}, in the ladder's order.
    hardest    : the hardest technique used, or None.
    status     : where logic alone leads: "solved", "stuck" or "contradiction".
    solutions  : how many solutions the puzzle has: 1 when logic solves it, 0 when it
                 has none, else those the fan-outs found; with ``complete`` False,
                 0 and 1 are counted by the solver (``count(limit=2)``) and 2 or
                 more are "at least".
    chains     : the links of each chain the solve by logic uses, in order.
    complete   : whether the fan-out count walked the whole tree (True without one);
                 False when it stopped at MAX_FANOUTS or at FANOUT_WORK's bound.

    A grade is for a puzzle with one solution (``unique``): printed, the grade of one
    with none says so instead, and one with several says how many.
    """
    score: float
    label: str
    fanouts: int
    techniques: dict
    hardest: object
    status: str
    solutions: int
    chains: tuple = ()
    complete: bool = True

    @property
    def unique(self) -> bool:
        """Whether the puzzle has exactly one solution (False when it has none or several)."""
        return self.solutions == 1

    def __str__(self):
        if self.solutions == 0:
            return "no solution, so no grade"
        used = ", ".join(f"{name} x{n}" for name, n in self.techniques.items() if LEVELS[name] >= 2)
        if self.chains:
            used += f", longest chain {max(self.chains)} links"
        return (f"{self.label} (score {self.score:.1f}): hardest {self.hardest or 'none'}"
                f"{' (' + used + ')' if used else ''}{self._fanouts_said()}")

    def _fanouts_said(self) -> str:
        """The fan-outs and, for several solutions, how many: ``"; 46 fan-outs; not unique:
        40 solutions"``, or where the count stopped short, ``"; search stopped after 10
        fan-outs; not unique: 2 solutions or more"``."""
        n = f"{self.fanouts:,} fan-out{'s' if self.fanouts != 1 else ''}"
        said = f"; {n}" if self.complete else f"; search stopped after {n}"
        said = said if self.fanouts or not self.complete else ""
        if self.solutions > 1:
            said += (f"; not unique: {self.solutions:,} solutions"
                     f"{'' if self.complete else ' or more'}")
        return said


def grade(grid: PuzzleLike, *, timeout: float | None = None) -> Grade:
    """The difficulty of a puzzle, from the techniques its solve by logic needs.

    Parameters
    ----------
    grid : Puzzle, text, path or rows
    timeout : float, optional
        Seconds from the call: ``SolveTimeout`` once they pass (the solve by logic, the
        tables' build, the fan-out count and the solver's count each look at the clock
        as they go).

    Returns
    -------
    Grade

    Examples
    --------
    >>> g = grade([["x", (4, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]])
    >>> g.label, g.score, g.fanouts, g.hardest
    ('easy', 10.1, 0, 'unique combination')
    >>> g.techniques
    {'no repeats': 4, 'lone square': 1, 'unique combination': 2}
    """
    from .checking import _left
    from .formats import as_puzzle
    deadline = deadline_ns(timeout)
    puzzle = as_puzzle(grid)
    status, techniques, chains = logic_summary(puzzle, deadline=deadline)
    _left(deadline, "grading")
    hardest = max(techniques, key=LEVELS.get, default=None)
    level = LEVELS[hardest] if hardest else 0
    effort = (sum(chains) if level == CHAIN_LEVEL else
              sum(WEIGHTS[LEVELS[name]] * n for name, n in techniques.items()))
    fanouts, solutions, complete = 0, int(status == "solved"), True
    if status == "stuck":
        fanouts, solutions, complete = count_fanouts(puzzle, MAX_FANOUTS, deadline)
        if not complete and solutions < 2:
            solutions = counted_solutions(puzzle, deadline)
    if fanouts:
        score = 10 * FANOUT_LEVEL + 9.9 * (1 - 2 ** (-fanouts / HALF_FANOUTS))
        label = LABELS[-1]
    else:
        score = logic_score(level, effort)
        label = LABELS[min(level // 2, len(LABELS) - 1)]
    return Grade(round(score, 1), label, fanouts, techniques, hardest, status, solutions,
                 tuple(chains), complete)


@kernel
def logic_score(level, effort):
    """The score of a solve by logic alone whose hardest technique has ``level``, with
    ``effort`` (the steps weighed by level, or with chains the links): ``10 * level`` and
    up to 9.9 more."""
    half = HALF_LINKS if level == CHAIN_LEVEL else HALF_EFFORT
    return 10.0 * level + 9.9 * (1.0 - 2.0 ** (-effort / half))


def count_fanouts(puzzle, most=MAX_FANOUTS, deadline=NO_DEADLINE) -> tuple:
    """``(fanouts, solutions, complete)`` of the essay's fan-out from the fixpoint of
    ``force``: ``complete`` when the count walked the whole tree (both exact), False when
    it stopped after ``most`` fan-outs, or after FANOUT_WORK table rows swept in all.

    Depth first, rows in lexicographic order, as ``kakuro`` goes; SolveTimeout once
    ``deadline`` (monotonic ns) has passed.

    Examples
    --------
    >>> count_fanouts([["x", (3, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 3), "_", "_"]])
    (1, 2, True)
    """
    from .checking import _left
    from .solve import model
    m = model(puzzle, deadline=deadline)
    if m.status != OK:                          # the tables' build proved there is none
        return 0, 0, True
    most = min(most, max(10, FANOUT_WORK // max(1, len(m.rows))))
    ahead.ready(("fanouts",))
    fanouts, solutions, status = walk_fanouts(m.root(), np.int64(most), np.int64(deadline))
    if status == TIMED_OUT:
        _left(deadline, "grading")              # the walk stops early only past the deadline
    return int(fanouts), int(solutions), bool(status == OK)


def counted_solutions(puzzle, deadline=NO_DEADLINE) -> int:
    """The solutions of ``puzzle`` counted up to 2 (``count(limit=2)``, what ``check``
    counts first); past ``deadline`` (monotonic ns), SolveTimeout saying it was grading."""
    from .checking import _left
    from .errors import SolveTimeout
    from .solve import count
    try:
        return int(count(puzzle, limit=2, timeout=_left(deadline, "grading")))
    except SolveTimeout:
        raise SolveTimeout("timed out while grading") from None
