"""Nested dissection: the cells an exact count decides first, so its pieces split early.

Glossary
--------
entry graph : the undecided entries, linked by their shared undecided cells (a
              cell is an edge between its across and its down entry).
cut         : the cells of a part whose removal splits its entry graph in two, found
              by a spectral bisection (the sweep of the graph's Fiedler vector that
              cuts the fewest cells for the balance of the two sides).
rank        : per cell, the level of the dissection that cut it (0: the first cut of
              the whole grid, 1: the cuts of its two sides, ...), or LEAF.

An exact count (``counting.open_fan``) decides a piece's cell of least rank
first: the cells of a cut, then each side's, so a piece splits into parts
counted apart (and met again in the memo) after a few cells instead of whole
entries. Cells below LEVELS are left to the tree decomposition's order.
The constants below were chosen on big open grids (see bench/HISTORY.md).
"""

from __future__ import annotations

import numpy as np

from ...combos import POPCOUNT

#: The rank of a cell no cut of the top LEVELS took.
LEAF = 1 << 30
#: Levels of cuts ranked: deeper parts fan out in the tree decomposition's order.
LEVELS = 3
#: Parts of fewer entries are not cut.
LEAST_PART = 6
#: Grids of more undecided entries are not dissected (each cut solves a dense
#: eigenproblem of its part: E**3 work).
MOST_ENTRIES = 1024


def cut_ranks(ent_off, ent_var, mask) -> np.ndarray:
    """Per cell (variable), the level of the nested dissection that cuts it, or LEAF.

    Parameters
    ----------
    ent_off, ent_var : int64 arrays
        Entry ``k``'s cells are ``ent_var[ent_off[k]:ent_off[k + 1]]``.
    mask : int64 array
        Each cell's candidates; a cell with one is decided and links nothing.

    Returns
    -------
    int64 array, one per cell: 0 for the cells of the first cut of each
    connected part of the grid, 1 for those of the cuts of its sides, and so on
    down to LEVELS - 1; LEAF for the others (and for every cell of a grid of more
    than MOST_ENTRIES entries).

    Examples
    --------
    Two blocks joined by one down entry: the first cut takes one of its two
    cells, and leaves two sides too small to cut again.

    >>> from kakuro_np.solve import model
    >>> m = model([["x", (4, 0), (7, 0), "x", "x", "x"],
    ...            [(0, 3), "_", "_", (12, 0), "x", "x"],
    ...            [(0, 17), "_", "_", "_", (3, 0), (5, 0)],
    ...            ["x", "x", (0, 8), "_", "_", "_"],
    ...            ["x", "x", "x", (0, 3), "_", "_"]])
    >>> ranks = cut_ranks(m.ent_off, m.ent_var, np.full(len(m.mask), 0x1FF))
    >>> int((ranks == 0).sum()), int((ranks == LEAF).sum())
    (1, 9)
    """
    n_var = mask.shape[0]
    rank = np.full(n_var, LEAF, np.int64)
    E = ent_off.shape[0] - 1
    open_var = POPCOUNT[mask] > 1
    slot_ent = np.repeat(np.arange(E), np.diff(ent_off))
    keep = open_var[ent_var]
    by_var = np.argsort(ent_var[keep], kind="stable")
    var_of = ent_var[keep][by_var]
    ent_of = slot_ent[keep][by_var]
    two = np.flatnonzero((var_of[:-1] == var_of[1:]))      # a cell in two entries: an edge
    edge_var, edge_a, edge_b = var_of[two], ent_of[two], ent_of[two + 1]
    if len(np.unique(np.concatenate([edge_a, edge_b]))) > MOST_ENTRIES:
        return rank
    cut = np.zeros(len(edge_var), bool)
    todo = [(part, 0) for part in _parts(np.arange(E), edge_a, edge_b, cut, E)]
    while todo:
        part, level = todo.pop()
        if len(part) < LEAST_PART or level >= LEVELS:
            continue
        took = _bisect(part, edge_a, edge_b, cut, E)
        cut[took] = True
        rank[edge_var[took]] = level
        todo.extend((p, level + 1) for p in _parts(part, edge_a, edge_b, cut, E))
    return rank


def _inside(part, edge_a, edge_b, cut, E):
    """The uncut edges with both ends in ``part`` (entries below ``E``)."""
    member = np.zeros(E, bool)
    member[part] = True
    return np.flatnonzero(member[edge_a] & member[edge_b] & ~cut)


def _parts(part, edge_a, edge_b, cut, E) -> list:
    """The connected parts of the entries ``part`` over the uncut edges (entries linked to
    nothing are left out: they have no cell to decide)."""
    inner = _inside(part, edge_a, edge_b, cut, E)
    parent = np.arange(E)

    def root(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for e in inner:
        ra, rb = root(edge_a[e]), root(edge_b[e])
        if ra != rb:
            parent[ra] = rb
    linked = np.unique(np.concatenate([edge_a[inner], edge_b[inner]]))
    roots = np.array([root(x) for x in linked], np.int64)
    return [linked[roots == r] for r in np.unique(roots)]


def _bisect(part, edge_a, edge_b, cut, E) -> np.ndarray:
    """The edges of ``part``'s cut: sort its entries by the Fiedler vector of its entry
    graph's Laplacian, and cut where the cut edges over the product of the sides'
    sizes (the ratio cut) is least, with a quarter of the entries or more each side."""
    n = len(part)
    inner = _inside(part, edge_a, edge_b, cut, E)
    local = np.full(E, -1, np.int64)
    local[part] = np.arange(n)
    a, b = local[edge_a[inner]], local[edge_b[inner]]
    laplacian = np.zeros((n, n))
    np.add.at(laplacian, (a, b), -1.0)
    np.add.at(laplacian, (b, a), -1.0)
    laplacian[np.arange(n), np.arange(n)] = -laplacian.sum(axis=1)
    fiedler = np.linalg.eigh(laplacian)[1][:, 1]
    place = np.empty(n, np.int64)
    place[np.argsort(fiedler, kind="stable")] = np.arange(n)
    lo, hi = np.minimum(place[a], place[b]), np.maximum(place[a], place[b])
    crossing = np.zeros(n + 1, np.int64)      # edges cut when the first k entries are a side
    np.add.at(crossing, lo + 1, 1)
    np.add.at(crossing, hi + 1, -1)
    crossing = np.cumsum(crossing)
    k = np.arange(n + 1)
    sides = np.arange(max(1, n // 4), max(2, 3 * n // 4 + 1))
    best = sides[np.argmin(crossing[sides] / (k[sides] * (n - k[sides])))]
    return inner[(lo < best) & (hi >= best)]
