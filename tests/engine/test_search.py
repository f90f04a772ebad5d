"""search: the depth-first fan-out in the essay's order, its limits and its stops."""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from kakuro_np.combos import LOWEST_DIGIT
from kakuro_np.engine.core import policy
from kakuro_np.engine.core.codes import CONTRADICTION, OK, THRASHING, TIMED_OUT
from kakuro_np.engine.core.jit import NO_DEADLINE
from kakuro_np.engine.model import build
from kakuro_np.engine.force import start_state
from kakuro_np.engine.search import search, walk_fanouts
from strategies import OPEN_BLOCK, THRASHING_DRAFT, filled_puzzles
from conftest import PUZZLES, SAMPLES, examples

SETTINGS = settings(max_examples=examples(80), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
#: No check ever: the search runs on without a solution as long as it must.
NEVER = np.int64(10**15)
MANY = 10**6
PAST = np.int64(1)                              # a deadline long gone (monotonic ns)


def run(m, limit=MANY, store=True, deadline=NO_DEADLINE, check_after=NEVER):
    return search(m.root(), np.int64(limit), store, np.int64(deadline), np.int64(check_after),
                  None)


def per_variable(m, solutions):
    """kakuro()'s (n, H, W) solutions as digits per variable, as ``search`` stores them."""
    return solutions.reshape(len(solutions), -1)[:, m.var_cell]


@pytest.mark.parametrize("name", SAMPLES)
def test_search_finds_the_samples_solutions_in_kakuros_order(name, expected):
    p = kn.read(PUZZLES / name)
    m = build(p)
    found = run(m)
    assert (found.found, found.status) == (expected[name]["solutions"], OK)
    assert found.digits.dtype == np.int8 and found.digits.shape == (found.found, len(m.var_cell))
    assert np.array_equal(found.digits, per_variable(m, kn.kakuro(p)))


def test_k3_search_visits_its_tree_and_leaves_the_root_at_the_last_solution():
    m = build(kn.read(PUZZLES / "k3.txt"))
    root = m.root()
    found = search(root, np.int64(1), True, np.int64(NO_DEADLINE), NEVER, None)
    assert found.found == 1
    assert [int(LOWEST_DIGIT[b]) for b in root.mask] == found.digits[0].tolist()   # its node
    assert np.array_equal(m.mask, m.fit_mask)           # the model's own masks untouched
    whole = run(m)
    assert (whole.found, whole.nodes) == (40, 93)       # the root and 92 rows tried below it


@pytest.mark.parametrize("limit", [1, 2, 7, 39, 40, 41])
def test_a_limit_stops_at_that_many_solutions_the_first_of_the_full_list(limit):
    m = build(kn.read(PUZZLES / "k3.txt"))
    whole, part = run(m), run(m, limit)
    assert part.found == min(limit, 40) and part.status == OK
    assert np.array_equal(part.digits, whole.digits[:part.found])
    if limit < 40:                                      # it stopped short of the tree
        assert part.nodes < whole.nodes
    elif limit > 40:                                    # it went through the whole tree
        assert part.nodes == whole.nodes


def test_without_store_the_search_counts_the_same_and_keeps_no_digits():
    m = build(kn.read(PUZZLES / "k3.txt"))
    stored, bare = run(m), run(m, store=False)
    assert (bare.found, bare.nodes, bare.status) == (stored.found, stored.nodes, OK)
    assert bare.digits.shape == (0, len(m.var_cell))


def test_a_root_whose_masks_contradict_has_no_solution_after_one_node():
    m = build(kn.read(PUZZLES / "k3.txt"))
    one = np.flatnonzero([bin(b).count("1") > 1 for b in m.mask])[0]
    bad = m.mask.copy()
    bad[one] = 0                                        # a cell with no digit left
    found = search(m._replace(mask=bad).root(), np.int64(MANY), True, np.int64(NO_DEADLINE),
                   NEVER, None)
    assert (found.found, found.nodes, found.status) == (0, 1, OK)
    assert found.digits.shape == (0, len(m.var_cell))


def test_a_deadline_already_past_stops_with_timed_out_and_the_solutions_so_far():
    m = build(kn.Puzzle.from_rows(OPEN_BLOCK))          # about 5.5e27 solutions
    found = run(m, deadline=PAST)
    assert found.status == TIMED_OUT
    assert 0 < found.found < found.nodes <= 1024        # the clock is read within 1024 nodes
    first = kn.kakuro(OPEN_BLOCK, limit=int(found.found))
    assert np.array_equal(found.digits, per_variable(m, first))


def test_without_checks_a_search_past_check_after_nodes_stops_thrashing():
    m = build(kn.read(PUZZLES / "k3.txt"))
    short = run(m, check_after=0)                       # the first node past the root
    assert (short.found, short.status) == (0, THRASHING) and short.nodes < 93
    assert run(m, check_after=10).status == OK          # k3's solutions come closer than that


def test_a_thrashing_draft_stops_thrashing_without_checks():
    """The draft whose fan-out ran past 20 s for two solutions: without checks the search
    gives up after policy.THRASH_NODES nodes with no solution."""
    m = build(kn.parse(THRASHING_DRAFT))
    found = run(m, limit=2, check_after=policy.THRASH_NODES)
    assert (found.found, found.status) == (0, THRASHING)
    assert found.nodes > policy.CLOCK_AFTER             # it went on a while first


@SETTINGS
@given(filled_puzzles())
def test_search_lists_kakuros_solutions_in_order_on_random_puzzles(case):
    p, fill = case
    m = build(p)
    assert m.status == OK                       # clued from a fill: it has a solution
    found = run(m, limit=300)
    assume(found.status == OK)                  # fan-out may go 2 s without one (THRASH_NS)
    assert np.array_equal(found.digits, per_variable(m, kn.kakuro(p, limit=300)))
    if found.found < 300:                       # every solution: the fill is one
        assert (found.digits == fill.ravel()[m.var_cell]).all(axis=1).any()


@SETTINGS
@given(filled_puzzles(), st.integers(1, 12))
def test_a_limited_search_is_a_prefix_of_the_full_one(case, limit):
    p, _ = case
    m = build(p)
    whole, part = run(m, limit=200), run(m, limit=limit)
    assume(whole.status == part.status == OK)
    assert part.found == min(limit, whole.found)
    assert np.array_equal(part.digits, whole.digits[:part.found])


@SETTINGS
@given(filled_puzzles())
def test_the_fan_out_walk_counts_the_solutions_the_search_finds(case):
    """``walk_fanouts`` goes the search's way without its checks: the same leaves."""
    p, _ = case
    m = build(p)
    fans, leaves, status = walk_fanouts(m.root(), np.int64(2000), np.int64(NO_DEADLINE))
    assume(status == OK)                        # a tree past 2000 fan-outs
    found = run(m, limit=MANY, store=False)
    assert found.status == OK and found.found == leaves
    assert found.nodes >= fans + leaves         # each fan-out is entered, each leaf reached


@SETTINGS
@given(filled_puzzles(), st.data())
def test_the_fixpoint_from_a_digit_set_is_that_of_the_puzzle_given_it(case, data):
    """Forcing the model's root with one cell set to a digit reaches the masks that a build
    of the puzzle with that digit given reaches, or a contradiction exactly when it does."""
    p, _ = case
    m = build(p)
    free = np.flatnonzero(p.given.flat[m.var_cell] == 0)    # a given there would be replaced
    assume(len(free) > 0)
    v = data.draw(st.sampled_from(free.tolist()))
    d = data.draw(st.integers(1, 9))
    given_digits = p.given.copy()
    given_digits.flat[m.var_cell[v]] = d
    other = build(p.with_given(given_digits))
    root = m.root()
    root.mask[v] &= 1 << (d - 1)
    emptied = start_state(root, True)[0]
    if other.status == CONTRADICTION:
        assert emptied >= 0
    else:
        assert emptied == -1 and np.array_equal(root.mask, other.mask)


def test_a_limit_of_0_finds_nothing_and_visits_no_node():
    m = build(kn.read(PUZZLES / "k3.txt"))
    found = search(m.root(), np.int64(0), True, np.int64(NO_DEADLINE), np.int64(10**9), None)
    assert (int(found.found), len(found.digits), int(found.nodes)) == (0, 0, 0)
