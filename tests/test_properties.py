"""Property tests on random puzzles made from random fills."""

import numpy as np
from hypothesis import HealthCheck, assume, given, settings

import kakuro_np as kn
from strategies import brute_force_count, filled_puzzles, satisfies

LIMIT = 3000
SETTINGS = settings(max_examples=150, deadline=None,
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


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(filled_puzzles(max_side=5))
def test_count_equals_an_independent_brute_force(case):
    p, _ = case
    assume(p.blank.sum() <= 10)
    assert kn.count(p) == brute_force_count(p)


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
