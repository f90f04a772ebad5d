"""Finding solutions in any order, fast: "are there at least n?" for a puzzle writer's draft.

The essay's fan-out must visit the branches in its order, so a choice made
early that dooms a branch can cost millions of nodes before forced moves
refute it (thrashing). When the order does not matter (``count(limit=n)``,
``kakuro-np check``, and the checks ``engine.search`` makes once it thrashes:
"is there any solution below this node?") this hunt finds solutions by the
classic remedy: it fans out on the entry with the fewest live rows per unit of
weight, where an entry's weight grows each time its table empties (dom/wdeg),
and it restarts from the root after a growing number of failures (the Luby
sequence), so the entries that keep failing are decided first.

Glossary
--------
weight  : per entry, 1 plus how many times its table emptied in the hunt and in the
          earlier turns of a hunt taken in turns (the caller passes them on).
run     : one depth-first descent from the root, cut after ``RESTART_BASE *
          luby(i)`` failures; a run that is not cut has visited every solution.
seen    : hashes of the solutions found (runs may find one again).
sums    : each node is also tested on its clues together (``sums``); a node
          they refute fails like one whose table emptied, and the blame goes
          to the entry whose row led there (without it, every run walks into
          the same refuted corner).
flow    : the rows of a level are tried nearest first to the last sums test's
          flow, a digit per cell that makes every clue (value ordering).
guide   : a solution found near the node (``checks.check_node`` gives the
          parent's): rows that keep its digits are tried before the flow's.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.core import types
from numba.experimental import structref

from ..core import ahead
from ..core.codes import WALKED
from ..force import pick_entry, start_state
from ..core.jit import (FLOATS, INT, NO_DEADLINE, RecordType, by_reference, copy_into, kernel,
                        monotonic_ns)
from ..core.state import ROOT
from .sums import network_of, sums_feasible
from .trail import close_levels, open_level, step, trail_for

#: What the hunt makes of a node whose sums fail (no entry's table emptied).
SUMS_FAILED = np.iinfo(np.int64).max
#: Failures allowed in a run, times the run's Luby number (fixed when ``hunt`` compiles).
RESTART_BASE = 100


class HunterType(RecordType):
    """The numba type of a ``Hunter``."""


class Hunter(structref.StructRefProxy):
    """What a hunt keeps from one hunt to the next: its ``trail``, the entries' ``weight``s,
    the ``sums`` network its nodes are tested on (``sums``; an empty one tests
    nothing), and a ``guide``: per variable, a one-digit mask the rows tried first
    keep where they can (a solution found nearby), or 0. Passed by reference
    (``jit.by_reference``)."""


by_reference(Hunter, HunterType, ("trail", "weight", "sums", "guide"))


class Hunted(NamedTuple):
    """What a hunt found: ``found`` different solutions, whether it was ``exhausted`` (it saw
    the whole tree, so ``found`` is exact), and the ``nodes`` it visited."""
    found: int
    exhausted: bool
    nodes: int


@kernel
def luby(i):
    """The ``i``-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ...

    Examples
    --------
    >>> [luby(i) for i in range(1, 10)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1]
    """
    size, power = 1, 1
    while size < i:                  # the smallest 2**k - 1 >= i
        size = 2 * size + 1
        power *= 2
    while size != i:
        size //= 2
        power //= 2
        if i > size:
            i -= size
    return power


#: The types ``turns`` calls ``any_solutions`` with (see ``ahead``).
ANY_TYPES = (ROOT, types.int64[:, ::1], INT, INT, INT, FLOATS)


@kernel
def any_solutions(root, keep, want, node_budget, deadline, weight):
    """Look for ``want`` different solutions of ``root``, in any order, the first found
    written in the rows of ``keep`` (one-digit masks; none with a ``keep`` of no rows).

    Returns ``Hunted(found, exhausted, nodes)``: how many different solutions were
    found (at most ``want``), whether a run went through the whole search
    tree (then ``found`` is the exact number of solutions), and the nodes
    visited. It stops after ``node_budget`` nodes or past ``deadline``
    without an answer (``found < want`` and not exhausted). Solutions are told
    apart by hash, so a collision can only make ``found`` smaller: ``found ==
    want`` always means ``want`` different solutions exist. The entries' ``weight``s
    (ones for a fresh hunt) are updated in place: a hunt taken in turns passes them on,
    so each turn goes on from what the last learned. The hunt starts at the fixpoint of
    ``root``, with no guide (``Hunter``).
    """
    emptied, tables, live = start_state(root, True)
    if emptied >= 0:
        return Hunted(0, True, 1)
    sums = network_of(tables, live.mask.shape[0],     # nothing to test once forced moves solve it
                      pick_entry(live.nalive) >= 0)
    hunter = Hunter(trail_for(tables, live, False), weight, sums,      # no guide
                    np.zeros(live.mask.shape[0], np.int64))
    return hunt(tables, live, hunter, keep, want, node_budget, deadline)


#: What a row pays per cell where it leaves the guide: more than its distance to the flow
#: can be (8 ** 2 in each of 9 cells).
OFF_GUIDE = 9 * 64 + 1


@kernel
def order_rows(trail, tables, hunter, k):
    """Sort the rows of the deepest level (on entry ``k``) nearest first: by the cells where
    they leave the hunter's guide, then by their squared distance to the cells'
    flow in the last sums test (stable; a counting sort over the scores, in
    time linear in the rows).

    That flow is a digit per cell, within its bounds, that makes every clue
    (not minding repeats): a row near it leaves the other clues room. The
    guide is a solution found near this node (``checks.check_node``), whose
    neighbourhood most likely holds one below it.
    """
    sums, guide = hunter.sums, hunter.guide
    d = trail.top[0] - 1
    first, stop = trail.first[d], trail.stop[d]
    a = tables.ent_off[k]
    cand = trail.cand
    score = np.empty(stop - first, np.int64)
    most = 0
    for i in range(first, stop):
        r = cand[i]
        s = 0
        for p in range(tables.ent_off[k + 1] - a):
            v = tables.ent_var[a + p]
            bit = 1 << (tables.rows[r, p] - 1)
            if guide[v] != 0 and guide[v] != bit:
                s += OFF_GUIDE
            j = sums.var_arc[v] if sums.n_nodes > 0 else -1
            if j >= 0:
                gap = tables.rows[r, p] - sums.flow[j]
                s += min(gap * gap, 64)
        score[i - first] = s
        most = max(most, s)
    count = np.zeros(most + 2, np.int64)
    for i in range(score.shape[0]):
        count[score[i] + 1] += 1
    for s in range(most + 1):
        count[s + 1] += count[s]
    rows = cand[first:stop].copy()
    for i in range(rows.shape[0]):
        s = score[i]
        cand[first + count[s]] = rows[i]
        count[s] += 1


@kernel
def hunt(tables, live, hunter, keep, want, node_budget, deadline):
    """``any_solutions`` from a propagated node, which it restores, with a ``Hunter``.

    The hunter's ``weight``s are read and updated (callers may keep it from hunt to hunt);
    the first ``keep.shape[0]`` different solutions found are left in the rows of
    ``keep`` (their one-digit masks).
    """
    mask, nalive = live.mask, live.nalive
    trail, weight, sums = hunter.trail, hunter.weight, hunter.sums
    if not sums_feasible(sums, mask):
        return Hunted(0, True, 1)
    root_mask = mask.copy()
    root_alive = nalive.copy()
    seen = np.zeros(max(want, 1), np.int64)
    found = 0
    nodes = 1
    run = 0
    stop = exhausted = False
    while not stop:
        run += 1
        fails_left = RESTART_BASE * luby(run)
        copy_into(mask, root_mask)
        copy_into(nalive, root_alive)
        close_levels(trail, live, 0, False)
        leaves = 0                           # solutions met in this run (no repeats in a run)
        at_node = True
        while True:
            if at_node:
                k = -1                       # the fewest live rows above one per unit of weight
                best = 0.0
                for j in range(nalive.shape[0]):
                    if nalive[j] > 1:
                        score = nalive[j] / weight[j]
                        if k < 0 or score < best:
                            k = j
                            best = score
                if k < 0:                    # a solution
                    leaves += 1
                    fnv = np.uint64(14695981039346656037)   # its masks' FNV-1a hash
                    for v in range(mask.shape[0]):
                        fnv = (fnv ^ np.uint64(mask[v])) * np.uint64(1099511628211)
                    h = np.int64(fnv)
                    new = True
                    for i in range(found):
                        if seen[i] == h:
                            new = False
                            break
                    if new:
                        if found < keep.shape[0]:
                            copy_into(keep[found], mask)
                        seen[found] = h
                        found += 1
                        if found >= want:
                            stop = True
                            break
                else:
                    open_level(trail, tables, live, k, False)
                    order_rows(trail, tables, hunter, k)
            emptied = step(trail, tables, live, 0)
            if emptied == -1 and not sums_feasible(sums, mask):
                emptied = SUMS_FAILED
            if emptied == WALKED:            # the whole tree was seen: the count is exact
                stop = exhausted = True
                found = min(leaves, want)
                break
            nodes += 1
            if nodes > node_budget or (nodes & 1023 == 0 and deadline != NO_DEADLINE
                                       and monotonic_ns() > deadline):
                stop = True
                break
            at_node = emptied < 0
            if not at_node:
                if emptied != SUMS_FAILED:
                    weight[emptied] += 1.0
                elif trail.top[0] > 0:            # blame the entry whose row failed them
                    weight[trail.branch[trail.top[0] - 1]] += 1.0
                fails_left -= 1
                if fails_left == 0:          # restart
                    break
    copy_into(mask, root_mask)
    copy_into(nalive, root_alive)
    close_levels(trail, live, 0, False)
    return Hunted(found, exhausted, nodes)


# The compile group of the hunt in any order (``ahead``).
ahead.declare("hunt", __name__, ((__name__, "any_solutions", "ANY_TYPES"),), after=("model",))
