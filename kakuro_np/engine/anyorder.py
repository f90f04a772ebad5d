"""Finding solutions in any order, fast: "are there at least n?" for a puzzle writer's draft.

The essay's fan-out must visit the branches in its order, so a choice made
early that dooms a branch can cost millions of nodes before forced moves
refute it (thrashing). When the order does not matter (``count(limit=n)``,
``kakuro-np check``, and the checks ``solve.search`` makes once it thrashes:
"is there any solution below this node?") this hunt finds solutions by the
classic remedy: it fans out on the entry with the fewest live rows per unit of
weight, where an entry's weight grows each time its table empties (dom/wdeg),
and it restarts from the root after a growing number of failures (the Luby
sequence), so the entries that keep failing are decided first.

Glossary
--------
weight  : per entry, 1 plus how many times its table emptied in the hunt.
run     : one depth-first descent from the root, cut after ``RESTART_BASE *
          luby(i)`` failures; a run that is not cut has visited every solution.
seen    : hashes of the solutions found (runs may find one again).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .force import apply_row, fixpoint_state, live_rows, propagate
from .jit import INT, INTS, NO_DEADLINE, ROWS, copy_into, grow, kernel, monotonic_ns

#: Failures allowed in a run, times the run's Luby number (fixed when ``hunt`` compiles).
RESTART_BASE = 100


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


@kernel
def pick_weighted(nalive, weight):
    """The entry with the fewest live rows above one per unit of weight, or -1."""
    best = -1
    best_score = 0.0
    for k in range(nalive.shape[0]):
        if nalive[k] > 1:
            score = nalive[k] / weight[k]
            if best < 0 or score < best_score:
                best = k
                best_score = score
    return best


@kernel
def solution_hash(mask):
    """A 64-bit FNV-1a hash of a solution's one-digit masks."""
    h = np.uint64(14695981039346656037)
    for v in range(mask.shape[0]):
        h = (h ^ np.uint64(mask[v])) * np.uint64(1099511628211)
    return np.int64(h)


#: The types ``solve.count`` calls ``find_solutions`` with (see ``ahead``).
FIND_TYPES = (INTS, INTS, INTS, ROWS, INTS, INT, INT, INT)


@kernel
def find_solutions(ent_off, ent_var, mask, rows, tab_off, want, node_budget, deadline):
    """Look for ``want`` different solutions, in any order.

    Returns ``Hunted(found, exhausted, nodes)``: how many different solutions were
    found (at most ``want``), whether a run went through the whole search
    tree (then ``found`` is the exact number of solutions), and the nodes
    visited. It stops after ``node_budget`` nodes or past ``deadline``
    without an answer (``found < want`` and not exhausted). Solutions are told
    apart by hash, so a collision can only make ``found`` smaller: ``found ==
    want`` always means ``want`` different solutions exist.
    """
    emptied, var_eoff, var_ent, perm, pos, nalive, queue, inq, qstate = fixpoint_state(
        ent_off, ent_var, mask, rows, tab_off, True)
    if emptied >= 0:
        return Hunted(0, True, 1)
    weight = np.ones(tab_off.shape[0] - 1)
    return hunt(want, node_budget, deadline, weight, mask.copy(), ent_off, ent_var, var_eoff,
                var_ent, rows, tab_off, perm, pos, nalive, mask, queue, inq, qstate)


@kernel
def hunt(want, node_budget, deadline, weight, witness, ent_off, ent_var, var_eoff, var_ent,
         rows, tab_off, perm, pos, nalive, mask, queue, inq, qstate):
    """``find_solutions`` from a propagated search state, which it restores.

    ``weight`` is read and updated (callers may keep it from hunt to hunt);
    the first solution found is left in ``witness`` (its one-digit masks).
    """
    E = tab_off.shape[0] - 1
    V = mask.shape[0]
    root_mask = mask.copy()
    root_alive = nalive.copy()
    seen = np.zeros(max(want, 1), np.int64)
    found = 0
    cap = 16
    saved_mask = np.zeros((cap, V), np.int64)
    saved_alive = np.zeros((cap, E), np.int64)
    branch = np.zeros(cap, np.int64)
    first = np.zeros(cap, np.int64)          # a level's rows: cand[first:stop]
    stop = np.zeros(cap, np.int64)
    nxt = np.zeros(cap, np.int64)
    cand = np.zeros(64, np.int64)
    nodes = 1
    run = 0
    while True:
        run += 1
        fails_left = RESTART_BASE * luby(run)
        copy_into(mask, root_mask)
        copy_into(nalive, root_alive)
        n_cand = 0
        depth = 0
        leaves = 0                           # solutions met in this run (no repeats in a run)
        at_node = True
        cut = False
        while True:
            if at_node:
                k = pick_weighted(nalive, weight)
                if k < 0:                    # a solution
                    leaves += 1
                    h = solution_hash(mask)
                    new = True
                    for i in range(found):
                        if seen[i] == h:
                            new = False
                            break
                    if new:
                        if found == 0:
                            copy_into(witness, mask)
                        seen[found] = h
                        found += 1
                        if found >= want:
                            copy_into(mask, root_mask)
                            copy_into(nalive, root_alive)
                            return Hunted(found, False, nodes)
                else:
                    if depth == cap:
                        cap *= 2
                        saved_mask = grow(saved_mask, cap)
                        saved_alive = grow(saved_alive, cap)
                        branch = grow(branch, cap)
                        first = grow(first, cap)
                        stop = grow(stop, cap)
                        nxt = grow(nxt, cap)
                    n = nalive[k]
                    if n_cand + n > cand.shape[0]:
                        cand = grow(cand, max(2 * cand.shape[0], n_cand + n))
                    live_rows(perm, tab_off, nalive, k, cand, n_cand)
                    copy_into(saved_mask[depth], mask)
                    copy_into(saved_alive[depth], nalive)
                    branch[depth] = k
                    first[depth] = n_cand
                    nxt[depth] = n_cand
                    n_cand += n
                    stop[depth] = n_cand
                    depth += 1
            at_node = False
            while depth > 0:                 # the next row to try
                d = depth - 1
                if nxt[d] == stop[d]:
                    n_cand = first[d]
                    depth -= 1
                    continue
                r = cand[nxt[d]]
                nxt[d] += 1
                copy_into(mask, saved_mask[d])
                copy_into(nalive, saved_alive[d])
                apply_row(branch[d], r, ent_off, ent_var, var_eoff, var_ent, rows, tab_off, perm,
                          pos, nalive, mask, queue, inq, qstate)
                nodes += 1
                if nodes > node_budget or (nodes & 1023 == 0 and deadline != NO_DEADLINE
                                           and monotonic_ns() > deadline):
                    copy_into(mask, root_mask)
                    copy_into(nalive, root_alive)
                    return Hunted(found, False, nodes)
                emptied = propagate(queue, inq, qstate, rows, tab_off, perm, pos, nalive, mask,
                                    ent_off, ent_var, var_eoff, var_ent, True)
                if emptied < 0:
                    at_node = True
                    break
                weight[emptied] += 1.0
                fails_left -= 1
                if fails_left == 0:
                    cut = True
                    break
            if cut or not at_node:
                break
        if not cut:                          # the whole tree was seen: the count is exact
            copy_into(mask, root_mask)
            copy_into(nalive, root_alive)
            return Hunted(min(leaves, want), True, nodes)
