"""The fast table build: the masks of ``force``'s fixpoint first (``jposs.support_masks``),
then each entry's table from them, every row of which is alive at that fixpoint."""

from __future__ import annotations

import numpy as np

from ..build.jposs import gen_table, support_masks, var_entries
from ..core.codes import CONTRADICTION, OK, OVER_BUDGET, TIMED_OUT
from ..core.jit import NO_DEADLINE, kernel, monotonic_ns
from ...combos import LOWEST_DIGIT, POPCOUNT


@kernel
def build_forced_tables(ent_off, ent_var, ent_sum, mask, max_rows, deadline):
    """Tables of every entry at ``force``'s fixpoint, built from its masks.

    The fixpoint of ``force`` keeps, in each table, the rows whose digits all
    fit the masks, and in each mask the digits every table of the cell still
    uses; ``jposs.support_masks`` reaches those masks entry by entry without a
    row, so each table is then written once, from them, with no row to drop.
    The rows come in lexicographic order, packed in entry order. Returns
    ``(rows, tab_off, status, culprit)``: OK, or CONTRADICTION with an entry
    that emptied, OVER_BUDGET past ``max_rows`` rows, TIMED_OUT past
    ``deadline``; with any status but OK, no rows and empty tables.
    """
    E = ent_sum.shape[0]
    empty, none = np.zeros((0, 9), np.int8), np.zeros(E + 1, np.int64)
    if deadline != NO_DEADLINE and monotonic_ns() > deadline:
        return empty, none, TIMED_OUT, -1
    var_eoff, var_ent = var_entries(ent_off, ent_var, mask.shape[0])
    culprit = support_masks(ent_off, ent_var, ent_sum, mask, var_eoff, var_ent, deadline)
    if culprit == -2:
        return empty, none, TIMED_OUT, -1
    if culprit >= 0:
        return empty, none, CONTRADICTION, culprit
    rows = np.empty((max(16, E), 9), np.int8)
    tab_off = np.zeros(E + 1, np.int64)
    cell_masks = np.zeros(9, np.int64)
    n_rows = np.int64(0)                        # not the literal 0: one compile of gen_table
    for k in range(E):
        if deadline != NO_DEADLINE and monotonic_ns() > deadline:
            return empty, none, TIMED_OUT, -1
        a = ent_off[k]
        L = ent_off[k + 1] - a
        ways = 1
        for i in range(L):
            cell_masks[i] = mask[ent_var[a + i]]
            ways *= POPCOUNT[cell_masks[i]]
        if ways == 1 and n_rows < rows.shape[0] and n_rows < max_rows:
            for i in range(L):                  # every cell forced: the one row
                rows[n_rows, i] = LOWEST_DIGIT[cell_masks[i]]
            for i in range(L, 9):
                rows[n_rows, i] = 0
            n_rows += 1
        else:
            rows, n_rows = gen_table(cell_masks[:L], ent_sum[k], rows, n_rows, max_rows)
            if n_rows < 0:
                return empty, none, OVER_BUDGET, -1
        tab_off[k + 1] = n_rows
    if rows.shape[0] - n_rows > 4096:           # the room grown past the rows: let it go
        return rows[:n_rows].copy(), tab_off, OK, -1
    return rows[:n_rows], tab_off, OK, -1
