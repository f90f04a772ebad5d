"""engine.force.index: the big tables' rows by position and digit."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from conftest import PUZZLES, examples
from strategies import open_grid
from kakuro_np.engine.build.perms import perm_sets
from kakuro_np.engine.force import INDEX_MAX_ENTRIES, INDEX_MIN
from kakuro_np.engine.force.index import build_index
from kakuro_np.engine.model import build

NO_LIMIT = 1 << 40


@st.composite
def packed_tables(draw):
    """``(ent_off, rows, tab_off)``: up to 8 tables of 1-9 cells and 0-40 rows of random
    digits (the index asks nothing more of a table)."""
    E = draw(st.integers(1, 8))
    lengths = draw(st.lists(st.integers(1, 9), min_size=E, max_size=E))
    sizes = draw(st.lists(st.integers(0, 40), min_size=E, max_size=E))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    rows = np.zeros((sum(sizes), 9), np.int8)
    tab_off = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    for k in range(E):
        rows[tab_off[k]:tab_off[k + 1], :lengths[k]] = rng.integers(1, 10, (sizes[k],
                                                                             lengths[k]))
    ent_off = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    return ent_off, rows, tab_off


def expected_index(ent_off, rows, tab_off, indexed):
    """The index of the tables flagged in ``indexed``, by numpy: a stable sort of every
    (row, position) of theirs by its list ``81 k + 9 p + d - 1``."""
    E = len(tab_off) - 1
    keys, refs = [], []
    for k in np.flatnonzero(indexed):
        L = ent_off[k + 1] - ent_off[k]
        r = np.arange(tab_off[k], tab_off[k + 1])
        p = np.arange(L)
        keys.append((81 * k + 9 * p[None, :] + rows[r, :L] - 1).ravel())
        refs.append(np.repeat(r, L))
    keys = np.concatenate(keys) if keys else np.zeros(0, np.int64)
    refs = np.concatenate(refs) if refs else np.zeros(0, np.int64)
    order = np.argsort(keys, kind="stable")
    idx_off = np.concatenate([[0], np.cumsum(np.bincount(keys, minlength=81 * E))])
    return idx_off, refs[order]


@settings(max_examples=examples(150))
@given(packed_tables(), st.integers(-2, 45), st.data())
def test_the_index_lists_each_tables_rows_by_position_and_digit_in_row_order(
        case, min_rows, data):
    """With no budget to stop it, every table of ``min_rows`` rows or more (at least one)
    that is not skipped is indexed, each list holding its rows with that digit in that
    position in increasing order, and nothing else is."""
    ent_off, rows, tab_off = case
    E = len(tab_off) - 1
    skip = np.array(data.draw(st.lists(st.sampled_from([0, 0, 0, 7]), min_size=E,
                                       max_size=E)), np.int64)
    idx_off, idx_row = build_index(ent_off, rows, tab_off, min_rows, NO_LIMIT, skip)
    size = np.diff(tab_off)
    indexed = (size >= max(min_rows, 1)) & (skip == 0)
    want_off, want_row = expected_index(ent_off, rows, tab_off, indexed)
    assert idx_off.dtype == np.int64 and idx_row.dtype == np.int32
    assert len(idx_off) == 81 * E + 1
    assert np.array_equal(idx_off, want_off)
    assert np.array_equal(idx_row, want_row)


@settings(max_examples=examples(150))
@given(packed_tables(), st.integers(0, 600), st.integers(1, 45))
def test_the_index_within_a_budget_is_the_full_index_of_the_tables_it_holds(
        case, budget, min_rows):
    """Under a budget the tables indexed are a prefix of those eligible, smallest first
    and ties to the lower entry, and their lists are those of the index with no budget."""
    ent_off, rows, tab_off = case
    E = len(tab_off) - 1
    skip = np.zeros(E, np.int64)
    idx_off, idx_row = build_index(ent_off, rows, tab_off, min_rows, budget, skip)
    size, length = np.diff(tab_off), np.diff(ent_off)
    eligible = [k for k in np.argsort(size, kind="stable") if size[k] >= min_rows]
    held, used = np.zeros(E, bool), 0
    for k in eligible:
        used += size[k] * length[k]
        if used > budget:
            break
        held[k] = True
    want_off, want_row = expected_index(ent_off, rows, tab_off, held)
    assert np.array_equal(idx_off, want_off)
    assert np.array_equal(idx_row, want_row)


@settings(max_examples=examples(60))
@given(packed_tables())
def test_no_table_reaching_min_rows_gives_an_all_zero_index(case):
    ent_off, rows, tab_off = case
    E = len(tab_off) - 1
    most = int(np.diff(tab_off).max())
    for min_rows, skip in [(most + 1, np.zeros(E, np.int64)), (1, np.ones(E, np.int64))]:
        idx_off, idx_row = build_index(ent_off, rows, tab_off, min_rows, NO_LIMIT, skip)
        assert idx_off.dtype == np.int64 and idx_row.dtype == np.int32
        assert np.array_equal(idx_off, np.zeros(81 * E + 1, np.int64))
        assert len(idx_row) == 0


def test_a_budget_that_holds_one_of_two_equal_tables_holds_the_first():
    ent_off = np.array([0, 2, 4, 6])
    rows = np.array([[1, 2], [2, 1], [3, 4], [4, 3], [9, 8], [8, 9], [5, 5]], np.int8)
    rows = np.pad(rows, ((0, 0), (0, 7)))
    tab_off = np.array([0, 2, 4, 7])                # tables of 2, 2 and 3 rows, 2 cells each
    idx_off, idx_row = build_index(ent_off, rows, tab_off, 2, 7, np.zeros(3, np.int64))
    held = [idx_off[81 * k] != idx_off[81 * k + 81] for k in range(3)]
    assert held == [True, False, False]
    assert idx_row.tolist() == [0, 1, 1, 0]         # 1 then 2 at place 0, 1 then 2 at 1
    idx_off, _ = build_index(ent_off, rows, tab_off, 2, 8, np.zeros(3, np.int64))
    assert [idx_off[81 * k] != idx_off[81 * k + 81] for k in range(3)] == [True, True, False]


def test_the_models_of_k3_and_an_open_grid_index_their_big_tables_but_the_lazy_ones():
    """k3's tables are under INDEX_MIN rows: no index; an open 7x7 grid's 7-cell runs of
    one combination are kept lazily (``perms``) and left out, its others indexed."""
    m = build(kn.read(PUZZLES / "k3.txt"))
    assert np.diff(m.tab_off).max() < INDEX_MIN
    assert not m.idx_off.any() and len(m.idx_row) == 0
    m = build(open_grid(8, 2)[0])
    assert m.status == 0
    lazy = perm_sets(m.ent_off, m.rows, m.tab_off) != 0
    size, length = np.diff(m.tab_off), np.diff(m.ent_off)
    held = np.array([m.idx_off[81 * k] != m.idx_off[81 * k + 81] for k in range(len(size))])
    assert lazy.any()
    assert np.array_equal(held, (size >= INDEX_MIN) & ~lazy)
    assert (size[held] * length[held]).sum() <= INDEX_MAX_ENTRIES
