"""Learning from failures: a clause-learning (CDCL) answer to "is there a solution below this node?".

The fan-out and the hunt forget why a branch failed, so a draft can fail on the
same few entries and digits in thousands of branches. A clause-learning
solver keeps the reason: each failure (a conflict) is resolved back to the
decisions that caused it (the first unique implication point) and kept as a
clause, a nogood over cell digits that prunes every later branch it
recurs in. This is the core of CP-SAT, which answers in few conflicts the drafts
that the fan-out thrashes on.

Glossary
--------
x var    : ``x(v, d) = 9 v + d - 1``, true when cell ``v`` holds digit ``d``.
y var    : one per entry and combination (the digit set of some row of its table at
           the root), true when the entry holds that combination.
literal  : ``2 var`` (the var true) or ``2 var + 1`` (false); ``lit ^ 1`` negates.
clauses  : what the puzzle says, as the solver reads it: each cell holds exactly one
           digit, no entry repeats one, each entry holds one of its combinations
           (its digits in some cell, no other digit anywhere).
filter   : unit propagation on those clauses is weaker than the tables' forced moves, so
           each table of at most TABLE_ROWS rows also filters its cells as ``force``
           does, whenever one of them loses a digit. A digit it drops is explained
           lazily, only when conflict analysis asks: by every digit the entry's
           other cells had lost before it (with those gone, no row keeps it); a
           table no row fits, by every digit its cells lost. This is how the
           tables' wipe-outs become learned clauses (nogoods).
sums     : at each fixpoint of the propagation, the sums' max-flow test (``sums``) on
           the cells' bounds, as CP-SAT's linear relaxation does. When no flow meets
           the clues, the conflict is every digit beyond the bound of each cell on
           the cut the max-flow leaves (``_propagate_all``). Without it the solver,
           like CP-SAT without its relaxation, cannot refute the nodes of big open
           grids in any reasonable number of conflicts; with it, it refutes them
           quickly (see bench/HISTORY.md).
node     : a search node is given as its cell masks: each digit a mask lacks is
           an assumption ``not x(v, d)``, all at level 1, so that clauses learned
           under one node hold for every other (they name the assumptions they
           used): a ``Sat`` kept for a whole search learns across its checks.
level    : 0 holds what the clauses force alone (the root's masks, learned units);
           1 the node's assumptions; decisions open the levels above.
watches  : two-watched-literal propagation; a clause's watches are its first two
           literals, and each literal's watchers are a linked list of
           ``2 clause + slot`` nodes.
lbd      : a learned clause's count of distinct levels; the learned clauses of
           highest lbd are dropped when there are too many (as Glucose does).

Examples
--------
>>> import kakuro_np as kn
>>> from kakuro_np.engine.force import start_state
>>> from kakuro_np.solve import model
>>> root = model(kn.read("puzzles/k1.txt")).root()
>>> _, tables, live = start_state(root, True)
>>> sat = sat_of(tables, live.mask)
>>> no_guide, witness = np.zeros_like(live.mask), np.zeros_like(live.mask)
>>> sat_solve(sat, live.mask, no_guide, 10_000, NO_DEADLINE, witness) == SAT_YES
True
>>> bool(np.all(witness & live.mask == witness))
True
"""

from __future__ import annotations


import numpy as np
from numba.core import types
from numba.experimental import structref

from ..walk.anyorder import luby
from ..core import ahead
from ..core.codes import SAT_NO, SAT_UNKNOWN, SAT_YES
from ..force import start_state
from ..core.jit import (INT, INTS, NO_DEADLINE, RecordType, by_reference, inline_kernel, kernel,
                        monotonic_ns, sort_ints)
from ..core.state import ROOT
from ..walk.sums import mask_bounds, network_of, sums_feasible

#: Room for learned clauses, and for their literals (``np.empty``: only what is used is
#: resident).
LEARNT_CLAUSES = 1 << 16
LEARNT_LITS = 1 << 23
#: Conflicts in a run, times its Luby number, before a restart.
RESTART_CONFLICTS = 100
#: Each conflict's activity bump grows by 1 / VAR_DECAY (VSIDS).
VAR_DECAY = 0.95
#: Learned clauses with at most this lbd are never dropped ("glue" clauses).
GLUE_LBD = 2

# the slots of ``Sat.state``
N_CLAUSES, N_LITS, N_STATIC, TRAIL, QHEAD, LEVELS, CONFLICTS, MAX_LEARNT, BROKEN, \
    HEAP_SIZE, N_LEARNT, N_STATIC_LITS, DIRTY, N_SUMS_LITS = range(14)
#: Tables of at most this many rows are filtered as the search's forced moves do.
TABLE_ROWS = 1000
#: The reason code of a sums conflict (``_propagate_all``): no clause (>= 0), no
#: entry's table (``-2 - k``), no other reason (-1).
SUMS_CONFLICT = -(1 << 62)


class SatType(RecordType):
    """The numba type of a ``Sat``."""


class Sat(structref.StructRefProxy):
    """A clause-learning solver for one puzzle (see the glossary); kernels change it in place."""


by_reference(Sat, SatType, (     # its fields, passed by reference (``jit.by_reference``)
    "n_cells",      # int
    "lits",         # int32: the clauses' literals, clause c's at lits[start[c]:start[c] + size[c]]
    "start",        # int64, per clause
    "size",         # int32, per clause
    "lbd",          # int32, per clause (0: a clause of the puzzle)
    "watch_head",   # int64, per literal: its first watcher node, or -1
    "watch_next",   # int64, per watcher node (2 clause + slot): the next, or -1
    "value",        # int8, per literal: 1 true, -1 false, 0 unassigned
    "level",        # int32, per var
    "reason",       # int64, per var: the clause that implied it, -2 - k for entry k's
                    # table (see ``filter``), or -1
    "trail",        # int32, the literals assigned, in order
    "level_start",  # int64, per level: where it starts on the trail
    "phase",        # int8, per var: the value it last had (1 true)
    "activity",     # float64, per var (VSIDS); activity[n_vars] is the bump
    "heap",         # int32: the unassigned vars, a max-heap on activity
    "heap_pos",     # int32, per var: where it is in the heap, or -1
    "seen",         # int8, per var: scratch for conflict analysis
    "learnt",       # int32: scratch, the clause being learned
    "stamp",        # int64, per level: scratch for lbd
    "state",        # int64: the counters named above (N_CLAUSES, ...)
    "pos",          # int64, per var: where it stands on the trail
    "explain",      # int32: scratch, the literals of a reason
    "ent_off",      # the tables (``state.Tables``) whose rows filter the cells
    "ent_var",
    "var_eoff",
    "var_ent",
    "rows",
    "tab_off",
    "dirty",        # bool, per entry: queued to be filtered
    "dirty_queue",  # int64: the entries queued (state[DIRTY] of them)
    "cell_mask",    # int64, per cell: the digits whose x var is not false
    "support",      # int64, 9: scratch for a filter
    "sums",         # the sums' flow network (``sums``), tested at each fixpoint
    "sums_lits",    # int32: the literals of the last sums conflict
))


@inline_kernel
def _heap_up(sat, v):
    """Move var ``v`` up to its place in the heap (its activity grew), put at its end first
    when it is not in the heap."""
    heap, pos, act = sat.heap, sat.heap_pos, sat.activity
    i = pos[v]
    if i < 0:
        i = sat.state[HEAP_SIZE]
        sat.state[HEAP_SIZE] = i + 1
    while i > 0:
        parent = (i - 1) >> 1
        if act[heap[parent]] >= act[v]:
            break
        heap[i] = heap[parent]
        pos[heap[i]] = i
        i = parent
    heap[i] = v
    pos[v] = i


@inline_kernel
def _watch(sat, c):
    """Link clause ``c``'s first two literals' watcher nodes."""
    for s in range(2):
        lit = sat.lits[sat.start[c] + s]
        node = 2 * c + s
        sat.watch_next[node] = sat.watch_head[lit]
        sat.watch_head[lit] = node


@inline_kernel
def _assign(sat, lit, reason):
    """Make ``lit`` true at the current level, implied by ``reason``; a cell's digit gone
    queues the cell's entries for their filters."""
    st = sat.state
    v = lit >> 1
    sat.value[lit] = 1
    sat.value[lit ^ 1] = -1
    sat.level[v] = st[LEVELS]
    sat.reason[v] = reason
    sat.pos[v] = st[TRAIL]
    sat.trail[st[TRAIL]] = lit
    st[TRAIL] += 1
    cell = v // 9
    if lit & 1 and cell < sat.n_cells:      # a digit gone: queue the cell's entries
        sat.cell_mask[cell] &= ~(1 << (v - 9 * cell))
        for i in range(sat.var_eoff[cell], sat.var_eoff[cell + 1]):
            k = sat.var_ent[i]
            if not sat.dirty[k]:
                sat.dirty[k] = True
                sat.dirty_queue[st[DIRTY]] = k
                st[DIRTY] += 1


@kernel
def _cancel_until(sat, lvl):
    """Undo every level above ``lvl``."""
    st = sat.state
    if st[LEVELS] <= lvl:
        return
    stop = sat.level_start[lvl + 1]
    for i in range(st[TRAIL] - 1, stop - 1, -1):
        lit = sat.trail[i]
        v = lit >> 1
        sat.value[lit] = 0
        sat.value[lit ^ 1] = 0
        if lit & 1 and v < 9 * sat.n_cells:
            sat.cell_mask[v // 9] |= 1 << (v % 9)
        sat.phase[v] = 1 - (lit & 1)
        if sat.heap_pos[v] < 0:
            _heap_up(sat, v)            # back in the heap
    st[TRAIL] = stop
    st[QHEAD] = stop
    st[LEVELS] = lvl
    for i in range(st[DIRTY]):          # the queue of entries to filter emptied
        sat.dirty[sat.dirty_queue[i]] = False
    st[DIRTY] = 0


@kernel
def _filter(sat, k):
    """Drop each digit of entry ``k``'s cells that no row of its table fitting the cells
    has: implied, with the entry as their lazy reason (``-2 - k``). Returns False
    when no row fits (a conflict)."""
    a, b = sat.ent_off[k], sat.ent_off[k + 1]
    L = b - a
    masks, support = sat.cell_mask, sat.support
    for p in range(L):
        support[p] = 0
    fits = False
    rows, cells = sat.rows, sat.ent_var[a:b]
    for r in range(sat.tab_off[k], sat.tab_off[k + 1]):
        ok = True
        for p in range(L):
            if masks[cells[p]] >> (rows[r, p] - 1) & 1 == 0:
                ok = False
                break
        if ok:
            fits = True
            full = True
            for p in range(L):
                support[p] |= 1 << (rows[r, p] - 1)
                full = full and support[p] == masks[cells[p]]
            if full:                    # every digit left has a row: nothing to drop
                return True
    if not fits:
        return False
    for p in range(L):
        gone = masks[cells[p]] & ~support[p]
        if gone:
            v = sat.ent_var[a + p]
            for d in range(9):
                if gone >> d & 1:
                    _assign(sat, 2 * (9 * v + d) + 1, -2 - k)
    return True


@kernel
def _propagate_all(sat):
    """Unit propagation and the tables' filters to their fixpoint, then the sums test: -1,
    a clause all of whose literals are false, ``-2 - k`` when no row of entry ``k``
    fits, or SUMS_CONFLICT when the sums fail.

    The literals of a sums conflict go to ``sat.sums_lits``: every digit above the
    bound of a cell whose arc leaves the cut (the entries the last max-flow reaches
    from its super source) and below the bound of one whose arc enters it. Those
    arcs are at their bounds, and the cut holds more flow than they let out
    (Hoffman): while those digits stay gone, no digits meet the clues. The bounds
    are those the test read from ``sat.cell_mask``.
    """
    st = sat.state
    while True:
        c = _propagate(sat)
        if c >= 0:
            return c
        if st[DIRTY] == 0:
            if sums_feasible(sat.sums, sat.cell_mask):
                return -1
            net = sat.sums              # the sums conflict's literals
            level, tail, head, arc_var = net.level, net.tail, net.head, net.arc_var
            out = sat.sums_lits
            n = 0
            for i in range(arc_var.shape[0]):
                v = arc_var[i]
                if v < 0:
                    continue
                inside_tail = level[tail[2 * i]] >= 0
                inside_head = level[head[2 * i]] >= 0
                if inside_tail == inside_head:
                    continue
                lo, hi = mask_bounds(sat.cell_mask[v])
                if inside_tail:         # leaving: its upper bound binds
                    for d in range(hi, 9):
                        x = 9 * v + d
                        if sat.value[2 * x] == -1:
                            out[n] = 2 * x
                            n += 1
                else:                   # entering: its lower bound binds
                    for d in range(lo - 1):
                        x = 9 * v + d
                        if sat.value[2 * x] == -1:
                            out[n] = 2 * x
                            n += 1
            st[N_SUMS_LITS] = n
            return SUMS_CONFLICT
        st[DIRTY] -= 1
        k = sat.dirty_queue[st[DIRTY]]
        sat.dirty[k] = False
        if sat.tab_off[k + 1] - sat.tab_off[k] <= TABLE_ROWS and not _filter(sat, k):
            for i in range(st[DIRTY]):  # the queue of entries to filter emptied
                sat.dirty[sat.dirty_queue[i]] = False
            st[DIRTY] = 0
            st[QHEAD] = st[TRAIL]
            return -2 - k


@kernel
def _reason_lits(sat, r, lit):
    """The literals of reason ``r`` (a clause, ``-2 - k``: entry ``k``'s table, or the
    sums) for ``lit`` (-1: a conflict) in ``sat.explain``; their count.

    A table's reason is every digit gone from the entry's other cells (from all its
    cells for a conflict) before ``lit`` was: with those gone, no row keeps ``lit``'s
    digit (or none fits)."""
    out = sat.explain
    if r >= 0:
        n = sat.size[r]
        for j in range(n):
            out[j] = sat.lits[sat.start[r] + j]
        return n
    k = -2 - r
    if r == SUMS_CONFLICT:              # (a conflict only)
        n = sat.state[N_SUMS_LITS]
        for j in range(n):
            out[j] = sat.sums_lits[j]
        return n
    n = 0
    cell = -1
    before = sat.trail.shape[0] + 1
    if lit >= 0:
        out[0] = lit
        n = 1
        cell = (lit >> 1) // 9
        before = sat.pos[lit >> 1]
    for i in range(sat.ent_off[k], sat.ent_off[k + 1]):
        u = sat.ent_var[i]
        if u == cell:
            continue
        for d in range(9):
            x = 9 * u + d
            if sat.value[2 * x] == -1 and sat.pos[x] < before:
                out[n] = 2 * x
                n += 1
    return n


@kernel
def _propagate(sat):
    """Unit propagation from the trail's queue: -1, or a clause all of whose literals are false."""
    st, lits, value, head, nxt_of = sat.state, sat.lits, sat.value, sat.watch_head, sat.watch_next
    while st[QHEAD] < st[TRAIL]:
        false_lit = sat.trail[st[QHEAD]] ^ 1
        st[QHEAD] += 1
        prev = -1
        node = head[false_lit]
        while node >= 0:
            nxt = nxt_of[node]
            c = node >> 1
            s = node & 1
            a = sat.start[c]
            n = sat.size[c]
            other = lits[a + 1 - s]
            if value[other] == 1:
                prev = node
                node = nxt
                continue
            moved = False
            for j in range(a + 2, a + n):
                lit = lits[j]
                if value[lit] != -1:                  # a new watch
                    lits[j] = false_lit
                    lits[a + s] = lit
                    if prev < 0:
                        head[false_lit] = nxt
                    else:
                        nxt_of[prev] = nxt
                    nxt_of[node] = head[lit]
                    head[lit] = node
                    moved = True
                    break
            if moved:
                node = nxt
                continue
            if value[other] == -1:
                st[QHEAD] = st[TRAIL]
                return c
            _assign(sat, other, c)
            prev = node
            node = nxt
    return -1


@kernel
def _add_clause(sat, lits, n, lbd):
    """Store the clause ``lits[:n]`` (n >= 2) and watch its first two literals; its index."""
    st = sat.state
    c = st[N_CLAUSES]
    a = st[N_LITS]
    for i in range(n):
        sat.lits[a + i] = lits[i]
    sat.start[c] = a
    sat.size[c] = n
    sat.lbd[c] = lbd
    st[N_CLAUSES] = c + 1
    st[N_LITS] = a + n
    _watch(sat, c)
    return c


@kernel
def _add_static(sat, lits, n):
    """Add a clause of the puzzle at level 0: stored, or assigned when it has one literal
    left; an empty clause (or a false unit) marks the solver BROKEN (no solution at all)."""
    m = 0
    for i in range(n):                  # drop literals false at level 0; skip if one is true
        if sat.value[lits[i]] == 1:
            return
        if sat.value[lits[i]] == 0:
            lits[m] = lits[i]
            m += 1
    if m == 0:
        sat.state[BROKEN] = 1
    elif m == 1:
        _assign(sat, lits[0], -1)
        if _propagate(sat) >= 0:
            sat.state[BROKEN] = 1
    else:
        _add_clause(sat, lits, m, 0)


@kernel
def sat_of(tables, root_mask):
    """A ``Sat`` for the puzzle of ``tables`` (``state.Tables``) with its root's masks.

    The combinations of each entry are the digit sets of its table's rows, so
    the clauses say exactly what the tables say at the root; the root's masks
    hold at level 0. ``state[BROKEN]`` is 1 when the clauses alone refute them.
    """
    ent_off, ent_var, rows, tab_off = tables.ent_off, tables.ent_var, tables.rows, tables.tab_off
    V = root_mask.shape[0]
    E = ent_off.shape[0] - 1
    combo = np.zeros(rows.shape[0], np.int64)      # each row's digit set (bits): its combination
    clauses, n_lits, n_y = V * 37, V * 81, 0       # bounds on the puzzle's clauses and literals
    seen = np.zeros(512, np.bool_)
    for k in range(E):
        L = ent_off[k + 1] - ent_off[k]
        combos = 0
        seen[:] = False
        for r in range(tab_off[k], tab_off[k + 1]):
            for p in range(L):
                combo[r] |= 1 << (rows[r, p] - 1)
            if not seen[combo[r]]:
                seen[combo[r]] = True
                combos += 1
        n_y += combos
        clauses += 9 * L * (L - 1) // 2 + combos * 9 * L + 1
        n_lits += 9 * L * (L - 1) + combos * (18 * L + 9) + combos
    n_vars = 9 * V + n_y
    C = clauses + LEARNT_CLAUSES
    sat = Sat(V, np.empty(n_lits + LEARNT_LITS, np.int32), np.zeros(C, np.int64),
              np.zeros(C, np.int32), np.zeros(C, np.int32),
              np.full(2 * n_vars, -1, np.int64), np.full(2 * C, -1, np.int64),
              np.zeros(2 * n_vars, np.int8), np.zeros(n_vars, np.int32),
              np.full(n_vars, -1, np.int64), np.zeros(n_vars, np.int32),
              np.zeros(n_vars + 2, np.int64), np.zeros(n_vars, np.int8),
              np.zeros(n_vars + 1), np.zeros(n_vars, np.int32),
              np.full(n_vars, -1, np.int32), np.zeros(n_vars, np.int8),
              np.zeros(n_vars + 1, np.int32), np.zeros(n_vars + 2, np.int64),
              np.zeros(14, np.int64), np.zeros(n_vars, np.int64),
              np.zeros(n_vars + 1, np.int32), ent_off, ent_var, tables.var_eoff,
              tables.var_ent, rows, tab_off, np.zeros(E, np.bool_), np.zeros(E, np.int64),
              np.full(V, 511, np.int64), np.zeros(9, np.int64), network_of(tables, V, True),
              np.zeros(9 * V + 1, np.int32))
    sat.activity[n_vars] = 1.0
    buf = np.zeros(max(n_vars, 9) + 1, np.int32)
    for v in range(V):                  # the root's masks, at level 0
        for d in range(9):
            if root_mask[v] >> d & 1 == 0 and sat.value[2 * (9 * v + d)] == 0:
                _assign(sat, 2 * (9 * v + d) + 1, -1)
    if _propagate(sat) >= 0:
        sat.state[BROKEN] = 1
    for v in range(V):                  # exactly one digit per cell
        for d in range(9):
            buf[d] = 2 * (9 * v + d)
        _add_static(sat, buf, 9)
        for d in range(9):
            for e in range(d + 1, 9):
                if root_mask[v] >> d & 1 and root_mask[v] >> e & 1:
                    buf[0] = 2 * (9 * v + d) + 1
                    buf[1] = 2 * (9 * v + e) + 1
                    _add_static(sat, buf, 2)
    y = 9 * V
    for k in range(E):
        a, b = ent_off[k], ent_off[k + 1]
        for i in range(a, b):           # no digit twice
            for j in range(i + 1, b):
                common = root_mask[ent_var[i]] & root_mask[ent_var[j]]
                for d in range(9):
                    if common >> d & 1:
                        buf[0] = 2 * (9 * ent_var[i] + d) + 1
                        buf[1] = 2 * (9 * ent_var[j] + d) + 1
                        _add_static(sat, buf, 2)
        seen[:] = False
        first_y = y
        for r in range(tab_off[k], tab_off[k + 1]):
            if seen[combo[r]]:
                continue
            seen[combo[r]] = True
            for d in range(9):          # y: its digits somewhere, no other digit anywhere
                if combo[r] >> d & 1:
                    buf[0] = 2 * y + 1
                    n = 1
                    for i in range(a, b):
                        if root_mask[ent_var[i]] >> d & 1:
                            buf[n] = 2 * (9 * ent_var[i] + d)
                            n += 1
                    _add_static(sat, buf, n)
                else:
                    for i in range(a, b):
                        if root_mask[ent_var[i]] >> d & 1:
                            buf[0] = 2 * y + 1
                            buf[1] = 2 * (9 * ent_var[i] + d) + 1
                            _add_static(sat, buf, 2)
            y += 1
        for i in range(y - first_y):    # one of the entry's combinations
            buf[i] = 2 * (first_y + i)
        _add_static(sat, buf, y - first_y)
    if _propagate_all(sat) != -1:
        sat.state[BROKEN] = 1
    sat.state[N_STATIC] = sat.state[N_CLAUSES]
    sat.state[N_STATIC_LITS] = sat.state[N_LITS]
    sat.state[MAX_LEARNT] = max(sat.state[N_STATIC] // 3, 2000)
    for v in range(n_vars):
        if sat.value[2 * v] == 0:
            _heap_up(sat, v)
    return sat


@kernel
def _analyze(sat, confl):
    """Learn from the conflict in clause ``confl`` (first unique implication point):
    the clause's size in ``sat.learnt`` (the asserting literal first, one of the
    backjump level second), the backjump level and the lbd."""
    st, lits, level, reason, seen, learnt = (sat.state, sat.lits, sat.level, sat.reason,
                                            sat.seen, sat.learnt)
    act = sat.activity
    here = st[LEVELS]
    n = 1
    path = 0
    p = -1
    i = st[TRAIL] - 1
    c = confl
    while True:
        for j in range(_reason_lits(sat, c, p)):
            q = sat.explain[j]
            v = q >> 1
            if p >= 0 and v == p >> 1:
                continue
            if seen[v] == 0 and level[v] > 0:
                seen[v] = 1
                act[v] += act[act.shape[0] - 1]    # its activity bumped (rescaled when too big)
                if act[v] > 1e100:
                    for u in range(act.shape[0]):
                        act[u] *= 1e-100
                if sat.heap_pos[v] >= 0:
                    _heap_up(sat, v)
                if level[v] >= here:
                    path += 1
                else:
                    learnt[n] = q
                    n += 1
        while seen[sat.trail[i] >> 1] == 0:
            i -= 1
        p = sat.trail[i]
        i -= 1
        c = reason[p >> 1]
        seen[p >> 1] = 0
        path -= 1
        if path == 0:
            break
    learnt[0] = p ^ 1
    for j in range(1, n):               # mark (2) literals their reason's others imply
        v = learnt[j] >> 1
        r = reason[v]
        if r >= 0:                      # (a table's reason is not looked into)
            implied = True
            for t in range(sat.start[r], sat.start[r] + sat.size[r]):
                u = lits[t] >> 1
                if u != v and seen[u] == 0 and level[u] > 0:
                    implied = False
                    break
            if implied:
                seen[v] = 2
    m = 1
    for j in range(1, n):               # keep the others; clear the marks
        v = learnt[j] >> 1
        if seen[v] == 1:
            learnt[m] = learnt[j]
            m += 1
        seen[v] = 0
    back = 0
    if m > 1:
        best = 1
        for j in range(2, m):
            if level[learnt[j] >> 1] > level[learnt[best] >> 1]:
                best = j
        learnt[1], learnt[best] = learnt[best], learnt[1]
        back = level[learnt[1] >> 1]
    mark = st[CONFLICTS] + 1            # lbd: distinct levels, stamped with this conflict
    lbd = 0
    for j in range(m):
        lv = level[learnt[j] >> 1]
        if sat.stamp[lv] != mark:
            sat.stamp[lv] = mark
            lbd += 1
    return m, back, lbd


@kernel
def _reduce(sat):
    """At level 0: drop the learned clauses of highest lbd (the newer first) beyond half of
    them (glue clauses stay), and pack the rest after the puzzle's clauses."""
    st = sat.state
    first = st[N_STATIC]
    n = st[N_CLAUSES] - first
    keys = np.empty(n, np.int64)        # lbd, then the newer first; the index below
    for i in range(n):
        keys[i] = np.int64(sat.lbd[first + i]) * (1 << 32) + (n - i)
    sort_ints(keys, 0, n)
    keep = np.zeros(n, np.bool_)
    for t in range(n):
        i = n - (keys[t] & 0xFFFFFFFF)
        keep[i] = t < n // 2 or sat.lbd[first + i] <= GLUE_LBD or sat.size[first + i] <= 2
    for v in range(sat.reason.shape[0]):    # level 0 needs no reasons
        sat.reason[v] = -1
    c = first
    a = st[N_STATIC_LITS]
    for i in range(n):
        old = first + i
        if not keep[i]:
            continue
        s, m = sat.start[old], sat.size[old]
        for j in range(m):
            sat.lits[a + j] = sat.lits[s + j]
        sat.start[c] = a
        sat.size[c] = m
        sat.lbd[c] = sat.lbd[old]
        a += m
        c += 1
    st[N_CLAUSES] = c
    st[N_LITS] = a
    st[N_LEARNT] = c - first
    sat.watch_head[:] = -1
    for k in range(c):
        _watch(sat, k)


@kernel
def sat_solve(sat, mask, guide, budget, deadline, witness):
    """Is there a solution within the cell masks ``mask``? SAT_YES (one is left in
    ``witness``, one-digit masks), SAT_NO, or SAT_UNKNOWN when ``budget``
    conflicts or the deadline passed first.

    ``guide`` (one-digit masks, or zeros) is a solution found nearby: the
    decisions try its digits first. What is learned stays in ``sat`` for the
    next call, which may give any masks below the root's.
    """
    st = sat.state
    if st[BROKEN]:
        return SAT_NO
    V = sat.n_cells
    for v in range(V):
        if guide[v] != 0:
            for d in range(9):
                sat.phase[9 * v + d] = 1 if guide[v] >> d & 1 else 0
    conflicts = 0
    run = 1
    run_left = RESTART_CONFLICTS
    while True:
        confl = _propagate_all(sat)
        if confl != -1:
            conflicts += 1
            st[CONFLICTS] += 1
            if confl == SUMS_CONFLICT and st[LEVELS] > 1:
                top = 0                 # a sums conflict may lie below the current level
                for j in range(st[N_SUMS_LITS]):
                    top = max(top, sat.level[sat.sums_lits[j] >> 1])
                _cancel_until(sat, max(top, 1))
            if st[LEVELS] <= 1:
                if st[LEVELS] == 0:
                    st[BROKEN] = 1
                _cancel_until(sat, 0)
                return SAT_NO
            m, back, lbd = _analyze(sat, confl)
            _cancel_until(sat, back)
            if m == 1:
                _assign(sat, sat.learnt[0], -1)
            else:
                c = _add_clause(sat, sat.learnt, m, lbd)
                st[N_LEARNT] += 1
                _assign(sat, sat.learnt[0], c)
            sat.activity[-1] /= VAR_DECAY
            run_left -= 1
            if conflicts >= budget or (deadline != NO_DEADLINE and monotonic_ns() > deadline):
                _cancel_until(sat, 0)
                return SAT_UNKNOWN
            continue
        full = (st[N_CLAUSES] + 1 >= sat.size.shape[0]
                or st[N_LITS] + sat.learnt.shape[0] >= sat.lits.shape[0])
        if run_left <= 0 or full:         # restart: back to the node (its masks stay)
            _cancel_until(sat, 1)
            run += 1
            run_left = RESTART_CONFLICTS * luby(run)
            if st[N_LEARNT] >= st[MAX_LEARNT] or full:
                _cancel_until(sat, 0)     # (reasons renumbered: level 0 needs none)
                _reduce(sat)
                st[MAX_LEARNT] = min(st[MAX_LEARNT] + st[MAX_LEARNT] // 10, LEARNT_CLAUSES // 2)
        if st[LEVELS] == 0:             # the node's masks, at level 1
            st[LEVELS] = 1
            sat.level_start[1] = st[TRAIL]
            for v in range(V):
                for d in range(9):
                    if mask[v] >> d & 1 == 0:
                        lit = 2 * (9 * v + d) + 1
                        if sat.value[lit] == -1:
                            _cancel_until(sat, 0)
                            return SAT_NO
                        if sat.value[lit] == 0:
                            _assign(sat, lit, -1)
            continue
        heap, pos, act = sat.heap, sat.heap_pos, sat.activity
        v = -1                          # a decision: the unassigned var of highest activity
        while v < 0 and st[HEAP_SIZE] > 0:
            best = heap[0]              # off the heap: its last item moved down from the top
            pos[best] = -1
            n = st[HEAP_SIZE] - 1
            st[HEAP_SIZE] = n
            if n > 0:
                u = heap[n]
                i = 0
                while True:
                    child = 2 * i + 1
                    if child >= n:
                        break
                    if child + 1 < n and act[heap[child + 1]] > act[heap[child]]:
                        child += 1
                    if act[heap[child]] <= act[u]:
                        break
                    heap[i] = heap[child]
                    pos[heap[i]] = i
                    i = child
                heap[i] = u
                pos[u] = i
            if sat.value[2 * best] == 0:
                v = best
        if v < 0:                       # every var has a value: a solution
            for u in range(V):
                for d in range(9):
                    if sat.value[2 * (9 * u + d)] == 1:
                        witness[u] = 1 << d
            _cancel_until(sat, 0)
            return SAT_YES
        st[LEVELS] += 1                 # a decision, on a level of its own
        sat.level_start[st[LEVELS]] = st[TRAIL]
        _assign(sat, 2 * v + (1 - sat.phase[v]), -1)


#: The types ``turns.Learner`` calls ``sat_of_root`` with (see ``ahead``).
SAT_OF_ROOT_TYPES = (ROOT,)


@kernel
def sat_of_root(root):
    """A ``Sat`` for the puzzle of ``root`` (a ``state.Root``) at its fixpoint, and the
    fixpoint's masks; None for the Sat when forced moves alone refute the puzzle."""
    emptied, tables, live = start_state(root, True)
    if emptied >= 0:
        return None, live.mask
    return sat_of(tables, live.mask), live.mask


def sat_solutions_types():
    """The types ``turns.Learner`` calls ``sat_solutions`` with (see ``ahead``): its ``Sat``
    is what ``sat_of_root`` returns (compiled, or loaded from the cache)."""
    sat_of_root.compile(SAT_OF_ROOT_TYPES)
    sat = sat_of_root.overloads[SAT_OF_ROOT_TYPES].signature.return_type.types[0].type
    return sat, INTS, INT, INT, types.int64[:, ::1]


@kernel
def sat_solutions(sat, mask, budget, deadline, keep):
    """More different solutions within ``mask``, up to ``keep.shape[0]``, each left in a row of
    ``keep`` (one-digit masks) and then barred from ``sat`` by a clause (so ``sat``
    serves this question alone from then on). Returns ``(found, exhausted)``:
    exhausted when there are no more, else ``budget`` conflicts or the deadline
    passed first (counted per solution sought).
    """
    V = sat.n_cells
    bar = np.zeros(V, np.int32)
    guide = np.zeros(V, np.int64)
    found = 0
    while found < keep.shape[0]:
        said = sat_solve(sat, mask, guide, budget, deadline, keep[found])
        if said == SAT_UNKNOWN:
            return found, False
        if said == SAT_NO:
            return found, True
        for v in range(V):              # not this solution again
            d = 0
            while keep[found, v] >> d != 1:
                d += 1
            bar[v] = 2 * (9 * v + d) + 1
        _add_static(sat, bar, V)
        found += 1
    return found, False


# The compile group of clause learning taken in turns (``ahead``; ``turns.Learner``).
ahead.declare("learn", __name__, ((__name__, "sat_of_root", "SAT_OF_ROOT_TYPES"),
                                  (__name__, "sat_solutions", "sat_solutions_types")),
              after=("proof-checks",))
