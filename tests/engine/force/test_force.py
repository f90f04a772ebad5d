"""force: one round as the essay's verb, and the numba fixpoint."""

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from conftest import ESSAY_ROW_COUNTS, PUZZLES, examples
from strategies import filled_puzzles, open_grid
from kakuro_np.essay import force_until_fixed
from kakuro_np.engine.force import start_state
from kakuro_np.engine.build.perms import perm_sets
from kakuro_np.solve import model


def test_iterating_force_on_k2_gives_the_essays_table():
    cells, sums = kn.entries(kn.read(PUZZLES / "k2.txt"))
    tables = kn.jposs(cells, sums)
    counts = []
    while True:
        counts.append([len(t) for t in tables])
        new = kn.force(cells, tables)
        if [len(t) for t in new] == counts[-1]:
            break
        tables = new
    expected = [[int(x) for x in line.split()] for line in ESSAY_ROW_COUNTS.strip().splitlines()]
    assert counts == expected


def test_fixpoint_equals_iterated_rounds_on_every_sample():
    for name in ["k1.txt", "k2.txt", "k3.txt", "k5.txt", "k7.txt"]:
        cells, sums = kn.entries(kn.read(PUZZLES / name))
        tables = kn.jposs(cells, sums)
        fixed = kn.force(cells, tables, until_fixed=True)
        iterated = force_until_fixed(cells, tables)
        assert all(np.array_equal(a, b) for a, b in zip(fixed, iterated)), name
        assert all(a.dtype == np.int8 for a in fixed)


def test_force_keeps_row_order_and_shape():
    cells = [[0, 1], [0, 2]]
    tables = [np.array([[1, 3], [3, 1]]), np.array([[1, 2], [2, 1]])]
    out = kn.force(cells, tables)
    assert [t.tolist() for t in out] == [[[1, 3]], [[1, 2]]]


def test_an_empty_table_empties_the_tables_it_crosses():
    cells = [[0, 1], [0, 2], [3, 4]]
    tables = [np.zeros((0, 2), np.int8), np.array([[1, 2], [2, 1]]), np.array([[1, 2]])]
    out = kn.force(cells, tables, until_fixed=True)
    assert [len(t) for t in out] == [0, 0, 1]
    assert [len(t) for t in force_until_fixed(cells, tables)] == [0, 0, 1]


def walk_both(root, rng, steps):
    """Random walks from the fixpoint of ``root``, once with every table indexed and once
    with none, side by side: each step applies the same live row to both and
    propagates; a dead node goes back to its parent, a solution to the root. The
    masks, the emptied entry and each entry's set of live rows must agree."""
    from kakuro_np.engine.force import apply_row, propagate

    def copy(r):
        return r._replace(mask=r.mask.copy())
    sides = [start_state(copy(root), True, 1), start_state(copy(root), True, 1 << 40)]
    assert sides[0][0] == sides[1][0]
    if sides[0][0] >= 0:
        return 0
    (_, t0, l0), (_, t1, l1) = sides
    assert len(t0.idx_row) > 0 and len(t1.idx_row) == 0

    def live_sets(t, l):
        return [set(l.perm[t.tab_off[k]:t.tab_off[k] + l.nalive[k]].tolist())
                for k in range(len(l.nalive))]

    stack = [(l0.mask.copy(), l0.nalive.copy(), l1.mask.copy(), l1.nalive.copy())]
    for _ in range(steps):
        open_entries = np.flatnonzero(l0.nalive > 1)
        if len(open_entries) == 0:                      # a solution: back to the root
            del stack[1:]
            m0, a0, m1, a1 = stack[0]
            l0.mask[:], l0.nalive[:], l1.mask[:], l1.nalive[:] = m0, a0, m1, a1
            continue
        k = int(rng.choice(open_entries))
        r = int(l0.perm[t0.tab_off[k] + rng.integers(l0.nalive[k])])
        stack.append((l0.mask.copy(), l0.nalive.copy(), l1.mask.copy(), l1.nalive.copy()))
        apply_row(t0, l0, k, r)
        apply_row(t1, l1, k, r)
        e0, e1 = propagate(t0, l0, True), propagate(t1, l1, True)
        assert (e0 >= 0) == (e1 >= 0)
        if e0 < 0:
            assert np.array_equal(l0.mask, l1.mask)
            assert np.array_equal(l0.nalive, l1.nalive)
            assert live_sets(t0, l0) == live_sets(t1, l1)
            assert not l0.gone.any() and not l1.gone.any()
        else:                                           # dead: back to the parent
            assert not l0.gone.any() and not l1.gone.any()
            m0, a0, m1, a1 = stack.pop()
            l0.mask[:], l0.nalive[:], l1.mask[:], l1.nalive[:] = m0, a0, m1, a1
    return int((l0.support >= 0).sum())


@settings(max_examples=examples(40), deadline=None)
@given(filled_puzzles(max_side=8), st.integers(0, 2**32 - 1))
def test_indexed_filter_agrees_with_the_scan(case, seed):
    from kakuro_np.solve import model
    puzzle, _ = case
    assume(puzzle.blank.any())                  # no blank cell: no table to index
    m = model(puzzle)
    assert m.status == 0                        # clued from a fill: it has a solution
    walk_both(m.root(), np.random.default_rng(seed), 60)


def test_indexed_filter_agrees_with_the_scan_on_big_tables():
    from kakuro_np.solve import model
    for puzzle in [kn.read(PUZZLES / "k3.txt"), open_grid(7, 1)[0], open_grid(8, 2)[0]]:
        m = model(puzzle)
        assert walk_both(m.root(), np.random.default_rng(7), 1000) > 0   # the index was used


def test_the_models_index_is_the_one_each_start_would_build():
    from kakuro_np.engine.force import INDEX_MIN
    for puzzle in [kn.read(PUZZLES / "k3.txt"), open_grid(8, 2)[0], open_grid(9, 3)[0]]:
        m = model(puzzle)
        shared, built = start_state(m.root(), True), start_state(m.root(), True, INDEX_MIN)
        assert shared[1].idx_row is m.idx_row                  # the model's, not a new one
        assert np.array_equal(shared[1].idx_off, built[1].idx_off)
        assert np.array_equal(shared[1].idx_row, built[1].idx_row)
        assert shared[0] == built[0]
        assert np.array_equal(shared[2].mask, built[2].mask)
        assert np.array_equal(shared[2].nalive, built[2].nalive)


@settings(max_examples=examples(60), deadline=None)
@given(filled_puzzles())
def test_a_start_from_the_models_masks_needs_no_forcing(case):
    """The build keeps the fixpoint's rows, so a start from its masks skips forcing: it
    must give what a start that forces gives (a Root without ``fit_mask``)."""
    puzzle, _ = case
    m = model(puzzle)
    assert m.status == 0                        # clued from a fill: it has a solution
    skipped = start_state(m.root(), True)
    forced = start_state(m.root()._replace(fit_mask=np.zeros(0, np.int64)), True)
    assert skipped[0] == forced[0] == -1
    assert np.array_equal(skipped[2].mask, forced[2].mask)
    assert np.array_equal(skipped[2].nalive, forced[2].nalive)
    assert not skipped[2].gone.any() and not forced[2].gone.any()


@settings(max_examples=examples(60), deadline=None)
@given(filled_puzzles(max_side=8), st.integers(0, 3000), st.integers(1, 200))
def test_the_index_holds_the_smallest_tables_within_its_budget(case, budget, min_rows):
    """``build_index`` indexes tables from the smallest up while its entries stay within the
    budget, and each list of an indexed table holds exactly its rows with that digit in
    that position."""
    from kakuro_np.engine.force import build_index
    puzzle, _ = case
    m = model(puzzle)
    idx_off, idx_row = build_index(m.ent_off, m.rows, m.tab_off, min_rows, budget,
                                   np.zeros(len(m.tab_off) - 1, np.int64))
    size, length = np.diff(m.tab_off), np.diff(m.ent_off)
    indexed = np.array([idx_off[81 * k] != idx_off[81 * k + 81] for k in range(len(size))],
                       bool)
    assert (size[indexed] >= min_rows).all()
    assert (size[indexed] * length[indexed]).sum() <= budget
    left_out = ~indexed & (size >= min_rows)
    if indexed.any() and left_out.any():
        assert size[indexed].max() <= size[left_out].min()
    if left_out.any():              # the smallest table left out would pass the budget
        k = np.flatnonzero(left_out)[np.argmin(size[left_out])]
        assert (size[indexed] * length[indexed]).sum() + size[k] * length[k] > budget
    for k in np.flatnonzero(indexed):
        table = m.rows[m.tab_off[k]:m.tab_off[k + 1]]
        for p in range(length[k]):
            for d in range(1, 10):
                i = 81 * k + 9 * p + d - 1
                want = m.tab_off[k] + np.flatnonzero(table[:, p] == d)
                assert sorted(idx_row[idx_off[i]:idx_off[i + 1]].tolist()) == want.tolist()


def test_a_walk_with_part_of_the_tables_indexed_agrees_with_the_scan():
    """Half the index budget leaves the biggest tables to the scan: a random walk (as in
    ``walk_both``, back to the root at a dead node) meets the same nodes as with no index
    (8x8 grids: a 9x9's big tables are all permutation tables, never indexed)."""
    from kakuro_np.engine.force import apply_row, build_index, propagate
    for puzzle in [open_grid(8, 2)[0], open_grid(8, 5)[0]]:
        m = model(puzzle)
        skip = perm_sets(m.ent_off, m.rows, m.tab_off)     # as the model's index
        sizes = np.diff(m.tab_off) * np.diff(m.ent_off)
        full = int(sizes[(np.diff(m.tab_off) >= 128) & (skip == 0)].sum())
        part = build_index(m.ent_off, m.rows, m.tab_off, 128, full // 2, skip)
        none = (np.zeros(81 * (len(m.tab_off) - 1) + 1, np.int64), np.zeros(0, np.int32))
        assert 0 < len(part[1]) < len(m.idx_row)
        rng = np.random.default_rng(5)
        sides = [start_state(m.root()._replace(idx_off=o, idx_row=r), True)
                 for o, r in (part, none)]
        (_, t0, l0), (_, t1, l1) = sides
        start = (l0.mask.copy(), l0.nalive.copy())
        for _ in range(400):
            open_entries = np.flatnonzero(l0.nalive > 1)
            if len(open_entries) == 0:
                for live in (l0, l1):
                    live.mask[:], live.nalive[:] = start
                continue
            k = int(rng.choice(open_entries))
            r = int(l0.perm[t0.tab_off[k] + rng.integers(l0.nalive[k])])
            apply_row(t0, l0, k, r)
            apply_row(t1, l1, k, r)
            e0, e1 = propagate(t0, l0, True), propagate(t1, l1, True)
            assert (e0 >= 0) == (e1 >= 0)
            if e0 >= 0:
                for live in (l0, l1):
                    live.mask[:], live.nalive[:] = start
            else:
                assert np.array_equal(l0.mask, l1.mask)
                assert np.array_equal(l0.nalive, l1.nalive)
