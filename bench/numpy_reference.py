"""The essay's verbs in plain numpy, no numba: the yardstick for what numba buys.

A literal reading of the J essay "Essays/Kakuro", one function per verb:

    entries  the runs of blank cells and their sums (across row-major, then down
             column-major, as the essay's ``entries`` orders them)
    csl      the joint possibilities of one entry: a cross product built right to
             left, pruned at each step to distinct digits whose sum is not over
    jposs    the tables, building the entry with the fewest estimated possibilities
             first and narrowing its cells' candidates to what its table allows
    force    one round: AND the digits each entry allows per cell, keep the rows
             every cell still allows
    solve    ``force`` to the fixpoint, then fan out over the smallest table above
             one row (ties to the lower index), and concatenate the branches
    kakuro   every solution as an (n, H, W) int8 array

Glossary: a *table* is an (n, L) int8 array, one row per joint possibility of an
entry of L cells (the essay stores it transposed, L x n); a *cell* is a flat
row-major index ``r * W + c``; *cand* is a (cells, 10) bool array, ``cand[i, d]``
while digit d is possible in cell i (column 0 is never set).

This module imports only numpy. Pass ``deadline`` (a ``time.perf_counter()``
value) to give up with ``Timeout`` when a puzzle takes too long.
"""

from __future__ import annotations

import time

import numpy as np

class Timeout(Exception):
    """The puzzle took longer than its deadline."""


def _check(deadline):
    if deadline is not None and time.perf_counter() > deadline:
        raise Timeout


def entries(blank, down, across):
    """(cells, sums): the flat cell indices of every entry and the sums they need.

    Across entries in row-major order of their clue cells, then down entries in
    column-major order. A lone blank with no clue in one direction is no entry
    in that direction; a blank in no entry at all gets an entry of its own with
    sum 0, meaning any digit (what the engine does too).
    """
    blank = np.asarray(blank, bool)
    H, W = blank.shape
    index = np.arange(H * W).reshape(H, W)
    cells, sums = [], []
    for grid, clue, idx in ((blank, across, index), (blank.T, np.asarray(down).T, index.T)):
        flat = np.pad(grid, ((0, 0), (1, 1))).ravel()                 # False at both ends
        step = np.diff(flat.astype(np.int8))
        starts = np.flatnonzero(step == 1) + 1                        # first blank of a run
        stops = np.flatnonzero(step == -1) + 1                        # first cell after it
        pad_idx = np.pad(idx, ((0, 0), (1, 1)), constant_values=-1).ravel()
        pad_clue = np.pad(np.asarray(clue), ((0, 0), (1, 1))).ravel()
        for s, e in zip(starts, stops):
            total = int(pad_clue[s - 1])                               # the clue before the run
            if total == 0 and e - s == 1:
                continue
            cells.append(pad_idx[s:e].astype(np.int64))
            sums.append(total)
    covered = np.zeros(H * W, bool)
    for c in cells:
        covered[c] = True
    for c in np.flatnonzero(blank.ravel() & ~covered):
        cells.append(np.array([c], np.int64))
        sums.append(0)
    return cells, np.array(sums, np.int64)


def csl(total, cand_lists):
    """The joint possibilities of one entry, rows in lexicographic order.

    ``cand_lists`` holds each cell's candidate digits (ascending). Sum 0 means
    any digit (a lone unclued cell).
    """
    if total == 0:
        return np.asarray(cand_lists[0], np.int8)[:, None]
    t = np.asarray(cand_lists[-1], np.int8)[:, None]
    for c in cand_lists[-2::-1]:
        c = np.asarray(c, np.int8)
        t = np.concatenate([np.repeat(c, len(t))[:, None], np.tile(t, (len(c), 1))], axis=1)
        keep = (t[:, :1] != t[:, 1:]).all(axis=1) & (t.sum(axis=1, dtype=np.int64) <= total)
        t = t[keep]
    return t[t.sum(axis=1, dtype=np.int64) == total]


def jposs(cells, sums, deadline=None):
    """The essay's ``jposs``: every entry's table, the most constrained built first."""
    n_cells = 1 + max((int(c.max()) for c in cells), default=-1)
    cand = np.ones((n_cells, 10), bool)
    cand[:, 0] = False
    todo = list(range(len(cells)))
    tables = [None] * len(cells)
    while todo:
        _check(deadline)
        counts = cand.sum(axis=1)
        est = [int(np.prod(counts[cells[j]], dtype=np.float64)) for j in todo]
        j = todo.pop(int(np.argmin(est)))
        k = cells[j]
        t = csl(int(sums[j]), [np.flatnonzero(cand[i]) for i in k])
        tables[j] = t
        cand[k] = allowed(t)
    return tables


def allowed(table):
    """(L, 10) bool: the digits each cell's column of ``table`` holds."""
    L = table.shape[1]
    out = np.zeros((L, 10), bool)
    out[np.broadcast_to(np.arange(L), table.shape), table] = True
    return out


def force(cells, tables):
    """One round of forced moves: keep the rows that every cell's joint mask allows."""
    n_cells = 1 + max(int(c.max()) for c in cells)
    mask = np.ones((n_cells, 10), bool)
    for k, t in zip(cells, tables):
        mask[k] &= allowed(t)
    return [t[mask[k][np.arange(t.shape[1]), t].all(axis=1)] for k, t in zip(cells, tables)]


def force_until_fixed(cells, tables, deadline=None):
    """``force^:_``: repeat one round until no table loses a row."""
    while True:
        _check(deadline)
        new = force(cells, tables)
        if all(len(a) == len(b) for a, b in zip(new, tables)):
            return new
        tables = new


def solve(cells, tables, deadline=None):
    """Every solution as a list of tables of one row each, in the essay's order."""
    p = force_until_fixed(cells, tables, deadline)
    n = np.array([len(t) for t in p])
    if (n == 0).any():
        return []
    if (n == 1).all():
        return [p]
    j = int(np.argmin(n + (n == 1) * n.max()))
    out = []
    for row in p[j]:
        branch = list(p)
        branch[j] = row[None, :]
        out += solve(cells, branch, deadline)
    return out


def kakuro(blank, down, across, deadline=None):
    """All solutions as an (n, H, W) int8 array, in the essay's order."""
    H, W = np.shape(blank)
    cells, sums = entries(blank, down, across)
    if not cells:
        return np.zeros((1, H, W), np.int8)
    sols = solve(cells, jposs(cells, sums, deadline), deadline)
    out = np.zeros((len(sols), H * W), np.int8)
    for i, p in enumerate(sols):
        for k, t in zip(cells, p):
            out[i, k] = t[0]
    return out.reshape(-1, H, W)
