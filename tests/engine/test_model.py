"""model: a puzzle packed for the kernels (``build``, ``puzzle_model``), its tables forced."""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from kakuro_np.engine.build.entries import LOOSE_CELL, packed_entries
from kakuro_np.engine.core.codes import CONTRADICTION, OK
from kakuro_np.engine.core.jit import NO_DEADLINE
from kakuro_np.engine.core import ahead
from kakuro_np.engine.model import MAX_ROWS, build, forced_answers, puzzle_model
from kakuro_np.essay import entries, force_until_fixed, jposs, keep_givens
from strategies import filled_puzzles
from conftest import PUZZLES, examples

SETTINGS = settings(max_examples=examples(80), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

#: A 2x2 block of 3s: two solutions, [[1, 2], [2, 1]] and [[2, 1], [1, 2]].
BLOCK = [["x", (3, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 3), "_", "_"]]


def grid(rows):
    return kn.Puzzle.from_rows(rows)


def tables_of(m):
    """The model's table of each entry, its rows cut to the entry's length."""
    lengths = np.diff(m.ent_off)
    return [m.rows[a:b, :n] for a, b, n in zip(m.tab_off[:-1], m.tab_off[1:], lengths)]


def essay_fixpoint(p):
    """The essay's pipeline to the fixpoint: entries -> jposs -> (givens) -> force^:_."""
    cells, sums = entries(p)
    tables = keep_givens(cells, jposs(cells, sums), p.given)
    return cells, sums, force_until_fixed(cells, tables)


def test_k0_model_holds_the_essays_entries_variables_and_forced_tables():
    m = build(kn.read(PUZZLES / "k0.txt"))
    assert (m.status, m.culprit) == (OK, -1)
    # 3 across entries in row-major order, then 4 down entries in column-major order
    assert m.packed.n_across == 3
    assert m.ent_off.tolist() == [0, 2, 6, 8, 10, 12, 14, 16]
    assert m.packed.ent_cell.tolist() == [8, 9, 11, 12, 13, 14, 16, 17,
                                          11, 16, 12, 17, 8, 13, 9, 14]
    assert m.ent_sum.tolist() == [3, 10, 3, 4, 3, 6, 3]
    assert m.var_cell.tolist() == [8, 9, 11, 12, 13, 14, 16, 17]
    assert m.ent_var.tolist() == [0, 1, 2, 3, 4, 5, 6, 7, 2, 6, 3, 7, 0, 4, 1, 5]
    # force alone solves it: one row per table, one digit per cell
    assert m.tab_off.tolist() == list(range(8))
    assert [t.tolist() for t in tables_of(m)] == [[[2, 1]], [[3, 1, 4, 2]], [[1, 2]], [[3, 1]],
                                                  [[1, 2]], [[2, 4]], [[1, 2]]]
    assert m.mask.tolist() == [1 << (d - 1) for d in (2, 1, 3, 1, 4, 2, 1, 2)]
    assert np.array_equal(m.fit_mask, m.mask) and m.fit_mask is not m.mask
    assert m.rows.shape == (7, 9) and not m.rows[:, 4:].any()      # padded with 0 to 9


def test_a_block_with_two_solutions_keeps_both_rows_of_every_table():
    m = build(grid(BLOCK))
    assert (m.status, m.culprit) == (OK, -1)
    assert m.var_cell.tolist() == [4, 5, 7, 8]
    assert m.ent_var.tolist() == [0, 1, 2, 3, 0, 2, 1, 3]
    assert m.mask.tolist() == [0b11] * 4                    # digits 1 and 2 everywhere
    assert [t.tolist() for t in tables_of(m)] == [[[1, 2], [2, 1]]] * 4


def test_a_given_digit_starts_its_cell_narrowed_and_forces_the_rest():
    rows = [r[:] for r in BLOCK]
    rows[1][1] = 2
    m = build(grid(rows))
    assert m.mask.tolist() == [0b10, 0b01, 0b01, 0b10]
    assert [t.tolist() for t in tables_of(m)] == [[[2, 1]], [[1, 2]], [[2, 1]], [[1, 2]]]


def test_the_models_entries_are_those_packed_entries_reads():
    for name in ("k1.txt", "k3.txt", "k5.txt", "kuroro-example.txt"):
        p = kn.read(PUZZLES / name)
        m, packed = build(p), packed_entries(p)
        assert m.packed.n_across == packed.n_across, name
        for field in ("ent_off", "ent_cell", "ent_sum"):
            assert np.array_equal(getattr(m.packed, field), getattr(packed, field)), name
        assert np.array_equal(m.var_cell, np.flatnonzero(p.blank)), name


@pytest.mark.parametrize("rows, words, cell", [
    ((["x", "x", "x", (3, 0)], ["x", "_", "x", "_"], ["x", "x", "x", "_"]), "no clue covers",
     (1, 1)),
    ((["x", "x", "x"], ["x", "_", "_"]), "no across clue", (1, 1)),
    ((["x", "x"], [(0, 3), "_"], ["x", "_"]), "no down clue", (1, 1)),
    ((["x", (4, 0)], ["x", "x"]), "no blank cells below", (0, 1)),
    (([(0, 45)] + ["_"] * 10,), "longer than 9", (0, 1)),
])
def test_a_malformed_run_raises_puzzle_error_naming_its_cell(rows, words, cell):
    with pytest.raises(kn.PuzzleError, match=words) as info:
        build(grid(rows))
    assert info.value.cell == cell


@pytest.mark.parametrize("rows, code", [
    ((["x", "x", "x", (3, 0)], ["x", "_", "x", "_"], ["x", "x", "x", "_"]), LOOSE_CELL),
    ((["x", "x", "x"], ["x", "_", "_"]), 1),        # a run with no across clue
    ((["x", "x"], [(0, 3), "_"], ["x", "_"]), 2),   # a run with no down clue
])
def test_puzzle_model_flags_a_malformed_grid_and_builds_no_tables(rows, code):
    p = grid(rows)
    out = puzzle_model(p.blank, p.down, p.across, p.given, np.int64(MAX_ROWS),
                       np.int64(NO_DEADLINE))
    bad, status, rows_out = out[0], out[1], out[10]
    assert (bad, status, rows_out.shape) == (code, OK, (0, 9))


def test_tables_past_max_rows_raise_budget_error():
    p = kn.read(PUZZLES / "k3.txt")
    kept = len(build(p).rows)                   # 403 rows kept, more made on the way
    with pytest.raises(kn.BudgetError, match=f"pass {kept - 1:,} rows .*max_rows="):
        build(p, max_rows=kept - 1)
    with pytest.raises(kn.BudgetError, match="max_rows="):
        build(p, max_rows=10)
    assert len(build(p, max_rows=2 * kept).rows) == kept


def test_a_deadline_already_past_raises_solve_timeout():
    with pytest.raises(kn.SolveTimeout, match="building the tables"):
        build(kn.read(PUZZLES / "k3.txt"), deadline=1)


@pytest.mark.parametrize("rows, culprit", [
    ([["x", (3, 0), (4, 0)], [(0, 2), "_", "_"]], 0),       # 2 in two cells: none at once
    ([["x", (3, 0)], [(0, 4), "_"]], 1),                    # across 4 leaves no room for 3
    ([["x", (3, 0), (3, 0)], [(0, 3), 2, 2], [(0, 3), "_", "_"]], 0),   # 2 twice across
])
def test_a_contradiction_gives_its_status_the_entry_that_emptied_and_no_rows(rows, culprit):
    m = build(grid(rows))
    assert (m.status, m.culprit) == (CONTRADICTION, culprit)
    assert m.rows.shape == (0, 9) and not m.tab_off.any()


@SETTINGS
@given(filled_puzzles(max_side=7))
def test_the_models_tables_and_masks_are_the_essays_fixpoint(case):
    """entries -> jposs -> force^:_ in the essay's own code: the same tables, row for row
    (each in lexicographic order), and each cell's mask is the digits every entry through
    it allows there."""
    p, fill = case
    m = build(p)
    assert m.status == OK                       # clued from a fill: it has a solution
    cells, sums, fixed = essay_fixpoint(p)
    assert [c.tolist() for c in cells] == [m.packed.ent_cell[a:b].tolist()
                                           for a, b in zip(m.ent_off[:-1], m.ent_off[1:])]
    assert sums.tolist() == m.ent_sum.tolist()
    ours = tables_of(m)
    assert [t.tolist() for t in ours] == [t.tolist() for t in fixed]
    assert all(t.tolist() == sorted(t.tolist()) for t in ours)
    allowed = np.full(p.blank.size, 0x1FF, np.int64)
    for c, t in zip(cells, ours):
        for j, cell in enumerate(c):
            allowed[cell] &= sum(1 << (d - 1) for d in set(t[:, j].tolist()))
    assert m.mask.tolist() == allowed[m.var_cell].tolist()
    assert np.array_equal(m.fit_mask, m.mask)


@SETTINGS
@given(filled_puzzles())
def test_every_solutions_row_is_in_its_entrys_table(case):
    """Force drops only rows no solution uses: the fill's and every solution's rows stay."""
    p, fill = case
    m = build(p)
    assert m.status == OK
    solutions = [fill] + list(kn.kakuro(p, limit=50))
    ours = [{tuple(r) for r in t.tolist()} for t in tables_of(m)]
    for s in solutions:
        flat = s.ravel()
        for k, table in enumerate(ours):
            assert tuple(flat[m.packed.ent_cell[m.ent_off[k]:m.ent_off[k + 1]]]) in table
        assert all((m.mask[v] >> (flat[c] - 1)) & 1 for v, c in enumerate(m.var_cell))


@SETTINGS
@given(filled_puzzles(max_side=6), st.data())
def test_a_changed_clue_is_a_contradiction_exactly_when_the_essays_fixpoint_empties(case, data):
    p, _ = case
    clued = np.flatnonzero((p.across > 0) | (p.down > 0))
    assume(len(clued) > 0)                      # a grid without blanks has no clue to change
    at = data.draw(st.sampled_from(clued.tolist()))
    across, down = p.across.copy(), p.down.copy()
    which = across if across.flat[at] > 0 else down
    which.flat[at] = min(max(which.flat[at] + data.draw(st.integers(-4, 4)), 1), 45)
    q = kn.Puzzle(p.blank, down, across, p.given)
    m = build(q)
    _, _, fixed = essay_fixpoint(q)
    empty = [k for k, t in enumerate(fixed) if len(t) == 0]
    assert (m.status == CONTRADICTION) == bool(empty)
    if empty:
        assert m.culprit in empty and len(m.rows) == 0
    else:
        assert m.culprit == -1 and [t.tolist() for t in tables_of(m)] == \
            [t.tolist() for t in fixed]


@SETTINGS
@given(st.lists(filled_puzzles(), min_size=1, max_size=6))
def test_force_answers_many_puzzles_at_once_where_it_solves_them(cases):
    """``forced_answers`` gives a puzzle's solution exactly where force alone solves it
    (the model's tables all one row): the one solution, on the grid; None elsewhere."""
    ahead.main(["many"])
    puzzles = [p for p, _ in cases]
    for p, answer in zip(puzzles, forced_answers(puzzles)):
        m = build(p)
        if len(m.rows) == len(m.ent_sum):
            assert answer is not None and np.array_equal(answer, kn.kakuro(p))
        else:
            assert answer is None
