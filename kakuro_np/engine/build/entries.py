"""Stage 1, entries: the runs of blank cells as flat cell indices, with their sums.

Glossary
--------
entry : a run of blank cells read from a clue, across or down.
cell  : a flat, row-major cell index ``r * W + c``.
ent_off, ent_cell, ent_sum : the packed form; entry ``k`` holds cells
    ``ent_cell[ent_off[k]:ent_off[k + 1]]`` and must add up to ``ent_sum[k]``.

The order is the essay's: across entries in row-major order of their clue
cells, then down entries in column-major order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numba import types

from ...errors import PuzzleError
from ..core.jit import INT, INTS, kernel
from .jposs import var_entries

if TYPE_CHECKING:                   # for type checkers only: the import graph keeps the engine
    from ...puzzle import Puzzle    # below the Puzzle and its pictures

# Error codes returned by the scan kernel, with the message each stands for.
_ERRORS = {
    1: "a run of {n} blank cells has no across clue to its left",
    2: "a run of {n} blank cells has no down clue above it",
    3: "the across clue {n} has no blank cells to its right",
    4: "the down clue {n} has no blank cells below it",
    5: "an across run of {n} cells is longer than 9, so it cannot hold distinct digits",
    6: "a down run of {n} cells is longer than 9, so it cannot hold distinct digits",
}
#: The code ``model.puzzle_model`` gives a blank cell that no clue covers, either way.
LOOSE_CELL = 7


@kernel
def _scan_runs(blank, sums, transposed, ent_off, ent_cell, ent_sum, n_ent, n_cell):
    """Append the runs of each row of ``blank`` to the packed entries.

    Returns ``(n_ent, n_cell, code, r, c, n)``; ``code`` is 0 or an error code
    (``_ERRORS``) for grid cell ``(r, c)``. ``transposed`` flags that rows are columns.
    """
    H, W = blank.shape
    width = W if not transposed else H
    for i in range(H):
        j = 0
        while j < W:
            if not blank[i, j]:
                if sums[i, j] > 0 and (j + 1 == W or not blank[i, j + 1]):
                    r, c = (j, i) if transposed else (i, j)
                    return n_ent, n_cell, 4 if transposed else 3, r, c, sums[i, j]
                j += 1
                continue
            start = j
            while j < W and blank[i, j]:
                j += 1
            length = j - start
            total = sums[i, start - 1] if start > 0 else 0
            r, c = (start, i) if transposed else (i, start)
            if length > 9:
                return n_ent, n_cell, 6 if transposed else 5, r, c, length
            if total == 0:
                if length >= 2:
                    return n_ent, n_cell, 2 if transposed else 1, r, c, length
                continue  # no entry this way; a cell no clue covers either way is refused
            for jj in range(start, j):
                ent_cell[n_cell] = (jj * width + i) if transposed else (i * width + jj)
                n_cell += 1
            ent_sum[n_ent] = total
            n_ent += 1
            ent_off[n_ent] = n_cell
    return n_ent, n_cell, 0, 0, 0, 0


#: The types ``packed_entries`` calls ``_scan_runs`` with: C-ordered copies of a Puzzle's
#: arrays, the flag and counts as int64 (see ``ahead``).
SCAN_TYPES = (types.boolean[:, ::1], types.int16[:, ::1], INT, INTS, INTS, INTS, INT, INT)


def scan_entries(blank, down, across, scan_runs=_scan_runs):
    """Packed entries of a grid: ``(ent_off, ent_cell, ent_sum, n_across, code, r, c, n)``.

    The across runs, then the down runs (``_scan_runs`` on the transposed grid), each
    pass on C-ordered copies, so that one compile serves both. ``scan_runs`` may be
    ``_scan_runs.py_func``: the same scan, interpreted, compiling nothing (a first run
    checks the runs so while the kernels compile, ``first_run``).
    """
    H, W = blank.shape
    most = 2 * H * W + 1
    ent_off = np.zeros(most, np.int64)
    ent_cell = np.zeros(2 * H * W, np.int64)
    ent_sum = np.zeros(most, np.int64)
    n_ent, n_cell, code, r, c, n = scan_runs(np.array(blank, order="C"),
                                             np.array(across, order="C"), 0, ent_off,
                                             ent_cell, ent_sum, 0, 0)
    n_across = n_ent
    if code == 0:
        n_ent, n_cell, code, r, c, n = scan_runs(np.array(blank.T, order="C"),
                                                 np.array(down.T, order="C"), 1, ent_off,
                                                 ent_cell, ent_sum, n_ent, n_cell)
    return ent_off[:n_ent + 1], ent_cell[:n_cell], ent_sum[:n_ent], n_across, code, r, c, n


class Packed(NamedTuple):
    """A puzzle's entries packed: entry ``k`` is across when ``k < n_across``."""
    ent_off: np.ndarray
    ent_cell: np.ndarray
    ent_sum: np.ndarray
    n_across: int


def packed_entries(puzzle, compiled=True) -> Packed:
    """The packed entries of a Puzzle, raising PuzzleError on a malformed run; unless
    ``compiled``, scanned by the interpreter (see ``scan_entries``)."""
    ent_off, ent_cell, ent_sum, n_across, code, r, c, n = scan_entries(
        puzzle.blank, puzzle.down, puzzle.across,
        _scan_runs if compiled else _scan_runs.py_func)
    if code:
        raise PuzzleError(_ERRORS[code].format(n=n), cell=(int(r), int(c)))
    covered = np.zeros(puzzle.blank.size, np.bool_)
    covered[ent_cell] = True
    loose = np.flatnonzero(puzzle.blank.ravel() & ~covered)
    if len(loose):
        r, c = divmod(int(loose[0]), puzzle.blank.shape[1])
        raise PuzzleError("a blank cell that no clue covers: no across clue to its left and "
                          "no down clue above it", cell=(r, c))
    return Packed(ent_off, ent_cell, ent_sum, int(n_across))


def entry_variables(puzzle, packed: Packed) -> tuple:
    """``(var_cell, ent_var, var_eoff, var_ent)``: the variables (blank cells in row-major
    order) by flat cell, each entry cell's variable, and each variable's entries
    (``jposs.var_entries``).

    Examples
    --------
    >>> from kakuro_np import Puzzle
    >>> p = Puzzle.from_rows([["x", (4, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]])
    >>> var_cell, ent_var, var_eoff, var_ent = entry_variables(p, packed_entries(p))
    >>> var_cell.tolist(), var_ent[var_eoff[0]:var_eoff[1]].tolist()
    ([4, 5, 7, 8], [0, 2])
    """
    var_cell = np.flatnonzero(puzzle.blank.ravel())
    cell_var = np.full(puzzle.blank.size, -1, np.int64)
    cell_var[var_cell] = np.arange(len(var_cell))
    ent_var = cell_var[packed.ent_cell]
    var_eoff, var_ent = var_entries(packed.ent_off, ent_var, len(var_cell))
    return var_cell, ent_var, var_eoff, var_ent


def describe_entry(puzzle, packed: Packed, k: int) -> str:
    """Entry ``k`` in words: its direction, clue, clue cell and length.

    Examples
    --------
    >>> from kakuro_np import Puzzle
    >>> p = Puzzle.from_rows([["x", (4, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]])
    >>> describe_entry(p, packed_entries(p), 2)
    'the down 4 at (0, 1) over 2 cells'
    """
    W = puzzle.shape[1]
    first = int(packed.ent_cell[packed.ent_off[k]])
    r, c = divmod(first, W)
    across = k < packed.n_across
    clue = (r, c - 1) if across else (r - 1, c)
    n = int(packed.ent_off[k + 1] - packed.ent_off[k])
    return (f"the {'across' if across else 'down'} {int(packed.ent_sum[k])} at {clue} "
            f"over {n} cell{'s' if n > 1 else ''}")


def entries(grid: Puzzle) -> tuple[list[np.ndarray], np.ndarray]:
    """The cells and sums of every entry, in the essay's order.

    Parameters
    ----------
    grid : Puzzle
        (``kakuro_np.entries`` also takes text, a path or rows.)

    Returns
    -------
    cells : list of int64 arrays
        Flat row-major indices of each entry's cells, in reading order.
    sums : int64 array
        The clue of each entry.

    Examples
    --------
    >>> from kakuro_np import Puzzle
    >>> cells, sums = entries(Puzzle.from_rows([["x", (4, 0), (3, 0)],
    ...                                         [(0, 3), "_", "_"],
    ...                                         [(0, 4), "_", "_"]]))
    >>> [c.tolist() for c in cells], sums.tolist()
    ([[4, 5], [7, 8], [4, 7], [5, 8]], [3, 4, 4, 3])
    """
    ent_off, ent_cell, ent_sum, _ = packed_entries(grid)
    return [ent_cell[ent_off[k]:ent_off[k + 1]] for k in range(len(ent_sum))], ent_sum
