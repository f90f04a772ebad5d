"""The search kernel: depth-first fan-out from the fixpoint, in the essay's order.

Glossary
--------
model  : the packed puzzle the kernels share: variables (blank cells), entries,
         cell masks and tables (see ``jposs`` and ``force``); ``build_model``
         makes it.
var_cell : flat cell index of each variable (blank cells in row-major order).
level  : one fan-out in the depth-first search: the entry branched on, the
         rows still to try, and the masks and live-row counts to restore.
witness : a solution (one-digit masks) known to lie below a node, found by a check;
         a child it fits needs no check of its own.
status : ``OK``, ``CONTRADICTION``, ``OVER_BUDGET``, ``TIMED_OUT`` or
         ``THRASHING`` (see ``jit.Status``).

The search visits the branches in the essay's order: at each node it takes the
entry with the fewest live rows above one (ties to the lower index) and tries
its rows in lexicographic order, so solutions come out in the essay's order.
When it goes a long way without a solution, it checks branches before entering
them and skips those with none (see ``search``), which changes the time only.
The fast path narrows the masks by combinations, then forces the tables as it
builds them (``force.build_forced_tables``); since the fixpoint of ``force`` is
the same either way, so is every node.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.core import types

from ..combos import ALL_DIGITS
from .anyorder import hunt
from .counting import count_state
from .force import (apply_row, build_forced_tables, fixpoint_state, live_rows, pick_entry,
                    propagate)
from .jit import (INT, INTS, NO_DEADLINE, OK, ROWS, THRASHING, TIMED_OUT, copy_into, grow,
                  kernel, monotonic_ns, sort_ints)
from .jposs import FREE
from .memo import DATA_WORDS, SLOTS_LOG2, new_memo

#: What ``check_node`` says of a node: a solution below it is in its witness, there is
#: one below it, there is none, or the deadline passed.
WITNESSED, SOLVABLE, EMPTY, CHECK_TIMED_OUT = 2, 1, 0, -1

def build_model(blank, given, ent_off, ent_cell, ent_sum, max_rows, deadline):
    """Variables, masks and tables of a grid, ready for the search.

    Blank cells in no entry get an entry of their own with the FREE sum, so
    every variable is in some table. Returns ``(status, culprit, var_cell,
    ent_off, ent_var, ent_sum, mask, rows, tab_off)``; ``culprit`` is the
    entry found impossible when the status is CONTRADICTION, else -1.
    """
    flat_blank = blank.ravel()
    var_cell = np.flatnonzero(flat_blank)
    V = len(var_cell)
    cell_var = np.full(flat_blank.shape[0], -1, np.int64)
    cell_var[var_cell] = np.arange(V)
    in_entry = np.zeros(V, np.bool_)
    in_entry[cell_var[ent_cell]] = True
    loose = np.flatnonzero(~in_entry)
    off = np.concatenate([ent_off, ent_off[-1] + 1 + np.arange(len(loose))]).astype(np.int64)
    var = np.concatenate([cell_var[ent_cell], loose]).astype(np.int64)
    sums = np.concatenate([ent_sum, np.full(len(loose), FREE)]).astype(np.int64)
    digit = given.ravel()[var_cell].astype(np.int64)
    mask = np.where(digit > 0, 1 << np.maximum(digit - 1, 0), ALL_DIGITS).astype(np.int64)
    rows, tab_off, status, culprit = build_forced_tables(off, var, sums, mask, max_rows, deadline)
    return status, culprit, var_cell, off, var, sums, mask, rows, tab_off


@kernel
def mask_digit(m):
    """The digit of a one-digit mask."""
    d = 1
    while m > 1:
        m >>= 1
        d += 1
    return d


@kernel
def consistent(mask, witness):
    """True when the solution ``witness`` (one-digit masks) fits the masks ``mask``."""
    for v in range(mask.shape[0]):
        if mask[v] & witness[v] == 0:
            return False
    return True


class Found(NamedTuple):
    """What ``search`` found: ``found`` solutions, their ``digits`` per variable (when
    stored), the ``nodes`` visited, and the ``status`` (see ``jit.Status``)."""
    found: int
    digits: np.ndarray
    nodes: int
    status: int


@kernel
def check_node(node, witness, has_witness, weight, memo, label, work, deadline, hunt_nodes,
               ent_off, ent_var, var_eoff, var_ent, rows, tab_off, perm, pos, nalive, mask,
               queue, inq, qstate):
    """Is there a solution below the node at depth ``node``? The state is left as it was.

    Yes at once when the solution in ``witness[node - 1]`` (its parent's) fits
    it. Else first a short hunt in any order (``anyorder``), which finds a
    solution below most nodes that have one, or goes through every branch of
    a small node; else a count up to one (``counting``), whose memo of pieces
    refutes a piece once for every branch it recurs on. Returns WITNESSED (yes,
    a solution is in ``witness[node]``), SOLVABLE (yes), EMPTY (no) or
    CHECK_TIMED_OUT (the deadline passed), and sets ``has_witness[node]``.
    """
    has_witness[node] = False
    if node > 0 and has_witness[node - 1] and consistent(mask, witness[node - 1]):
        copy_into(witness[node], witness[node - 1])
        has_witness[node] = True
        return WITNESSED
    found, exhausted, _ = hunt(np.int64(1), hunt_nodes, deadline, weight, witness[node],
                               ent_off, ent_var, var_eoff, var_ent, rows, tab_off, perm, pos,
                               nalive, mask, queue, inq, qstate)
    if found:
        has_witness[node] = True
        return WITNESSED
    if exhausted:
        return EMPTY
    c = count_state(np.int64(1), ent_off, ent_var, var_eoff, var_ent, rows, tab_off, perm, pos,
                    nalive, mask, queue, inq, qstate, label, memo, deadline, work)
    return CHECK_TIMED_OUT if c < 0 else SOLVABLE if c > 0 else EMPTY


#: The types ``kakuro()`` calls ``search`` with (see ``ahead``).
SEARCH_TYPES = (INTS, INTS, INTS, ROWS, INTS, INT, types.boolean, INT, INT, types.none)


@kernel
def search(ent_off, ent_var, mask, rows, tab_off, limit, store, deadline, check_after,
           hunt_nodes):
    """Depth-first fan-out from the fixpoint of ``force``.

    After ``check_after`` nodes without a solution (thrashing), the nodes on
    the current path are checked from the top (``check_node``, hunting
    ``hunt_nodes`` nodes) and the first one with no solution below it is
    cut; from then on, until a solution is found, each new node is checked
    before it is entered, unless a solution found by an earlier check lies
    below it. Only branches without solutions are cut, so the solutions and
    their order are those of plain fan-out. With ``hunt_nodes`` None the
    checks are not compiled in, and the search stops with THRASHING instead.

    Returns a ``Found``: how many solutions were found (at most ``limit``),
    their digits per variable if ``store`` (else an empty array), how many
    nodes were visited, and OK, TIMED_OUT (the deadline passed; what was
    found so far is returned) or THRASHING.
    ``mask`` is left at the last node.
    """
    E = tab_off.shape[0] - 1
    V = mask.shape[0]
    solutions = np.zeros((16 if store else 0, V), np.int8)
    emptied, var_eoff, var_ent, perm, pos, nalive, queue, inq, qstate = fixpoint_state(
        ent_off, ent_var, mask, rows, tab_off, True)
    if emptied >= 0:
        return Found(0, solutions[:0], 1, OK)
    cap = 16
    saved_mask = np.zeros((cap, V), np.int64)
    saved_alive = np.zeros((cap, E), np.int64)
    witness = np.zeros((cap + 1, V), np.int64)     # a solution below the node at each depth
    has_witness = np.zeros(cap + 1, np.bool_)
    branch = np.zeros(cap, np.int64)
    first = np.zeros(cap, np.int64)      # this level's rows: cand[first:stop]
    stop = np.zeros(cap, np.int64)
    nxt = np.zeros(cap, np.int64)
    cand = np.zeros(64, np.int64)
    n_cand = np.int64(0)                     # not the literal 0: one compile of sort_ints
    depth = 0
    found = 0
    nodes = 1
    since = 0                                # nodes since the last solution
    checking = False
    label = np.full(E, -1, np.int64)
    memo = new_memo(np.int64(1), np.int64(1))    # made full size when checks first start
    memo_made = False
    weight = np.ones(E)
    work = np.full(1, np.iinfo(np.int64).max, np.int64)
    at_node = True
    while True:
        if at_node:
            k = pick_entry(nalive)
            if k < 0:                                  # every table has one row
                if store:
                    if found == solutions.shape[0]:
                        solutions = grow(solutions, 2 * found)
                    for v in range(V):
                        solutions[found, v] = mask_digit(mask[v])
                found += 1
                since = 0
                checking = False                # checks only pay while no solution turns up
                if found >= limit:
                    break
            else:                                      # open a level on entry k
                if depth == cap:
                    cap *= 2
                    saved_mask = grow(saved_mask, cap)
                    saved_alive = grow(saved_alive, cap)
                    witness = grow(witness, cap + 1)
                    has_witness = grow(has_witness, cap + 1)
                    branch = grow(branch, cap)
                    first = grow(first, cap)
                    stop = grow(stop, cap)
                    nxt = grow(nxt, cap)
                n = nalive[k]
                if n_cand + n > cand.shape[0]:
                    cand = grow(cand, max(2 * cand.shape[0], n_cand + n))
                live_rows(perm, tab_off, nalive, k, cand, n_cand)
                sort_ints(cand, n_cand, n_cand + n)
                copy_into(saved_mask[depth], mask)
                copy_into(saved_alive[depth], nalive)
                branch[depth] = k
                first[depth] = n_cand
                nxt[depth] = n_cand
                n_cand += n
                stop[depth] = n_cand
                depth += 1
        at_node = False
        while depth > 0:                               # the next row to try
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
            since += 1
            if nodes & 1023 == 0 and deadline != NO_DEADLINE and monotonic_ns() > deadline:
                return Found(found, solutions[:found], nodes, TIMED_OUT)
            if propagate(queue, inq, qstate, rows, tab_off, perm, pos, nalive, mask,
                         ent_off, ent_var, var_eoff, var_ent, True) >= 0:
                continue
            if hunt_nodes is None:          # without checks (compiled apart): stop
                if since > check_after:
                    return Found(found, solutions[:found], nodes, THRASHING)
            else:
                if checking:
                    c = check_node(depth, witness, has_witness, weight, memo, label, work,
                                   deadline, hunt_nodes, ent_off, ent_var, var_eoff, var_ent,
                                   rows, tab_off, perm, pos, nalive, mask, queue, inq, qstate)
                    if c == CHECK_TIMED_OUT:
                        return Found(found, solutions[:found], nodes, TIMED_OUT)
                    if c == EMPTY:
                        continue
                elif since > check_after:   # thrashing: check from here on
                    checking = True
                    if not memo_made:
                        memo = new_memo(np.int64(SLOTS_LOG2), np.int64(DATA_WORDS))
                        memo_made = True
                    a = np.int64(0)            # top-down: the first empty node is cut
                    while True:
                        copy_into(mask, saved_mask[max(a - 1, 0)])
                        copy_into(nalive, saved_alive[max(a - 1, 0)])
                        if a > 0:              # rebuild node a: checks above moved rows in perm
                            apply_row(branch[a - 1], cand[nxt[a - 1] - 1], ent_off, ent_var,
                                      var_eoff, var_ent, rows, tab_off, perm, pos, nalive, mask,
                                      queue, inq, qstate)
                            propagate(queue, inq, qstate, rows, tab_off, perm, pos, nalive, mask,
                                      ent_off, ent_var, var_eoff, var_ent, True)
                            if a < depth:
                                copy_into(saved_mask[a], mask)
                                copy_into(saved_alive[a], nalive)
                        c = check_node(a, witness, has_witness, weight, memo, label, work,
                                       deadline, hunt_nodes, ent_off, ent_var, var_eoff, var_ent,
                                       rows, tab_off, perm, pos, nalive, mask, queue, inq, qstate)
                        if c == CHECK_TIMED_OUT:
                            return Found(found, solutions[:found], nodes, TIMED_OUT)
                        if c == EMPTY or a == depth:
                            break
                        a += 1
                    if c == EMPTY:
                        if a == 0:
                            return Found(found, solutions[:found], nodes, OK)
                        depth = a              # the node at depth a has no solution
                        n_cand = stop[a - 1]
                        continue
            at_node = True
            break
        if not at_node:
            break
    return Found(found, solutions[:found], nodes, OK)


@kernel
def fixpoint_masks(ent_off, ent_var, mask, rows, tab_off):
    """The cell masks at the fixpoint of ``force`` (in place); -1 or the entry that emptied."""
    return fixpoint_state(ent_off, ent_var, mask, rows, tab_off, True)[0]
