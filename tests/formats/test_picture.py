"""Tests of kakuro_np.formats.picture: a writer's layout drawn as lines of ``#`` and ``.``."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from kakuro_np.errors import PuzzleError
from kakuro_np import formats
from kakuro_np.formats.picture import read_picture
from kakuro_np.puzzle import Puzzle
from strategies import filled_puzzles


def drawn(layout, pad=(), newline="\n"):
    """``layout`` ((H, W) bool) as a picture, line ``r`` followed by ``pad[r]`` spaces."""
    return "".join("".join(".#"[not cell] for cell in row) + (pad[r] if r < len(pad) else "")
                   + newline for r, row in enumerate(layout))


def error_of(text):
    """The PuzzleError ``read_picture(text)`` raises."""
    with pytest.raises(PuzzleError) as info:
        read_picture(text)
    return info.value


@settings(max_examples=examples(60))
@given(st.integers(1, 12), st.integers(1, 12), st.data())
def test_a_drawn_layout_reads_back(height, width, data):
    n = height * width
    layout = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    layout = layout.reshape(height, width)
    pad = data.draw(st.lists(st.sampled_from(["", " ", "\t ", "\u3000", "\n", "\n  \n"]),
                             min_size=height, max_size=height))
    newline = data.draw(st.sampled_from(["\n", "\r\n"]))
    text = data.draw(st.sampled_from(["", "\n", " \n"])) + drawn(layout, pad, newline)
    got = read_picture(text)
    assert got.dtype == bool and got.shape == (height, width)
    assert np.array_equal(got, layout)


def test_a_hand_drawn_layout_reads_cell_by_cell():
    text = "\n####\n#..#  \n\n#...\t\n##.#\n\n"
    assert read_picture(text).astype(int).tolist() == [
        [0, 0, 0, 0], [0, 1, 1, 0], [0, 1, 1, 1], [0, 0, 1, 0]]
    assert read_picture(".").tolist() == [[True]] and read_picture("#").tolist() == [[False]]


@pytest.mark.parametrize("text", [
    "", "\n", "  \n\t\n",                            # nothing drawn
    " ##\n#.\n", "##\n\t#.\n",                       # a line that starts with space
    "#. #\n", "##\n#\t.\n",                          # space between marks
    "#x\n", "##\n#.\n# a comment\n", "##\n#.\n1\n",  # a character no picture holds
    "\u00a0##\n",
])
def test_a_text_that_is_no_picture_is_none(text):
    assert read_picture(text) is None


#: The formats that hold any grid (a URL holds no given digits).
ANY_GRID_FORMATS = [f for f in formats.FORMATS if f != "puzzlink"]


@settings(max_examples=examples(40))
@given(filled_puzzles(max_side=6), st.sampled_from(ANY_GRID_FORMATS))
def test_no_puzzle_file_is_taken_for_a_picture(puzzle_and_fill, fmt):
    assert read_picture(formats.format(puzzle_and_fill[0], fmt)) is None


def test_a_line_of_another_width_is_named_by_its_line():
    e = error_of("####\n#..#\n\n#..\n")
    assert str(e) == "4: a picture's lines are all 4 wide; this one is 3"
    assert e.line == 4 and isinstance(e, ValueError)
    assert str(error_of("\n##\n#..\n")) == "3: a picture's lines are all 2 wide; this one is 3"


def test_a_picture_larger_than_max_side_says_its_size(monkeypatch):
    monkeypatch.setattr(Puzzle, "MAX_SIDE", 3)
    too_large = ", larger than the 3x3 allowed (set kakuro_np.Puzzle.MAX_SIDE to allow more)"
    assert str(error_of("##\n#.\n#.\n#.\n")) == "the grid is 4x2" + too_large
    assert str(error_of("####\n#...\n")) == "the grid is 2x4" + too_large
    assert read_picture("###\n#..\n#..\n").shape == (3, 3)
