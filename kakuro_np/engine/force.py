"""Stage 3, force: drop table rows that a crossing entry rules out, until nothing changes.

Glossary
--------
projection : the digit set of one column of a table (what the entry still
             allows in that cell).
mask       : a cell's candidates: the AND of the projections of its entries.
alive rows : entry ``k``'s live rows are ``perm[tab_off[k]:tab_off[k] + nalive[k]]``
             (a sparse set: a dropped row is swapped past the end of the live
             block, so restoring ``nalive`` undoes every drop made since);
             but a lazy table's (``perms``: a permutation table with more than
             LAZY_ROWS live rows) are the rows its cells' masks allow, and its
             block is not kept (``list_lazy`` lists them there).
queue      : entries whose cells' masks changed and must be filtered again.

The fixpoint is the same whatever order entries are filtered in, so the
kernel's queue reaches the essay's ``force^:_`` tables exactly.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..combos import LOWEST_DIGIT
from .core.codes import CONTRADICTION, OK, OVER_BUDGET, TIMED_OUT
from .core.jit import NO_DEADLINE, grow, grow_unset, inline_kernel, kernel, monotonic_ns
from .build.perms import LAZY_ROWS, list_perms, perm_count, perm_projection, perm_sets
from .core.state import Live, Tables, tables_model
from .build.jposs import compact_cells, estimate, gen_table, narrow_masks, split_tables, var_entries
from .core.workqueue import dequeue, enqueue, heap_pop, heap_push, new_queue


#: Tables of at least this many rows are indexed by position and digit (``build_index``)...
INDEX_MIN = 128
#: ... the smallest first, up to this many index entries in all (128 MiB of int32). The
#: 30x100 open grid of bench/open_grids.py needed 29 M: at 2**24 only its six biggest tables
#: were indexed, and a node scanned 13,000 rows of the others (0.22 ms a hunt node; all
#: indexed, 0.09 ms; bench/README). Its 77 permutation tables, 3.0 M of its
#: 3.5 M rows, are now kept lazily and not indexed (``perms``): 3.1 M entries.
INDEX_MAX_ENTRIES = 1 << 25


@kernel
def build_index(ent_off, rows, tab_off, min_rows, max_entries, skip):
    """The rows of each table of ``min_rows`` rows or more by position and digit, but those
    whose ``skip`` is not 0 (the permutation tables of a model, kept lazily: ``perms``).

    Returns ``(idx_off, idx_row)``: entry ``k``'s rows with digit ``d`` at
    position ``p`` are ``idx_row[idx_off[i]:idx_off[i + 1]]`` with ``i = 81 k
    + 9 p + d - 1``. Tables are indexed from the smallest up while the index
    holds at most ``max_entries`` entries (one per row and cell); the ranges of
    the others, and of the tables under ``min_rows`` rows, are empty.

    Examples
    --------
    >>> tab_off = np.array([0, 2, 5])                    # tables of 2 and 3 rows, 1 cell
    >>> rows = np.array([[1], [2], [3], [4], [5]], np.int8)
    >>> ent_off = np.array([0, 1, 2])
    >>> idx_off, idx_row = build_index(ent_off, rows, tab_off, 1, 4, np.zeros(2, np.int64))
    >>> int(idx_off[81] - idx_off[0]), int(idx_off[162] - idx_off[81])   # the 3-row one: none
    (2, 0)
    >>> idx_row[idx_off[1]:idx_off[2]].tolist()                   # table 0's rows with a 2
    [1]
    """
    E = tab_off.shape[0] - 1
    indexed = np.zeros(E, np.bool_)
    size = tab_off[1:] - tab_off[:-1]
    least = max(min_rows, 1)
    entries = 0
    for k in np.argsort(size, kind="mergesort"):    # the smallest first, ties by entry
        if size[k] >= least and skip[k] == 0:
            entries += size[k] * (ent_off[k + 1] - ent_off[k])
            if entries > max_entries:
                break
            indexed[k] = True
    idx_off = np.zeros(81 * E + 1, np.int64)
    for k in range(E):
        if indexed[k]:
            for r in range(tab_off[k], tab_off[k + 1]):
                for p in range(ent_off[k + 1] - ent_off[k]):
                    idx_off[81 * k + 9 * p + rows[r, p]] += 1   # counted one slot on
    for i in range(81 * E):
        idx_off[i + 1] += idx_off[i]
    fill = idx_off[:-1].copy()
    idx_row = np.empty(idx_off[81 * E], np.int32)
    for k in range(E):
        if indexed[k]:
            for r in range(tab_off[k], tab_off[k + 1]):
                for p in range(ent_off[k + 1] - ent_off[k]):
                    i = 81 * k + 9 * p + rows[r, p] - 1
                    idx_row[fill[i]] = r
                    fill[i] += 1
    return idx_off, idx_row


@kernel
def var_slots(ent_off, ent_var, var_eoff):
    """Where each variable is among the cells of each of its entries: the ``var_slot``
    beside ``var_ent`` (``jposs.var_entries`` fills both in the same order)."""
    fill = var_eoff[:-1].copy()
    var_slot = np.zeros(ent_var.shape[0], np.int64)
    for k in range(ent_off.shape[0] - 1):
        for i in range(ent_off[k], ent_off[k + 1]):
            var_slot[fill[ent_var[i]]] = i
            fill[ent_var[i]] += 1
    return var_slot


@inline_kernel
def swap_rows(perm, pos, i, j):
    """Swap the rows at places ``i`` and ``j`` of ``perm`` (and their places in ``pos``)."""
    ri = perm[i]
    rj = perm[j]
    perm[i] = rj
    pos[rj] = i
    perm[j] = ri
    pos[ri] = j


@kernel
def filter_indexed(tables, live, k, proj):
    """``filter_entry`` of an indexed table through its index, or -1 (nothing done) when the
    rows holding its cells' lost digits are as many as its live rows (scan them then).

    Drops just the rows holding a digit in ``live.gone``, and finds each column's
    digits from the supports (``live.support``, rechecked as hints).
    """
    perm, pos, mask, ent_var = live.perm, live.pos, live.mask, tables.ent_var
    idx_off, idx_row, gone, support = tables.idx_off, tables.idx_row, live.gone, live.support
    a = tables.ent_off[k]
    L = tables.ent_off[k + 1] - a
    start = tables.tab_off[k]
    n = live.nalive[k]
    base = 81 * k
    work = 0                                    # what the index would visit
    for p in range(L):
        for d in range(9):
            if (gone[a + p] >> d) & 1:
                work += idx_off[base + 9 * p + d + 1] - idx_off[base + 9 * p + d]
    if work >= n:
        return -1
    for p in range(L):
        for d in range(9):
            if (gone[a + p] >> d) & 1:
                for t in range(idx_off[base + 9 * p + d], idx_off[base + 9 * p + d + 1]):
                    r = idx_row[t]
                    i = pos[r]
                    if i < start + n:           # live: swap it past the live block
                        n -= 1
                        swap_rows(perm, pos, i, start + n)
        gone[a + p] = 0
    for p in range(L):
        m = mask[ent_var[a + p]]
        proj[p] = 0
        for d in range(9):
            if (m >> d) & 1:
                j = base + 9 * p + d
                if support[j] >= 0 and pos[support[j]] < start + n:
                    proj[p] |= 1 << d
                    continue
                for t in range(idx_off[j], idx_off[j + 1]):
                    if pos[idx_row[t]] < start + n:
                        support[j] = idx_row[t]
                        proj[p] |= 1 << d
                        break
    live.nalive[k] = n
    return n


@kernel
def filter_scan(tables, live, k, proj):
    """``filter_entry`` of a big table by a scan of its live rows that checks only the
    columns that lost digits (``live.gone``), and stops adding to the columns'
    digits once every column has all of its cell's."""
    rows, perm, pos, mask, ent_var, gone = (tables.rows, live.perm, live.pos, live.mask,
                                            tables.ent_var, live.gone)
    a = tables.ent_off[k]
    L = tables.ent_off[k + 1] - a
    start = tables.tab_off[k]
    n = live.nalive[k]
    cols = 0                                    # the columns to check, 4 bits each
    n_cols = 0
    for p in range(L):
        proj[p] = 0
        if gone[a + p] != 0:
            cols |= p << (4 * n_cols)
            n_cols += 1
        gone[a + p] = 0
    seen_all = False
    i = 0
    while i < n:
        r = perm[start + i]
        ok = True
        for c in range(n_cols):
            p = (cols >> (4 * c)) & 15
            if not (mask[ent_var[a + p]] >> (rows[r, p] - 1)) & 1:
                ok = False
                break
        if ok:
            if not seen_all:
                seen_all = True
                for p in range(L):
                    proj[p] |= 1 << (rows[r, p] - 1)
                    if proj[p] != mask[ent_var[a + p]]:
                        seen_all = False
            i += 1
        else:                                   # swap r past the live block
            n -= 1
            swap_rows(perm, pos, start + i, start + n)
    live.nalive[k] = n
    return n


@kernel
def filter_big(tables, live, k, proj):
    """``filter_entry`` of an indexed table (``propagate`` calls it for those): with at least
    an eighth of its rows live it goes through its index (``filter_indexed``)
    when that visits fewer rows, else it is scanned on the columns that lost
    digits (``filter_scan``)."""
    n = live.nalive[k]
    # with few rows live, the supports' lists are mostly dead rows: scan instead
    if (tables.idx_off[81 * k] != tables.idx_off[81 * k + 81]
            and n * 8 >= tables.tab_off[k + 1] - tables.tab_off[k]):
        kept = filter_indexed(tables, live, k, proj)
        if kept >= 0:
            return kept
    return filter_scan(tables, live, k, proj)


@inline_kernel
def is_lazy(tables, nalive, k):
    """Whether entry ``k``'s table is kept without its rows now (``perms``): a permutation
    table with more than LAZY_ROWS live rows."""
    return tables.perm_set[k] != 0 and nalive[k] > LAZY_ROWS


@inline_kernel
def entry_masks(tables, live, k):
    """The masks of entry ``k``'s cells, in a new array."""
    a = tables.ent_off[k]
    masks = np.empty(tables.ent_off[k + 1] - a, np.int64)
    for p in range(masks.shape[0]):
        masks[p] = live.mask[tables.ent_var[a + p]]
    return masks


@kernel
def filter_perm(tables, live, k, proj):
    """``filter_entry`` of a permutation table (``tables.perm_set[k]``, see ``perms``): while
    it is lazy, its live rows counted and its columns' digits found from its cells'
    masks alone; once they are LAZY_ROWS or fewer, listed at the front of its block
    (``list_perms``); from then on scanned (``filter_scan``)."""
    if not is_lazy(tables, live.nalive, k):
        return filter_scan(tables, live, k, proj)
    digits = tables.perm_set[k]
    masks = entry_masks(tables, live, k)
    for q in range(tables.ent_off[k], tables.ent_off[k + 1]):
        live.gone[q] = 0
    n = perm_count(masks, digits)
    if n > LAZY_ROWS:
        perm_projection(masks, digits, proj)
    elif n == 0:
        for p in range(masks.shape[0]):
            proj[p] = 0
    else:
        n = place_perms(tables, live, k, masks, n, proj)
    live.nalive[k] = n
    return n


@kernel
def place_perms(tables, live, k, masks, n, proj):
    """Put the ``n`` live rows of permutation table ``k`` (those its cells' ``masks`` allow,
    ``perms.list_perms``) at the front of its block; the columns' digits into
    ``proj``. Returns how many."""
    start = tables.tab_off[k]
    found = np.empty(n, np.int64)
    n = list_perms(masks, tables.perm_set[k], tables.rows, start, tables.tab_off[k + 1],
                   found, proj)
    for i in range(n):
        swap_rows(live.perm, live.pos, live.pos[found[i]], start + i)
    return n


@kernel
def list_lazy(tables, live, k):
    """Make entry ``k``'s live rows ``perm[tab_off[k]:tab_off[k] + nalive[k]]`` again if its
    table is lazy (``perms``), for the few readers of its rows (a fan-out over it,
    a count's read-back); its ``nalive`` does not change."""
    if not is_lazy(tables, live.nalive, k):
        return
    masks = entry_masks(tables, live, k)
    live.nalive[k] = place_perms(tables, live, k, masks, live.nalive[k],
                                 np.empty(masks.shape[0], np.int64))


@kernel
def filter_entry(tables, live, k, proj):
    """Drop entry ``k``'s rows that its cells' masks forbid.

    Sets ``proj[p]`` to the digit set of column ``p`` over the rows kept and
    returns how many are kept; clears the digits ``live.gone`` holds for its
    cells. It checks every column of every live row (a small leaf that the
    compiler inlines; ``filter_big`` does less work on big tables).
    """
    rows, perm, pos, mask, ent_var = tables.rows, live.perm, live.pos, live.mask, tables.ent_var
    a = tables.ent_off[k]
    L = tables.ent_off[k + 1] - a
    start = tables.tab_off[k]
    n = live.nalive[k]
    for p in range(L):
        proj[p] = 0
        live.gone[a + p] = 0
    i = 0
    while i < n:
        r = perm[start + i]
        ok = True
        for p in range(L):
            if not (mask[ent_var[a + p]] >> (rows[r, p] - 1)) & 1:
                ok = False
                break
        if ok:
            for p in range(L):
                proj[p] |= 1 << (rows[r, p] - 1)
            i += 1
        else:                                   # swap r past the live block
            n -= 1
            swap_rows(perm, pos, start + i, start + n)
    live.nalive[k] = n
    return n


@inline_kernel
def clear_queue(tables, live):
    """Empty the queue, leaving no entry with digits gone (``live.gone``): a node left
    before it was propagated must not leave them to the next ``propagate``, whose
    indexed filters drop the rows holding them whatever the masks say."""
    queue, inq, qstate, ent_off, gone = live.queue, live.inq, live.qstate, tables.ent_off, live.gone
    while qstate[1] > 0:
        j = dequeue(queue, inq, qstate)
        for q in range(ent_off[j], ent_off[j + 1]):
            gone[q] = 0


@kernel
def propagate(tables, live, stop_on_empty):
    """Filter queued entries until the queue is empty.

    ``tables.tab_off[k]`` is where entry ``k``'s rows start in ``perm`` (its end is
    not used); an entry whose ``nalive`` is -1 has no table yet and is not
    queued. Returns -1, or the first entry whose table emptied. With ``stop_on_empty``
    it returns at once then (leaving the queue cleared); otherwise it goes on
    to the full fixpoint, as the essay does.
    """
    queue, inq, qstate, nalive, mask = live.queue, live.inq, live.qstate, live.nalive, live.mask
    ent_off, ent_var, var_eoff, var_ent = (tables.ent_off, tables.ent_var, tables.var_eoff,
                                           tables.var_ent)
    var_slot, gone, perm_set, idx_off = tables.var_slot, live.gone, tables.perm_set, tables.idx_off
    proj = np.zeros(9, np.int64)
    emptied = -1
    while qstate[1] > 0:
        k = dequeue(queue, inq, qstate)
        if perm_set[k] != 0:                        # a permutation table (``perms``)
            n = filter_perm(tables, live, k, proj)
        elif idx_off[81 * k] != idx_off[81 * k + 81]:   # a big table
            n = filter_big(tables, live, k, proj)
        else:
            n = filter_entry(tables, live, k, proj)
        if n == 0:
            if emptied < 0:
                emptied = k
            if stop_on_empty:
                clear_queue(tables, live)
                return emptied
        a = ent_off[k]
        for p in range(ent_off[k + 1] - a):
            v = ent_var[a + p]
            if proj[p] != mask[v]:
                # as in apply_row; a shared inline kernel taking the records made the search
                # 20% slower (bench/count_many.py's full listings)
                lost = mask[v] & ~proj[p]
                mask[v] &= proj[p]
                for q in range(var_eoff[v], var_eoff[v + 1]):
                    j = var_ent[q]
                    if j != k and nalive[j] >= 0:       # -1: a table not built yet
                        gone[var_slot[q]] |= lost
                        enqueue(queue, inq, qstate, j)
    return emptied


@kernel
def force_round(rows, tab_off, alive, ent_off, ent_var, n_var):
    """One round of the essay's force, in place on ``alive``; True if a row was dropped.

    Each cell's mask is the AND over its entries of the digits their live rows
    put there; then each table keeps the rows whose every digit its cells allow.
    """
    E = tab_off.shape[0] - 1
    mask = np.full(n_var, 0x1FF, np.int64)
    proj = np.zeros(9, np.int64)
    for k in range(E):
        a = ent_off[k]
        L = ent_off[k + 1] - a
        proj[:L] = 0
        for r in range(tab_off[k], tab_off[k + 1]):
            if alive[r]:
                for p in range(L):
                    proj[p] |= 1 << (rows[r, p] - 1)
        for p in range(L):
            mask[ent_var[a + p]] &= proj[p]
    changed = False
    for k in range(E):
        a = ent_off[k]
        for r in range(tab_off[k], tab_off[k + 1]):
            if alive[r]:
                for p in range(ent_off[k + 1] - a):
                    if not (mask[ent_var[a + p]] >> (rows[r, p] - 1)) & 1:
                        alive[r] = False
                        changed = True
                        break
    return changed


@kernel
def start_state(root, stop_on_empty):
    """The search's root: the fixpoint of ``force`` from every table in full.

    Returns ``(emptied, tables, live)``: -1 or the first entry whose table
    emptied (with ``stop_on_empty`` it stops there, see ``propagate``), the
    ``state.Tables`` and the ``state.Live`` node, whose ``mask`` is ``root.mask``
    itself, changed in place. The tables' index is the root's (built once per
    model, ``model.build``), else one of the tables of INDEX_MIN rows or more.
    From ``root.fit_mask`` itself (the model's masks, whose fixpoint the tables
    are) there is nothing to force, and no table is filtered.
    """
    if root.idx_off.shape[0] == 81 * (root.tab_off.shape[0] - 1) + 1:
        return start_from(root, stop_on_empty, root.idx_off, root.idx_row)
    return start_indexed(root, stop_on_empty, INDEX_MIN)


@kernel
def start_indexed(root, stop_on_empty, index_min):
    """``start_state`` with the tables of ``index_min`` rows or more indexed, but a model's
    permutation tables (kept lazily, ``perms``), as ``model.build`` indexes them."""
    skip = np.zeros(root.tab_off.shape[0] - 1, np.int64)
    if root.fit_mask.shape[0] == root.mask.shape[0]:
        skip = perm_sets(root.ent_off, root.rows, root.tab_off)
    return start_from(root, stop_on_empty,
                      *build_index(root.ent_off, root.rows, root.tab_off, index_min,
                                  INDEX_MAX_ENTRIES, skip))


@kernel
def start_from(root, stop_on_empty, idx_off, idx_row):
    """``start_state`` with the index ``(idx_off, idx_row)`` (``build_index``)."""
    ent_off, ent_var, mask, rows, tab_off = root[:5]
    E = tab_off.shape[0] - 1
    var_eoff, var_ent = var_entries(ent_off, ent_var, mask.shape[0])
    perm = np.empty(rows.shape[0], np.int32)
    for r in range(rows.shape[0]):
        perm[r] = r
    nalive = np.empty(E, np.int64)
    for k in range(E):
        nalive[k] = tab_off[k + 1] - tab_off[k]
    queue, inq, qstate = new_queue(E)
    of_model = root.fit_mask.shape[0] == mask.shape[0]
    # a model's tables hold every row its masks allow, so a node's are those its masks do
    # (``perms``); tables given otherwise (``force_fixpoint``) are filtered row by row
    perm_set = perm_sets(ent_off, rows, tab_off) if of_model else np.zeros(E, np.int64)
    tables = Tables(ent_off, ent_var, var_eoff, var_ent, var_slots(ent_off, ent_var, var_eoff),
                    rows, tab_off, idx_off, idx_row, perm_set)
    at_fixpoint = of_model
    for v in range(root.fit_mask.shape[0]):
        at_fixpoint = at_fixpoint and mask[v] == root.fit_mask[v]
    live = Live(perm, perm.copy(), nalive, mask, queue, inq, qstate,
                # the masks are not yet met, unless the tables are their fixpoint already
                np.full(ent_var.shape[0], 0 if at_fixpoint else 0x1FF, np.int64),
                np.full(81 * E, -1, np.int32))
    if at_fixpoint:         # every row fits the masks and supports each digit: nothing to force
        return np.int64(-1), tables, live
    for k in range(E):
        enqueue(queue, inq, qstate, k)
    return propagate(tables, live, stop_on_empty), tables, live


@kernel
def force_fixpoint(root):
    """The essay's ``force^:_`` from ``root`` (its tables, every digit allowed): live-row
    flags of the fixpoint."""
    rows, tab_off = root.rows, root.tab_off
    _, _, live = start_state(root, False)
    alive = np.zeros(rows.shape[0], np.bool_)
    for k in range(tab_off.shape[0] - 1):
        for i in range(tab_off[k], tab_off[k] + live.nalive[k]):
            alive[live.perm[i]] = True
    return alive


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
    rows, TIMED_OUT past ``deadline``; but with OK, no rows and empty tables.
    """
    E = ent_sum.shape[0]
    var_eoff, var_ent = var_entries(ent_off, ent_var, mask.shape[0])
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
                if j != k:
                    live.gone[tables.var_slot[q]] |= lost
                    enqueue(live.queue, live.inq, live.qstate, j)


@kernel
def apply_digit(tables, live, v, digit):
    """Make ``digit`` (0-8) cell ``v``'s only candidate and queue its entries.

    Examples
    --------
    >>> from kakuro_np.solve import model
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


@kernel
def solution_row(tables, k, solution):
    """The row of entry ``k``'s table that puts the one-digit masks ``solution`` in its
    cells, or -1: a binary search, as each table is in lexicographic order."""
    a = tables.ent_off[k]
    L = tables.ent_off[k + 1] - a
    lo, hi = tables.tab_off[k], tables.tab_off[k + 1]
    while lo < hi:
        mid = (lo + hi) // 2
        order = 0
        for p in range(L):
            d = LOWEST_DIGIT[solution[tables.ent_var[a + p]]]
            if tables.rows[mid, p] != d:
                order = -1 if tables.rows[mid, p] < d else 1
                break
        if order == 0:
            return mid
        if order < 0:
            lo = mid + 1
        else:
            hi = mid
    return np.int64(-1)


@kernel
def pin_solution(tables, live, pinned, solution):
    """Narrow the cells ``pinned`` (a bool per variable) of a node at its fixpoint to the
    one-digit masks ``solution``, and propagate (what ``propagate`` returns).

    Each narrowed cell queues its entries as in ``apply_row``, but an entry whose
    cells are all pinned is given its one row at once (``solution_row``) instead
    of a filter of its table: a check pins most of a big grid to a solution at a
    time (its fitting pieces, a near hunt's far cells), where filtering every
    table cost 8 ms a time on the 30x100 open grid of bench/open_grids.py.
    """
    perm, pos, nalive, mask = live.perm, live.pos, live.nalive, live.mask
    ent_off, ent_var, tab_off = tables.ent_off, tables.ent_var, tables.tab_off
    for k in range(nalive.shape[0]):
        if nalive[k] <= 1:                   # decided, or no table yet
            continue
        whole = True
        for q in range(ent_off[k], ent_off[k + 1]):
            whole = whole and pinned[ent_var[q]]
        if whole:
            r = solution_row(tables, k, solution)
            live_row = r >= 0 and pos[r] < tab_off[k] + nalive[k]
            if r >= 0 and is_lazy(tables, nalive, k):
                live_row = True                 # a lazy table's: a row its masks allow
                for q in range(ent_off[k], ent_off[k + 1]):
                    live_row = live_row and mask[ent_var[q]] & solution[ent_var[q]] != 0
            if live_row:
                swap_rows(perm, pos, pos[r], tab_off[k])
                nalive[k] = 1
    for v in range(mask.shape[0]):
        if pinned[v] and mask[v] != solution[v]:
            lost = mask[v] & ~solution[v]
            mask[v] &= solution[v]
            for q in range(tables.var_eoff[v], tables.var_eoff[v + 1]):
                j = tables.var_ent[q]
                if nalive[j] > 1 or (nalive[j] == 1 and mask[v] == 0):
                    live.gone[tables.var_slot[q]] |= lost
                    enqueue(live.queue, live.inq, live.qstate, j)
    return propagate(tables, live, True)


def pack_tables(cells, tables):
    """``(rows, tab_off)`` for a list of ``(n_k, len_k)`` tables (rows padded to 9)."""
    tab_off = np.zeros(len(tables) + 1, np.int64)
    rows = np.zeros((sum(len(t) for t in tables), 9), np.int8)
    for k, (c, t) in enumerate(zip(cells, tables)):
        t = np.asarray(t, np.int8).reshape(-1, len(c))
        if t.size and (t.min() < 1 or t.max() > 9):
            raise ValueError(f"table {k} holds a digit outside 1-9")
        tab_off[k + 1] = tab_off[k] + len(t)
        rows[tab_off[k]:tab_off[k + 1], :len(c)] = t
    return rows, tab_off


def force(cells: Sequence[np.ndarray], tables: Sequence[np.ndarray],
          until_fixed: bool = False) -> list[np.ndarray]:
    """Drop the rows of each table that some crossing table rules out.

    Parameters
    ----------
    cells : list of int arrays
        Cell indices of each entry, as from ``entries``.
    tables : list of (n_k, len_k) int arrays
        Joint possibilities, as from ``jposs``.
    until_fixed : bool
        False: one round, the essay's ``force``. True: repeat until nothing
        changes (``force^:_``), in one numba loop.

    Returns
    -------
    list of (m_k, len_k) int8 arrays
        The rows kept, in their original order.

    Examples
    --------
    >>> cells = [[0, 1], [0, 2]]
    >>> [t.tolist() for t in force(cells, [[[1, 3], [3, 1]], [[1, 2], [2, 1]]])]
    [[[1, 3]], [[1, 2]]]
    """
    if len(cells) != len(tables):
        raise ValueError(f"{len(cells)} entries but {len(tables)} tables")
    ent_off, ent_var, var_cell = compact_cells(cells)
    rows, tab_off = pack_tables(cells, tables)
    if until_fixed:
        alive = force_fixpoint(tables_model(ent_off, ent_var, rows, tab_off).root())
    else:
        alive = np.ones(len(rows), np.bool_)
        force_round(rows, tab_off, alive, ent_off, ent_var, len(var_cell))
    keep = np.flatnonzero(alive)
    new_off = np.searchsorted(keep, tab_off)
    return split_tables(rows[keep], new_off, ent_off)
