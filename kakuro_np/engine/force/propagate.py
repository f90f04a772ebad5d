"""Propagation: filter the queued entries until nothing changes (``propagate``), and the
walks' start, the fixpoint of every table in full (``start_state``).

The fixpoint is the same whatever order entries are filtered in, so the
kernel's queue reaches the essay's ``force^:_`` tables exactly (``force_rows``, with one
round of the essay's ``force`` beside it).
"""

from __future__ import annotations

import numpy as np

from ..build.jposs import var_entries
from ..build.perms import perm_sets
from ..core.jit import borrow, kernel
from ..core.state import Live, Tables
from ..core.workqueue import dequeue, enqueue, new_queue
from .filters import filter_perm, filter_scan
from .index import INDEX_MAX_ENTRIES, INDEX_MIN, build_index


@kernel
def propagate(tables, live, stop_on_empty):
    """Filter queued entries until the queue is empty.

    ``tables.tab_off[k]`` is where entry ``k``'s rows start in ``perm`` (its end is
    not used); an entry whose ``nalive`` is -1 has no table yet and is not
    queued. Returns -1, or the first entry whose table emptied. With ``stop_on_empty``
    it returns at once then (leaving the queue cleared); otherwise it goes on
    to the full fixpoint, as the essay does. The loop works on views of the records'
    arrays that are not reference-counted (``jit.borrow``), the filters' projections
    in the node's own row of 9 (``live.proj``).
    """
    queue, inq, qstate = borrow(live.queue), borrow(live.inq), borrow(live.qstate)
    nalive, mask, gone = borrow(live.nalive), borrow(live.mask), borrow(live.gone)
    proj = borrow(live.proj)
    ent_off, ent_var = borrow(tables.ent_off), borrow(tables.ent_var)
    var_eoff, var_ent = borrow(tables.var_eoff), borrow(tables.var_ent)
    var_slot, perm_set = borrow(tables.var_slot), borrow(tables.perm_set)
    emptied = -1
    while qstate[1] > 0:
        k = dequeue(queue, inq, qstate)
        if perm_set[k] != 0:                        # a permutation table (``perms``)
            n = filter_perm(tables, live, k, proj)
        else:
            n = filter_scan(tables, live, k, proj)
        if n == 0:
            if emptied < 0:
                emptied = k
            if stop_on_empty:
                # empty the queue, leaving no entry with digits gone: a node left before
                # it was propagated must not leave them to the next ``propagate``, whose
                # indexed filters drop the rows holding them whatever the masks say
                while qstate[1] > 0:
                    j = dequeue(queue, inq, qstate)
                    for q in range(ent_off[j], ent_off[j + 1]):
                        gone[q] = 0
                return emptied
        a = ent_off[k]
        for p in range(ent_off[k + 1] - a):
            v = ent_var[a + p]
            if proj[p] != mask[v]:
                # as in apply_row, written out: a shared inline kernel taking the records
                # slows the search (see bench/HISTORY.md)
                lost = mask[v] & ~proj[p]
                mask[v] &= proj[p]
                for q in range(var_eoff[v], var_eoff[v + 1]):
                    j = var_ent[q]
                    if j != k and nalive[j] >= 0:       # -1: a table not built yet
                        gone[var_slot[q]] |= lost
                        enqueue(queue, inq, qstate, j)
    return emptied


@kernel
def start_state(root, stop_on_empty, index_min=-1):
    """The search's root: the fixpoint of ``force`` from every table in full.

    Returns ``(emptied, tables, live)``: -1 or the first entry whose table
    emptied (with ``stop_on_empty`` it stops there, see ``propagate``), the
    ``state.Tables`` and the ``state.Live`` node, whose ``mask`` is ``root.mask``
    itself, changed in place. The tables' index is the root's (built once per
    model, ``model.build``), else one of the tables of INDEX_MIN rows or more; with
    ``index_min`` (0 or more), one of the tables of ``index_min`` rows or more, but a
    model's permutation tables (kept lazily, ``perms``), as ``model.build`` indexes them.
    From ``root.fit_mask`` itself (the model's masks, whose fixpoint the tables
    are) there is nothing to force, and no table is filtered. A model's root masks
    must lie within its ``fit_mask``: a lazy permutation table (``perms``) counts its
    live rows from the masks, and its table holds only the rows the model's allow.
    """
    ent_off, ent_var, mask, rows, tab_off = root[:5]
    E = tab_off.shape[0] - 1
    of_model = root.fit_mask.shape[0] == mask.shape[0]
    # a model's tables hold every row its masks allow, so a node's are those its masks do
    # (``perms``); tables given otherwise (``force_rows``) are filtered row by row
    perm_set = perm_sets(ent_off, rows, tab_off) if of_model else np.zeros(E, np.int64)
    if index_min < 0 and root.idx_off.shape[0] == 81 * E + 1:
        idx_off, idx_row = root.idx_off, root.idx_row
    else:
        idx_off, idx_row = build_index(ent_off, rows, tab_off,
                                       INDEX_MIN if index_min < 0 else index_min,
                                       INDEX_MAX_ENTRIES, perm_set)
    var_eoff, var_ent = var_entries(ent_off, ent_var, mask.shape[0])
    var_slot = np.zeros(ent_var.shape[0], np.int64)     # where each variable is among the
    fill = var_eoff[:-1].copy()                         # cells of each of its entries,
    for k in range(E):                                  # beside ``var_ent`` (filled in
        for i in range(ent_off[k], ent_off[k + 1]):     # the same order)
            var_slot[fill[ent_var[i]]] = i
            fill[ent_var[i]] += 1
    perm = np.empty(rows.shape[0], np.int32)
    for r in range(rows.shape[0]):
        perm[r] = r
    nalive = np.empty(E, np.int64)
    for k in range(E):
        nalive[k] = tab_off[k + 1] - tab_off[k]
    queue, inq, qstate = new_queue(E)
    tables = Tables(ent_off, ent_var, var_eoff, var_ent, var_slot, rows, tab_off, idx_off,
                    idx_row, perm_set)
    at_fixpoint = of_model
    for v in range(root.fit_mask.shape[0]):
        at_fixpoint = at_fixpoint and mask[v] == root.fit_mask[v]
    live = Live(perm, perm.copy(), nalive, mask, queue, inq, qstate,
                # the masks are not yet met, unless the tables are their fixpoint already
                np.full(ent_var.shape[0], 0 if at_fixpoint else 0x1FF, np.int64),
                np.full(81 * E, -1, np.int32), np.zeros(9, np.int64))
    if at_fixpoint:         # every row fits the masks and supports each digit: nothing to force
        return np.int64(-1), tables, live
    for k in range(E):
        enqueue(queue, inq, qstate, k)
    return propagate(tables, live, stop_on_empty), tables, live


@kernel
def force_rows(root, until_fixed):
    """The rows the essay's ``force`` keeps of ``root``'s tables (every digit allowed), as
    live-row flags: one round of it, or with ``until_fixed`` its fixpoint ``force^:_``
    (``start_state``, which narrows ``root.mask`` in place).

    A round: each cell's mask is the AND over its entries of the digits their rows put
    there; then each table keeps the rows whose every digit its cells allow.
    """
    ent_off, ent_var, mask, rows, tab_off = root[:5]
    E = tab_off.shape[0] - 1
    if until_fixed:
        _, _, live = start_state(root, False)
        alive = np.zeros(rows.shape[0], np.bool_)
        for k in range(E):
            for i in range(tab_off[k], tab_off[k] + live.nalive[k]):
                alive[live.perm[i]] = True
        return alive
    alive = np.ones(rows.shape[0], np.bool_)
    cell = np.full(mask.shape[0], 0x1FF, np.int64)
    proj = np.zeros(9, np.int64)
    for k in range(E):
        a = ent_off[k]
        L = ent_off[k + 1] - a
        proj[:L] = 0
        for r in range(tab_off[k], tab_off[k + 1]):
            for p in range(L):
                proj[p] |= 1 << (rows[r, p] - 1)
        for p in range(L):
            cell[ent_var[a + p]] &= proj[p]
    for k in range(E):
        a = ent_off[k]
        for r in range(tab_off[k], tab_off[k + 1]):
            for p in range(ent_off[k + 1] - a):
                if not (cell[ent_var[a + p]] >> (rows[r, p] - 1)) & 1:
                    alive[r] = False
                    break
    return alive
