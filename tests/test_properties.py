"""Property tests on random puzzles made from random fills."""

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
import kakuro_np.turns as turns
import kakuro_np.solve as solve
from kakuro_np.engine.core.jit import NO_DEADLINE
from kakuro_np.engine.walk.memo import growable, new_memo
from strategies import FOUR_BLOCKS, brute_force_count, filled_puzzles, satisfies
from conftest import examples

LIMIT = 3000
SETTINGS = settings(max_examples=examples(150), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def solutions_and_complete(p):
    sols = kn.kakuro(p, limit=LIMIT)
    return sols, len(sols) < LIMIT


@SETTINGS
@given(filled_puzzles())
def test_the_fill_is_among_the_solutions(case):
    p, fill = case
    sols, complete = solutions_and_complete(p)
    assume(complete)
    assert (sols == fill).all(axis=(1, 2)).any()


@SETTINGS
@given(filled_puzzles())
def test_every_solution_satisfies_every_run_and_they_are_distinct(case):
    p, _ = case
    sols, _ = solutions_and_complete(p)
    assert len(sols) >= 1
    assert all(satisfies(p, s) for s in sols)
    assert len({s.tobytes() for s in sols}) == len(sols)


@SETTINGS
@given(filled_puzzles())
def test_count_equals_the_number_of_solutions(case):
    p, _ = case
    sols, _ = solutions_and_complete(p)
    assert kn.count(p, limit=LIMIT) == len(sols)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(filled_puzzles(max_side=5))
def test_count_equals_an_independent_brute_force(case):
    p, _ = case
    assume(p.blank.sum() <= 10)
    assert kn.count(p) == brute_force_count(p)


@SETTINGS
@given(filled_puzzles(max_blank_share=0.95), st.integers(1, 40))
def test_a_count_that_splits_its_big_pieces_counts_the_same(case, most):
    """``exact_count`` splits a piece once its count reaches ``most`` (2**63 - 1 in
    ``count()``; small here, so that pieces split, and their children split again) and
    adds its children's counts: the count of the full list, whatever ``most``."""
    p, _ = case
    sols, complete = solutions_and_complete(p)
    assume(complete)
    m = solve.model(p)
    memo = [growable(new_memo(1, 8))]       # grows as the splits go on
    assert turns.exact_count(m, NO_DEADLINE, memo, most) == len(sols)


def test_count_splits_the_pieces_past_what_a_count_holds(monkeypatch):
    """A piece whose count reaches NO_LIMIT (2**63 - 1; patched to 200 here, below each
    block's 576) sends count() to ``exact_count``, which gives the exact product (its own
    splitting is tested above, at small limits)."""
    assert kn.count(FOUR_BLOCKS) == 576**4
    monkeypatch.setattr(turns, "NO_LIMIT", 200)
    assert kn.count(FOUR_BLOCKS) == 576**4


@SETTINGS
@given(filled_puzzles())
def test_reduce_never_removes_a_digit_some_solution_uses(case):
    p, _ = case
    r = kn.reduce(p)
    sols, complete = solutions_and_complete(p)
    assert r.status in ("solved", "stuck")
    for s in sols:
        rr, cc = np.nonzero(p.blank)
        assert r.candidates[rr, cc, s[rr, cc] - 1].all()
    if r.status == "solved":
        assert len(sols) == 1 and (sols[0] == r.digits).all()
    if complete:  # forced digits are the digits every solution shares
        same = (sols == sols[0]).all(axis=0) & p.blank
        assert ((r.digits != 0) <= same).all()


@SETTINGS
@given(filled_puzzles(), st.data())
def test_a_digit_given_leaves_exactly_the_solutions_that_agree_with_it(case, data):
    puzzle, fill = case
    assume(puzzle.blank.any())
    cells = np.argwhere(puzzle.blank)
    r, c = cells[data.draw(st.integers(0, len(cells) - 1))]
    given = puzzle.given.copy()
    given[r, c] = data.draw(st.integers(1, 9))
    narrowed = puzzle.with_given(given)
    every, complete = solutions_and_complete(puzzle)
    assume(complete)
    agree = every[every[:, r, c] == given[r, c]]
    found = kn.kakuro(narrowed)                 # the same set; the fan-out's order may differ
    assert sorted(map(bytes, found)) == sorted(map(bytes, agree))
    assert kn.count(narrowed) == len(agree)
