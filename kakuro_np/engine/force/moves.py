"""The walks' moves on a node: pick the entry to fan out over (``pick_entry``), list its
live rows (``live_rows``), make a row or a digit the only one left (``apply_row``,
``apply_digit``) and queue the entries it narrows."""

from __future__ import annotations

from ..core.jit import inline_kernel, kernel
from ..core.workqueue import enqueue
from .filters import is_lazy, list_lazy, swap_rows


@kernel
def live_rows(tables, live, k, out, at):
    """Copy entry ``k``'s live rows into ``out[at:at + nalive[k]]`` (room assumed); returns how many."""
    n = live.nalive[k]
    if is_lazy(tables, live.nalive, k):     # the test here: a call costs (see jit)
        list_lazy(tables, live, k)
    head = tables.tab_off[k]
    for i in range(n):
        out[at + i] = live.perm[head + i]
    return n


@kernel
def pick_entry(nalive):
    """The entry with the fewest live rows above one (ties to the lower index), or -1."""
    best = -1
    for k in range(nalive.shape[0]):
        if nalive[k] > 1 and (best < 0 or nalive[k] < nalive[best]):
            best = k
    return best


@inline_kernel
def apply_row(tables, live, k, r):
    """Make row ``r`` entry ``k``'s only live row and queue the entries its digits narrow."""
    swap_rows(live.perm, live.pos, live.pos[r], tables.tab_off[k])
    live.nalive[k] = 1
    a = tables.ent_off[k]
    mask = live.mask
    for p in range(tables.ent_off[k + 1] - a):
        v = tables.ent_var[a + p]
        bit = 1 << (tables.rows[r, p] - 1)
        if mask[v] != bit:
            lost = mask[v] & ~bit
            mask[v] = bit
            for q in range(tables.var_eoff[v], tables.var_eoff[v + 1]):
                j = tables.var_ent[q]
                if j != k and live.nalive[j] >= 0:       # -1: a table not built yet
                    live.gone[tables.var_slot[q]] |= lost
                    enqueue(live.queue, live.inq, live.qstate, j)


@kernel
def apply_digit(tables, live, v, digit):
    """Make ``digit`` (0-8) cell ``v``'s only candidate and queue its entries.

    Examples
    --------
    >>> from kakuro_np.solve import model
    >>> from kakuro_np.engine.force import propagate, start_state
    >>> _, tables, live = start_state(model("puzzles/k3.txt").root(), True)
    >>> int(live.mask[0])                    # cell 0 may hold 1, 2, 4 or 5
    27
    >>> apply_digit(tables, live, 0, 4); propagate(tables, live, True), int(live.mask[0])
    (-1, 16)
    """
    mask = live.mask
    lost = mask[v] & ~(1 << digit)
    mask[v] = 1 << digit
    if lost:
        for q in range(tables.var_eoff[v], tables.var_eoff[v + 1]):
            j = tables.var_ent[q]
            if live.nalive[j] >= 0:             # -1: a table not built yet
                live.gone[tables.var_slot[q]] |= lost
                enqueue(live.queue, live.inq, live.qstate, j)
