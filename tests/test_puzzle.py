"""kakuro_np.puzzle: the Puzzle's arrays, how it is built and checked, and the size checks."""

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from conftest import examples
from kakuro_np.errors import PuzzleError
from kakuro_np.puzzle import (MAX_RUN, Puzzle, cells_fine, check_run_lengths, check_size,
                              too_large)
from strategies import filled_puzzles, grids

ROWS = [["x", (16, 0), (3, 0)], [(0, 10), "_", 1], [(0, 9), "_", "_"]]
SMALL = Puzzle.from_rows(ROWS)


# -- the arrays ---------------------------------------------------------------------


@settings(max_examples=examples(100))
@given(grids())
def test_a_puzzle_keeps_its_arrays_values_in_its_own_dtypes(arrays):
    p = Puzzle(*arrays)
    for name, value, dtype in zip(("blank", "down", "across", "given"), arrays,
                                  (bool, np.int16, np.int16, np.int8)):
        kept = getattr(p, name)
        assert kept.dtype == dtype and kept.shape == value.shape == p.shape
        assert np.array_equal(kept, value)
        assert not kept.flags.writeable and not np.shares_memory(kept, value)
    assert np.array_equal(p.inactive, ~arrays[0] & (arrays[1] == 0) & (arrays[2] == 0))


@settings(max_examples=examples(100))
@given(grids())
def test_rows_and_arrays_give_the_same_puzzle_both_ways(arrays):
    p = Puzzle(*arrays)
    assert Puzzle.from_rows(p.to_rows()) == p
    assert Puzzle(p.blank, p.down, p.across, p.given) == p
    assert pickle.loads(pickle.dumps(p)) == p


@settings(max_examples=examples(50))
@given(filled_puzzles())
def test_with_given_changes_the_digits_only(case):
    p, fill = case
    solved = p.with_given(fill)
    assert np.array_equal(solved.given, fill)
    assert (solved == p) == np.array_equal(p.given, fill)
    for name in ("blank", "down", "across"):
        assert np.array_equal(getattr(solved, name), getattr(p, name))
    assert not solved.with_given(None).given.any()


def test_a_transposed_view_gives_the_transposed_grid_as_a_copy():
    blank = np.zeros((4, 3), bool)
    blank[1:, 1:] = True
    down = np.zeros((4, 3), np.int64)
    down[0, 1:] = 3
    p = Puzzle(blank.T, np.zeros((3, 4), np.int64), down.T)
    assert p.shape == (3, 4) and p.across[1:, 0].tolist() == [3, 3]
    assert np.array_equal(p.blank, blank.T) and not np.shares_memory(p.blank, blank)


def test_given_defaults_to_no_digits():
    p = Puzzle(SMALL.blank, SMALL.down, SMALL.across)
    assert p.given.dtype == np.int8 and not p.given.any()


# -- immutability, equality, hashing ----------------------------------------------------


def test_a_puzzle_refuses_new_values_for_its_arrays_or_new_attributes():
    with pytest.raises(AttributeError, match="immutable"):
        SMALL.blank = np.ones((3, 3), bool)
    with pytest.raises(AttributeError, match="immutable"):
        SMALL.note = "hello"


@pytest.mark.parametrize("name", ["blank", "down", "across", "given"])
def test_a_puzzles_arrays_are_read_only(name):
    with pytest.raises(ValueError, match="read-only"):
        getattr(SMALL, name)[1, 1] = 1


def test_changing_the_arrays_it_was_built_from_changes_nothing():
    blank, down, across, given_ = (np.array(a) for a in (SMALL.blank, SMALL.down,
                                                         SMALL.across, SMALL.given))
    p = Puzzle(blank, down, across, given_)
    blank[0, 0], down[0, 1], given_[1, 2] = True, 7, 5
    assert p == SMALL and p.given[1, 2] == 1


def test_equality_compares_every_array():
    same = Puzzle.from_rows([row[:] for row in ROWS])
    assert same == SMALL and not same != SMALL
    assert SMALL != SMALL.with_given(None)
    other_clue = Puzzle(SMALL.blank, SMALL.down, SMALL.across * 2, SMALL.given)
    assert other_clue != SMALL
    assert Puzzle.from_rows([["x", (3, 0)], [(0, 3), "_"]]) != SMALL      # another shape


def test_a_puzzle_is_never_equal_to_what_is_not_a_puzzle():
    assert SMALL != ROWS and SMALL != SMALL.to_rows() and SMALL != str(SMALL)
    assert SMALL.__eq__(ROWS) is NotImplemented


def test_a_puzzle_is_unhashable_as_a_mutable_looking_value_is():
    with pytest.raises(TypeError, match="unhashable"):
        hash(SMALL)
    with pytest.raises(TypeError):
        {SMALL}


def test_copies_are_equal_puzzles():
    assert copy.copy(SMALL) == SMALL and copy.deepcopy(SMALL) == SMALL
    again = pickle.loads(pickle.dumps(SMALL))
    assert not again.blank.flags.writeable


def test_repr_counts_the_blanks_and_the_given_digits():
    assert repr(SMALL) == "<Puzzle 3x3, 4 blanks, 1 given>"
    assert repr(SMALL.with_given(None)) == "<Puzzle 3x3, 4 blanks>"
    assert repr(Puzzle([[False, False]], [[0, 0]], [[0, 0]])) == "<Puzzle 1x2, 0 blanks>"


def test_inactive_cells_are_neither_blank_nor_clues():
    assert SMALL.inactive.tolist() == [[True, False, False], [False] * 3, [False] * 3]


# -- from_rows and to_rows ------------------------------------------------------------


def test_from_rows_accepts_every_documented_token():
    p = Puzzle.from_rows([[" x ", "X", "\\", None, (0, 0)],
                          ["", " ", 0, " _ ", "_"],
                          ["5", np.int8(7), (np.int32(3), 0), np.array([0, 4]), [45, 45]]])
    assert p.to_rows() == [["x"] * 5, ["_"] * 5, [5, 7, [3, 0], [0, 4], [45, 45]]]


def test_from_rows_takes_any_iterables_of_cells():
    assert Puzzle.from_rows(tuple(tuple(row) for row in ROWS)) == SMALL
    assert Puzzle.from_rows(iter([iter(row) for row in ROWS])) == SMALL


def test_to_rows_is_plain_python():
    rows = SMALL.to_rows()
    assert rows == [["x", [16, 0], [3, 0]], [[0, 10], "_", 1], [[0, 9], "_", "_"]]
    assert all(type(v) is int for row in rows for cell in row if isinstance(cell, list)
               for v in cell)
    assert type(rows[1][2]) is int


@pytest.mark.parametrize("rows, message", [
    (5, "rows must be a list of lists of cells"),
    ([], "a grid needs at least one row and one column"),
    ([[]], "a grid needs at least one row and one column"),
    ([["x", True]], "cell (0, 1): unknown cell True"),
    ([["x", 5.0]], "cell (0, 1): unknown cell 5.0: use 'x', '_', a digit or (down, across)"),
    ([["x", "10"]], "cell (0, 1): unknown cell '10': use 'x', '_', a digit or (down, across)"),
    ([["x", "0"]], "cell (0, 1): unknown cell '0': use 'x', '_', a digit or (down, across)"),
    ([["x", -1]], "cell (0, 1): a digit must be 1-9, got -1"),
    ([["x", (True, 0)]], "cell (0, 1): clue sums must be whole numbers, got (True, 0)"),
    ([["x", (3, -1)]], "cell (0, 1): clue sums must be 0-45, got (3, -1)"),
    ([["x", (1, 2, 3)]],
     "cell (0, 1): unknown cell (1, 2, 3): use 'x', '_', a digit or (down, across)"),
    ([["x", "_"], ["x"], ["x", "_", "_"]], "cell (1, 0): row 1 has 1 cell, row 0 has 2"),
    ([["x"], ["x", "_", "_"]], "cell (1, 0): row 1 has 3 cells, row 0 has 1"),
])
def test_from_rows_names_the_first_bad_cell(rows, message):
    with pytest.raises(PuzzleError) as info:
        Puzzle.from_rows(rows)
    assert str(info.value) == message


# -- the checks of the arrays ----------------------------------------------------------


Z = np.zeros((2, 2), np.int64)
EYE = np.eye(2, dtype=bool)


@pytest.mark.parametrize("args, message", [
    ((np.zeros((0, 3), bool), 0, 0), "a grid must be a non-empty 2-d array, got shape (0, 3)"),
    ((np.zeros((2, 2, 2), bool), 0, 0),
     "a grid must be a non-empty 2-d array, got shape (2, 2, 2)"),
    ((EYE, Z.astype(bool), Z), "down must hold whole numbers, not bool"),
    ((EYE, Z, Z, Z.astype(np.float32)), "given must hold whole numbers, not float32"),
    ((Z.astype(bool), Z, [[0, -1], [0, 0]]), "cell (0, 1): across sum -1 is outside 1-45"),
    ((EYE, Z, Z, [[-1, 0], [0, 0]]), "cell (0, 0): given digit -1 is not 1-9"),
    ((EYE, Z, Z, [[0], [0]]), "given has shape (2, 1), blank has (2, 2)"),
    ((EYE, Z, [[0, 0], [0, 10 ** 30]]), "across must hold whole numbers, not object"),
])
def test_the_arrays_are_checked_with_a_clear_error(args, message):
    with pytest.raises(PuzzleError) as info:
        Puzzle(*args)
    assert str(info.value) == message


def test_a_clue_may_be_45_on_any_cell_that_is_not_blank():
    p = Puzzle(EYE, [[0, 45], [45, 0]], [[0, 45], [1, 0]])
    assert p.down.tolist() == [[0, 45], [45, 0]]


# -- the size checks -----------------------------------------------------------------


def test_check_size_allows_max_side_and_refuses_one_more():
    side = Puzzle.MAX_SIDE
    check_size(side, side)
    check_size(1, 1)
    with pytest.raises(PuzzleError) as info:
        check_size(10, side + 1, line=1, col=5)
    assert str(info.value) == (f"1:5: the grid is 10x{side + 1}, larger than the {side}x{side} "
                               "allowed (set kakuro_np.Puzzle.MAX_SIDE to allow more)")
    assert (info.value.line, info.value.col) == (1, 5)


def test_check_size_follows_max_side(monkeypatch):
    monkeypatch.setattr(Puzzle, "MAX_SIDE", 3)
    check_size(3, 3)
    with pytest.raises(PuzzleError, match="the grid is 4x1, larger than the 3x3 allowed"):
        check_size(4, 1)
    assert str(too_large("row 2 is long")) == ("row 2 is long, larger than the 3x3 allowed "
                                               "(set kakuro_np.Puzzle.MAX_SIDE to allow more)")


def test_too_large_places_its_error():
    error = too_large("row 1 has more than 200 cells", line=1, col=809, source="k.txt")
    assert isinstance(error, PuzzleError) and error.source == "k.txt"
    assert str(error).startswith("k.txt:1:809: row 1 has more than 200 cells, larger than")


def run_of(n, way="across", at=1):
    """A 12x12 grid of one run of ``n`` blank cells, starting at row or column ``at``."""
    blank = np.zeros((12, 12), bool)
    blank[3, at:at + n] = True
    return blank if way == "across" else blank.T


@pytest.mark.parametrize("way", ["across", "down"])
def test_runs_of_up_to_max_run_cells_pass(way):
    assert MAX_RUN == 9
    check_run_lengths(run_of(9, way))
    check_run_lengths(run_of(9, way, at=0))
    check_run_lengths(np.ones((9, 9), bool))


@pytest.mark.parametrize("way, at, cell, said", [
    ("across", 1, (3, 0), "the across run right of this cell is 10 cells long"),
    ("across", 0, (3, 0), "the across run that starts here is 10 cells long"),
    ("down", 1, (0, 3), "the down run below this cell is 10 cells long"),
    ("down", 0, (0, 3), "the down run that starts here is 10 cells long"),
])
def test_a_long_run_is_named_by_its_clue_cell_or_its_first_cell(way, at, cell, said):
    with pytest.raises(PuzzleError) as info:
        check_run_lengths(run_of(10, way, at))
    assert info.value.cell == cell
    assert str(info.value) == (f"cell {cell}: {said}, longer than 9, so it cannot hold "
                               "distinct digits")


def test_the_first_across_run_is_named_before_any_down_run():
    blank = run_of(10, "down", at=0) | run_of(11, "across", at=1)
    blank[11, 1:12] = True                                 # a later across run, longer still
    with pytest.raises(PuzzleError) as info:
        check_run_lengths(blank)
    assert info.value.cell == (3, 0) and "across run" in str(info.value)
    assert "is 11 cells long" in str(info.value)


def test_place_gives_the_run_its_place_in_a_text():
    with pytest.raises(PuzzleError) as info:
        check_run_lengths(run_of(11, "down", at=1), place=lambda r, c: {"line": r + 1,
                                                                         "col": 2 * c + 1})
    assert (info.value.line, info.value.col, info.value.cell) == (1, 7, (0, 3))
    assert str(info.value).startswith("1:7: cell (0, 3): the down run below this cell is 11")


@settings(max_examples=examples(100))
@given(hnp.arrays(bool, st.tuples(st.integers(1, 25), st.integers(1, 25))))
def test_check_run_lengths_refuses_exactly_the_grids_with_a_run_over_nine(blank):
    def longest(grid):
        best = 0
        for row in grid:
            n = 0
            for v in row:
                n = n + 1 if v else 0
                best = max(best, n)
        return best

    too_long = max(longest(blank), longest(blank.T)) > MAX_RUN
    if too_long:
        with pytest.raises(PuzzleError, match="longer than 9"):
            check_run_lengths(blank)
    else:
        check_run_lengths(blank)



def test_a_puzzle_from_transposed_arrays_holds_them_in_c_order():
    p = Puzzle.from_rows([["x", (4, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]])
    t = Puzzle(p.blank.T, p.across.T, p.down.T, p.given.T)
    assert all(a.flags.c_contiguous for a in (t.blank, t.down, t.across, t.given))
    assert np.array_equal(t.blank, p.blank.T) and np.array_equal(t.down, p.across.T)


def test_a_puzzles_arrays_cannot_be_deleted():
    p = Puzzle.from_rows([["x", (4, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]])
    with pytest.raises(AttributeError, match="immutable"):
        del p.blank
    assert p.blank.shape == (3, 3)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.data())
def test_cells_fine_is_what_puzzle_accepts(h, w, data):
    """``cells_fine`` (the checks of many grids at once) agrees with ``Puzzle`` on every
    grid of cells: values near each bound, blank or not."""
    blank = data.draw(hnp.arrays(bool, (h, w)))
    down, across = (data.draw(hnp.arrays(np.int64, (h, w), elements=st.sampled_from(
        [-1, 0, 0, 0, 3, 45, 46]))) for _ in range(2))
    given = data.draw(hnp.arrays(np.int64, (h, w), elements=st.sampled_from([-1, 0, 0, 1, 9, 10])))
    try:
        Puzzle(blank, down, across, given)
        accepted = True
    except PuzzleError:
        accepted = False
    assert cells_fine(blank, down, across, given) == accepted
