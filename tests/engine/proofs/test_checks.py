"""search: checks that cut branches with no solution once fan-out thrashes, keeping the order."""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
import kakuro_np.turns as turns
from kakuro_np.combos import LOWEST_DIGIT
import kakuro_np.solve as solve
from kakuro_np.engine.core import policy
from kakuro_np.engine.core.codes import CONTRADICTION, OK, THRASHING, WITNESSED
from kakuro_np.engine.force import apply_row, propagate, start_state
from kakuro_np.engine.proofs.checks import check_node, checks_for
from kakuro_np.engine.search import search
from strategies import filled_puzzles, runs
from conftest import examples

NEVER = 10**15

# A writer's draft (12x12, 99 blanks, many solutions): kakuro(limit=2) fanned out for
# over 20 s in the essay's order before checks; CP-SAT finds two solutions in about 0.1 s.
THRASHING_DRAFT = r"""\|34\|38\|29\|21\|7\|16\|\|\|13\|19\|16\
\31|||||||\|13\14|||
\22|||||||36\26||||
\19|||||25\|18\28|||||
\41|||||||||\|29\|40\
\34||||||||33\|\9||
\6|||\22||||||29\11||
\17|||\|14\39|||||||
\|18\|14\|17\37||||||||
\21||||||12\|8\20||||
\21|||||\30||||||
\19||||\|\32||||||
"""


def solutions(p, check_after, hunt_nodes=policy.CHECK_HUNT_NODES, limit=turns.NO_LIMIT):
    """The digits per variable of the solutions ``search`` finds: with checks after
    ``check_after`` nodes without a solution, or without checks (``check_after`` NEVER)."""
    m = solve.model(p)
    if m.status != OK:                  # forced moves refute it: no search (as in kakuro)
        return np.zeros((0, len(m.var_cell)), np.int8)
    checks = None if check_after == NEVER else checks_for(m, hunt_nodes)
    found = search(m.root(), np.int64(limit), True, np.int64(turns.NO_LIMIT),
                   np.int64(check_after), checks)
    if found.status == THRASHING and checks is None:   # policy.THRASH_NS (2 s) with no solution,
        found = search(m.root(), np.int64(limit), True,  # on a slow machine or a hard example:
                       np.int64(turns.NO_LIMIT),         # on with checks, which cut only
                       np.int64(check_after), checks_for(m, hunt_nodes))  # branches with none
    assert found.status == OK
    return found.digits


def test_checks_keep_k3_in_the_essays_order():
    p = kn.read("puzzles/k3.txt")
    plain = solutions(p, NEVER)
    assert len(plain) == 40
    for hunt_nodes in (0, 5, 2000):     # 0: every check counts; 2000: most are hunted
        assert np.array_equal(solutions(p, 0, hunt_nodes), plain)


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(filled_puzzles())
def test_checks_from_the_first_node_change_nothing_but_time(case):
    p, _ = case
    plain = solutions(p, NEVER, limit=500)
    for check_after, hunt_nodes in ((0, 0), (0, 50), (3, 2000)):
        assert np.array_equal(solutions(p, check_after, hunt_nodes, limit=500), plain)


@settings(max_examples=examples(100), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(filled_puzzles(), st.integers(-2, 2))
def test_the_root_witness_found_in_any_order_changes_nothing_but_time(case, change):
    """Once the search thrashes (here at once), its root takes a solution found in any
    order as its witness, or the search ends when that hunt proves there is none (an
    across clue changed by ``change`` may leave none)."""
    p, _ = case
    p = changed_clue(p, change)
    plain = solutions(p, NEVER, limit=500)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(policy, "THRASH_NODES", 0)
        got = kn.kakuro(p, limit=500)
    assert np.array_equal(got[:, p.blank], plain)


def changed_clue(p, change):
    """``p`` with its first across clue changed by ``change`` where that stays a sum its
    run's different digits can make."""
    for direction, clue, cells in runs(p.blank):
        n = len(cells)
        total = p.across[clue] + change
        if direction == "a" and p.across[clue] and n * (n + 1) // 2 <= total <= n * (19 - n) // 2:
            across = p.across.copy()
            across[clue] = total
            return kn.Puzzle(p.blank, p.down, across, p.given)
    return p


def test_a_thrashing_draft_gives_its_first_two_solutions_at_once():
    solutions(kn.read("puzzles/k3.txt"), 0)          # compile the checks outside the timeout
    p = kn.parse(THRASHING_DRAFT)
    sols = kn.kakuro(p, limit=2, timeout=15)
    assert len(sols) == 2 and not np.array_equal(sols[0], sols[1])
    cells, sums = kn.entries(p)
    for s in sols:
        flat = s.ravel()
        assert all(flat[c].sum() == t and len(set(flat[c])) == len(c) for c, t in zip(cells, sums))


def _child_of_the_root(case, pick_entry_at, pick_row_at):
    """``(m, checks, tables, live, below)``: the model, checks whose witness at the root is
    the puzzle's last solution (so it rarely fits the child), and a child of the root
    (propagated), with the solutions below it; None where forced moves refute the child."""
    p, _ = case
    every = kn.kakuro(p, limit=500)
    assume(0 < len(every) < 500)
    m = solve.model(p)
    emptied, tables, live = start_state(m.root(), True)
    open_entries = np.flatnonzero(live.nalive > 1)
    assume(emptied < 0 and len(open_entries) > 0)
    k = open_entries[pick_entry_at % len(open_entries)]
    row = live.perm[tables.tab_off[k] + pick_row_at % live.nalive[k]]
    cells = m.ent_var[m.ent_off[k]:m.ent_off[k + 1]]
    digits = tables.rows[row, :len(cells)]
    below = [s for s in every if np.array_equal(s.ravel()[m.var_cell[cells]], digits)]
    checks = checks_for(m, 0)
    checks.witness[0] = 1 << (every[-1].ravel()[m.var_cell].astype(np.int64) - 1)
    checks.has_witness[0] = True
    apply_row(tables, live, k, row)
    if propagate(tables, live, True) >= 0:      # forced moves refute the child
        assert not below
        return None
    return m, checks, tables, live, below


def _assert_a_solution_below(m, witness, live, below):
    assert (witness & live.mask != 0).all()
    digits = LOWEST_DIGIT[witness]
    assert any(np.array_equal(s.ravel()[m.var_cell], digits) for s in below)


CHILDREN = (filled_puzzles(), st.integers(0, 10**6), st.integers(0, 10**6))


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(*CHILDREN)
def test_a_check_answers_what_enumeration_does_and_its_witness_is_a_solution_below(
        case, pick_entry_at, pick_row_at):
    """Clause learning and hunts must agree with the full list, name a solution below the
    node whenever there is one, and leave the node as it was."""
    child = _child_of_the_root(case, pick_entry_at, pick_row_at)
    assume(child is not None)
    m, checks, tables, live, below = child
    before = live.mask.copy(), live.nalive.copy()
    said = check_node(np.int64(1), checks, tables, live, np.int64(NEVER))
    assert np.array_equal(live.mask, before[0]) and np.array_equal(live.nalive, before[1])
    assert said == (WITNESSED if below else CONTRADICTION)
    if said == WITNESSED:
        _assert_a_solution_below(m, checks.witness[1], live, below)
