"""Search-space figures of a puzzle, after Davies et al. (Lemmas 1-5).

Glossary
--------
w            : the number of white (blank) cells.
U1           : ``9 ** w``, every cell any digit (Lemma 3).
C_across, C_down : a cell's candidate set from one run: the union of the digits
               of every combination of the run's length adding to its clue
               (``{1..9}`` where no clued run passes the cell that way).
U2           : the product over white cells of ``|C_across & C_down|`` (Lemma 5),
               a given digit counting 1 if it lies in both sets, else 0.
after_forced : the product over white cells of the candidates left by forced
               moves (``solve.reduce``), 0 on a contradiction.
COMBINATIONS : ``COMBINATIONS[length, total]``, the unordered ways to make
               ``total`` from ``length`` distinct digits 1-9 (Lemma 1); times
               ``length!`` it is the ordered ways (Lemma 2).

U1 >= U2 >= after_forced >= the number of solutions.
"""

from __future__ import annotations

import math

import numpy as np

from .combos import ALL_DIGITS, COMBO_BITS, COMBO_OFF, MAX_TOTAL, POPCOUNT
from .engine.build.entries import packed_entries
from .puzzle import PuzzleLike


def _generating_function() -> np.ndarray:
    """Coefficients of prod_{i=1..9} (1 + a y^i): row = power of a, column = power of y."""
    coef = np.zeros((10, MAX_TOTAL + 1), np.int64)
    coef[0, 0] = 1
    for i in range(1, 10):                      # multiply by (1 + a y^i)
        shifted = np.zeros_like(coef)
        shifted[1:, i:] = coef[:-1, :-i]        # a y^i times the product so far
        coef += shifted
    return coef


#: (10, 46) int64: COMBINATIONS[length, total] from Lemma 1's generating function.
COMBINATIONS = _generating_function()
#: FACTORIAL[n] = n! for n = 0-9 (Lemma 2).
FACTORIAL = np.cumprod(np.r_[1, np.arange(1, 10)]).astype(np.int64)


def _union(total: int, length: int) -> int:
    """The digit set holding every digit of every combination of ``length`` adding to ``total``."""
    k = length * (MAX_TOTAL + 1) + total
    return int(np.bitwise_or.reduce(COMBO_BITS[COMBO_OFF[k]:COMBO_OFF[k + 1]], initial=0))


class Stats(dict):
    """``stats``' figures: a dict (JSON-serialisable) whose keys read as attributes too.

    >>> Stats(U1=9).U1
    9
    """

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"no figure {name!r}; the figures: {', '.join(self)}") from None


def stats(grid: PuzzleLike, *, timeout: float | None = None) -> Stats:
    """The search-space figures of Davies et al. for a puzzle.

    Parameters
    ----------
    grid : Puzzle, text, path or rows
    timeout : float, optional
        Seconds from the call; past them SolveTimeout is raised (the forced moves of
        ``after_forced`` get the time left; the other figures take time linear in the grid).

    Returns
    -------
    Stats, a dict of plain Python values (JSON-serialisable), its keys attributes too
        (``s.U1`` is ``s["U1"]``): ``white_cells`` (int), ``U1`` and ``U2`` (exact ints), ``log10_U1``
        (float), ``log10_U2`` (float, or None when U2 is 0), ``entries`` (int),
        and per entry in the essay's order ``lengths``, ``sums``,
        ``combinations`` and ``permutations`` (lists of int), then
        ``after_forced`` (exact int). U2 is 0 when some cell's two candidate
        sets do not meet (or a given digit lies outside them): no arrangement
        exists; ``after_forced`` is 0 when forced moves reach a contradiction.

    Examples
    --------
    The paper's two runs: 16 in 2 cells, and 20 in 4 cells.

    >>> s = stats([[(0, 16), "_", "_"]])
    >>> s["combinations"], s["permutations"], s["U2"]
    ([1], [2], 4)
    >>> s = stats([[(0, 20), "_", "_", "_", "_"]])
    >>> s["combinations"], s["permutations"]
    ([12], [288])
    >>> s = stats([["x", (4, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]])
    >>> s["white_cells"], s["U1"], s["U2"], s["after_forced"], s["sums"]
    (4, 6561, 4, 1, [3, 4, 4, 3])
    """
    from .checking import _left
    from .engine.core.jit import deadline_ns
    from .formats import as_puzzle
    from .solve import reduce
    deadline = deadline_ns(timeout)
    puzzle = as_puzzle(grid)
    ent_off, ent_cell, ent_sum, n_across = packed_entries(puzzle)
    lengths = np.diff(ent_off)
    combinations = COMBINATIONS[lengths, ent_sum]
    # Each cell's candidate set from its across run and from its down run.
    unions = np.array([_union(t, n) for t, n in zip(ent_sum.tolist(), lengths.tolist())],
                      np.int64)
    per_cell = np.repeat(unions, lengths)       # aligned with ent_cell
    split = ent_off[n_across]
    across = np.full(puzzle.blank.size, ALL_DIGITS, np.int64)
    down = np.full(puzzle.blank.size, ALL_DIGITS, np.int64)
    across[ent_cell[:split]] = per_cell[:split]
    down[ent_cell[split:]] = per_cell[split:]
    given = puzzle.given.ravel().astype(np.int64)
    only = np.where(given > 0, 1 << np.maximum(given - 1, 0), ALL_DIGITS)
    white = puzzle.blank.ravel()
    U2 = math.prod(POPCOUNT[(across & down & only)[white]].tolist())

    r = reduce(puzzle, timeout=_left(deadline, "counting the figures"))
    after = (0 if r.status == "contradiction"
             else math.prod(r.candidates[puzzle.blank].sum(axis=1).tolist()))
    _left(deadline, "counting the figures")
    w = int(white.sum())
    return Stats({
        "white_cells": w,
        "U1": 9 ** w,
        "U2": U2,
        "log10_U1": math.log10(9 ** w),
        "log10_U2": math.log10(U2) if U2 else None,
        "entries": len(ent_sum),
        "lengths": lengths.tolist(),
        "sums": ent_sum.tolist(),
        "combinations": combinations.tolist(),
        "permutations": (combinations * FACTORIAL[lengths]).tolist(),
        "after_forced": after,
    })
