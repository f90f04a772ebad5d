"""Permutation tables kept without their rows (``engine.build.perms``): counts, projections and
listings from the masks agree with the rows, and the search is unchanged by them."""

import functools
import itertools

import numpy as np
from hypothesis import given, settings, strategies as st

from strategies import OPEN_BLOCK
from kakuro_np.engine.force import start_state
from kakuro_np.engine.core.jit import NO_DEADLINE
from kakuro_np.engine.build.perms import (COMBINATIONS, list_perms, perm_count, perm_projection,
                                          perm_sets)
from kakuro_np.engine.search import search, walk_fanouts
from kakuro_np.solve import model
from conftest import examples


def all_rows(digits):
    """Every ordering of the digit set ``digits`` (bits), in lexicographic order."""
    ds = [d + 1 for d in range(9) if digits >> d & 1]
    return np.array(list(itertools.permutations(ds)), np.int8)


@st.composite
def masks_and_digits(draw):
    L = draw(st.integers(2, 7))
    digits = draw(st.sampled_from([sum(1 << d for d in c)
                                   for c in itertools.combinations(range(9), L)]))
    masks = np.array(draw(st.lists(st.integers(0, 511), min_size=L, max_size=L)), np.int64)
    return masks, digits


@settings(max_examples=examples(300), deadline=None)
@given(masks_and_digits())
def test_counts_projections_and_listings_are_those_of_the_rows(case):
    masks, digits = case
    L = len(masks)
    rows = all_rows(digits)
    bits = (1 << (rows.astype(np.int64) - 1))
    fits = (bits & masks != 0).all(axis=1)
    want = np.flatnonzero(fits)
    assert perm_count(masks, digits) == len(want)
    proj = np.zeros(L, np.int64)
    assert perm_projection(masks, digits, proj) == (len(want) > 0)
    if len(want):
        assert proj.tolist() == np.bitwise_or.reduce(bits[fits], axis=0).tolist()
    padded = np.zeros((len(rows), 9), np.int8)
    padded[:, :L] = rows
    found = np.zeros(max(len(want), 1), np.int64)
    listed = np.zeros(L, np.int64)
    n = list_perms(masks, digits, padded, 0, len(rows), found, listed)
    assert sorted(found[:n].tolist()) == want.tolist()
    if n:
        assert listed.tolist() == proj.tolist()


def test_combinations_of_long_runs_are_single():
    assert COMBINATIONS[9, 45] == 1 and all(COMBINATIONS[8, s] == 1 for s in range(36, 45))
    assert COMBINATIONS[7, 30] == 2 and COMBINATIONS[2, 3] == 1      # 6+9 or 7+8 left out


@st.composite
def latin_pins(draw):
    """``(fill, pinned)`` of the 9x9 open block: a random Latin square (rows, columns and
    digits of the cyclic one shuffled) and a random set of its cells."""
    rnd = draw(st.randoms(use_true_random=False))
    rows, cols, digits = (rnd.sample(range(9), 9) for _ in range(3))
    fill = np.array([[digits[(rows[i] + cols[j]) % 9] + 1 for j in range(9)] for i in range(9)])
    share = draw(st.floats(0.0, 0.6))
    pinned = np.array([rnd.random() < share for _ in range(81)])
    return fill.ravel(), pinned


@functools.cache
def block():
    """The open block's model (made at the first test's call, not while collecting: each
    xdist worker collects every module, and both would compile the model at once)."""
    return model(OPEN_BLOCK)


@settings(max_examples=examples(15), deadline=None)
@given(latin_pins())
def test_lazy_tables_change_no_node_and_no_solution(case):
    """The open block's 18 tables of 9! rows are kept lazily from a model's root; a root
    without the model's masks (``fit_mask``) filters them row by row: both must give the
    same fixpoint, the same fan-outs and the same first solutions, in the same order."""
    fill, pinned = case
    masks = np.where(pinned, 1 << (fill - 1), 0x1FF).astype(np.int64)
    lazy = block()._replace(mask=masks).root()
    assert (perm_sets(lazy.ent_off, lazy.rows, lazy.tab_off) == 0x1FF).all()
    plain = lazy._replace(mask=masks.copy(), fit_mask=np.zeros(0, np.int64))
    a, b = start_state(lazy._replace(mask=masks.copy()), True), start_state(plain, True)
    assert a[0] == b[0] == -1                   # the fill is a solution
    assert np.array_equal(a[2].mask, b[2].mask) and np.array_equal(a[2].nalive, b[2].nalive)
    assert walk_fanouts(lazy._replace(mask=masks.copy()), 300, NO_DEADLINE) == \
        walk_fanouts(plain._replace(mask=masks.copy()), 300, NO_DEADLINE)
    big = np.int64(1 << 40)
    got = search(lazy._replace(mask=masks.copy()), np.int64(12), True, np.int64(NO_DEADLINE),
                 big, None)
    want = search(plain._replace(mask=masks.copy()), np.int64(12), True, np.int64(NO_DEADLINE),
                  big, None)
    assert got.found == want.found > 0 and np.array_equal(got.digits, want.digits)
