"""The checks of a thrashing walk: is there a solution below this node?

The essay's search (``engine.search``) goes a long way without a solution on open
grids; it then checks branches before entering them and skips those with none,
which changes the time only. A check answers from the parent's solution when it
fits, from the sums (``walk.sums``), and else from turns of clause learning
(``cdcl``) and of a hunt in any order (``anyorder``).

Glossary
--------
checks  : what the search keeps for its checks once it thrashes (``Checks``).
witness : a solution (one-digit masks) known to lie below a node, found by a check;
          a child it fits needs no check of its own, and a check's hunt tries the
          rows of its parent's witness first.

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
from numba.experimental import structref

from ..core.codes import CONTRADICTION, SAT_NO, SAT_UNKNOWN, SAT_YES, TIMED_OUT, WITNESSED
from ..core.jit import INT, INTS, RecordType, by_reference, copy_into, inline_kernel, kernel, monotonic_ns
from ..core import policy
from ..core.policy import CHECK_SAT_NS, CHECK_TURN_GROWTH
from ..core.state import Model, tables_model
from ..force import start_state
from ..walk.anyorder import hunt, new_hunter
from ..walk.sums import network_of, sums_feasible
from ..walk.trail import cut_to, depth, rebuild_node
from .cdcl import sat_of, sat_solve


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
    """What the checks of a thrashing search keep: the nodes each check's first hunt
    may visit (``hunt_nodes``); per depth, a solution known to lie below the node
    (``witness``, one-digit masks) and whether there is one (``has_witness``); the
    ``hunter``, whose sums network tests each node checked before anything else.
    ``sat`` is the clause-learning solver (``cdcl``), whose clauses learned in one check
    serve every later one; ``sat_record`` counts its turns and those that answered.
    ``given`` is a solution of the root found before the checks began (one-digit
    masks), all zeros when there is none: the root's check takes it as its witness.
    ``root_ns[0]``, when not 0, asks the search to check the root first, for at most
    that many nanoseconds, steered by ``seed`` (see ``check_root``)."""


CHECKS_FIELDS = ("hunt_nodes", "witness", "has_witness", "hunter", "sat", "sat_record", "given",
                 "seed", "root_ns")
by_reference(Checks, ChecksType, CHECKS_FIELDS, readable=False)    # see CHECKS_ARRAYS


#: The arrays of ``Checks`` that ``new_checks`` also sets on the proxy, for Python to read
#: and write (the structure holds the same arrays, so the kernels see what it writes).
CHECKS_ARRAYS = ("witness", "has_witness", "sat_record", "given", "seed", "root_ns")


@kernel
def pack_checks(hunt_nodes, hunter, sat, arrays):
    """A ``Checks`` of its parts; ``arrays`` in the order of CHECKS_ARRAYS."""
    witness, has_witness, sat_record, given, seed, root_ns = arrays
    return Checks(hunt_nodes, witness, has_witness, hunter, sat, sat_record, given, seed,
                  root_ns)


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
    arrays = (np.zeros((levels, V), np.int64), np.zeros(levels, np.bool_),
              np.zeros(2, np.int64), np.zeros(V, np.int64), np.zeros(V, np.int64),
              np.zeros(1, np.int64))
    checks = pack_checks(np.int64(hunt_nodes), new_hunter(tables, live, sums, np.ones(E)),
                         sat_of(tables, live.mask), arrays)
    checks.__dict__.update(zip(CHECKS_ARRAYS, arrays))
    return checks


def checks_for(m: Model, hunt_nodes=None) -> Checks:
    """What ``search`` needs to check the branches of model ``m``, each check hunting
    ``hunt_nodes`` nodes first (``policy.CHECK_HUNT_NODES`` when None)."""
    return new_checks(m.root(), policy.CHECK_HUNT_NODES if hunt_nodes is None else hunt_nodes)


@kernel
def check_node(node, checks, tables, live, deadline):
    """Is there a solution below the node at depth ``node``? The node is left as it was.

    Yes at once when the solution in ``witness[node - 1]`` (its parent's; the
    root's: ``checks.given``) fits it; no at once when the sums cannot be met within
    the cells' bounds (``sums``). Else turns of clause learning and of a hunt in any
    order answer (``check_turns``), the hunt trying the parent's witness's rows first.
    Returns WITNESSED (yes, a solution is in ``witness[node]``), CONTRADICTION (no) or
    TIMED_OUT (the deadline passed), and sets ``has_witness[node]``.
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
    if parent_witnessed:
        copy_into(checks.hunter.guide, witness[node - 1])   # the hunt tries its rows first
    else:
        checks.hunter.guide[:] = 0
    return check_turns(node, checks, tables, live, deadline)


@inline_kernel
def check_turns(node, checks, tables, live, deadline):
    """``check_node`` once the quick answers are out: turns of clause learning
    (``cdcl``, the first CHECK_SAT_NS long, then as long in time as the hunt's last)
    and of a hunt in any order (``anyorder``), each hunt CHECK_TURN_GROWTH times more
    nodes than the last (the first ``checks.hunt_nodes``). The hunt finds a solution
    below most nodes that have one, or goes through every branch of a small node;
    clause learning refutes the nodes that thrash the hunt, learning a clause at each
    fixpoint of its propagation where the sums cannot be met. The turns' lengths
    change how long a check takes, never its answer.
    """
    witness, has_witness = checks.witness, checks.has_witness
    turn = checks.hunt_nodes
    spent = np.int64(0)
    while True:
        checks.sat_record[0] += 1
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
        if began >= deadline:
            return TIMED_OUT
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
    it at once), CONTRADICTION or TIMED_OUT.

    The sums are tested on the masks ``checks.seed`` first: the hunt tries rows
    nearest the flow of the last sums test first, so from the node where a walk
    thrashed it hunts along the walk's path, and finds a solution far sooner than
    from the root's flow. Inlined into ``search``: a kernel of its own would compile
    the checks' tree once more.
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


# The checks' clause learning, compiled ahead in a helper (``ahead``'s "proof-checks", beside
# "hunt" in another) so that a thrashing walk compiles only the checks' top itself.

def sat_solve_types():
    """``sat_solve``'s: a check's clause learner, the masks, the guide, a budget, a deadline
    and the masks it writes."""
    from numba import typeof
    _, tables, live = _pair_state()
    return (typeof(sat_of(tables, live.mask)), INTS, INTS, INT, INT, INTS)
