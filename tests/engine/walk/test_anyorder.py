"""anyorder: hunting for solutions in any order, and count(limit=n) taking turns with it."""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings

import kakuro_np as kn
import kakuro_np.turns as turns
from kakuro_np.combos import LOWEST_DIGIT
from kakuro_np.engine.core import ahead
from kakuro_np.engine.walk.anyorder import any_solutions, luby
from kakuro_np.solve import model
from kakuro_np.turns import NO_LIMIT
from strategies import THRASHING_DRAFT, filled_puzzles, satisfies
from conftest import DATA, examples

NO_END = np.int64(NO_LIMIT)


def hunt(p, want, budget=NO_END):
    m = model(p)
    return any_solutions(m.root(), np.zeros((0, 0), np.int64), np.int64(want), np.int64(budget), NO_END,
                          np.ones(len(m.root().tab_off) - 1))


def test_luby_sequence():
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def test_hunt_finds_every_solution_of_k3_and_says_so(expected):
    p = kn.read("puzzles/k3.txt")
    assert hunt(p, 2)[:2] == (2, False)
    found, exhausted, _ = hunt(p, 1000)
    assert (found, exhausted) == (expected["k3.txt"]["solutions"], True)


def test_hunt_stops_at_its_node_budget():
    found, exhausted, nodes = hunt(kn.parse(THRASHING_DRAFT), 10**6, budget=50)
    assert found < 10**6 and not exhausted and nodes <= 51


def test_a_thrashing_draft_is_answered_at_once():
    kn.count("puzzles/k3.txt"), kn.count("puzzles/k3.txt", limit=2)   # compile outside the timeout
    p = kn.parse(THRASHING_DRAFT)
    assert kn.count(p, limit=2, timeout=10) == 2
    assert kn.count(p, limit=1000, timeout=10) == 1000


SMALL = settings(max_examples=examples(150), deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SMALL
@given(filled_puzzles())
def test_hunt_never_claims_more_than_there_are(case):
    p, _ = case
    n = len(kn.kakuro(p, limit=50))
    for want in (1, 2, 7, 50):
        found, exhausted, _ = hunt(p, want)
        assert found == min(n, want)
        assert exhausted or found == want


@SMALL
@given(filled_puzzles())
def test_count_with_a_small_limit_takes_turns_and_agrees(case):
    p, _ = case
    n = len(kn.kakuro(p, limit=60))
    m = model(p)
    for limit in (1, 2, 5, 60):                 # many short turns of each kind
        assert turns.count_in_turns(m, limit, NO_END, turns=(1, 2)) == min(n, limit)


@pytest.mark.parametrize("limit", [1, 2, 40, 41, 1000])
def test_count_with_a_limit_on_k3(limit):
    assert kn.count("puzzles/k3.txt", limit=limit) == min(40, limit)


@SMALL
@given(filled_puzzles())
def test_kakuro_in_any_order_gives_distinct_solutions_of_the_essays_list(case):
    p, _ = case
    every = kn.kakuro(p, limit=200)
    assume(len(every) < 200)                      # the whole list, to look them up in
    listed = {s.tobytes() for s in every}
    for limit in (1, 2, 7, 200):
        found = kn.kakuro(p, limit=limit, order="any")
        assert len(found) == min(limit, len(every))
        assert_distinct_and_listed(found, listed)


def assert_distinct_and_listed(solutions, listed):
    """Each solution (an int8 array) differs from the others and is among the ``listed``
    bytes."""
    assert len({s.tobytes() for s in solutions}) == len(solutions)
    assert all(s.tobytes() in listed for s in solutions)


def assert_two_different_solutions_at_once(p):
    """``order="any"`` gives two different solutions of ``p`` within 10 s, once its kernels
    are compiled. On a fresh clone the first call compiles those its turns need (in a
    loaded test run once 10 s and more); then the kernels of the hunt and of the count that
    reads its solutions back are compiled here, as a helper or ``kakuro-np compile`` would:
    a call with a time limit waits for any it lacks, and the first call may not have needed
    the count's (a minute to compile under load)."""
    kn.kakuro(p, limit=2, order="any")
    ahead.stop_all()                # a helper still compiling would be waited for
    ahead.main(["model", "hunt", "readback"])
    found = kn.kakuro(p, limit=2, order="any", timeout=10)
    assert len(found) == 2 and not np.array_equal(found[0], found[1])
    assert all(satisfies(p, s) for s in found)


def test_kakuro_in_any_order_answers_a_thrashing_draft_at_once():
    assert_two_different_solutions_at_once(kn.parse(THRASHING_DRAFT))


@SMALL
@given(filled_puzzles())
def test_solutions_read_back_from_a_count_are_distinct_and_in_the_essays_list(case):
    from kakuro_np.engine.walk.counting import counted_solutions
    from kakuro_np.engine.walk.memo import DATA_WORDS, SLOTS_LOG2, growable, new_memo
    p, _ = case
    every = kn.kakuro(p, limit=200)
    assume(len(every) < 200)
    listed = {s[p.blank].tobytes() for s in every}
    m = model(p)
    memo = growable(new_memo(SLOTS_LOG2, DATA_WORDS))      # one memo for every want
    for want in (1, 2, 7, 200):
        status, masks = counted_solutions(m.root(), np.int64(want), NO_END, memo,
                                          np.array([NO_LIMIT, 0]))
        assert status == len(masks) == min(want, len(every))
        assert_distinct_and_listed(LOWEST_DIGIT[masks].astype(np.int8), listed)


@SMALL
@given(filled_puzzles())
def test_any_order_in_many_short_turns_of_hunt_and_count_agrees(case):
    p, _ = case
    every = kn.kakuro(p, limit=50)
    assume(len(every) < 50)
    listed = {s[p.blank].tobytes() for s in every}
    m = model(p)
    for limit in (1, 3, 50):
        found, digits = turns.solutions_in_any_order(m, limit, NO_END, None, turns=(1, 2))
        assert found == len(digits) == min(limit, len(every))
        assert_distinct_and_listed(digits.astype(np.int8), listed)


# A generator's 10x10 draft (72 blanks, one piece, three 45-sums: 1M table rows) on which the
# hunt alone took 26 s to find two solutions; its count, which splits pieces as they fall
# apart, 0.3 s.
HUNT_THRASHES = (DATA / "draft-45-sums.txt").read_text()


def test_any_order_answers_a_draft_the_hunt_alone_thrashes_on():
    assert_two_different_solutions_at_once(kn.parse(HUNT_THRASHES))


def test_an_unknown_order_is_a_value_error():
    with pytest.raises(ValueError, match="order"):
        kn.kakuro("puzzles/k3.txt", order="fast")


def level_on_the_biggest_table(puzzle):
    """The root of ``puzzle`` with a hunter and one level opened on its biggest open table."""
    from kakuro_np.engine.walk.anyorder import Hunter
    from kakuro_np.engine.force import start_state
    from kakuro_np.engine.walk.sums import network_of, sums_feasible
    from kakuro_np.engine.walk.trail import open_level, trail_for
    _, tables, live = start_state(model(puzzle).root(), True)
    sums = network_of(tables, live.mask.shape[0], True)
    assert sums_feasible(sums, live.mask)              # leaves a flow for the order
    hunter = Hunter(trail_for(tables, live, False), np.ones(live.nalive.shape[0]), sums,
                    np.zeros(live.mask.shape[0], np.int64))
    k = int(np.argmax(live.nalive))
    open_level(hunter.trail, tables, live, k, True)
    t = hunter.trail
    return tables, hunter, k, slice(int(t.first[0]), int(t.stop[0]))


def test_rows_are_tried_on_the_guide_first_then_nearest_the_flow():
    from kakuro_np.engine.walk.anyorder import order_rows
    tables, hunter, k, level = level_on_the_biggest_table(kn.read("puzzles/k3.txt"))
    cand = hunter.trail.cand
    before = cand[level].copy()
    a, b = tables.ent_off[k], tables.ent_off[k + 1]
    cells = tables.ent_var[a:b]

    def flow_distance(r):
        flow = hunter.sums.flow[hunter.sums.var_arc[cells]]
        return int(((tables.rows[r, :b - a] - flow) ** 2).sum())

    order_rows(hunter.trail, tables, hunter, k)            # no guide: by the flow, stable
    assert sorted(cand[level].tolist()) == sorted(before.tolist())
    assert [flow_distance(r) for r in cand[level]] == sorted(flow_distance(r) for r in before)
    guided = int(before[-1])                               # a guide on the last row
    hunter.guide[cells] = 1 << (tables.rows[guided, :b - a].astype(np.int64) - 1)
    order_rows(hunter.trail, tables, hunter, k)
    assert int(cand[level][0]) == guided
    assert sorted(cand[level].tolist()) == sorted(before.tolist())
