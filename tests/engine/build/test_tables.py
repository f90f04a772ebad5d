"""jposs.build_tables: the model's tables, every one forced as it is built, and the essay's."""

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from conftest import PUZZLES, examples
from strategies import filled_puzzles
from kakuro_np.engine.build.jposs import build_tables
from kakuro_np.engine.core.codes import CONTRADICTION, OK, OVER_BUDGET, TIMED_OUT
from kakuro_np.engine.core.jit import NO_DEADLINE
from kakuro_np.engine.core.state import tables_model
from kakuro_np.engine.force import force_rows
from kakuro_np.engine.model import build

NO_BUDGET = np.int64(2**62)


def start_masks(m):
    """Each variable's candidates before any table: its given digit, else 1-9."""
    g = m.puzzle.given.ravel()[m.var_cell].astype(np.int64)
    return np.where(g > 0, 1 << np.maximum(g - 1, 0), 0x1FF).astype(np.int64)


def forced(m, ent_sum=None, max_rows=NO_BUDGET, deadline=NO_DEADLINE):
    """``build_tables`` (forced) on model ``m``'s entries from its start masks (clues
    ``ent_sum`` instead of the puzzle's if given): ``(rows, tab_off, status, culprit,
    mask)``, the masks as the build left them."""
    mask = start_masks(m)
    ent_sum = m.ent_sum if ent_sum is None else ent_sum
    out = build_tables(m.ent_off, m.ent_var, ent_sum, mask, np.int64(max_rows),
                       np.int64(deadline), True)
    return (*out, mask)


def split(rows, tab_off):
    """The packed tables as a list of (n, 9) arrays, one per entry."""
    return [rows[tab_off[k]:tab_off[k + 1]] for k in range(len(tab_off) - 1)]


def essay_fixpoint(m, ent_sum=None):
    """The essay's route: the jposs tables (from the start masks), then ``force^:_`` twice
    over, by ``force_rows`` until fixed and round by round until a round drops nothing.
    Returns both lists of tables."""
    ent_sum = m.ent_sum if ent_sum is None else ent_sum
    rows, tab_off, status, culprit = build_tables(m.ent_off, m.ent_var, ent_sum, start_masks(m),
                                                  NO_BUDGET, np.int64(NO_DEADLINE), False)
    assert (status, culprit) == (OK, -1)
    kept = force_rows(tables_model(m.ent_off, m.ent_var, rows, tab_off).root(), True)
    alive = np.ones(len(rows), np.bool_)
    while True:
        keep = np.flatnonzero(alive)
        root = tables_model(m.ent_off, m.ent_var, rows[keep], np.searchsorted(keep, tab_off)).root()
        after = np.zeros(len(rows), np.bool_)
        after[keep[force_rows(root, False)]] = True
        if np.array_equal(after, alive):
            break
        alive = after
    return ([rows[tab_off[k]:tab_off[k + 1]][kept[tab_off[k]:tab_off[k + 1]]]
             for k in range(len(tab_off) - 1)],
            [rows[tab_off[k]:tab_off[k + 1]][alive[tab_off[k]:tab_off[k + 1]]]
             for k in range(len(tab_off) - 1)])


def entry_row(m, k, digits):
    """Entry ``k``'s row of a grid of ``digits``, padded to 9 columns."""
    cells = m.var_cell[m.ent_var[m.ent_off[k]:m.ent_off[k + 1]]]
    row = np.zeros(9, np.int8)
    row[:len(cells)] = np.asarray(digits).ravel()[cells]
    return row


@settings(max_examples=examples(60))
@given(filled_puzzles())
def test_the_build_reaches_the_essays_fixpoint_from_the_full_tables(case):
    puzzle, _ = case
    m = build(puzzle)
    rows, tab_off, status, culprit, _ = forced(m)
    assert (status, culprit) == (OK, -1)
    by_fixpoint, by_rounds = essay_fixpoint(m)
    ours = split(rows, tab_off)
    assert len(ours) == len(by_fixpoint) == len(m.ent_sum)
    for k, (a, b, c) in enumerate(zip(ours, by_fixpoint, by_rounds)):
        assert np.array_equal(a, b), k
        assert np.array_equal(a, c), k


@settings(max_examples=examples(60))
@given(filled_puzzles(), st.integers(0, 10**6), st.integers(0, 10**6))
def test_a_changed_clue_contradicts_exactly_when_the_essays_fixpoint_empties_a_table(
        case, which, total):
    """A clue changed to another sum its run can hold: the build finds a contradiction
    (naming an entry whose table the essay's fixpoint empties) exactly when that fixpoint
    holds an empty table, and otherwise builds its tables."""
    puzzle, _ = case
    assume(puzzle.blank.any())                  # no blank cell: no clue to change
    m = build(puzzle)
    k = which % len(m.ent_sum)
    L = int(m.ent_off[k + 1] - m.ent_off[k])
    low, high = L * (L + 1) // 2, L * (19 - L) // 2      # the L smallest, largest digits
    ent_sum = m.ent_sum.copy()
    ent_sum[k] = low + total % (high - low + 1)
    rows, tab_off, status, culprit, _ = forced(m, ent_sum)
    essay, _ = essay_fixpoint(m, ent_sum)
    empty = [len(t) == 0 for t in essay]
    assert status in (OK, CONTRADICTION)
    assert (status == CONTRADICTION) == any(empty)
    if status == CONTRADICTION:
        assert 0 <= culprit < len(ent_sum) and empty[culprit]
        assert rows.shape == (0, 9) and np.array_equal(tab_off, np.zeros(len(ent_sum) + 1))
    else:
        assert culprit == -1
        assert all(np.array_equal(a, b) for a, b in zip(split(rows, tab_off), essay))


@settings(max_examples=examples(60))
@given(filled_puzzles())
def test_the_build_keeps_the_row_of_every_solution(case):
    puzzle, fill = case
    m = build(puzzle)
    rows, tab_off, status, _, _ = forced(m)
    assert status == OK
    solutions = kn.kakuro(puzzle, limit=200)
    assert len(solutions) >= 1
    for digits in [fill, *solutions]:
        for k, table in enumerate(split(rows, tab_off)):
            assert (table == entry_row(m, k, digits)).all(axis=1).any(), k


@settings(max_examples=examples(60))
@given(filled_puzzles())
def test_each_table_is_lexicographic_fits_its_clue_and_spans_its_cells_masks(case):
    """Each block is in strictly increasing lexicographic order, each row distinct digits
    adding up to the clue, padded with 0; the masks are left at the fixpoint: each
    column's digits are exactly its cell's candidates."""
    puzzle, _ = case
    m = build(puzzle)
    rows, tab_off, status, _, mask = forced(m)
    assert status == OK and rows.dtype == np.int8 and tab_off[0] == 0
    assert np.array_equal(mask, m.fit_mask)
    for k, table in enumerate(split(rows, tab_off)):
        L = int(m.ent_off[k + 1] - m.ent_off[k])
        cells = m.ent_var[m.ent_off[k]:m.ent_off[k + 1]]
        body = table[:, :L].astype(np.int64)
        assert len(body) >= 1
        assert (table[:, L:] == 0).all()
        assert ((body >= 1) & (body <= 9)).all()
        assert (np.sort(body, axis=1)[:, 1:] != np.sort(body, axis=1)[:, :-1]).all()
        assert (body.sum(axis=1) == m.ent_sum[k]).all()
        keys = [tuple(r) for r in body.tolist()]
        assert all(a < b for a, b in zip(keys, keys[1:])), k
        for p in range(L):
            assert np.bitwise_or.reduce(1 << (body[:, p] - 1)) == mask[cells[p]], (k, p)


def test_the_build_of_k3_keeps_its_model_tables_and_narrows_the_masks_in_place():
    m = build(kn.read(PUZZLES / "k3.txt"))
    rows, tab_off, status, culprit, mask = forced(m)
    assert (status, culprit) == (OK, -1)
    assert np.array_equal(rows, m.rows) and np.array_equal(tab_off, m.tab_off)
    assert np.array_equal(mask, m.mask)
    assert (mask != 0x1FF).any()                # the masks given were narrowed
    assert np.diff(tab_off).max() == 84 and len(tab_off) == 41


def test_an_entry_impossible_by_its_combinations_is_the_culprit():
    """Entry 0 (cells 0, 1: 3) can be filled; entry 1 (cells 2, 3: 4) cannot with a 9 given
    in cell 2: the build stops with no tables and names entry 1."""
    mask = np.array([0x1FF, 0x1FF, 1 << 8, 0x1FF], np.int64)
    rows, tab_off, status, culprit = build_tables(
        np.array([0, 2, 4]), np.array([0, 1, 2, 3]), np.array([3, 4]), mask, NO_BUDGET,
        np.int64(NO_DEADLINE), True)
    assert (status, culprit) == (CONTRADICTION, 1)
    assert rows.shape == (0, 9) and tab_off.tolist() == [0, 0, 0]


def test_two_entries_that_share_no_digit_on_their_common_cell_contradict():
    """Cell 0 holds 1 or 2 for the 3 over cells 0, 1 and 8 or 9 for the 17 over cells 0, 2."""
    mask = np.full(3, 0x1FF, np.int64)
    rows, tab_off, status, culprit = build_tables(
        np.array([0, 2, 4]), np.array([0, 1, 0, 2]), np.array([3, 17]), mask, NO_BUDGET,
        np.int64(NO_DEADLINE), True)
    assert status == CONTRADICTION and culprit in (0, 1)
    assert rows.shape == (0, 9) and tab_off.tolist() == [0, 0, 0]


def test_a_build_past_its_row_budget_is_over_budget_with_no_tables():
    m = build(kn.read(PUZZLES / "k3.txt"))
    for budget in (0, 1, 20):
        rows, tab_off, status, culprit, _ = forced(m, max_rows=budget)
        assert (status, culprit) == (OVER_BUDGET, -1), budget
        assert rows.shape == (0, 9) and not tab_off.any() and len(tab_off) == 41
    assert forced(m, max_rows=10**6)[2] == OK


def test_a_build_past_its_deadline_is_timed_out_with_no_tables():
    m = build(kn.read(PUZZLES / "k2.txt"))
    rows, tab_off, status, culprit, _ = forced(m, deadline=1)
    assert (status, culprit) == (TIMED_OUT, -1)
    assert rows.shape == (0, 9) and not tab_off.any() and len(tab_off) == len(m.ent_sum) + 1


def test_no_entries_build_no_tables():
    rows, tab_off, status, culprit = build_tables(
        np.zeros(1, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64),
        np.zeros(0, np.int64), NO_BUDGET, np.int64(NO_DEADLINE), True)
    assert (status, culprit) == (OK, -1)
    assert rows.shape == (0, 9) and tab_off.tolist() == [0]


@settings(max_examples=examples(60))
@given(filled_puzzles())
def test_the_essays_build_is_the_essays_jposs_table_for_table(case):
    """Without ``forced``: the essay's order, each table from the masks as they were at its
    turn (``kn.jposs``), against the plain-numpy essay."""
    from kakuro_np import essay
    puzzle, _ = case
    cells, sums = kn.entries(puzzle)
    ours = kn.jposs(cells, sums)
    want = essay.jposs(cells, sums)
    assert len(ours) == len(want)
    for k, (a, b) in enumerate(zip(ours, want)):
        assert np.array_equal(a, np.asarray(b).reshape(-1, len(cells[k]))), k


def test_the_essays_build_past_its_row_budget_or_deadline_has_no_tables():
    m = build(kn.read(PUZZLES / "k3.txt"))
    for budget, deadline, status in ((20, NO_DEADLINE, OVER_BUDGET), (NO_BUDGET, 1, TIMED_OUT)):
        rows, tab_off, got, culprit = build_tables(
            m.ent_off, m.ent_var, m.ent_sum, start_masks(m), np.int64(budget),
            np.int64(deadline), False)
        assert (got, culprit) == (status, -1)
        assert rows.shape == (0, 9) and not tab_off.any() and len(tab_off) == 41
