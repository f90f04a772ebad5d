"""The index of the big tables: each table's rows by position and digit (``build_index``)."""

from __future__ import annotations

import numpy as np

from ..core.jit import kernel


#: Tables of at least this many rows are indexed by position and digit (``build_index``)...
INDEX_MIN = 128
#: ... the smallest first, up to this many index entries in all (128 MiB of int32; a
#: model's permutation tables are kept lazily and not indexed, ``perms``).
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
    least = max(min_rows, 1)
    big = False
    for k in range(E):
        big = big or (tab_off[k + 1] - tab_off[k] >= least and skip[k] == 0)
    if not big:                                     # no table to index (most puzzles)
        return np.zeros(81 * E + 1, np.int64), np.empty(0, np.int32)
    indexed = np.zeros(E, np.bool_)
    size = tab_off[1:] - tab_off[:-1]
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
