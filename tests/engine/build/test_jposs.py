"""jposs: the essay's joint possibilities, table sizes and row order."""

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from kakuro_np.engine.build.jposs import (SUPPORT_SCRATCH, entry_support, gen_table,
                                          support_masks, var_entries)
from kakuro_np.engine.core.jit import NO_DEADLINE
from kakuro_np.engine.model import build
from strategies import filled_puzzles
from conftest import K2_SIZES, PUZZLES, examples


def k2_tables():
    cells, sums = kn.entries(kn.read(PUZZLES / "k2.txt"))
    return cells, sums, kn.jposs(cells, sums)


def test_k2_table_sizes_are_the_essays():
    cells, _, tables = k2_tables()
    assert [len(t) for t in tables] == K2_SIZES
    assert all(t.dtype == np.int8 and t.shape[1] == len(c) for c, t in zip(cells, tables))


def test_k2_first_tables_are_the_essays():
    _, _, t = k2_tables()
    assert t[0].tolist() == [[7, 9], [9, 7]]
    assert t[1].T.tolist() == [[1, 2, 3, 5, 6, 7], [7, 6, 5, 3, 2, 1]]
    assert t[2].T.tolist() == [[1, 1, 2, 2, 4, 4], [2, 4, 1, 4, 1, 2], [4, 2, 4, 1, 2, 1]]
    assert t[3].T.tolist()[0] == [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 5, 5, 6, 6]


def test_rows_are_distinct_digits_adding_up_in_lexicographic_order():
    cells, sums, tables = k2_tables()
    for t, s in zip(tables, sums):
        assert (t.sum(axis=1) == s).all()
        assert all(len(set(row)) == len(row) for row in t.tolist())
        assert t.tolist() == sorted(t.tolist())


def test_a_lone_entry_gets_every_permutation():
    t, = kn.jposs([np.array([0, 1, 2])], [7])
    expected = sorted(p for c in itertools.combinations(range(1, 10), 3) if sum(c) == 7
                      for p in itertools.permutations(c))
    assert [tuple(r) for r in t.tolist()] == expected


def test_the_essay_order_narrows_later_tables():
    # entry 1 (sum 3 over cells 0 and 2) is built second, after entry 0 put 1 or 3 in cell 0
    t = kn.jposs([[0, 1], [0, 2]], [4, 3])
    assert [x.tolist() for x in t] == [[[1, 3], [3, 1]], [[1, 2]]]


def test_an_impossible_sum_gives_an_empty_table():
    t, = kn.jposs([np.array([0, 1, 2])], [50])
    assert t.shape == (0, 3)


@given(st.lists(st.integers(1, 511), min_size=2, max_size=9), st.data())
@settings(max_examples=examples(300), deadline=None)
def test_a_table_is_every_ordered_fill_whatever_room_it_starts_with(masks, data):
    """``gen_table`` against itertools: rows grow from a buffer of 1-4 rows (the walk stops
    when it is full and goes on after it grew), and the row budget holds."""
    L = len(masks)
    total = data.draw(st.integers(L * (L + 1) // 2, 45 - (9 - L) * (10 - L) // 2), "total")
    want = ordered_fills(masks, total)
    room = data.draw(st.integers(1, 4), "room")
    start = data.draw(st.integers(0, room), "start")
    budget = data.draw(st.integers(start, start + len(want) + 2), "budget")
    rows, n = gen_table(np.array(masks, np.int64), np.int64(total), np.zeros((room, 9), np.int8),
                        np.int64(start), np.int64(budget))
    if start + len(want) > budget:
        assert n == -1
    else:
        assert [tuple(r[:L]) for r in rows[start:n]] == want
        assert not rows[start:n, L:].any()


def ordered_fills(masks, total):
    """Every ordered way to fill cells of ``masks`` with distinct digits adding up to
    ``total``, by itertools."""
    return [t for t in itertools.product(*[[d for d in range(1, 10) if m >> (d - 1) & 1]
                                           for m in masks])
            if len(set(t)) == len(t) and sum(t) == total]


def fill_support(masks, total):
    """The digits each cell of ``masks`` takes in some fill of distinct digits adding up to
    ``total`` (None when there is none), by Python sets: the digit sets that fill the first
    cells, then back from those that fill them all with the sum."""
    L = len(masks)
    layers = [{frozenset()}]
    for m in masks:
        layers.append({used | {d} for used in layers[-1] for d in range(1, 10)
                       if m >> (d - 1) & 1 and d not in used})
    ends = {used for used in layers[L] if sum(used) == total}
    support = [0] * L
    for p in range(L - 1, -1, -1):
        reach = set()
        for used in layers[p]:
            for d in range(1, 10):
                if masks[p] >> (d - 1) & 1 and d not in used and used | {d} in ends:
                    support[p] |= 1 << (d - 1)
                    reach.add(used)
        ends = reach
    return support if all(support) else None


@given(st.lists(st.integers(0, 511), min_size=1, max_size=9), st.integers(-2, 50))
@settings(max_examples=examples(400), deadline=None)
def test_an_entrys_support_is_the_digits_its_table_puts_in_each_cell(masks, total):
    """``entry_support`` against Python sets (and itertools where the fills are few), on
    any masks (empty, settled, clashing) and any total: each cell keeps the digits some
    ordered fill puts there, and it answers False exactly when no fill is left."""
    L = len(masks)
    want = fill_support(masks, total)
    if np.prod([bin(m).count("1") for m in masks]) <= 5000:
        fills = ordered_fills(masks, total)
        assert want == ([sum({1 << (t[p] - 1) for t in fills}) for p in range(L)]
                        if fills else None)
    out = np.zeros(9, np.int64)
    ok = entry_support(0, np.array([0, L]), np.arange(L), np.array([total]),
                       np.array(masks, np.int64), out, np.zeros(SUPPORT_SCRATCH, np.int64),
                       np.zeros((10, 8), np.uint64))
    assert ok == (want is not None)
    if ok:
        assert out[:L].tolist() == want


@st.composite
def masks_around_a_fill(draw):
    """``(masks, total)`` of an entry some fill fits: distinct digits, each cell's mask
    holding its digit and any others (four and five open cells walk their first cells,
    more or wide masks take ``sets_support``)."""
    fill = draw(st.permutations(range(1, 10)))[:draw(st.integers(1, 9))]
    masks = [1 << (d - 1) | draw(st.integers(0, 511)) & draw(st.integers(0, 511))
             for d in fill]
    return masks, sum(fill)


@given(masks_around_a_fill())
@settings(max_examples=examples(400), deadline=None)
def test_an_entry_a_fill_fits_keeps_the_digits_its_fills_use(case):
    """On masks some fill fits, ``entry_support`` keeps that fill's digits and agrees
    with the Python sets."""
    masks, total = case
    L = len(masks)
    out = np.zeros(9, np.int64)
    assert entry_support(0, np.array([0, L]), np.arange(L), np.array([total]),
                         np.array(masks, np.int64), out, np.zeros(SUPPORT_SCRATCH, np.int64),
                         np.zeros((10, 8), np.uint64))
    assert out[:L].tolist() == fill_support(masks, total)


@settings(max_examples=examples(60), deadline=None)
@given(filled_puzzles())
def test_support_masks_reach_the_tables_columns_at_the_fixpoint(case):
    """From the start masks, ``support_masks`` ends where the model's tables are: each
    mask is the digits every table of its cell keeps there."""
    puzzle, _ = case
    m = build(puzzle)
    given_digits = puzzle.given.ravel()[m.var_cell].astype(np.int64)
    mask = np.where(given_digits > 0, 1 << np.maximum(given_digits - 1, 0), 0x1FF)
    var_eoff, var_ent = var_entries(m.ent_off, m.ent_var, len(m.var_cell))
    assert support_masks(m.ent_off, m.ent_var, m.ent_sum, mask, var_eoff, var_ent,
                         np.int64(NO_DEADLINE)) == -1
    assert np.array_equal(mask, m.fit_mask)
