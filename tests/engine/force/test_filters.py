"""engine.force.filters: one entry's rows against its cells' masks, lazy tables listed."""

import itertools

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from conftest import PUZZLES, examples
from strategies import filled_puzzles
from kakuro_np.engine.build.perms import LAZY_ROWS
from kakuro_np.engine.core.state import tables_model
from kakuro_np.engine.force import start_state
from kakuro_np.engine.force.filters import (filter_perm, filter_scan, is_lazy, list_lazy,
                                            swap_rows)
from kakuro_np.engine.model import build

NEVER = 1 << 40             # an index_min no table reaches: no index


def crossing():
    """Two runs of 6 crossing at their first cell, the across 21 (digits 1-6) and the down
    39 (4-9): the first cell holds 4, 5 or 6, each table has 360 rows, both kept lazily."""
    blank = np.zeros((7, 7), bool)
    blank[1, 1:] = blank[1:, 1] = True
    down, across = np.zeros((7, 7), np.int64), np.zeros((7, 7), np.int64)
    across[1, 0], down[0, 1] = 21, 39
    return build(kn.Puzzle(blank, down, across, np.zeros((7, 7), np.int64)))


def narrow(tables, live, v, keep):
    """Keep only the digits ``keep`` of variable ``v``'s candidates, noting the digits lost
    for each of its entries' cells (``live.gone``), as ``propagate`` does, but queue
    nothing."""
    lost = int(live.mask[v]) & ~keep
    live.mask[v] &= keep
    for q in range(tables.var_eoff[v], tables.var_eoff[v + 1]):
        live.gone[tables.var_slot[q]] |= lost


def cells_of(tables, k):
    """Entry ``k``'s variables."""
    return tables.ent_var[tables.ent_off[k]:tables.ent_off[k + 1]]


def fitting(tables, live, k, candidates):
    """The rows of ``candidates`` (entry ``k``'s) whose every digit its cells' masks allow."""
    cells = cells_of(tables, k)
    digits = tables.rows[candidates, :len(cells)].astype(np.int64)
    ok = ((live.mask[cells][None, :] >> (digits - 1)) & 1).all(axis=1)
    return np.asarray(candidates)[ok]


def columns(tables, k, rows):
    """Each column's digit set over entry ``k``'s ``rows``."""
    L = len(cells_of(tables, k))
    bits = 1 << (tables.rows[rows, :L].astype(np.int64) - 1)
    return np.bitwise_or.reduce(bits, axis=0) if len(rows) else np.zeros(L, np.int64)


def block(tables, live, k):
    """Entry ``k``'s live rows (its live block)."""
    start = tables.tab_off[k]
    return live.perm[start:start + live.nalive[k]].copy()


def check_filtered(tables, live, k, perm, n_before, n, proj):
    """After a filter of entry ``k`` returned ``n``: its live rows are those of its
    ``n_before`` live rows in ``perm`` (before) that fit the masks, ``proj`` their
    columns' digits, its digits gone cleared, its block a reordering of itself, the
    others' untouched, and ``perm``, ``pos`` inverse to each other."""
    lo, hi = tables.tab_off[k], tables.tab_off[k + 1]
    kept = fitting(tables, live, k, perm[lo:lo + n_before])
    L = len(cells_of(tables, k))
    assert n == live.nalive[k] == len(kept)
    assert sorted(block(tables, live, k).tolist()) == sorted(kept.tolist())
    assert np.array_equal(proj[:L], columns(tables, k, kept))
    assert not live.gone[tables.ent_off[k]:tables.ent_off[k + 1]].any()
    assert np.array_equal(live.pos[live.perm], np.arange(len(live.perm)))
    assert sorted(live.perm[lo:hi].tolist()) == sorted(perm[lo:hi].tolist())
    assert np.array_equal(live.perm[:lo], perm[:lo])
    assert np.array_equal(live.perm[hi:], perm[hi:])


def narrow_entry(tables, live, k, rng, most=9):
    """Narrow up to ``most`` of entry ``k``'s cells at random: each mostly loses one of its
    digits, else keeps a random set of them (it may be left with none)."""
    cells = cells_of(tables, k)
    for v in rng.choice(cells, rng.integers(1, min(most, len(cells)) + 1), replace=False):
        digits = [d for d in range(9) if live.mask[v] >> d & 1]
        if digits and rng.random() < 0.7:
            keep = 0x1FF & ~(1 << int(rng.choice(digits)))
        else:
            keep = int(rng.integers(0, 512))
        narrow(tables, live, int(v), keep)


def random_node(puzzle, index_min, seed):
    """The fixpoint of a random puzzle's tables (given as tables, so none is kept lazily),
    an entry picked at random (one with rows to lose, if any) and a random generator."""
    assume(puzzle.blank.any())                  # no blank cell: no entry to filter
    m = build(puzzle)
    root = tables_model(m.ent_off, m.ent_var, m.rows, m.tab_off).root()
    emptied, tables, live = start_state(root, True, index_min)
    assert emptied == -1
    rng = np.random.default_rng(seed)
    open_entries = np.flatnonzero(live.nalive > 1)
    k = int(rng.choice(open_entries if len(open_entries) else np.arange(len(live.nalive))))
    return tables, live, k, rng


def filter_twice_and_check(tables, live, k, rng, run):
    """Two rounds of narrowing entry ``k``'s cells and filtering it with ``run``, each
    checked (``check_filtered``)."""
    for _ in range(2):
        narrow_entry(tables, live, k, rng)
        perm, n_before = live.perm.copy(), int(live.nalive[k])
        proj = np.full(9, -1, np.int64)
        n = run(tables, live, k, proj)
        check_filtered(tables, live, k, perm, n_before, n, proj)


@settings(max_examples=examples(90))
@given(filled_puzzles(), st.integers(0, 2**32 - 1))
def test_a_scan_keeps_exactly_the_live_rows_the_masks_allow(case, seed):
    puzzle, _ = case
    tables, live, k, rng = random_node(puzzle, NEVER, seed)
    assert len(tables.idx_row) == 0
    filter_twice_and_check(tables, live, k, rng, filter_scan)


@settings(max_examples=examples(90))
@given(filled_puzzles(), st.integers(0, 2**32 - 1))
def test_a_big_tables_filter_keeps_exactly_the_live_rows_the_masks_allow(case, seed):
    puzzle, _ = case
    tables, live, k, rng = random_node(puzzle, 1, seed)
    assert tables.idx_off[81 * k] != tables.idx_off[81 * k + 81]     # k is indexed
    filter_twice_and_check(tables, live, k, rng, filter_scan)


@settings(max_examples=examples(90))
@given(filled_puzzles(), st.integers(0, 2**32 - 1))
def test_a_filter_through_the_index_leaves_a_live_support_for_each_digit_it_finds(case, seed):
    """On an indexed table whose index visits fewer rows than are live (and an eighth of
    its rows live), ``filter_scan`` goes through the index: it filters as a scan would,
    and each digit it finds has a live support holding it."""
    puzzle, _ = case
    tables, live, k, rng = random_node(puzzle, 1, seed)
    base, a = 81 * k, tables.ent_off[k]
    L = len(cells_of(tables, k))
    start, size = tables.tab_off[k], tables.tab_off[k + 1] - tables.tab_off[k]
    for _ in range(2):
        narrow_entry(tables, live, k, rng, most=1)      # few rows to drop: by the index
        perm, nalive = live.perm.copy(), int(live.nalive[k])
        work = sum(int(tables.idx_off[base + 9 * p + d + 1] - tables.idx_off[base + 9 * p + d])
                   for p in range(L) for d in range(9) if live.gone[a + p] >> d & 1)
        proj = np.full(9, -1, np.int64)
        n = filter_scan(tables, live, k, proj)
        check_filtered(tables, live, k, perm, nalive, n, proj)
        if nalive * 8 < size or work >= nalive:          # scanned
            continue
        for p in range(L):
            for d in range(9):
                if proj[p] >> d & 1:
                    r = live.support[base + 9 * p + d]
                    assert r >= 0 and live.pos[r] < start + n
                    assert tables.rows[r, p] == d + 1


def test_a_scan_keeps_the_rows_of_the_digits_left():
    """Entry 0 over cells 0, 1 with rows 12, 21, 13, 31; entry 1 over cells 0, 2 with 15,
    25, 35. Cell 0 narrowed to 2: entry 0 keeps 21 alone, its columns 2 and 1."""
    rows = np.zeros((7, 9), np.int8)
    rows[:, :2] = [[1, 2], [2, 1], [1, 3], [3, 1], [1, 5], [2, 5], [3, 5]]
    root = tables_model(np.array([0, 2, 4]), np.array([0, 1, 0, 2]), rows,
                        np.array([0, 4, 7])).root()
    emptied, tables, live = start_state(root, True)
    assert emptied == -1 and live.nalive.tolist() == [4, 3]
    assert live.mask.tolist() == [0b111, 0b111, 1 << 4]
    narrow(tables, live, 0, 0b10)
    proj = np.zeros(9, np.int64)
    assert filter_scan(tables, live, 0, proj) == 1
    assert live.perm[0] == 1 and proj[:2].tolist() == [0b10, 0b1]
    assert live.nalive.tolist() == [1, 3]           # entry 1 is not filtered by this
    assert live.gone.tolist() == [0, 0, 1 | 4, 0]   # its cell 0 keeps its digits gone


def test_a_scan_checks_only_the_columns_that_lost_digits():
    """Cell 1 narrowed without noting it (no digit gone there) and cell 0 narrowed as
    ``propagate`` does: the scan drops rows by cell 0 alone."""
    rows = np.zeros((4, 9), np.int8)
    rows[:, :2] = [[1, 2], [2, 1], [1, 3], [3, 1]]
    root = tables_model(np.array([0, 2]), np.array([0, 1]), rows, np.array([0, 4])).root()
    _, tables, live = start_state(root, True)
    live.mask[1] = 0b100                            # 3 alone, unnoted
    narrow(tables, live, 0, 0b001)                  # 1 alone
    proj = np.zeros(9, np.int64)
    assert filter_scan(tables, live, 0, proj) == 2
    assert sorted(block(tables, live, 0).tolist()) == [0, 2]     # 12 kept beside 13


@settings(max_examples=examples(120))
@given(st.integers(0, 1), st.integers(0, 2**32 - 1))
def test_a_lazy_table_is_counted_from_the_masks_until_its_rows_are_few_enough_to_list(
        k, seed):
    """``filter_perm`` on a lazy table: its live rows are counted from the masks, its
    columns' digits found, and its block left alone while they are over LAZY_ROWS; at or
    under it they are listed at the front of its block in lexicographic order; from then on
    it is filtered as any table."""
    m = crossing()
    emptied, tables, live = start_state(m.root(), True)
    assert emptied == -1 and live.nalive.tolist() == [360, 360]
    assert is_lazy(tables, live.nalive, k)
    rng = np.random.default_rng(seed)
    start, end = int(m.tab_off[k]), int(m.tab_off[k + 1])
    cells = cells_of(tables, k)
    listed = False
    for _ in range(2):
        for v in cells:
            how = rng.random()
            if how < 0.25:
                narrow(tables, live, int(v), 0x1FF & ~(1 << int(rng.integers(0, 9))))
            elif how < 0.35:
                narrow(tables, live, int(v), int(rng.integers(0, 512)))
        perm, nalive = live.perm.copy(), int(live.nalive[k])
        proj = np.full(9, -1, np.int64)
        n = filter_perm(tables, live, k, proj)
        if listed:                                  # filtered as any table
            check_filtered(tables, live, k, perm, nalive, n, proj)
            continue
        allowed = fitting(tables, live, k, np.arange(start, end))
        assert n == live.nalive[k] == len(allowed)
        assert np.array_equal(proj[:6], columns(tables, k, allowed))
        assert not live.gone[tables.ent_off[k]:tables.ent_off[k + 1]].any()
        if n > LAZY_ROWS:
            assert np.array_equal(live.perm, perm) and is_lazy(tables, live.nalive, k)
        else:
            assert live.perm[start:start + n].tolist() == allowed.tolist()
            assert np.array_equal(live.pos[live.perm], np.arange(len(live.perm)))
            assert not is_lazy(tables, live.nalive, k)
            listed = True


def test_listing_a_lazy_table_puts_its_live_rows_first_and_keeps_its_count():
    m = crossing()
    _, tables, live = start_state(m.root(), True)
    narrow(tables, live, 1, 0x1FF & ~1)             # the across run's second cell: not 1
    proj = np.zeros(9, np.int64)
    assert filter_perm(tables, live, 0, proj) == 360 - 3 * 24        # 1 there: 3 * 4! rows
    assert proj[:6].tolist() == [0b111000, 0b111110] + [0b111111] * 4
    identity = np.arange(len(live.perm))
    assert np.array_equal(live.perm, identity)      # lazy: its block not kept
    list_lazy(tables, live, 0)
    assert live.nalive[0] == 288
    want = fitting(tables, live, 0, np.arange(360))
    assert len(want) == 288 and live.perm[:288].tolist() == want.tolist()
    assert np.array_equal(live.pos[live.perm], identity)
    assert np.array_equal(live.perm[360:], identity[360:])     # entry 1's block untouched
    narrow(tables, live, 2, 0x1FF & ~1)             # nor its third: 1 in one of 3 cells
    assert filter_perm(tables, live, 0, proj) == 3 * 3 * 24
    listed = live.perm.copy()
    list_lazy(tables, live, 0)                      # no longer lazy: nothing to do
    assert np.array_equal(live.perm, listed) and live.nalive[0] == 216


def test_only_a_permutation_table_with_more_than_lazy_rows_live_is_lazy():
    _, tables, live = start_state(crossing().root(), True)
    assert tables.perm_set.tolist() == [0b111111, 0b111111000]
    for k in (0, 1):
        assert is_lazy(tables, np.array([LAZY_ROWS + 1] * 2), k)
        assert not is_lazy(tables, np.array([LAZY_ROWS] * 2), k)
    _, tables, live = start_state(build(kn.read(PUZZLES / "k3.txt")).root(), True)
    assert not tables.perm_set.any()
    assert not is_lazy(tables, np.full(len(live.nalive), 10**6), 0)


def test_swapping_rows_keeps_places_and_rows_inverse():
    perm = np.array([3, 0, 4, 1, 2], np.int32)
    pos = np.argsort(perm).astype(np.int32)
    for i, j in itertools.product(range(5), repeat=2):
        a, b = perm[i], perm[j]
        swap_rows(perm, pos, i, j)
        assert perm[i] == b and perm[j] == a
        assert np.array_equal(pos[perm], np.arange(5))
