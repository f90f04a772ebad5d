"""The fan-out trail: the one depth-first walk the search, the hunt and the count share.

Glossary
--------
level : one fan-out: the entry branched on, the rows of it still to try, and
        the node (masks and live-row counts) to restore before each; or, in a
        trail with room for them (``trail_for`` on cells), the digits of one cell.
trail : the open levels, a stack in flat arrays (``Trail``). Level ``d``'s rows
        are ``cand[first[d]:stop[d]]`` and the next to try is ``cand[nxt[d]]``;
        ``top`` holds the depth and the number of ``cand`` slots in use.
step  : leave the node the walk stands on for the next one: the next row of
        the deepest level with rows left (``step``), propagated.

A walk goes: at a node, pick an entry (the caller's branching rule) and
``open_level`` on it, or take note of a solution; then ``step``; ``close_levels``
ends a level early. Every walk steps
with ``step``: the essay's search, the hunt in any order, and the count, whose
fans each walk their own level (``counting.count_scope``). Each level
decides one more entry, so a walk is at most as deep as there are entries,
and its rows are at most all the rows: a trail never grows.

Examples
--------
Every leaf of k0, by the essay's rule (the entry with the fewest live rows):

>>> import kakuro_np as kn
>>> from kakuro_np.engine.force import pick_entry, start_state
>>> from kakuro_np.solve import model
>>> m = model(kn.read("puzzles/k0.txt"))
>>> _, tables, live = start_state(m.root(), True)
>>> trail, leaves = trail_for(tables, live, False), 0
>>> while True:
...     k = pick_entry(live.nalive)
...     if k < 0:
...         leaves += 1
...     else:
...         open_level(trail, tables, live, k, True)
...     emptied = step(trail, tables, live, 0)
...     while emptied >= 0:                         # a dead node: step on
...         emptied = step(trail, tables, live, 0)
...     if emptied == WALKED:
...         break
>>> leaves
1
"""

from __future__ import annotations

import numpy as np
from numba.experimental import structref

from ..core.codes import WALKED
from ..force import apply_digit, apply_row, live_rows, propagate
from ..core.jit import RecordType, by_reference, copy_into, inline_kernel, kernel, sort_ints



class TrailType(RecordType):
    """The numba type of a ``Trail``."""


class Trail(structref.StructRefProxy):
    """The open levels of a depth-first walk (see the module's glossary)."""


by_reference(Trail, TrailType, (     # its fields, passed by reference (``jit.by_reference``)
    "saved_mask",   # int64, levels x V: each level's masks
    "saved_alive",  # int64, levels x E: each level's live-row counts
    "branch",       # int64, levels: the entry each level branches on (-1 - v: cell v)
    "first",        # int64, levels: where each level's rows start in cand
    "stop",         # int64, levels: where they end
    "nxt",          # int64, levels: the next row to try
    "cand",         # int64, R: the rows of every level
    "top",          # int64, 2: the depth and the cand slots in use
))


@kernel
def trail_for(tables, live, on_cells):
    """An empty trail with room for a walk over ``tables``: a level for each entry; with
    ``on_cells``, one for each cell (each level decides one undecided cell or more) and
    room for nine digits each, so that its levels may branch on entries' rows or on
    cells' digits (``open_level``). Memory is touched as it is used."""
    E, V = live.nalive.shape[0], live.mask.shape[0]
    levels = V + 1 if on_cells else E + 1
    n_cand = tables.rows.shape[0] + (9 * V + 1 if on_cells else 0)
    return Trail(np.empty((levels, V), np.int64), np.empty((levels, E), np.int64),
                 np.empty(levels, np.int64), np.empty(levels, np.int64),
                 np.empty(levels, np.int64), np.empty(levels, np.int64),
                 np.empty(max(n_cand, 1), np.int64), np.zeros(2, np.int64))


@kernel
def open_level(trail, tables, live, branch, in_order):
    """Open a level at the current node on ``branch`` (see ``Trail.branch``), saving the node
    to restore before each of its choices: entry ``k = branch >= 0``'s live rows, sorted if
    ``in_order``; or cell ``v``'s digits for ``branch = -1 - v``, lowest first (as 0-8),
    in a trail with room for them (``trail_for`` on cells)."""
    d = trail.top[0]
    at = trail.top[1]
    if branch >= 0:
        n = live_rows(tables, live, branch, trail.cand, at)
        if in_order:
            sort_ints(trail.cand, at, at + n)
    else:
        n = 0
        for digit in range(9):
            if (live.mask[-1 - branch] >> digit) & 1:
                trail.cand[at + n] = digit
                n += 1
    copy_into(trail.saved_mask[d], live.mask)
    copy_into(trail.saved_alive[d], live.nalive)
    trail.branch[d] = branch
    trail.first[d] = at
    trail.nxt[d] = at
    trail.stop[d] = at + n
    trail.top[0] = d + 1
    trail.top[1] = at + n


@inline_kernel
def apply_branch(trail, tables, live, d, i):
    """Apply level ``d``'s choice ``i``: a row of its entry, or a digit of its cell."""
    k = trail.branch[d]
    if k >= 0:
        apply_row(tables, live, k, trail.cand[i])
    else:
        apply_digit(tables, live, -1 - k, trail.cand[i])


@kernel
def close_levels(trail, live, d, restore):
    """Close the levels from depth ``d`` up (``d`` of them stay open); with ``restore`` the
    node is put back as level ``d`` found it."""
    if d < trail.top[0]:
        if restore:
            copy_into(live.mask, trail.saved_mask[d])
            copy_into(live.nalive, trail.saved_alive[d])
        trail.top[1] = trail.first[d]
    trail.top[0] = d


@inline_kernel
def step(trail, tables, live, floor):
    """Walk on to the next node: the next row of the deepest level with rows left, of the
    levels from ``floor`` (0: every level; a walk of its own over a level of the trail,
    as a count's fan is, passes that level's depth, ``trail.top[0] - 1``).

    Returns -1 at a node where forced moves hold, the entry whose table
    emptied at a dead node, or WALKED when level ``floor`` has no rows left (it
    stays open, the levels above it closed).
    """
    while trail.top[0] > floor:
        d = trail.top[0] - 1
        i = trail.nxt[d]
        if i < trail.stop[d]:               # the level's next row (or digit): its node, then it
            trail.nxt[d] = i + 1
            copy_into(live.mask, trail.saved_mask[d])
            copy_into(live.nalive, trail.saved_alive[d])
            apply_branch(trail, tables, live, d, i)
            return propagate(tables, live, True)
        if d == floor:
            break
        close_levels(trail, live, d, False)
    return WALKED


@kernel
def rebuild_node(trail, tables, live, d):
    """Put the node at depth ``d`` of the path back, and make it level ``d``'s node again.

    The root is restored; a deeper node is rebuilt from its parent's (level
    ``d - 1``'s) with the row that level stands on. Restoring a deeper node's
    counts directly would be wrong once the walk went above it: ``perm`` was
    reordered since. Returns what ``propagate`` returns (-1 on the path).
    """
    if d == 0:
        copy_into(live.mask, trail.saved_mask[0])
        copy_into(live.nalive, trail.saved_alive[0])
        return -1
    copy_into(live.mask, trail.saved_mask[d - 1])
    copy_into(live.nalive, trail.saved_alive[d - 1])
    apply_branch(trail, tables, live, d - 1, trail.nxt[d - 1] - 1)
    emptied = propagate(tables, live, True)
    if d < trail.top[0]:
        copy_into(trail.saved_mask[d], live.mask)
        copy_into(trail.saved_alive[d], live.nalive)
    return emptied
