"""The model: a puzzle packed for the kernels (``build``), whose ``root()`` a kernel starts from.

Glossary
--------
model    : variables (blank cells), entries, cell masks and tables (see ``jposs``
           and ``force``), with the Puzzle and its packed entries (``Model``);
           ``build`` makes it from a Puzzle.
var_cell : flat cell index of each variable (blank cells in row-major order).
root     : what a kernel starts from (``state.Root``): ``Model.root()`` (``state``)
           hands the tables over with a fresh copy of the masks.

The fast path narrows the masks by combinations, then forces the tables as it
builds them (``force.build_forced_tables``); since the fixpoint of ``force`` is
the same either way, so is every node.

Examples
--------
>>> import kakuro_np as kn
>>> m = build(kn.read("puzzles/k0.txt"))
>>> int(m.status), len(m.var_cell), m.root().mask.shape == m.mask.shape
(0, 8, True)
"""

from __future__ import annotations

import numpy as np

from ...combos import ALL_DIGITS
from ...errors import BudgetError, SolveTimeout
from ..core import ahead
from ..core.codes import OK, OVER_BUDGET, TIMED_OUT
from ..core.jit import NO_DEADLINE
from ..core.state import Model
from ..force import INDEX_MAX_ENTRIES, INDEX_MIN, build_forced_tables, build_index
from .entries import packed_entries
from .perms import perm_sets

#: Default budget on table rows in all (about 40 bytes each with the search state).
MAX_ROWS = 10_000_000


def build_model(blank, given, ent_off, ent_cell, ent_sum, max_rows, deadline):
    """Variables, masks and tables of a grid, ready for the search.

    Every blank cell is in some entry (``packed_entries`` refuses one that no clue
    covers), so every variable is in some table. Returns ``(status, culprit,
    var_cell, ent_off, ent_var, ent_sum, mask, rows, tab_off)``; ``culprit`` is the
    entry found impossible when the status is CONTRADICTION, else -1.
    """
    flat_blank = blank.ravel()
    var_cell = np.flatnonzero(flat_blank)
    cell_var = np.full(flat_blank.shape[0], -1, np.int64)
    cell_var[var_cell] = np.arange(len(var_cell))
    off = ent_off.astype(np.int64)
    var = cell_var[ent_cell].astype(np.int64)
    sums = ent_sum.astype(np.int64)
    digit = given.ravel()[var_cell].astype(np.int64)
    mask = np.where(digit > 0, 1 << np.maximum(digit - 1, 0), ALL_DIGITS).astype(np.int64)
    rows, tab_off, status, culprit = build_forced_tables(off, var, sums, mask, max_rows, deadline)
    return status, culprit, var_cell, off, var, sums, mask, rows, tab_off


def build(puzzle, max_rows=MAX_ROWS, deadline=NO_DEADLINE) -> Model:
    """Pack a ``Puzzle`` for the kernels.

    Raises BudgetError past ``max_rows`` table rows and SolveTimeout past ``deadline``.
    """
    ahead.ready(("model",), deadline)       # with a deadline, compiling counts in it
    packed = packed_entries(puzzle)
    built = build_model(puzzle.blank, puzzle.given, packed.ent_off, packed.ent_cell,
                        packed.ent_sum, np.int64(max_rows), np.int64(deadline))
    if built[0] == OVER_BUDGET:
        raise BudgetError(f"the tables of this puzzle would pass {max_rows:,} rows "
                          f"(raise max_rows= to allow more)")
    if built[0] == TIMED_OUT:
        raise SolveTimeout("timed out while building the tables")
    status, _, _, ent_off, _, _, mask, rows, tab_off = built
    # the build keeps the rows alive at the fixpoint of its masks: a start from them
    # forces nothing (a start from other masks, m._replace(mask=...), forces as ever)
    fit_mask = mask.copy() if status == OK else np.zeros(0, np.int64)
    # its permutation tables are kept lazily from such a start (``perms``): no index
    return Model(puzzle, packed, *built, *build_index(ent_off, rows, tab_off, INDEX_MIN,
                                                      INDEX_MAX_ENTRIES,
                                                      perm_sets(ent_off, rows, tab_off)),
                 fit_mask)
