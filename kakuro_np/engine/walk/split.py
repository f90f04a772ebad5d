"""Splitting the essay's fan-out tree into subproblems, for a search spread over many processes.

A node of the fan-out is fixed by its cell masks alone: the fixpoint of
``force`` from the full tables and those masks is the node (``start_state``),
and its branches are the live rows of the entry ``pick_entry`` takes, in
lexicographic order. So a subproblem is a mask per variable, and searching or
counting from it gives exactly that branch's solutions, in the essay's order;
the solutions of the subproblems, in the order ``split`` lists them, are the
solutions of the whole, in the same order.

Glossary
--------
subproblem : ``(V,)`` int64 cell masks, one branch of the fan-out with its
             digits fixed (a node not yet forced: its search forces it).
leaf       : a subproblem whose fixpoint has every cell decided (one solution).
"""

from __future__ import annotations

import numpy as np

from ..force import live_rows, pick_entry, start_state
from ..core.jit import kernel


@kernel
def branch_rows(root):
    """The fan-out at the node ``root.mask`` fixes: ``(emptied, k, rows)``.

    ``root.mask`` is left at the node's fixpoint. ``emptied`` is -1 or the
    entry whose table emptied (then there is no branch); ``k`` is the entry
    fanned out over (-1 at a leaf or a contradiction) and ``rows`` its live
    rows in lexicographic order (the essay's order of the branches).
    """
    emptied, tables, live = start_state(root, True)
    if emptied >= 0:
        return emptied, -1, np.empty(0, np.int64)
    k = pick_entry(live.nalive)
    if k < 0:
        return -1, -1, np.empty(0, np.int64)
    rows = np.empty(live.nalive[k], np.int64)
    live_rows(tables, live, k, rows, 0)
    rows.sort()
    return -1, k, rows


def children(m, mask) -> tuple:
    """The branches below the node ``mask`` fixes in model ``m`` (``model.Model``):
    ``(fixpoint mask, [child mask, ...])``, the children in the essay's order.

    ``fixpoint mask`` is None where the node has no solution; the list is
    empty at a leaf.

    Examples
    --------
    >>> from kakuro_np.solve import model
    >>> m = model([["x", (3, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 3), "_", "_"]])
    >>> node, below = children(m, m.mask)
    >>> [c.tolist() for c in below]            # 1 2 / 2 1 on top, then forced below
    [[1, 2, 3, 3], [2, 1, 3, 3]]
    """
    root = m._replace(mask=np.asarray(mask, np.int64)).root()    # a copy: left at the fixpoint
    emptied, k, rows = branch_rows(root)
    if emptied >= 0:
        return None, []
    return root.mask, list(row_children(m, root.mask, k, rows))


def row_children(m, mask, k, rows=None):
    """The children of the node ``mask`` over entry ``k`` of model ``m``, one at a time: a
    copy of the masks per row of ``rows`` (places in ``m.rows``; default: entry ``k``'s
    whole table, in order) that fits them, with ``k``'s cells set to its digits.

    Examples
    --------
    >>> from kakuro_np.solve import model
    >>> m = model([["x", (3, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 3), "_", "_"]])
    >>> [c.tolist() for c in row_children(m, m.mask, 0)]   # 1 2 or 2 1 on top
    [[1, 2, 3, 3], [2, 1, 3, 3]]
    >>> [c.tolist() for c in row_children(m, np.array([1, 3, 3, 3]), 0)]
    [[1, 2, 3, 3]]
    """
    cells = m.ent_var[m.ent_off[k]:m.ent_off[k + 1]]
    rows = np.arange(m.tab_off[k], m.tab_off[k + 1]) if rows is None else rows
    bits = 1 << (m.rows[rows, :len(cells)].astype(np.int64) - 1)
    for row_bits in bits[(bits & mask[cells] != 0).all(axis=1)]:
        child = mask.copy()
        child[cells] = row_bits
        yield child


def split(m, want, most_nodes=None) -> list:
    """At least ``want`` subproblems of model ``m`` (fewer only where the tree ends), in
    the essay's order: their solutions, in turn, are the puzzle's.

    Nodes are opened breadth first, in order, each replaced in place by its
    children, so the order is kept; branches found empty are dropped and
    leaves kept. ``most_nodes`` (default ``8 * want``) bounds the nodes opened.

    Examples
    --------
    >>> from kakuro_np.solve import model
    >>> m = model("puzzles/k3.txt")
    >>> len(split(m, 8)) >= 8
    True
    """
    most_nodes = 8 * want if most_nodes is None else most_nodes
    level = [np.array(m.mask, np.int64)]
    opened = 0
    while len(level) < want and opened < most_nodes:
        out, grew = [], False
        for i, mask in enumerate(level):
            if len(out) + len(level) - i >= want or opened >= most_nodes:
                out.extend(level[i:])
                break
            node, below = children(m, mask)
            opened += 1
            if node is None:
                continue                              # no solution below: dropped
            if below:
                out.extend(below)
                grew = True
            else:
                out.append(node)                      # a leaf: one solution
        level = out
        if not grew:
            break
    return level
