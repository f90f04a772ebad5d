"""The search: depth-first fan-out from the fixpoint, in the essay's order.

Glossary
--------
level  : one fan-out in the depth-first search (see ``trail``).
checks : what the search keeps for its checks once it thrashes (``proofs.checks``).
status : ``OK``, ``CONTRADICTION``, ``OVER_BUDGET``, ``TIMED_OUT`` or
         ``THRASHING`` (see ``codes``).

The search visits the branches in the essay's order: at each node it takes the
entry with the fewest live rows above one (ties to the lower index) and tries
its rows in lexicographic order, so solutions come out in the essay's order.
When it goes a long way without a solution, it checks branches before entering
them and skips those with none (see ``search``), which changes the time only.

Examples
--------
>>> import kakuro_np as kn
>>> from kakuro_np.engine.model import build
>>> from kakuro_np.engine.core.jit import NO_DEADLINE
>>> found = search(build(kn.read("puzzles/k3.txt")).root(), 100, False, NO_DEADLINE, 10**9, None)
>>> int(found.found), int(found.status)
(40, 0)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.core import types

from ..combos import LOWEST_DIGIT
from .core import ahead
from .core.codes import CONTRADICTION, OK, OVER_BUDGET, THRASHING, TIMED_OUT, WALKED, WITNESSED
from .core.jit import INT, NO_DEADLINE, copy_into, grow, kernel, monotonic_ns
from .core.policy import CLOCK_AFTER, THRASH_NS
from .core.state import ROOT
from .force import pick_entry, start_state
from .proofs.checks import check_node, checks_type
from .walk.sums import sums_feasible
from .walk.trail import close_levels, open_level, rebuild_node, step, trail_for


class Found(NamedTuple):
    """What ``search`` found: ``found`` solutions, their ``digits`` per variable (when
    stored), the ``nodes`` visited, and the ``status`` (see ``codes``)."""
    found: int
    digits: np.ndarray
    nodes: int
    status: int


#: The types ``kakuro()`` calls ``search`` with (see ``ahead``).
SEARCH_TYPES = (ROOT, INT, types.boolean, INT, INT, types.none)


def checked_search_types():
    """The types ``solve`` calls ``search`` with once it thrashes: SEARCH_TYPES with checks."""
    return SEARCH_TYPES[:-1] + (checks_type(),)


@kernel
def search(root, limit, store, deadline, check_after, checks):
    """Depth-first fan-out from the fixpoint of ``force``.

    After ``check_after`` nodes or THRASH_NS without a solution (thrashing), the nodes on
    the current path are checked from the top (``check_node``, with the
    ``checks`` from ``new_checks``) and the first one with no solution below
    it is cut; from then on, until a solution is found, each new node is
    checked before it is entered, unless a solution found by an earlier check
    lies below it. Only branches without solutions are cut, so the solutions
    and their order are those of plain fan-out. With ``checks`` None the
    checks are not compiled in, and the search stops with THRASHING instead;
    with checks, every node is also tested on its sums (``sums``), and cut
    when they cannot be met. With ``checks.root_ns[0]`` set, the root is checked
    first, for at most that long: if it has no solution the search
    ends; if the check found none in time, it stops with THRASHING (the caller
    then finds the root a witness some other way, in ``checks.given``).

    Returns a ``Found``: how many solutions were found (at most ``limit``),
    their digits per variable if ``store`` (else an empty array), how many
    nodes were visited, and OK, TIMED_OUT (the deadline passed; what was
    found so far is returned) or THRASHING.
    ``root.mask`` is left at the last node.
    """
    mask = root.mask
    V = mask.shape[0]
    solutions = np.zeros((16 if store else 0, V), np.int8)
    if limit <= 0:
        return Found(0, solutions[:0], 0, OK)
    emptied, tables, live = start_state(root, True)
    if emptied >= 0:
        return Found(0, solutions[:0], 1, OK)
    if checks is not None and checks.root_ns[0] != 0:
        # the root's check, for at most root_ns: the sums are tested on the masks
        # ``checks.seed`` first, since the hunt tries rows nearest the flow of the last
        # sums test first: from the node where a walk thrashed it hunts along the walk's
        # path, and finds a solution far sooner than from the root's flow. Its solution
        # goes to ``checks.given``: later checks of the root take it at once
        sums_feasible(checks.hunter.sums, checks.seed)
        said = check_node(np.int64(0), checks, tables, live,
                          min(deadline, monotonic_ns() + checks.root_ns[0]))
        if said == WITNESSED:
            copy_into(checks.given, checks.witness[0])
        checks.root_ns[0] = 0
        if said == CONTRADICTION:
            return Found(0, solutions[:0], 1, OK)
        if said != WITNESSED:
            return Found(0, solutions[:0], 1, THRASHING)
        # the walk starts from the root afresh, as after the check in a call of its own: the
        # check left the node as it was, but its rows reordered (perm), which would steer
        # the later checks' hunts otherwise, and slow them (see bench/HISTORY.md)
        emptied, tables, live = start_state(root, True)
    nalive = live.nalive
    trail = trail_for(tables, live, False)
    found = 0
    nodes = 1
    since = 0                                # nodes since the last solution
    began = monotonic_ns()                   # the time of the last solution, or the start
    now = began
    checking = False
    at_node = True
    while True:
        if at_node:
            k = pick_entry(nalive)
            if k < 0:                                  # every table has one row
                if store:
                    if found == solutions.shape[0]:
                        solutions = grow(solutions, 2 * found)
                    for v in range(V):
                        solutions[found, v] = LOWEST_DIGIT[mask[v]]   # its one digit
                found += 1
                since = 0
                began = monotonic_ns()
                checking = False                # checks only pay while no solution turns up
                if found >= limit:
                    break
            else:
                open_level(trail, tables, live, k, True)
        emptied = step(trail, tables, live, 0)
        if emptied == WALKED:
            break
        nodes += 1
        since += 1
        if since > CLOCK_AFTER or nodes & 1023 == 0:   # a slow stretch: every node
            now = monotonic_ns()
            if deadline != NO_DEADLINE and now > deadline:
                return Found(found, solutions[:found], nodes, TIMED_OUT)
        at_node = emptied < 0
        if (checks is not None and at_node and not checking    # checking: check_node tests it
                and not sums_feasible(checks.hunter.sums, mask)):
            at_node = False
        if not at_node or (not checking and since <= check_after
                           and (since <= CLOCK_AFTER or now - began <= THRASH_NS)):
            continue
        if checks is None:                  # without checks (compiled apart): stop
            return Found(found, solutions[:found], nodes, THRASHING)
        else:
            # thrashing: check the nodes on the path from the top (``check_node``) and cut
            # the first with no solution below it (the walk goes on with the next row of
            # its parent, or ends at the root); from then on, each new node
            d = trail.top[0]
            a = d if checking else np.int64(0)
            while True:
                if not checking:
                    rebuild_node(trail, tables, live, a)    # the checks above moved rows in perm
                c = check_node(a, checks, tables, live, deadline)
                if c == CONTRADICTION and not checking:
                    close_levels(trail, live, a, False)
                if c == CONTRADICTION or c == TIMED_OUT or a == d:
                    break
                a += 1
            checking = True
            if c == TIMED_OUT:
                return Found(found, solutions[:found], nodes, TIMED_OUT)
            at_node = c != CONTRADICTION
    return Found(found, solutions[:found], nodes, OK)


#: The types ``ahead`` compiles ``walk_fanouts`` with (``grading``'s fan-out count).
FANOUT_TYPES = (ROOT, INT, INT)


@kernel
def walk_fanouts(root, most, deadline):
    """``(fan-outs, solutions, status)`` of the essay's fan-out from the fixpoint of ``force``.

    Depth first, rows in lexicographic order, as ``search`` goes without its
    checks. ``status`` is OK when the walk went through the whole tree (both
    counts exact), OVER_BUDGET when it stopped before fan-out ``most + 1``, and
    TIMED_OUT when ``deadline`` (monotonic ns) passed; then the counts are those so far.
    """
    emptied, tables, live = start_state(root, True)
    if emptied >= 0:
        return 0, 0, OK
    trail = trail_for(tables, live, False)
    fanouts = solutions = 0
    at_node = True
    while True:
        if at_node:
            k = pick_entry(live.nalive)
            if k < 0:
                solutions += 1
            elif fanouts == most:
                return fanouts, solutions, OVER_BUDGET
            else:
                fanouts += 1
                open_level(trail, tables, live, k, True)
        emptied = step(trail, tables, live, 0)
        if emptied == WALKED:
            return fanouts, solutions, OK
        if deadline != NO_DEADLINE and monotonic_ns() > deadline:
            return fanouts, solutions, TIMED_OUT
        at_node = emptied < 0


# The compile groups of this module's kernels (``ahead``): the essay's search, the same
# with the checks of a thrashing walk (whose parts compile first, in two helpers of their
# own), and the fan-out count that grades a puzzle.
ahead.declare("search", __name__, ((__name__, "search", "SEARCH_TYPES"),), after=("model",))
ahead.declare("checks", __name__, ((__name__, "search", "checked_search_types"),),
              after=("proof-checks", "hunt"))
ahead.declare("fanouts", __name__, ((__name__, "walk_fanouts", "FANOUT_TYPES"),),
              after=("search",))
