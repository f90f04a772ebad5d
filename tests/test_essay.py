"""essay: the essay's verbs in plain numpy, and the engine held equal to them.

The engine's own facts on the samples (k2's table sizes and force rounds, k3's
40 solutions) are in engine/build/test_jposs, engine/force/test_force and
test_solve; here the same facts (K2_SIZES and ESSAY_ROW_COUNTS, from conftest)
hold for ``kakuro_np.essay``, and on random puzzles the engine and the essay
build the same tables, reach the same fixpoint and find the same solutions in
the same order.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings

import kakuro_np as kn
from conftest import ESSAY_ROW_COUNTS, K2_SIZES, PUZZLES, examples
from kakuro_np import essay
from strategies import filled_puzzles


def test_k2_tables_and_force_rounds_are_the_essays():
    cells, sums = essay.entries(kn.read(PUZZLES / "k2.txt"))
    tables = essay.jposs(cells, sums)
    assert [len(t) for t in tables] == K2_SIZES
    counts = [[len(t) for t in p] for p in essay.rounds(cells, tables)]
    essays = [[int(x) for x in line.split()] for line in ESSAY_ROW_COUNTS.strip().splitlines()]
    assert counts == essays


def test_kc_is_the_engines_for_every_length_and_total():
    for length in range(10):
        for total in range(46):
            np.testing.assert_array_equal(essay.kc(total, length), kn.kc(total, length))


def test_a_run_of_blank_cells_without_a_clue_is_refused():
    p = kn.Puzzle(np.array([[False, True, True]]), np.zeros((1, 3), int), np.zeros((1, 3), int))
    with pytest.raises(ValueError, match="a run of 2 blank cells has no clue"):
        essay.entries(p)


def same_arrays(a, b):
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(filled_puzzles())
def test_the_engine_builds_the_essays_tables(case):
    p, _ = case
    cells, sums = kn.entries(p)
    essay_cells, essay_sums = essay.entries(p)
    # every blank is in a run (the engine refuses a puzzle with a blank in none, where the
    # essay would add an entry of sum 0): the same entries, in the same order
    assert same_arrays(essay_cells, cells) and essay_sums.tolist() == sums.tolist()
    tables = kn.jposs(cells, sums)
    assert same_arrays(tables, essay.jposs(cells, sums))
    assert same_arrays(kn.force(cells, tables), essay.force(cells, tables))
    assert same_arrays(kn.force(cells, tables, until_fixed=True),
                       essay.force_until_fixed(cells, tables))


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(filled_puzzles(max_side=6))
def test_the_engine_finds_the_essays_solutions_in_the_essays_order(case):
    p, _ = case
    assume(kn.count(p, limit=200) < 200)          # the plain-numpy fan-out is slow on many
    np.testing.assert_array_equal(kn.kakuro(p), essay.kakuro(p))
