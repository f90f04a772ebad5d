"""The filters: drop an entry's rows that its cells' masks forbid, and find each column's
digits over the rows kept. ``filter_scan`` filters a table through its index (an indexed
one, ``index``) or by a scan on the columns that lost digits, ``filter_perm`` a
permutation table kept lazily (``perms``).
"""

from __future__ import annotations

import numpy as np

from ..build.perms import LAZY_ROWS, list_perms, perm_count, perm_projection
from ..core.jit import borrow, inline_kernel, kernel


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
def filter_scan(tables, live, k, proj):
    """Drop entry ``k``'s rows that its cells' masks forbid; ``proj[p]`` gets the digit set
    of column ``p`` over the rows kept. Returns how many are kept.

    An indexed table with at least an eighth of its rows live goes through its index
    when the rows holding its cells' lost digits (``live.gone``) are fewer than its live
    ones: it drops just those rows, and finds each column's digits from the supports
    (``live.support``, rechecked as hints). Otherwise (with few rows live, the supports'
    lists are mostly dead rows) a scan of its live rows checks only the columns that
    lost digits, and stops adding to ``proj`` once every column has all of its cell's
    digits. Either way ``live.gone`` is cleared. It works on views that are not
    reference-counted (``jit.borrow``), since it is called once a table at each step.
    """
    rows, perm, pos = borrow(tables.rows), borrow(live.perm), borrow(live.pos)
    mask, ent_var, gone = borrow(live.mask), borrow(tables.ent_var), borrow(live.gone)
    proj = borrow(proj)
    a = tables.ent_off[k]
    L = tables.ent_off[k + 1] - a
    start = tables.tab_off[k]
    n = live.nalive[k]
    base = 81 * k
    if (tables.idx_off[base] != tables.idx_off[base + 81]
            and n * 8 >= tables.tab_off[k + 1] - start):
        idx_off, idx_row = borrow(tables.idx_off), borrow(tables.idx_row)
        support = borrow(live.support)
        work = 0                                # what the index would visit
        for p in range(L):
            for d in range(9):
                if (gone[a + p] >> d) & 1:
                    work += idx_off[base + 9 * p + d + 1] - idx_off[base + 9 * p + d]
        if work < n:
            for p in range(L):
                for d in range(9):
                    if (gone[a + p] >> d) & 1:
                        for t in range(idx_off[base + 9 * p + d], idx_off[base + 9 * p + d + 1]):
                            i = pos[idx_row[t]]
                            if i < start + n:   # live: swap it past the live block
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


@inline_kernel
def is_lazy(tables, nalive, k):
    """Whether entry ``k``'s table is kept without its rows now (``perms``): a permutation
    table with more than LAZY_ROWS live rows."""
    return tables.perm_set[k] != 0 and nalive[k] > LAZY_ROWS


@kernel
def filter_perm(tables, live, k, proj):
    """``filter_scan``'s work on a permutation table (``tables.perm_set[k]``, see ``perms``): while
    it is lazy, its live rows counted and its columns' digits found from its cells'
    masks alone; once they are LAZY_ROWS or fewer, listed at the front of its block
    (``list_perms``); from then on scanned (``filter_scan``)."""
    if not is_lazy(tables, live.nalive, k):
        return filter_scan(tables, live, k, proj)
    digits = tables.perm_set[k]
    a = tables.ent_off[k]
    masks = np.empty(tables.ent_off[k + 1] - a, np.int64)     # its cells' masks
    for p in range(masks.shape[0]):
        masks[p] = live.mask[tables.ent_var[a + p]]
        live.gone[a + p] = 0
    n = perm_count(masks, digits)
    if n > LAZY_ROWS:
        perm_projection(masks, digits, proj)
    elif n == 0:
        for p in range(masks.shape[0]):
            proj[p] = 0
    else:                   # its live rows to the front of its block, their digits in proj
        start = tables.tab_off[k]
        found = np.empty(n, np.int64)
        n = list_perms(masks, digits, tables.rows, start, tables.tab_off[k + 1], found, proj)
        for i in range(n):
            swap_rows(live.perm, live.pos, live.pos[found[i]], start + i)
    live.nalive[k] = n
    return n


@kernel
def list_lazy(tables, live, k):
    """Make entry ``k``'s live rows ``perm[tab_off[k]:tab_off[k] + nalive[k]]`` again if its
    table is lazy (``perms``), for the few readers of its rows (a fan-out over it,
    a count's read-back): they are listed from its cells' masks (``list_perms``) at the
    front of its block; its ``nalive`` does not change."""
    if not is_lazy(tables, live.nalive, k):
        return
    a = tables.ent_off[k]
    masks = np.empty(tables.ent_off[k + 1] - a, np.int64)     # its cells' masks
    for p in range(masks.shape[0]):
        masks[p] = live.mask[tables.ent_var[a + p]]
    start = tables.tab_off[k]
    found = np.empty(live.nalive[k], np.int64)
    n = list_perms(masks, tables.perm_set[k], tables.rows, start, tables.tab_off[k + 1], found,
                   np.empty(masks.shape[0], np.int64))
    for i in range(n):
        swap_rows(live.perm, live.pos, live.pos[found[i]], start + i)
    live.nalive[k] = n
