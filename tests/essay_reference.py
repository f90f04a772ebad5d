"""The essay's verbs as yardsticks: ``force^:_`` by iterating the one-round
``kn.force``, and the order of solutions from the plain-numpy reference in
``bench/numpy_reference.py`` (the essay read literally, independent of the
package's kernels).
"""

from __future__ import annotations

import sys

import numpy as np

import kakuro_np as kn
from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
from numpy_reference import solve as essay_solve  # noqa: E402


def force_until_fixed(cells, tables):
    """``force^:_`` by iterating the one-round verb."""
    while True:
        new = kn.force(cells, tables)
        if all(len(a) == len(b) for a, b in zip(new, tables)):
            return new
        tables = new


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
    sols = essay_solve(cells, tables) if cells else [[]]    # no runs: one empty solution
    out = np.zeros((len(sols), H * W), np.int8)
    for i, p in enumerate(sols):
        for c, t in zip(cells, p):
            out[i, c] = t[0]
    return out.reshape(-1, H, W)
