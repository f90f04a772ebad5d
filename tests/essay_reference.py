"""The essay's ``solve`` and ``kakuro`` written literally in Python on top of the
one-round ``force``: slow, obvious, and the yardstick for the order of solutions.
"""

from __future__ import annotations

import numpy as np

import kakuro_np as kn


def force_until_fixed(cells, tables):
    """``force^:_`` by iterating the one-round verb."""
    while True:
        new = kn.force(cells, tables)
        if all(len(a) == len(b) for a, b in zip(new, tables)):
            return new
        tables = new


def essay_solve(cells, tables):
    """Every solution as a list of one-row tables, in the essay's fan-out order."""
    p = force_until_fixed(cells, tables)
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
        out += essay_solve(cells, branch)
    return out


def essay_tables(puzzle):
    """The essay's entries and jposs, plus what the engine adds: lone unclued
    cells as entries of their own (any digit), and rows that break a given digit dropped."""
    cells, sums = kn.entries(puzzle)
    tables = kn.jposs(cells, sums) if cells else []
    in_entry = set(np.concatenate(cells).tolist()) if cells else set()
    for cell in np.flatnonzero(puzzle.blank.ravel()):
        if cell not in in_entry:
            cells.append(np.array([cell]))
            tables.append(np.arange(1, 10, dtype=np.int8)[:, None])
    given = puzzle.given.ravel()
    for k, (c, t) in enumerate(zip(cells, tables)):
        keep = np.all((given[c] == 0) | (t == given[c]), axis=1)
        tables[k] = t[keep]
    return cells, tables


def essay_kakuro(puzzle):
    """All solutions as an (n, H, W) array, in the essay's order."""
    cells, tables = essay_tables(puzzle)
    H, W = puzzle.shape
    sols = essay_solve(cells, tables)
    out = np.zeros((len(sols), H * W), np.int8)
    for i, p in enumerate(sols):
        for c, t in zip(cells, p):
            out[i, c] = t[0]
    return out.reshape(-1, H, W)
