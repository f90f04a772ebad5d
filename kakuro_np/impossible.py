"""Why a well-formed puzzle has no solution, in words.

Glossary
--------
static reason : a run that cannot be filled whatever its neighbours do: no set
                of distinct digits makes its clue, or its given digits clash
                or leave a rest no other digits make.
culprit       : the entry whose candidates (or table) the kernels emptied
                first, when no run is impossible on its own.
"""

from __future__ import annotations

import numpy as np

from .combos import kc
from .engine.build.entries import describe_entry


def static_reason(puzzle, packed, k) -> str:
    """Why entry ``k`` cannot be filled on its own, or ``""``.

    Examples
    --------
    >>> from kakuro_np import Puzzle
    >>> from kakuro_np.engine.build.entries import packed_entries
    >>> p = Puzzle.from_rows([["x", (3, 0), (4, 0)], [(0, 45), "_", "_"]])
    >>> static_reason(p, packed_entries(p), 0)
    'no 2 different digits add up to 45 (2 cells make 3 to 17)'
    """
    cells = packed.ent_cell[packed.ent_off[k]:packed.ent_off[k + 1]]
    total, n = int(packed.ent_sum[k]), len(cells)
    combos = kc(total, n)
    if not len(combos):
        if n == 1:
            return f"one cell cannot hold {total}"
        low, high = n * (n + 1) // 2, sum(range(10 - n, 10))
        return f"no {n} different digits add up to {total} ({n} cells make {low} to {high})"
    given = puzzle.given.ravel()[cells]
    given = given[given > 0]
    seen = set()
    for d in given.tolist():
        if d in seen:
            return f"the digit {d} is given twice"
        seen.add(d)
    if given.size and not any(seen <= set(row) for row in combos.tolist()):
        rest, left = total - int(given.sum()), n - given.size
        if left == 0:
            return f"the given digits add up to {int(given.sum())}, not {total}"
        givens = ", ".join(map(str, sorted(seen)))
        if left == 1:
            others = "the other cell, which no other digit makes"
        else:
            others = f"the other {left} cells, which no {left} other different digits make"
        verb = "leaves" if len(seen) == 1 else "leave"
        return f"the given {givens} {verb} {rest} for {others}"
    return ""


def why_impossible(puzzle, packed, culprit: int) -> str:
    """A sentence naming an entry that cannot be filled and why.

    Runs impossible on their own come first, in entry order; otherwise the
    ``culprit`` entry (-1 if the forced moves found none) is named as ruled
    out by the runs crossing it.

    Examples
    --------
    >>> from kakuro_np import Puzzle
    >>> from kakuro_np.engine.build.entries import packed_entries
    >>> p = Puzzle.from_rows([["x", (3, 0), (4, 0)], [(0, 2), "_", "_"]])
    >>> why_impossible(p, packed_entries(p), 0)
    'the across 2 at (1, 0) over 2 cells: no 2 different digits add up to 2 (2 cells make 3 to 17)'
    """
    for k in range(len(packed.ent_sum)):
        reason = static_reason(puzzle, packed, k)
        if reason:
            return f"{describe_entry(puzzle, packed, k)}: {reason}"
    if 0 <= culprit < len(packed.ent_sum):
        return (f"{describe_entry(puzzle, packed, culprit)}: no way to fill it fits "
                f"the runs that cross it")
    if np.any(puzzle.given):
        return "the given digits leave no way to fill the grid"
    return "every way to go on from the forced moves fails"
