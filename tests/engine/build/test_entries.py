"""entries: runs as flat cell indices with their sums, in the essay's order."""

import numpy as np
import pytest

import kakuro_np as kn
from conftest import PUZZLES

K2_SUMS = [16, 8, 7, 9, 41, 29, 7, 16, 23, 28, 12, 20, 4,
           16, 13, 11, 34, 7, 29, 10, 16, 28, 34, 21, 10, 23]


def test_k2_entries_are_the_essays():
    cells, sums = kn.entries(kn.read(PUZZLES / "k2.txt"))
    assert sums.dtype == np.int64 and sums.tolist() == K2_SUMS
    assert all(c.dtype == np.int64 for c in cells)
    # the essay prints the first seven entries' cells
    assert [c.tolist() for c in cells[:7]] == [
        [9, 10], [14, 15], [17, 18, 19], [21, 22, 23], [25, 26, 27, 28, 29, 30, 31],
        [33, 34, 35, 36, 37, 38, 39], [42, 43]]
    # 14 across entries (row-major), then 12 down entries in column-major order:
    # the first down entry is column 1 from row 1, under the clue 13
    assert cells[13].tolist() == [78, 79] and cells[14].tolist() == [9, 17, 25, 33]
    assert sums[14] == 13


def test_every_blank_of_a_sample_is_in_two_entries():
    for name in ["k1.txt", "k3.txt", "k5.txt", "k7.txt"]:
        p = kn.read(PUZZLES / name)
        cells, _ = kn.entries(p)
        seen = np.bincount(np.concatenate(cells), minlength=p.blank.size)
        assert (seen[p.blank.ravel()] == 2).all()
        assert (seen[~p.blank.ravel()] == 0).all()


def grid(*rows):
    return kn.Puzzle.from_rows(rows)


def test_entry_of_length_one():
    p = grid(["x", (2, 0)], [(0, 2), "_"])
    cells, sums = kn.entries(p)
    assert [c.tolist() for c in cells] == [[3], [3]] and sums.tolist() == [2, 2]
    assert kn.kakuro(p)[:, 1, 1].tolist() == [2]


@pytest.mark.parametrize("rows, words, cell", [
    ((["x", "x", "x", (3, 0)], ["x", "_", "x", "_"], ["x", "x", "x", "_"]), "no clue covers",
     (1, 1)),                               # (1, 1): no clue either way
    ((["_"], ), "no clue covers", (0, 0)),  # a lone blank cell
    ((["x", "x", "x"], ["x", "_", "_"]), "no across clue", (1, 1)),
    ((["x", "x"], [(0, 3), "_"], ["x", "_"]), "no down clue", (1, 1)),
    ((["x", (0, 4), "x"], ["x", "_", "x"]), "no blank cells to its right", (0, 1)),
    ((["x", (4, 0)], ["x", "x"]), "no blank cells below", (0, 1)),
    (([(0, 45)] + ["_"] * 10,), "longer than 9", (0, 1)),
])
def test_malformed_runs_raise_puzzle_error(rows, words, cell):
    with pytest.raises(kn.PuzzleError, match=words) as info:
        kn.entries(grid(*rows))
    assert info.value.cell == cell
    assert f"cell {cell}" in str(info.value)


def test_a_clued_down_run_through_unclued_single_acrosses_is_well_formed():
    p = grid(["x", (3, 0)], ["x", "_"], ["x", "_"])
    cells, sums = kn.entries(p)
    assert [c.tolist() for c in cells] == [[3, 5]] and sums.tolist() == [3]
    assert kn.kakuro(p)[:, 1:, 1].tolist() == [[1, 2], [2, 1]]


def test_a_grid_without_blanks_has_no_entries_and_one_empty_solution():
    p = grid(["x", "x"], ["x", "x"])
    cells, sums = kn.entries(p)
    assert cells == [] and sums.shape == (0,)
    assert kn.kakuro(p).shape == (1, 2, 2) and kn.count(p) == 1
    assert kn.reduce(p).status == "solved"
