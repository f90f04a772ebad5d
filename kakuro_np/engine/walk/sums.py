"""The sums alone: can the cells' bounds still make every clue? A max-flow test.

Forced moves (``force``) look at one entry at a time. The clues also constrain
each other: in a block of cells, the across sums and the down sums add up the
same cells, so the cells a block's across entries share with no down entry of
the block must make the difference (solvers call these "innies" and
"outies"). This module checks all such reasoning at once. Each cell is in one
across and one down entry, so the sums are a transportation problem: a cell
is an arc from its across entry to its down entry carrying its digit, between
its least and greatest candidate; an across entry sends its clue, a down
entry receives its clue. The clues can be met with digits within the bounds
if and only if this network has a feasible flow (flows are integral), which
one max-flow finds (Hoffman's circulation theorem). When it cannot, no digits
can, whatever the other rules: the node has no solution. A linear relaxation
(CP-SAT's) refutes such nodes at once; clause learning, which reads one clue at
a time, needs a great many conflicts for them (see bench/HISTORY.md).

Glossary
--------
side     : which of the two entries of a cell an entry is (a 2-colouring of the
           entries; across and down, or the other way round).
network  : nodes for the entries (those of two cells or more), a source S, a
           sink T and the super source and sink of the circulation (``Network``).
arc      : a forward arc ``2 i`` and its reverse ``2 i + 1``; ``cap`` holds the
           residual capacities.
bounds   : a cell's least and greatest candidate (its mask's lowest and highest bit).
"""

from __future__ import annotations

import numpy as np
from numba.experimental import structref

from ..core.jit import RecordType, by_reference, kernel

#: A capacity no flow reaches (the arc T -> S).
UNBOUNDED = 1 << 40


class NetworkType(RecordType):
    """The numba type of a ``Network``."""


class Network(structref.StructRefProxy):
    """The sums of a puzzle as a flow network (see the glossary); ``cap`` and the scratch
    arrays are rewritten by each ``sums_feasible``."""


by_reference(Network, NetworkType, (     # its fields, passed by reference (``jit.by_reference``)
    "n_nodes",      # int
    "arc_var",      # int64, A: the variable of each forward arc, or -1
    "var_arc",      # int64, V: the arc of each variable, or -1 (in one short entry)
    "arc_low",      # int64, A: the fixed lower bound of an arc with no variable
    "arc_high",     # int64, A: its fixed upper bound
    "tail",         # int64, 2A: where each arc starts
    "head",         # int64, 2A: where each arc ends
    "adj_off",      # int64, N + 1: node n's arcs are adj_arc[adj_off[n]:adj_off[n + 1]]
    "adj_arc",      # int64, 2A
    "cap",          # int64, 2A: residual capacities
    "flow",         # int64, A: the flow on each arc, kept from test to test
    "low",          # int64, A: each arc's lower bound in the last test
    "excess",       # int64, N: inflow - outflow at each node, kept from test to test
    "level",        # int64, N: scratch (Dinic's levels)
    "it",           # int64, N: scratch (Dinic's current arcs)
    "queue",        # int64, N: scratch (breadth-first queue, path of arcs)
))


@kernel
def network_of(tables, n_vars, wanted):
    """The network of the entries of ``tables`` (``state.Tables``) if ``wanted``, its arcs with
    an entry's sum read from its first table row; else an empty one, on which
    ``sums_feasible`` is always true."""
    ent_off, ent_var, rows, tab_off = tables.ent_off, tables.ent_var, tables.rows, tables.tab_off
    if not wanted:
        empty = np.zeros(0, np.int64)
        return Network(0, empty, empty, empty, empty, empty, empty, np.zeros(1, np.int64),
                       empty, empty, empty, empty, empty, empty, empty, empty)
    E = ent_off.shape[0] - 1
    first = np.full(n_vars, -1, np.int64)          # a cell's two entries (of two cells or more)
    second = np.full(n_vars, -1, np.int64)
    for k in range(E):
        if ent_off[k + 1] - ent_off[k] < 2:
            continue
        for q in range(ent_off[k], ent_off[k + 1]):
            v = ent_var[q]
            if first[v] < 0:
                first[v] = k
            else:
                second[v] = k
    side = np.full(E, -1, np.int64)                # the sides: the two entries of a cell differ
    stack = np.empty(E, np.int64)
    for k0 in range(E):
        if side[k0] >= 0 or ent_off[k0 + 1] - ent_off[k0] < 2:
            continue
        side[k0] = 0
        top = 1
        stack[0] = k0
        while top > 0:
            top -= 1
            k = stack[top]
            for q in range(ent_off[k], ent_off[k + 1]):
                v = ent_var[q]
                j = second[v] if first[v] == k else first[v]
                if j >= 0 and side[j] < 0:
                    side[j] = 1 - side[k]
                    stack[top] = j
                    top += 1
    S, T, SS, TT = E, E + 1, E + 2, E + 3
    N = E + 4
    A = n_vars + E + 1 + 2 * N
    arc_var = np.full(A, -1, np.int64)
    arc_low = np.zeros(A, np.int64)
    arc_high = np.zeros(A, np.int64)
    tail = np.empty(2 * A, np.int64)
    head = np.empty(2 * A, np.int64)
    a = 0
    for v in range(n_vars):                       # cells: from the side-0 entry to the side-1
        u, w = first[v], second[v]
        if u < 0:
            continue
        if w < 0:                                 # in one entry only: to T, or from S
            u, w = (u, T) if side[u] == 0 else (S, u)
        elif side[u] == 1:
            u, w = w, u
        arc_var[a] = v
        tail[2 * a], head[2 * a] = u, w
        a += 1
    for k in range(E):                            # clues: S -> side 0 -> ... -> side 1 -> T
        if side[k] < 0:
            continue
        total = 0
        r = tab_off[k]
        for p in range(ent_off[k + 1] - ent_off[k]):
            total += rows[r, p]
        arc_low[a] = arc_high[a] = total
        tail[2 * a], head[2 * a] = (S, k) if side[k] == 0 else (k, T)
        a += 1
    arc_high[a] = UNBOUNDED                       # T -> S closes the circulation
    tail[2 * a], head[2 * a] = T, S
    a += 1
    for n in range(N - 2):                        # what the lower bounds leave over
        tail[2 * a], head[2 * a] = SS, n
        a += 1
        tail[2 * a], head[2 * a] = n, TT
        a += 1
    A = a
    var_arc = np.full(n_vars, -1, np.int64)
    for i in range(A):
        if arc_var[i] >= 0:
            var_arc[arc_var[i]] = i
    for i in range(A):
        tail[2 * i + 1], head[2 * i + 1] = head[2 * i], tail[2 * i]
    degree = np.zeros(N + 1, np.int64)
    for i in range(2 * A):
        degree[tail[i] + 1] += 1
    adj_off = np.cumsum(degree)
    adj_arc = np.empty(2 * A, np.int64)
    fill = adj_off[:N].copy()
    for i in range(2 * A):
        adj_arc[fill[tail[i]]] = i
        fill[tail[i]] += 1
    return Network(N, arc_var[:A], var_arc, arc_low[:A], arc_high[:A], tail[:2 * A], head[:2 * A],
                   adj_off, adj_arc, np.zeros(2 * A, np.int64), np.zeros(A, np.int64),
                   np.zeros(A, np.int64), np.zeros(N, np.int64), np.zeros(N, np.int64),
                   np.zeros(N, np.int64), np.zeros(N, np.int64))


@kernel
def mask_bounds(m):
    """The least and greatest digit of a non-empty mask."""
    lo = 1
    while not (m >> (lo - 1)) & 1:
        lo += 1
    hi = 9
    while not (m >> (hi - 1)) & 1:
        hi -= 1
    return lo, hi


@kernel
def sums_feasible(net, mask):
    """Can every clue of the network still be met with each cell's digit between its least
    and greatest candidate in ``mask``? False proves the node has no solution.

    The flow of the last test is the start: clamped into the new bounds, it
    leaves a few units out of balance, which one max-flow routes from where
    they are in excess to where they are missing; the clues can be met if and
    only if it routes them all. Each test leaves a flow within its bounds for
    the next, so a node near the last one tested costs a few augmenting paths.
    """
    N = net.n_nodes
    if N == 0:
        return True
    SS, TT = N - 2, N - 1
    cap, flow, low, excess, arc_var, head, tail = (net.cap, net.flow, net.low, net.excess,
                                                    net.arc_var, net.head, net.tail)
    A = arc_var.shape[0]
    n_fixed = A - 2 * (N - 2)                   # the excess arcs come last
    for i in range(n_fixed):
        v = arc_var[i]
        if v >= 0:
            lo, hi = mask_bounds(mask[v])
        else:
            lo, hi = net.arc_low[i], net.arc_high[i]
        f = min(max(flow[i], lo), hi)
        if f != flow[i]:                         # clamp into the bounds: moves the excess
            excess[head[2 * i]] += f - flow[i]
            excess[tail[2 * i]] -= f - flow[i]
            flow[i] = f
        low[i] = lo
        cap[2 * i] = hi - f
        cap[2 * i + 1] = f - lo
    need = 0
    for i in range(n_fixed, A):                 # SS -> n, n -> TT: what is out of balance
        n = head[2 * i] if tail[2 * i] == SS else tail[2 * i]
        cap[2 * i] = max(excess[n], 0) if tail[2 * i] == SS else max(-excess[n], 0)
        cap[2 * i + 1] = 0
        if tail[2 * i] == SS:
            need += cap[2 * i]
    if need == 0:
        return True
    # Dinic's maximum flow from SS to TT in the residual capacities, stopping at ``need``
    adj_off, adj_arc = net.adj_off, net.adj_arc
    level, it, queue = net.level, net.it, net.queue
    routed = 0
    while routed < need:
        for n in range(N):                   # levels by breadth-first search
            level[n] = -1
        level[SS] = 0
        qh, qt = 0, 1
        queue[0] = SS
        while qh < qt:
            u = queue[qh]
            qh += 1
            if level[TT] >= 0 and level[u] >= level[TT]:
                break                        # no shorter path is left to find
            for j in range(adj_off[u], adj_off[u + 1]):
                a = adj_arc[j]
                if cap[a] > 0 and level[head[a]] < 0:
                    level[head[a]] = level[u] + 1
                    queue[qt] = head[a]
                    qt += 1
        if level[TT] < 0:
            break
        for n in range(N):
            it[n] = adj_off[n]
        path = queue                         # the queue is free again: a path of arcs
        while routed < need:                 # augmenting paths in the level graph
            depth = 0
            u = SS
            while u != TT:
                advanced = False
                while it[u] < adj_off[u + 1]:
                    a = adj_arc[it[u]]
                    if cap[a] > 0 and level[head[a]] == level[u] + 1:
                        path[depth] = a
                        depth += 1
                        u = head[a]
                        advanced = True
                        break
                    it[u] += 1
                if not advanced:             # a dead end: retreat
                    level[u] = -1
                    if depth == 0:
                        break
                    depth -= 1
                    u = tail[path[depth]]
                    it[u] += 1
            if u != TT:
                break
            push = need - routed
            for i in range(depth):
                push = min(push, cap[path[i]])
            for i in range(depth):
                cap[path[i]] -= push
                cap[path[i] ^ 1] += push
            routed += push
    for i in range(n_fixed):
        flow[i] = low[i] + cap[2 * i + 1]
    for i in range(n_fixed, A):
        moved = cap[2 * i + 1]                  # what went through SS -> n or n -> TT
        if tail[2 * i] == SS:
            excess[head[2 * i]] -= moved
        else:
            excess[tail[2 * i]] += moved
    return routed == need
