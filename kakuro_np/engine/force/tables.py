"""The fast table build: every entry's table forced as it is built (``build_forced_tables``),
so the long runs, built last, are generated against narrow masks."""

from __future__ import annotations

import numpy as np

from ..build.jposs import estimate, gen_table, narrow_masks, var_entries
from ..core.codes import CONTRADICTION, OK, OVER_BUDGET, TIMED_OUT
from ..core.jit import NO_DEADLINE, borrow, grow, grow_unset, kernel, monotonic_ns
from ..core.state import Live, Tables
from ..core.workqueue import enqueue, heap_pop, heap_push, new_queue
from .index import var_slots
from .propagate import propagate


#: ``build_forced_tables`` forces before building a table estimated at this many rows or more
#: (fixed when it compiles).
FORCE_BEFORE = 32


@kernel
def build_forced_tables(ent_off, ent_var, ent_sum, mask, max_rows, deadline):
    """Tables of every entry, forced as they are built: the fast path to the fixpoint.

    Entries are built in the essay's order (the smallest estimate first), but
    before a table estimated at FORCE_BEFORE rows or more the masks are forced
    through every table built so far, so the long runs, built last, are
    generated against narrow masks (first narrowed entry by entry:
    ``jposs.narrow_masks``). Only the
    rows alive at the fixpoint are kept, in lexicographic order, packed in
    entry order. Returns ``(rows, tab_off, status, culprit)``: OK, or
    CONTRADICTION with the entry that emptied, OVER_BUDGET past ``max_rows``
    rows, TIMED_OUT past ``deadline``; with any status but OK, no rows and empty tables.
    """
    E = ent_sum.shape[0]
    var_eoff, var_ent = var_entries(ent_off, ent_var, mask.shape[0])
    ent_off, ent_var = borrow(ent_off), borrow(ent_var)
    ent_sum, mask = borrow(ent_sum), borrow(mask)
    empty, none = np.zeros((0, 9), np.int8), np.zeros(E + 1, np.int64)
    culprit = narrow_masks(ent_off, ent_var, ent_sum, mask, var_eoff, var_ent)
    if culprit >= 0:
        return empty, none, CONTRADICTION, culprit
    # a heap of estimate * E + entry: the smallest estimate first, ties to the lower index
    heap = np.empty(4 * E + 1, np.int64)
    n_heap = np.int64(0)                        # not the literal 0: one compile of the heap
    for k in range(E):
        n_heap = heap_push(heap, n_heap, estimate(ent_off, ent_var, mask, k) * E + k)
    rows = np.zeros((max(16, 4 * E), 9), np.int8)
    perm = np.zeros(rows.shape[0], np.int32)
    pos = np.zeros(rows.shape[0], np.int32)
    start = np.zeros(E + 1, np.int64)
    end = np.zeros(E, np.int64)                 # entry k's rows are rows[start[k]:end[k]]
    nalive = np.full(E, -1, np.int64)
    queue, inq, qstate = new_queue(E)
    var_slot = var_slots(ent_off, ent_var, var_eoff)
    no_index = np.zeros(81 * E + 1, np.int64)
    no_perms = np.zeros(E, np.int64)
    gone, support = np.zeros(ent_var.shape[0], np.int64), np.zeros(0, np.int32)
    cell_masks = np.zeros(9, np.int64)
    n_rows = np.int64(0)                        # not the literal 0: one compile of gen_table
    # the records propagate takes, made again only when the rows grow
    tables = Tables(ent_off, ent_var, var_eoff, var_ent, var_slot, rows, start, no_index,
                    support, no_perms)
    live = Live(perm, pos, nalive, mask, queue, inq, qstate, gone, support)
    for _ in range(E):
        if deadline != NO_DEADLINE and monotonic_ns() > deadline:
            return empty, none, TIMED_OUT, -1
        while True:                 # estimates only fall: re-rank a stale key
            key, n_heap = heap_pop(heap, n_heap)
            k = key % E
            if nalive[k] >= 0:
                continue
            now = estimate(ent_off, ent_var, mask, k)
            if now == key // E:
                break
            if n_heap == heap.shape[0]:
                heap = grow(heap, 2 * n_heap)
            n_heap = heap_push(heap, n_heap, now * E + k)
        a = ent_off[k]
        L = ent_off[k + 1] - a
        for i in range(L):
            cell_masks[i] = mask[ent_var[a + i]]
        rows, n_new = gen_table(cell_masks[:L], ent_sum[k], rows, n_rows, max_rows)
        if n_new < 0:
            return empty, none, OVER_BUDGET, -1
        if rows.shape[0] > perm.shape[0]:
            perm = grow_unset(perm, rows.shape[0])
            pos = grow_unset(pos, rows.shape[0])
            tables = Tables(ent_off, ent_var, var_eoff, var_ent, var_slot, rows, start,
                            no_index, support, no_perms)
            live = Live(perm, pos, nalive, mask, queue, inq, qstate, gone, support)
        for r in range(n_rows, n_new):
            perm[r] = r
            pos[r] = r
        start[k] = n_rows
        end[k] = n_new
        nalive[k] = n_new - n_rows
        n_rows = n_new
        if nalive[k] == 0:
            return empty, none, CONTRADICTION, k
        enqueue(queue, inq, qstate, k)
        if n_heap and heap[0] // E < FORCE_BEFORE:
            continue                # small tables come next: force them all at once later
        emptied = propagate(tables, live, True)
        if emptied >= 0:
            return empty, none, CONTRADICTION, emptied
    emptied = propagate(tables, live, True)
    if emptied >= 0:
        return empty, none, CONTRADICTION, emptied
    tab_off = np.zeros(E + 1, np.int64)
    keep = np.zeros(n_rows, np.bool_)
    for k in range(E):
        tab_off[k + 1] = tab_off[k] + nalive[k]
        for i in range(start[k], start[k] + nalive[k]):
            keep[perm[i]] = True
    perm = pos = np.zeros(0, np.int32)          # let them go before the copy (peak memory)
    live = Live(perm, pos, nalive, mask, queue, inq, qstate, gone, support)
    out = np.empty((tab_off[E], 9), np.int8)
    for k in range(E):                          # a table's block is in lexicographic order
        j = tab_off[k]
        for r in range(start[k], end[k]):
            if keep[r]:
                for p in range(9):
                    out[j, p] = rows[r, p]
                j += 1
    return out, tab_off, OK, -1
