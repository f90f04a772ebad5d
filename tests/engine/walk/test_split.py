"""Splitting the fan-out tree (``engine.walk.split``): the subproblems' solutions, in the order
they are listed, are the puzzle's in the essay's order, and their counts add up to its count."""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from kakuro_np.engine.core.jit import NO_DEADLINE
from kakuro_np.engine.walk.split import children, split
from kakuro_np.solve import essay_solutions, model
from kakuro_np.turns import NO_LIMIT, count_in_turns
from conftest import PUZZLES, examples
from strategies import filled_puzzles

SETTINGS = settings(max_examples=examples(80), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
#: Most solutions a drawn puzzle may have for its full list to be compared.
MOST = 5000


def solutions_below(m, mask):
    """The essay's solutions below subproblem ``mask``, as (n, V) digits."""
    found, digits = essay_solutions(m._replace(mask=mask), NO_LIMIT, NO_DEADLINE)
    return digits[:found]


@SETTINGS
@given(filled_puzzles(max_side=7), st.integers(1, 40))
def test_the_subproblems_solutions_in_turn_are_the_puzzles_in_the_essays_order(pf, want):
    puzzle, fill = pf
    assume(kn.count(puzzle, limit=MOST + 1) <= MOST)
    m = model(puzzle)
    whole = kn.kakuro(puzzle)
    parts = split(m, want)
    joined = np.concatenate([solutions_below(m, s) for s in parts] +
                            [np.zeros((0, len(m.var_cell)), np.int8)])
    out = np.zeros((len(joined),) + puzzle.shape, np.int8).reshape(len(joined), -1)
    out[:, m.var_cell] = joined
    assert np.array_equal(out.reshape(whole.shape), whole)
    assert any(np.array_equal(fill[puzzle.blank], s[puzzle.blank]) for s in whole)


@SETTINGS
@given(filled_puzzles(max_side=8), st.integers(1, 64))
def test_the_subproblems_counts_add_up_to_the_count(pf, want):
    """On puzzles of at most MOST solutions (an exact count of a drawn 8x8 with millions
    took five minutes in one suite's draw; the samples below hold big counts)."""
    puzzle, _ = pf
    assume(kn.count(puzzle, limit=MOST + 1) <= MOST)
    m = model(puzzle)
    parts = split(m, want)
    assert sum(count_in_turns(m._replace(mask=s), NO_LIMIT, NO_DEADLINE) for s in parts) \
        == kn.count(puzzle)


def test_a_split_reaches_the_subproblems_asked_for_where_the_tree_has_them():
    m = model(PUZZLES / "k3.txt")                     # 40 solutions
    for want in (1, 2, 8, 30):
        assert len(split(m, want)) >= want
    assert len(split(m, 1000)) == 40                   # the tree ends in its 40 leaves


def test_a_node_with_no_solution_has_no_children():
    m = model([["x", (3, 0), (4, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]])
    mask = m.mask.copy()
    mask[0] = 1 << 1                                   # a 2 top left: down 3 needs 1 below,
    mask[1] = 1 << 1                                   # across 3 needs 1 beside: 2 twice
    node, below = children(m, mask)
    assert node is None and below == []
    assert split(m._replace(mask=mask), 4) == []


@pytest.mark.parametrize("name", ["k0", "k3", "k5"])
def test_the_samples_split_give_their_counts(name, expected):
    m = model(PUZZLES / f"{name}.txt")
    parts = split(m, 16)
    assert sum(count_in_turns(m._replace(mask=s), NO_LIMIT, NO_DEADLINE) for s in parts) \
        == expected[f"{name}.txt"]["solutions"]
