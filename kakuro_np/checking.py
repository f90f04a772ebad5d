"""Check a player's digits against every solution, not just one.

The Kakuro-solver thesis (section 5.2, "Future Enhancements") notes that its
*check* compares the player's entries with the one solution its solver found,
so on a puzzle with several solutions a right digit may be called wrong. Here
a digit is wrong only when no solution of the puzzle has it in that cell, and
the player is told how many solutions still agree with every digit entered.

Glossary
--------
given      : (H, W) int8, the player's digits (0 = empty); the puzzle's own
             givens, if any, count as the player's too.
base       : the clue-only puzzle, the same grid with every given removed;
             "the solutions" are always the solutions of ``base``.
wrong      : a given cell whose digit no solution of ``base`` has there.
consistent : a solution of ``base`` that agrees with every given digit, i.e.
             a solution of the puzzle with its givens (``count`` honours them).
ENUM       : how many solutions of ``base`` ``check`` enumerates by default
             (``enum_limit``); if fewer come
             back they are all of them, else each given digit not seen in them
             is asked about on its own.

Decisions
---------
- A ``base`` with no solution at all is reported, not blamed on the digits:
  ``wrong`` is empty, ``consistent`` is 0 and ``solvable`` is False; ``str()``
  says "the puzzle has no solution".
- Any wrong digit means no solution agrees with every digit, so ``consistent``
  is then 0 without a count.
- ``limit=0`` does not count agreeing solutions: ``consistent`` is 0, so
  ``solved`` is False, and ``str()`` leaves the count out. ``limit=None``
  counts them all (exactly, like ``count``).
- ``timeout`` covers the whole check: each solver call gets the time left, and
  SolveTimeout is raised once none is left.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

import numpy as np

from .errors import SolveTimeout
from .formats import as_puzzle
from .puzzle import PuzzleLike
from .engine.core.jit import NO_DEADLINE, deadline_ns, monotonic_ns
from .solve import count, kakuro
from .turns import as_limit

#: How many solutions of the clue-only puzzle ``check`` enumerates before it
#: falls back to one query per given digit not seen among them (read at call time).
ENUM = 1000


class CheckResult(NamedTuple):
    """What ``check`` found.

    wrong        : list of ``(row, col)``, the given cells whose digit no solution
                   of the clue-only puzzle has there, in row-major order.
    consistent   : int, how many solutions agree with every given digit, at most ``limit``.
    limit        : int or None, the cap on ``consistent`` (None: no cap).
    filled       : int, how many blank cells hold a digit.
    blanks       : int, how many blank cells there are.
    solvable     : bool, False when the clue-only puzzle has no solution at all.
    wrong_digits : list of int, the digit in each cell of ``wrong``.
    """
    wrong: list
    consistent: int
    limit: Optional[int]
    filled: int
    blanks: int
    solvable: bool = True
    wrong_digits: list = ()

    @property
    def complete(self) -> bool:
        """Every blank cell holds a digit."""
        return self.filled == self.blanks

    @property
    def solved(self) -> bool:
        """Every blank cell holds a digit and a solution agrees with them all."""
        return self.complete and self.consistent >= 1

    def __str__(self) -> str:
        if not self.solvable:
            return "the puzzle has no solution"
        if self.solved:
            return "solved"
        if self.wrong:
            n = len(self.wrong)
            cells = [f"({r}, {c})" for r, c in self.wrong]
            if len(self.wrong_digits) == n:
                cells = [f"{cell} {d}" for cell, d in zip(cells, self.wrong_digits)]
            head = f"{n} wrong digit{'s' * (n != 1)}: " + ", ".join(cells)
        else:
            head = f"no wrong digit; {self.filled} of {self.blanks} cells filled"
        if self.limit == 0:
            return head
        if self.consistent == 0:
            return head + "; no solution agrees with every digit"
        n = self.consistent
        more = " or more" if self.limit is not None and n >= self.limit else ""
        verb = "agrees" if n == 1 and not more else "agree"
        return head + f"; {n}{more} solution{'s' * (n != 1 or bool(more))} {verb}"


def _left(deadline: int, doing: str = "checking the digits"):
    """Seconds until ``deadline`` (None: no deadline); SolveTimeout once it has passed,
    saying it timed out while ``doing``."""
    if deadline == NO_DEADLINE:
        return None
    left = deadline - monotonic_ns()
    if left <= 0:
        raise SolveTimeout(f"timed out while {doing}")
    return left / 1e9


def check(grid: PuzzleLike, *, limit: int = 1000, timeout: float | None = None,
          enum_limit: int = ENUM) -> CheckResult:
    """Check the given digits (a player's entries) against every solution.

    A given digit is wrong when no solution of the clue-only puzzle has it in
    that cell; ``consistent`` counts the solutions that agree with every
    given digit at once (up to ``limit``). Up to ``enum_limit`` solutions of
    the clue-only puzzle are enumerated; if there are more, each given digit
    not seen among them is asked about with ``count(..., limit=1)``.

    Parameters
    ----------
    grid : Puzzle, text, path or rows
        The puzzle with the player's digits as its givens.
    limit : int or None
        The most agreeing solutions to count (None: all; 0: do not count).
    timeout : float, optional
        Seconds for the whole check; past them SolveTimeout is raised.
    enum_limit : int
        How many solutions of the clue-only puzzle to enumerate (ENUM) before
        asking about each digit instead; the answer is the same either way.

    Returns
    -------
    CheckResult
        ``wrong`` cells, the ``consistent`` count, and how many cells are filled.

    Examples
    --------
    Two solutions, 12/21 and 21/12; a digit from each agrees with no solution,
    yet neither digit is wrong:

    >>> rows = [["x", (3, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 3), "_", "_"]]
    >>> r = check([["x", (3, 0), (3, 0)], [(0, 3), 2, "_"], [(0, 3), 2, "_"]])
    >>> r.wrong, r.consistent
    ([], 0)
    >>> print(r)
    no wrong digit; 2 of 4 cells filled; no solution agrees with every digit
    >>> print(check([["x", (3, 0), (3, 0)], [(0, 3), 1, "_"], [(0, 3), "_", 3]]))
    1 wrong digit: (2, 2) 3; no solution agrees with every digit
    >>> print(check(rows))
    no wrong digit; 0 of 4 cells filled; 2 solutions agree
    >>> check([["x", (3, 0), (3, 0)], [(0, 3), 1, 2], [(0, 3), 2, 1]]).solved
    True
    >>> print(check([["x", (3, 0), (4, 0)], [(0, 30), "_", 1]]))
    the puzzle has no solution
    """
    deadline = deadline_ns(timeout)
    cap = as_limit(limit)
    puzzle = as_puzzle(grid)
    given = puzzle.given
    base = puzzle.with_given(np.zeros_like(given))
    rows, cols = np.nonzero(given)                    # the given cells, row-major
    digits = given[rows, cols]
    filled, blanks = int(rows.size), int(puzzle.blank.sum())

    enum = max(as_limit(enum_limit), 1)
    sols = kakuro(base, limit=enum, timeout=_left(deadline))
    every = len(sols) < enum                          # all the solutions of base
    if every and len(sols) == 0:
        return CheckResult([], 0, limit, filled, blanks, solvable=False, wrong_digits=[])
    agree = sols[:, rows, cols] == digits             # (n, filled): solution s has digit g
    wrong = ~agree.any(axis=0)
    if not every:                                     # ask about each digit not seen
        for g in np.flatnonzero(wrong):
            one = np.zeros_like(given)
            one[rows[g], cols[g]] = digits[g]
            wrong[g] = count(base.with_given(one), limit=1, timeout=_left(deadline)) == 0

    if wrong.any() or cap == 0:
        consistent = 0
    elif every:
        consistent = min(int(agree.all(axis=1).sum()), cap)
    else:
        consistent = count(puzzle, limit=limit, timeout=_left(deadline))
    return CheckResult([(int(r), int(c)) for r, c in zip(rows[wrong], cols[wrong])],
                       int(consistent), limit, filled, blanks, solvable=True,
                       wrong_digits=[int(d) for d in digits[wrong]])
