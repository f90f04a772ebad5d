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
from ..core.jit import INT, INTS, RecordType, by_reference, copy_into, kernel, monotonic_ns
from ..core import ahead, policy
from ..core.policy import CHECK_SAT_NS, CHECK_TURN_GROWTH
from ..core.state import Model, tables_model
from ..force import start_state
from ..walk.anyorder import Hunter, hunt
from ..walk.sums import network_of, sums_feasible
from ..walk.trail import trail_for
from .cdcl import sat_of, sat_solve


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
    that many nanoseconds, steered by ``seed`` (see ``search``)."""


CHECKS_FIELDS = ("hunt_nodes", "witness", "has_witness", "hunter", "sat", "sat_record", "given",
                 "seed", "root_ns")
by_reference(Checks, ChecksType, CHECKS_FIELDS, readable=False)    # see CHECKS_ARRAYS


#: The arrays of ``Checks`` that ``new_checks`` also sets on the proxy, for Python to read
#: and write (the structure holds the same arrays, so the kernels see what it writes).
CHECKS_ARRAYS = ("witness", "has_witness", "sat_record", "given", "seed", "root_ns")


@kernel
def pack_checks(hunt_nodes, trail, sums, sat, arrays):
    """A ``Checks`` of its parts, its hunter's made of the ``trail`` and the ``sums`` network
    (with weights of one, and no guide); ``arrays`` in the order of CHECKS_ARRAYS."""
    witness, has_witness, sat_record, given, seed, root_ns = arrays
    hunter = Hunter(trail, np.ones(trail.saved_alive.shape[1]), sums,
                    np.zeros(given.shape[0], np.int64))
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
    checks = pack_checks(np.int64(hunt_nodes), trail_for(tables, live, False), sums,
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
    the cells' bounds (``sums``). Else turns of clause learning (``cdcl``, the first
    CHECK_SAT_NS long, then as long in time as the hunt's last) and of a hunt in any
    order (``anyorder``, each hunt CHECK_TURN_GROWTH times more nodes than the last, the
    first ``checks.hunt_nodes``) answer, the hunt trying the parent's witness's rows
    first. The hunt finds a solution below most nodes that have one, or goes through
    every branch of a small node; clause learning refutes the nodes that thrash the
    hunt, learning a clause at each fixpoint of its propagation where the sums cannot
    be met. The turns' lengths change how long a check takes, never its answer.
    Returns WITNESSED (yes, a solution is in ``witness[node]``), CONTRADICTION (no) or
    TIMED_OUT (the deadline passed), and sets ``has_witness[node]``.
    """
    witness, has_witness = checks.witness, checks.has_witness
    has_witness[node] = False
    parent_witnessed = node > 0 and has_witness[node - 1]
    known = checks.given if node == 0 else witness[node - 1]     # a solution that may fit
    if parent_witnessed or (node == 0 and checks.given[0] != 0):
        fits = True
        for v in range(known.shape[0]):
            if live.mask[v] & known[v] == 0:
                fits = False
                break
        if fits:
            copy_into(witness[node], known)
            has_witness[node] = True
            return WITNESSED
    if not sums_feasible(checks.hunter.sums, live.mask):
        return CONTRADICTION
    if parent_witnessed:
        copy_into(checks.hunter.guide, witness[node - 1])   # the hunt tries its rows first
    else:
        checks.hunter.guide[:] = 0
    turn = checks.hunt_nodes                # the turns of clause learning and of a hunt
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


# The compile group of the checks' clause learning (``ahead``): compiled apart from the
# checked search, which calls it (``search``'s "checks").
ahead.declare("proof-checks", __name__, ((__name__, "sat_solve", "sat_solve_types"),),
              after=("model",))
