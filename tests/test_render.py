"""Text pictures: pencil marks and the helpers shared with the SVG pictures."""

import pathlib

import numpy as np
import pytest

import kakuro_np as kn
from kakuro_np.render import (BLANK, CLUE, INACTIVE, boxed, clue_text, decided, keypad, kinds,
                              marks, pencil)

SAMPLES = sorted((pathlib.Path(__file__).resolve().parent.parent / "puzzles").glob("k[0-9].txt"))

#: Two solutions (1 2 / 2 1 and 2 1 / 1 2): forced moves leave 1 or 2 everywhere.
TWIN = kn.Puzzle.from_rows([["x", (3, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 3), "_", "_"]])

TWIN_PENCIL = """\
┌─────┬─────┬─────┐
│▒▒▒▒▒│     │     │
│▒▒▒▒▒│ 3\\  │ 3\\  │
│▒▒▒▒▒│     │     │
├─────┼─────┼─────┤
│     │ 12· │ 12· │
│  \\3 │ ··· │ ··· │
│     │ ··· │ ··· │
├─────┼─────┼─────┤
│     │ 12· │ 12· │
│  \\3 │ ··· │ ··· │
│     │ ··· │ ··· │
└─────┴─────┴─────┘"""


def twin_candidates():
    cand = np.zeros((3, 3, 9), bool)
    cand[1:, 1:, :2] = True
    return cand


def test_pencil_exact_text_of_a_3x3_grid():
    assert pencil(TWIN, twin_candidates()) == TWIN_PENCIL


def test_pencil_of_reduce_candidates():
    r = kn.reduce(TWIN)
    assert r.status == "stuck"
    assert pencil(TWIN, r.candidates) == TWIN_PENCIL


def test_decided_cells_show_their_digits():
    digits = np.zeros((3, 3), int)
    digits[1, 1] = 2
    lines = pencil(TWIN, twin_candidates(), digits).splitlines()
    assert lines[5:8] == ["│     │     │ 12· │", "│  \\3 │  2  │ ··· │", "│     │     │ ··· │"]


def test_lone_candidates_and_given_digits_show_as_digits():
    p = TWIN.with_given([[0, 0, 0], [0, 0, 0], [0, 0, 1]])
    cand = twin_candidates()
    cand[1, 2] = False
    cand[1, 2, 1] = True  # only 2 left
    text = pencil(p, cand)
    assert text.splitlines()[6] == "│  \\3 │ ··· │  2  │"
    assert text.splitlines()[10] == "│  \\3 │ ··· │  1  │"


def test_solution_digits_fill_every_blank():
    p = kn.read(SAMPLES[0])
    text = pencil(p, None, kn.kakuro(p)[0])
    assert "·" not in text
    for r, c in np.argwhere(p.blank):
        assert f"  {kn.kakuro(p)[0][r, c]}  " in text.splitlines()[4 * r + 2]


def test_no_candidates_is_all_dots_and_inactive_is_shaded():
    lines = pencil(TWIN, np.zeros((3, 3, 9), bool)).splitlines()
    assert lines[5:8] == ["│     │ ··· │ ··· │", "│  \\3 │ ··· │ ··· │", "│     │ ··· │ ··· │"]
    assert [line[1:6] for line in lines[1:4]] == ["▒▒▒▒▒"] * 3


def test_clue_cells_keep_the_backslash_in_the_middle_column():
    p = kn.Puzzle.from_rows([[(45, 45), (3, 0), (0, 17)], [(0, 9), "_", "_"]])
    middle = pencil(p, None).splitlines()[2]
    assert middle == "│45\\45│ 3\\  │  \\17│"


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_every_sample_pencils_into_an_even_grid(path):
    p = kn.read(path)
    lines = pencil(p, kn.reduce(p).candidates).splitlines()
    h, w = p.shape
    assert len(lines) == 4 * h + 1
    assert {len(line) for line in lines} == {6 * w + 1}


def test_a_10x10_grid_fits_a_terminal():
    p = kn.Puzzle(np.ones((10, 10), bool) & ~np.eye(10, dtype=bool), None, None)
    lines = pencil(p, np.ones((10, 10, 9), bool)).splitlines()
    assert max(len(line) for line in lines) == 61


def test_candidates_of_the_wrong_shape_are_refused():
    with pytest.raises(ValueError, match="candidates"):
        pencil(TWIN, np.zeros((3, 3), bool))
    with pytest.raises(ValueError, match="digits"):
        pencil(TWIN, None, np.zeros((2, 3), int))


#: The essay's k0 and its solution, as the essay prints them.
ESSAY_K0 = """\
┌────┬───┬───┬───┬───┐
│x   │x  │x  │6 0│3 0│
├────┼───┼───┼───┼───┤
│x   │4 0│3 3│_  │_  │
├────┼───┼───┼───┼───┤
│0 10│_  │_  │_  │_  │
├────┼───┼───┼───┼───┤
│0 3 │_  │_  │x  │x  │
└────┴───┴───┴───┴───┘"""
ESSAY_K0_SOLVED = """\
┌────┬───┬───┬───┬───┐
│x   │x  │x  │6 0│3 0│
├────┼───┼───┼───┼───┤
│x   │4 0│3 3│2  │1  │
├────┼───┼───┼───┼───┤
│0 10│3  │1  │4  │2  │
├────┼───┼───┼───┼───┤
│0 3 │1  │2  │x  │x  │
└────┴───┴───┴───┴───┘"""


def test_boxed_draws_k0_as_the_essay_does():
    k0 = kn.read(SAMPLES[0].parent / "k0.txt")
    solution = [[0, 0, 0, 0, 0], [0, 0, 0, 2, 1], [0, 3, 1, 4, 2], [0, 1, 2, 0, 0]]
    assert boxed(k0) == ESSAY_K0
    assert boxed(k0, np.array(solution)) == ESSAY_K0_SOLVED
    assert str(k0) == ESSAY_K0


# -- helpers ------------------------------------------------------------------

def test_kinds():
    assert kinds(TWIN).tolist() == [[INACTIVE, CLUE, CLUE], [CLUE, BLANK, BLANK],
                                    [CLUE, BLANK, BLANK]]


def test_clue_text_leaves_zero_sums_empty():
    assert clue_text(TWIN, 0, 1) == ("3", "")
    assert clue_text(TWIN, 1, 0) == ("", "3")
    assert clue_text(TWIN, 0, 0) == ("", "")


def test_decided_prefers_given_then_digits_then_a_lone_candidate():
    p = TWIN.with_given([[0, 0, 0], [0, 1, 0], [0, 0, 0]])
    cand = np.zeros((3, 3, 9), bool)
    cand[1:, 1:, 8] = True
    digits = np.zeros((3, 3), int)
    digits[1, 1] = digits[1, 2] = 5
    digits[0, 0] = 7  # not a blank: ignored
    assert decided(p, digits, cand).tolist() == [[0, 0, 0], [0, 1, 5], [0, 9, 9]]
    assert decided(p).tolist() == [[0, 0, 0], [0, 1, 0], [0, 0, 0]]


def test_keypad_places_are_distinct_and_in_reading_order():
    places = [keypad(d) for d in range(1, 10)]
    assert places == sorted(places) and len(set(places)) == 9


def test_marks():
    cand = twin_candidates()
    assert marks(cand, 1, 1) == [1, 2]
    assert marks(cand, 0, 0) == []
