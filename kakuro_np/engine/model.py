"""The model: a puzzle packed for the kernels (``build``), whose ``root()`` a kernel starts from.

Glossary
--------
model    : variables (blank cells), entries, cell masks and tables (see ``jposs``
           and ``force``), with the Puzzle and its packed entries (``Model``);
           ``build`` makes it from a Puzzle.
var_cell : flat cell index of each variable (blank cells in row-major order).
root     : what a kernel starts from (``state.Root``): ``Model.root()`` (``state``)
           hands the tables over with a fresh copy of the masks.

The model's path reaches the masks of ``force``'s fixpoint entry by entry
without a row (``jposs.support_masks``), then writes each table once from them
(``jposs.build_tables``); since the fixpoint of ``force`` is the same
either way, so is every node. A collection of puzzles goes through its entries and
that fixpoint in one call (``forced_answers``), which answers at once those that
force alone solves, most published ones, and leaves the others to ``build``.

Examples
--------
>>> import kakuro_np as kn
>>> m = build(kn.read("puzzles/k0.txt"))
>>> int(m.status), len(m.var_cell), m.root().mask.shape == m.mask.shape
(0, 8, True)
"""

from __future__ import annotations

import numpy as np
from numba.core import types

from ..combos import ALL_DIGITS, LOWEST_DIGIT, POPCOUNT
from ..errors import BudgetError, SolveTimeout
from .core import ahead
from .core.codes import OK, OVER_BUDGET, TIMED_OUT
from .core.jit import INT, NO_DEADLINE, kernel, monotonic_ns
from .core.state import Model
from .force import INDEX_MAX_ENTRIES, INDEX_MIN, build_index
from .build.entries import LOOSE_CELL, Packed, _scan_runs, packed_entries
from .build.jposs import build_tables, support_masks, var_entries
from .build.perms import perm_sets

#: Default budget on table rows in all (about 40 bytes each with the search state).
MAX_ROWS = 10_000_000


#: A Puzzle's own arrays as ``build`` hands them to ``puzzle_model``: read only, C order.
PUZZLE_TYPES = (types.Array(types.boolean, 2, "C", readonly=True),      # blank
                types.Array(types.int16, 2, "C", readonly=True),        # down
                types.Array(types.int16, 2, "C", readonly=True),        # across
                types.Array(types.int8, 2, "C", readonly=True),         # given
                INT, INT)                                               # max_rows, deadline


@kernel
def puzzle_entries(blank, down, across, given):
    """Stage 1, entries: the across runs, then the down runs (on the transposed grid),
    packed, and the variables (the blank cells in row-major order) with their masks
    from the given digits.

    Returns ``(bad, ent_off, ent_cell, ent_sum, n_across, var_cell, ent_var, mask)``;
    ``bad`` as ``puzzle_model``'s.
    """
    H, W = blank.shape
    ent_off = np.zeros(2 * H * W + 1, np.int64)
    ent_cell = np.zeros(2 * H * W, np.int64)
    ent_sum = np.zeros(2 * H * W + 1, np.int64)
    n_ent, n_cell, bad, _, _, _ = _scan_runs(blank.copy(), across.copy(), 0, ent_off, ent_cell,
                                             ent_sum, 0, 0)
    n_across = n_ent
    if bad == 0:
        n_ent, n_cell, bad, _, _, _ = _scan_runs(blank.T.copy(), down.T.copy(), 1, ent_off,
                                                 ent_cell, ent_sum, n_ent, n_cell)
    ent_off, ent_cell, ent_sum = ent_off[:n_ent + 1], ent_cell[:n_cell], ent_sum[:n_ent]
    # the variables: blank cells in row-major order, each covered by some entry
    cell_var = np.full(H * W, -1, np.int64)
    var_cell = np.zeros(H * W, np.int64)
    V = 0
    flat_blank, flat_given = blank.ravel(), given.ravel()
    for i in range(H * W):
        if flat_blank[i]:
            cell_var[i] = V
            var_cell[V] = i
            V += 1
    var_cell = var_cell[:V]
    covered = np.zeros(V, np.int64)
    ent_var = np.zeros(n_cell, np.int64)
    for i in range(n_cell):
        ent_var[i] = cell_var[ent_cell[i]]
        covered[ent_var[i]] = 1
    if bad == 0 and covered.sum() < V:
        bad = LOOSE_CELL
    mask = np.full(V, ALL_DIGITS, np.int64)
    for v in range(V):
        digit = flat_given[var_cell[v]]
        if digit > 0:
            mask[v] = 1 << (digit - 1)
    return bad, ent_off, ent_cell, ent_sum, n_across, var_cell, ent_var, mask


@kernel
def puzzle_model(blank, down, across, given, max_rows, deadline):
    """A puzzle's model in one call: its entries (stage 1), their tables at the fixpoint
    of ``force`` (stages 2 and 3), and the index of the big tables.

    Returns ``(bad, status, culprit, ent_off, ent_cell, ent_sum, n_across, var_cell,
    ent_var, mask, rows, tab_off, idx_off, idx_row, fit_mask)``. ``bad`` is not 0 when a
    run is malformed (``entries._ERRORS``) or a blank cell has no clue (the caller asks
    ``packed_entries`` which); the status is OK, CONTRADICTION (``culprit`` the entry
    that emptied), OVER_BUDGET past ``max_rows`` rows or TIMED_OUT past ``deadline``.
    """
    none = np.zeros(0, np.int64)
    bad, ent_off, ent_cell, ent_sum, n_across, var_cell, ent_var, mask = puzzle_entries(
        blank, down, across, given)
    empty = np.zeros((0, 9), np.int8)
    if bad != 0:
        return (bad, OK, -1, ent_off, ent_cell, ent_sum, n_across, var_cell, ent_var, mask,
                empty, none, none, np.zeros(0, np.int32), none)
    # stages 2 and 3, jposs and force: the tables at the fixpoint of their masks
    rows, tab_off, status, culprit = build_tables(ent_off, ent_var, ent_sum, mask, max_rows,
                                                  deadline, True)
    if status != OK:
        return (bad, status, culprit, ent_off, ent_cell, ent_sum, n_across, var_cell, ent_var,
                mask, rows, tab_off, none, np.zeros(0, np.int32), none)
    # the index of the big tables, but those of one combination kept lazily (``perms``)
    idx_off, idx_row = build_index(ent_off, rows, tab_off, INDEX_MIN, INDEX_MAX_ENTRIES,
                                   perm_sets(ent_off, rows, tab_off))
    return (bad, status, culprit, ent_off, ent_cell, ent_sum, n_across, var_cell, ent_var,
            mask, rows, tab_off, idx_off, idx_row, mask.copy())


#: ``solved_by_force``'s arguments: the puzzles' arrays end to end (read only, as a
#: Puzzle's, so that ``puzzle_entries`` is the one ``build`` compiles), their shapes
#: and cell offsets, the digits out.
MANY_TYPES = (types.Array(types.boolean, 1, "C", readonly=True),
              types.Array(types.int16, 1, "C", readonly=True),
              types.Array(types.int16, 1, "C", readonly=True),
              types.Array(types.int8, 1, "C", readonly=True),
              types.Array(types.int64, 2, "C"), types.Array(types.int64, 1, "C"),
              types.Array(types.int8, 1, "C"))
#: ``solved_by_force``: the nanoseconds a puzzle may take in the collection's call
#: before it is left to be solved apart.
MANY_NS = 50_000_000


@kernel
def solved_by_force(blank, down, across, given, shape, cell_off, digits):
    """Many puzzles in one call, each taken as far as force's fixpoint: the flat cells
    of puzzle ``i`` are ``cell_off[i]:cell_off[i + 1]`` of the arrays, its shape
    ``shape[i]``. Where the fixpoint leaves one digit in every cell (every table one
    row: force alone solves it), the digits are written to ``digits`` (0 on clue cells)
    and ``solved[i]`` is True; a puzzle with a bad run, a contradiction, more than
    MANY_NS of narrowing or a search still to do is left False, for the caller to
    solve apart. No table is written (``jposs.support_masks`` reaches the fixpoint's
    masks without one).

    Returns ``solved``, (n,) bool.
    """
    n = shape.shape[0]
    solved = np.zeros(n, np.bool_)
    for i in range(n):
        H, W = shape[i, 0], shape[i, 1]
        a, b = cell_off[i], cell_off[i + 1]
        bad, ent_off, _, ent_sum, _, var_cell, ent_var, mask = puzzle_entries(
            blank[a:b].reshape(H, W), down[a:b].reshape(H, W), across[a:b].reshape(H, W),
            given[a:b].reshape(H, W))
        if bad != 0:
            continue
        var_eoff, var_ent = var_entries(ent_off, ent_var, mask.shape[0])
        if support_masks(ent_off, ent_var, ent_sum, mask, var_eoff, var_ent,
                         monotonic_ns() + MANY_NS) != -1:
            continue
        for v in range(mask.shape[0]):
            if POPCOUNT[mask[v]] != 1:
                break
        else:
            solved[i] = True
            for v in range(var_cell.shape[0]):
                digits[a + var_cell[v]] = LOWEST_DIGIT[mask[v]]
    return solved


def forced_answers(puzzles, start: bool = True) -> list:
    """The solution, (1, H, W) int8, of each Puzzle of ``puzzles`` that force alone solves,
    and None for the others (to be solved apart): one call of ``solved_by_force`` for them
    all, or every None while that kernel is not in the cache; with ``start``, a helper
    then compiles it (``ahead.start``), once the model's kernels are in the cache (a
    helper would compile those twice).

    Examples
    --------
    >>> import kakuro_np as kn
    >>> ahead.main(["many"])
    0
    >>> [None if s is None else s.shape for s in forced_answers(
    ...     [kn.read("puzzles/k0.txt"), kn.read("puzzles/k3.txt")])]
    [(1, 4, 5), None]
    """
    if not puzzles:
        return []
    if not ahead.all_cached(("many",)):
        if start and ahead.all_cached(("model",)):
            ahead.start("many")
        return [None] * len(puzzles)
    shape = np.array([p.shape for p in puzzles], np.int64)
    cell_off = np.zeros(len(puzzles) + 1, np.int64)
    np.cumsum(shape[:, 0] * shape[:, 1], out=cell_off[1:])
    packed = []
    for name in ("blank", "down", "across", "given"):
        cells = np.concatenate([getattr(p, name).ravel() for p in puzzles])
        cells.flags.writeable = False       # as a Puzzle's: puzzle_model's own types
        packed.append(cells)
    digits = np.zeros(cell_off[-1], np.int8)
    solved = solved_by_force(*packed, shape, cell_off, digits)
    return [digits[cell_off[i]:cell_off[i + 1]].reshape(1, *p.shape) if solved[i] else None
            for i, p in enumerate(puzzles)]


def build(puzzle, max_rows=MAX_ROWS, deadline=NO_DEADLINE) -> Model:
    """Pack a ``Puzzle`` for the kernels (``puzzle_model``).

    Raises PuzzleError for a malformed run, BudgetError past ``max_rows`` table rows and
    SolveTimeout past ``deadline``.
    """
    ahead.ready(("model",), deadline)       # with a deadline, compiling counts in it
    (bad, status, culprit, ent_off, ent_cell, ent_sum, n_across, var_cell, ent_var, mask,
     rows, tab_off, idx_off, idx_row, fit_mask) = puzzle_model(
        puzzle.blank, puzzle.down, puzzle.across, puzzle.given, np.int64(max_rows),
        np.int64(deadline))
    if bad:
        packed_entries(puzzle)              # raises the PuzzleError that names the cell
    if status == OVER_BUDGET:
        raise BudgetError(f"the tables of this puzzle would pass {max_rows:,} rows "
                          f"(raise max_rows= to allow more)")
    if status == TIMED_OUT:
        raise SolveTimeout("timed out while building the tables")
    # the build keeps the rows alive at the fixpoint of its masks: a start from them
    # forces nothing (a start from other masks, m._replace(mask=...), forces as ever)
    return Model(puzzle, Packed(ent_off, ent_cell, ent_sum, int(n_across)), status, culprit,
                 var_cell, ent_off, ent_var, ent_sum, mask, rows, tab_off, idx_off, idx_row,
                 fit_mask)


# The compile groups of this module's kernels (``ahead``): the model (stages 1-3), and
# many puzzles' entries and fixpoint in one call.
ahead.declare("model", __name__, ((__name__, "puzzle_model", "PUZZLE_TYPES"),
                                  ("kakuro_np.engine.build.entries", "_scan_runs", "SCAN_TYPES")))
ahead.declare("many", __name__, ((__name__, "solved_by_force", "MANY_TYPES"),), after=("model",))
