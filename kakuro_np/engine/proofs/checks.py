"""The checks of a thrashing walk: is there a solution below this node?

The essay's search (``engine.search``) goes a long way without a solution on open
grids; it then checks branches before entering them and skips those with none,
which changes the time only. A check answers from the parent's solution when it
fits, from the sums (``sums``), from a repair of the parent's solution
(``repair``), and else from turns of a count, clause learning (``cdcl``) and a
hunt in any order (``anyorder``).

Glossary
--------
checks  : what the search keeps for its checks once it thrashes (``Checks``).
witness : a solution (one-digit masks) known to lie below a node, found by a check;
          a child it fits needs no check of its own.
misfit  : a piece of a checked node (see ``counting``) on which its parent's witness
          does not fit; the others keep the witness's digits while the check looks
          for a solution (``pin_fitting_pieces``).
near    : the cells of a check's node within some rings of entries of where its
          parent's witness stops fitting (see ``repair``); a near hunt pins the
          others to the witness (``hunt_near``).

Examples
--------
>>> import kakuro_np as kn
>>> from kakuro_np.engine.model import build
>>> checks = checks_for(build(kn.read("puzzles/k0.txt")), 100)
>>> checks.witness.shape, bool(checks.has_witness.any())
((9, 8), False)
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.experimental import structref

from ...combos import POPCOUNT
from ..core.state import Model, tables_model
from ..core.codes import (CONTRADICTION, COUNT_TIMED_OUT, SAT_NO, SAT_UNKNOWN, SAT_YES, SOLVABLE,
                          TIMED_OUT, WITNESSED)
from ..core.jit import (INT, INTS, RecordType, by_reference, copy_into, inline_kernel, kernel,
                        monotonic_ns)
from ..core.policy import (CHECK_COUNT_NS, CHECK_HUNT_NODES, CHECK_SAT_NS, CHECK_TURN_GROWTH,
                           NEAR_NODES)
from ..force import pin_solution, start_state
from ..walk.anyorder import hunt, new_hunter
from ..walk.counting import components, count_scope, new_tally, scope_solution
from ..walk.memo import DATA_WORDS, SLOTS_LOG2, WIDE, new_memo
from ..walk.trail import cut_to, depth, rebuild_node
from .cdcl import sat_of, sat_solve
from .repair import free_ring, repair_steps
from ..walk.sums import network_of, sums_feasible


@kernel
def consistent(mask, witness):
    """True when the solution ``witness`` (one-digit masks) fits the masks ``mask``."""
    for v in range(mask.shape[0]):
        if mask[v] & witness[v] == 0:
            return False
    return True


class ChecksType(RecordType):
    """The numba type of ``Checks``."""


class Checks(structref.StructRefProxy):
    """What the checks of a thrashing search keep: the nodes each check may hunt
    (``hunt_nodes``); per depth, a solution known to lie below the node
    (``witness``, one-digit masks) and whether there is one (``has_witness``);
    the ``hunter``; the count's ``tally``. The hunter's sums network tests each node
    checked before anything else. ``node_mask``, ``node_alive``, ``near_mask`` and
    ``near_alive`` keep the node while a check pins cells (see ``check_node``). ``sat``
    is the clause-learning solver (``cdcl``), whose clauses learned in one check
    serve every later one; ``sat_record`` counts its turns and those that answered.
    ``given`` is a solution of the root found before the checks began (one-digit
    masks), all zeros when there is none: the root's check takes it as its witness.
    ``root_ns[0]``, when not 0, asks the search to check the root first, for at most
    that many nanoseconds, steered by ``seed`` (see ``check_root``)."""


CHECKS_FIELDS = ("hunt_nodes", "witness", "has_witness", "hunter", "tally", "node_mask",
                 "node_alive", "near_mask", "near_alive", "sat", "sat_record", "given", "seed",
                 "root_ns")
by_reference(Checks, ChecksType, CHECKS_FIELDS, readable=False)    # see CHECKS_ARRAYS


#: The arrays of ``Checks`` that ``new_checks`` also sets on the proxy, for Python to read
#: and write (the structure holds the same arrays, so the kernels see what it writes).
CHECKS_ARRAYS = ("witness", "has_witness", "node_mask", "node_alive", "near_mask", "near_alive",
                 "sat_record", "given", "seed", "root_ns")


@kernel
def pack_checks(hunt_nodes, hunter, tally, sat, arrays):
    """A ``Checks`` of its parts; ``arrays`` in the order of CHECKS_ARRAYS."""
    (witness, has_witness, node_mask, node_alive, near_mask, near_alive, sat_record, given,
     seed, root_ns) = arrays
    return Checks(hunt_nodes, witness, has_witness, hunter, tally, node_mask, node_alive,
                  near_mask, near_alive, sat, sat_record, given, seed, root_ns)


def new_checks(root, hunt_nodes) -> Checks:
    """Checks for a search of ``root``, each hunting ``hunt_nodes`` nodes first (see ``search``).

    Built here, in Python, from the kernels that make each part: a kernel of its own
    would compile all of theirs once more (see ``jit``). Its arrays (CHECKS_ARRAYS) are
    attributes of the proxy too.
    """
    _, tables, live = start_state(root, True)
    E, V = live.nalive.shape[0], live.mask.shape[0]
    levels = E + 2
    sums = network_of(tables, np.int64(V), True)
    arrays = (np.zeros((levels, V), np.int64), np.zeros(levels, np.bool_), np.zeros(V, np.int64),
              np.zeros(E, np.int64), np.zeros(V, np.int64), np.zeros(E, np.int64),
              np.zeros(2, np.int64), np.zeros(V, np.int64), np.zeros(V, np.int64),
              np.zeros(1, np.int64))
    checks = pack_checks(np.int64(hunt_nodes), new_hunter(tables, live, sums, np.ones(E)),
                         checks_tally(tables, live, sums), sat_of(tables, live.mask), arrays)
    checks.__dict__.update(zip(CHECKS_ARRAYS, arrays))
    return checks


def checks_tally(tables, live, sums):
    """The count's tally of a check (a memo of its own, no node budget, no ranks)."""
    return new_tally(tables, live, new_memo(np.int64(SLOTS_LOG2), np.int64(DATA_WORDS)),
                     np.array([np.iinfo(np.int64).max, 0], np.int64), sums, False,
                     np.empty(0, np.int64))


def checks_for(m: Model, hunt_nodes=None) -> Checks:
    """What ``search`` needs to check the branches of model ``m``, each check hunting
    ``hunt_nodes`` nodes first (``policy.CHECK_HUNT_NODES`` when None)."""
    return new_checks(m.root(), CHECK_HUNT_NODES if hunt_nodes is None else hunt_nodes)


@kernel
def pin_fitting_pieces(tables, live, witness, label):
    """Give every piece of the node on which the solution ``witness`` fits its digits, and
    propagate.

    Pieces are independent, so the node has a solution exactly when its misfit
    pieces have one, and any solution of the pinned node is one of the node:
    a check then looks only where the witness stopped fitting.
    """
    mask, ent_off, ent_var = live.mask, tables.ent_off, tables.ent_var
    members, starts = components(np.arange(live.nalive.shape[0]), tables, live, label)
    pinned = np.zeros(mask.shape[0], np.bool_)
    for i in range(starts.shape[0] - 1):
        fits = True
        for t in range(starts[i], starts[i + 1]):
            for q in range(ent_off[members[t]], ent_off[members[t] + 1]):
                fits = fits and mask[ent_var[q]] & witness[ent_var[q]] != 0
        if fits:
            for t in range(starts[i], starts[i + 1]):
                for q in range(ent_off[members[t]], ent_off[members[t] + 1]):
                    pinned[ent_var[q]] = True
    pin_solution(tables, live, pinned, witness)


@kernel
def hunt_near(node, checks, tables, live, deadline, proved):
    """A solution of the node at depth ``node`` near its parent's witness, in
    ``witness[node]``: True, or False when none was found (which proves nothing).
    The first ``proved`` ring steps are not hunted: a repair proved them empty.

    The near cells start as those where the parent's witness does not fit and
    grow by rings of entries (1, 2, 4, ...; see ``repair.free_ring``); every
    other cell is pinned to the witness's digit, and a hunt of NEAR_NODES nodes
    looks for a solution of what is left. A repair (``repair``) searches digits
    alone, without forced moves, and stops at a few hundred cells; a near hunt
    forces moves as it goes, so its neighbourhood may be the whole misfit piece.
    It stops once the near cells hold every open cell (then a full hunt is the
    same hunt).
    """
    witness, mask = checks.witness[node - 1], live.mask
    V = mask.shape[0]
    near = np.zeros(V, np.bool_)
    open_cells = 0
    for v in range(V):
        near[v] = mask[v] & witness[v] == 0
        open_cells += POPCOUNT[mask[v]] > 1
    rings = 1
    n_near = np.count_nonzero(near)
    steps = 0
    while monotonic_ns() < deadline:
        for _ in range(rings):
            grown = free_ring(tables, near)
        open_near = 0
        for v in range(V):
            open_near += near[v] and POPCOUNT[mask[v]] > 1
        if grown == n_near or open_near >= open_cells:
            return False
        n_near = grown
        rings *= 2
        steps += 1
        if steps <= proved:
            continue
        copy_into(checks.near_mask, mask)
        copy_into(checks.near_alive, live.nalive)
        found = 0
        if pin_solution(tables, live, ~near, witness) < 0:
            found = hunt(tables, live, checks.hunter, checks.witness[node:node + 1],
                         np.int64(1), np.int64(NEAR_NODES), deadline).found
        copy_into(mask, checks.near_mask)
        copy_into(live.nalive, checks.near_alive)
        if found:
            return True
    return False


@kernel
def check_node(node, checks, tables, live, deadline):
    """Is there a solution below the node at depth ``node``? The node is left as it was.

    Yes at once when the solution in ``witness[node - 1]`` (its parent's; the
    root's: ``checks.given``) fits it; no at once when the sums cannot be met within the cells' bounds
    (``sums``). Else the pieces the parent's solution fits keep its digits
    (``pin_fitting_pieces``): only the misfit ones are looked at, by
    ``check_turns``. Returns WITNESSED (yes, a solution is in
    ``witness[node]``), SOLVABLE (yes), CONTRADICTION (no) or TIMED_OUT (the
    deadline passed), and sets ``has_witness[node]``.
    """
    witness, has_witness = checks.witness, checks.has_witness
    has_witness[node] = False
    if node == 0 and checks.given[0] != 0 and consistent(live.mask, checks.given):
        copy_into(witness[0], checks.given)
        has_witness[0] = True
        return WITNESSED
    parent_witnessed = node > 0 and has_witness[node - 1]
    if parent_witnessed and consistent(live.mask, witness[node - 1]):
        copy_into(witness[node], witness[node - 1])
        has_witness[node] = True
        return WITNESSED
    if not sums_feasible(checks.hunter.sums, live.mask):
        return CONTRADICTION
    if not parent_witnessed:
        checks.hunter.guide[:] = 0
    else:
        copy_into(checks.hunter.guide, witness[node - 1])   # the hunt tries its rows first
        copy_into(checks.node_mask, live.mask)
        copy_into(checks.node_alive, live.nalive)
        pin_fitting_pieces(tables, live, witness[node - 1], checks.tally.label)
    c = check_turns(node, checks, tables, live, deadline, parent_witnessed)
    if parent_witnessed:
        copy_into(live.mask, checks.node_mask)
        copy_into(live.nalive, checks.node_alive)
    return c


@inline_kernel
def check_turns(node, checks, tables, live, deadline, repairable):
    """``check_node`` once the quick answers are out: turns of a count up to one
    (``counting``), whose memo of pieces refutes a piece once for every branch
    it recurs on (the first turn CHECK_COUNT_NS long, then as long in time
    as the hunt's last), of clause learning (``cdcl``, as long as the hunt's
    last turn or CHECK_SAT_NS), and of a hunt in any order (``anyorder``), each
    CHECK_TURN_GROWTH times more nodes than the last (the first
    ``checks.hunt_nodes``), which finds a solution below most nodes that have
    one, or goes through every branch of a small node; the count and the hunt
    test the sums at every node, and clause learning at every fixpoint of its
    propagation, learning a clause from each failed test. Clause learning
    refutes the nodes of drafts that thrash the others (a 10x10 draft's first
    branch: 42 conflicts, 1.4 ms, where counts and hunts took more than 27 s),
    and with the sums those of big open grids (a 30x100 grid's: 15-80 ms, where
    a hunt went through the node in 78 s). A count that finds
    solutions reads one back (``counting.scope_solution``): the node's children
    then have a witness.

    After the first count, when the parent has a witness (``repairable``), a repair
    (``repair``: new digits for the cells near where it does not fit, the
    others kept) answers most checks in microseconds; then near hunts
    (``hunt_near``) most of the rest. Not before the first count, whose memo
    later checks need (one grid took 7x longer). If neither finds a solution,
    the hunts start from fresh weights: what the checks of other nodes learned
    misled them (the 30x100 grid of bench/open_grids spent 15 s in three checks). The turns' lengths
    change how long a check takes, never its answer.
    """
    witness, has_witness = checks.witness, checks.has_witness
    turn = checks.hunt_nodes
    every = np.arange(live.nalive.shape[0])     # the count's scope, and its count past int64
    wide = np.empty(WIDE)
    spent = np.int64(CHECK_COUNT_NS)   # a short count first: many empty nodes fall in it
    while True:
        # the count's turn: as long as the hunt's took (their nodes differ in cost tenfold
        # either way), within the deadline
        turn_end = min(monotonic_ns() + max(spent, CHECK_COUNT_NS), deadline)
        checks.tally.work[0] = np.iinfo(np.int64).max
        c = count_scope(every, np.int64(1), tables, live, checks.tally, turn_end, wide)
        if c == COUNT_TIMED_OUT and turn_end == deadline:
            return TIMED_OUT
        if c == 0:
            return CONTRADICTION
        if c > 0:
            if scope_solution(every, np.int64(0), tables, live, checks.tally, deadline,
                              witness[node]) > 0:
                has_witness[node] = True
                return WITNESSED
            return SOLVABLE
        if repairable:                # once, after the first count (whose memo later
            repairable = False        # checks need: without it one grid took 7x longer)
            repaired, proved = repair_steps(tables, live.mask, witness[node - 1],
                                            witness[node], checks.hunt_nodes)
            if repaired or hunt_near(node, checks, tables, live, deadline, proved):
                has_witness[node] = True
                return WITNESSED
            checks.hunter.weight[:] = 1.0
        checks.sat_record[0] += 1      # a turn as long as the hunt's last
        said = sat_solve(checks.sat, live.mask, checks.hunter.guide, np.iinfo(np.int64).max,
                         min(monotonic_ns() + max(spent, CHECK_SAT_NS), deadline),
                         witness[node])
        checks.sat_record[1] += said != SAT_UNKNOWN
        if said == SAT_YES:
            has_witness[node] = True
            return WITNESSED
        if said == SAT_NO:
            return CONTRADICTION
        began = monotonic_ns()
        found, exhausted, _ = hunt(tables, live, checks.hunter, witness[node:node + 1],
                                   np.int64(1), turn, deadline)
        if found:
            has_witness[node] = True
            return WITNESSED
        if exhausted:
            return CONTRADICTION
        spent = monotonic_ns() - began
        turn = max(turn, 1) * CHECK_TURN_GROWTH


@inline_kernel
def check_root(checks, tables, live, deadline):
    """The check of the root (``check_node``) at the search's start, up to ``deadline``:
    WITNESSED, with its solution in ``checks.given`` (later checks of the root take
    it at once), CONTRADICTION, SOLVABLE or TIMED_OUT.

    The sums are tested on the masks ``checks.seed`` first: the hunt tries rows
    nearest the flow of the last sums test first, so from the node where a walk
    thrashed it hunts along the walk's path (bench/open_grids.py's open-09:
    0.13-0.22 s from that node's flow, 2.0-3.1 s from the root's). Inlined into
    ``search``: a kernel of its own compiled the checks' tree once more (9-11 s).
    """
    sums_feasible(checks.hunter.sums, checks.seed)
    said = check_node(np.int64(0), checks, tables, live, deadline)
    if said == WITNESSED:
        copy_into(checks.given, checks.witness[0])
    return said


@inline_kernel
def check_path(trail, checks, tables, live, deadline, whole):
    """Check the nodes on the trail's path from the top (``check_node``), and cut the first
    with no solution below it; unless ``whole``, only the node the search stands on.

    Returns what the last check said: CONTRADICTION when the node has no solution below
    it (a node of the path above it is cut: the search then goes on with the next
    row of the cut node's parent, or ends if it was the root), TIMED_OUT,
    or a solution lies below the node the search stands on. Inlined into
    ``search``, its one caller, as ``check_turns`` is into ``check_node``: numba
    compiles each kernel with the whole tree of kernels it calls, so a level less
    is a tree compiled once less (see ``jit``).
    """
    d = depth(trail)
    a = np.int64(0) if whole else d
    while True:
        if whole:
            rebuild_node(trail, tables, live, a)    # the checks above moved rows in perm
        c = check_node(a, checks, tables, live, deadline)
        if c == CONTRADICTION and whole:
            cut_to(trail, a)
        if c == CONTRADICTION or c == TIMED_OUT or a == d:
            return c
        a += 1


def _pair_state():
    """``(root, tables, live)`` of a puzzle of one run of two cells: their types are those
    of any puzzle's (the kernels that make them are compiled for them, or loaded)."""
    pair = np.array([[1, 2] + [0] * 7, [2, 1] + [0] * 7], np.int8)
    root = tables_model(np.array([0, 2]), np.array([0, 1]), pair, np.array([0, 2])).root()
    _, tables, live = start_state(root, True)
    return root, tables, live


def checks_type():
    """The numba type of ``Checks``: that of the checks of a puzzle of one run of two cells
    (its parts' kernels are compiled for it, or loaded from the cache)."""
    from numba import typeof
    return typeof(new_checks(_pair_state()[0], 1))


# The kernels ``check_turns`` calls, compiled ahead in two helpers at once (``ahead``'s
# "count-checks" and "proof-checks"), so that a thrashing walk compiles only the checks'
# top (``check_node`` and the walk) itself: the types they are called with there.

def count_scope_types():
    """``count_scope``'s: the scope, a limit, the tables, the node, a check's tally, a
    deadline and the count past int64."""
    from numba import typeof
    _, tables, live = _pair_state()
    tally = checks_tally(tables, live, network_of(tables, np.int64(2), True))
    return (INTS, INT, typeof(tables), typeof(live), typeof(tally), INT, types.float64[::1])


def scope_solution_types():
    """``scope_solution``'s: the scope, an index, the tables, the node, a check's tally, a
    deadline and the masks it writes."""
    scope, _, tables, live, tally, _, _ = count_scope_types()
    return (scope, INT, tables, live, tally, INT, INTS)


def hunt_near_types():
    """``hunt_near``'s: a depth, the checks, the tables, the node, a deadline and a count."""
    from numba import typeof
    _, tables, live = _pair_state()
    return (INT, checks_type(), typeof(tables), typeof(live), INT, INT)


def sat_solve_types():
    """``sat_solve``'s: a check's clause learner, the masks, the guide, a budget, a deadline
    and the masks it writes."""
    from numba import typeof
    _, tables, live = _pair_state()
    return (typeof(sat_of(tables, live.mask)), INTS, INTS, INT, INT, INTS)


def repair_steps_types():
    """``repair_steps``'s: the tables, the masks, the parent's witness, the masks it writes
    and a node budget."""
    from numba import typeof
    return (typeof(_pair_state()[1]), INTS, INTS, INTS, INT)


def pin_fitting_pieces_types():
    """``pin_fitting_pieces``'s: the tables, the node, a witness and the tally's labels."""
    _, _, tables, live, _, _, _ = count_scope_types()
    return (tables, live, INTS, INTS)
