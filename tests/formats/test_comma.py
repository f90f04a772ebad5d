"""Tests of kakuro_np.formats.comma: the ``ROWS COLS`` header and ``down,across`` format."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from conftest import examples, placed_error
from kakuro_np.errors import PuzzleError
from kakuro_np.formats import detect
from kakuro_np.formats.comma import _comma_cell, parse_comma, write_comma
from kakuro_np.puzzle import Puzzle
from strategies import filled_puzzles


def error_of(text):
    """The PuzzleError ``parse_comma(text)`` raises, as its message with its place."""
    return placed_error(parse_comma, text)


def _filled(puzzle):
    return puzzle, None


@settings(max_examples=examples(60))
@given(filled_puzzles())
@example(_filled(Puzzle.from_rows([["_"]])))
@example(_filled(Puzzle.from_rows([[9], [(0, 45)], ["x"]])))
@example(_filled(Puzzle.from_rows([[(45, 45), 1, 2, 3, 4, 5, 6, 7, 8, 9]])))
def test_random_puzzles_round_trip_and_are_detected(puzzle_and_fill):
    puzzle, _ = puzzle_and_fill
    text = write_comma(puzzle)
    assert text.splitlines()[0] == f"{puzzle.shape[0]} {puzzle.shape[1]}"
    assert parse_comma(text) == puzzle
    assert detect(text) == "comma"


# -- a hand-written file -------------------------------------------------------------------

HAND_TEXT = ("# a comma file, spaced by hand\n"
             "  3   4\n"
             "-\t16,  24, -\n"
             "\n"
             ",17 0 7 9,\n"
             "# between the rows\n"
             ",23 0 0 0   \n")


def test_a_hand_written_file_reads_cell_by_cell():
    p = parse_comma(HAND_TEXT)
    assert p.shape == (3, 4)
    assert p.blank.astype(int).tolist() == [[0, 0, 0, 0], [0, 1, 1, 0], [0, 1, 1, 1]]
    assert p.down.tolist() == [[0, 16, 24, 0], [0, 0, 0, 9], [0, 0, 0, 0]]
    assert p.across.tolist() == [[0, 0, 0, 0], [17, 0, 0, 0], [23, 0, 0, 0]]
    assert p.given.tolist() == [[0, 0, 0, 0], [0, 0, 7, 0], [0, 0, 0, 0]]
    assert detect(HAND_TEXT) == "comma"


def test_the_writer_writes_a_header_and_one_row_a_line():
    assert write_comma(parse_comma(HAND_TEXT)) == (
        "3 4\n- 16, 24, -\n,17 0 7 9,\n,23 0 0 0\n")


def test_cells_of_every_kind():
    assert [_comma_cell(t, 1, 1) for t in ("-", "0", "1", "9")] == ["x", "_", 1, 9]
    assert [_comma_cell(t, 1, 1) for t in ("16,", ",23", "3,4", "45,045")] == [
        (16, 0), (0, 23), (3, 4), (45, 45)]


def test_a_clue_with_both_sides_empty_is_black():
    p = parse_comma("1 3\n- , 0,0\n")
    assert p.inactive.tolist() == [[True, True, True]]


# -- malformed files -----------------------------------------------------------------------

HINT = "use - (black), 0 (blank), a digit 1-9 or down,across (a clue)"
MALFORMED = [
    ("# a comment\n- 3,\n,3 0\n",
     "2:1: a comma file starts with a 'ROWS COLS' header line, such as '10 12'"),
    ("2 2\n- 3,\n,3 0\n\nsolved by hand\n", "5:1: the header says 2 rows, but the grid goes on"),
    ("  2 2\n- 3,\n", "1:3: the header says 2 rows, but the grid has 1"),
    ("1 1\n\n# no rows\n", "1:1: the header says 1 rows, but the grid has 0"),
    ("2 0\n- 3,\n,3 0\n", "1:3: the header says 0 columns; a grid has 1 to 999999"),
    ("2 300\n", "1:3: the grid is 2x300, larger than the 200x200 allowed "
                "(set kakuro_np.Puzzle.MAX_SIDE to allow more)"),
    ("2 2\n- 3,\n,3 x\n", f"3:4: unknown cell 'x': {HINT}"),
    ("2 2\n- 3,\n,3 00\n", f"3:4: unknown cell '00': {HINT}"),
    ("2 2\n- 3,\n,3 _\n", f"3:4: unknown cell '_': {HINT}"),
    ("2 2\n- 3,x\n,3 0\n", "2:5: clue sum 'x' is not a whole number"),
    ("2 2\n- 46,\n,3 0\n", "2:3: clue 46 is more than 45, the most 9 digits make"),
    ("2 2\n- 3,\n,3 ,,\n", "3:5: clue ',,' has more than one ','"),
    ("2 2\n-\n,3 0\n", "2:2: row 1 has 1 cell, expected 2 (as the header says)"),
    ("2 11\n" + "- " * 11 + "\n,45" + " 0" * 10 + "\n",
     "3:1: cell (1, 0): the across run right of this cell is 10 cells long, longer than 9, "
     "so it cannot hold distinct digits"),
    ("\n  \n# nothing\n", "1:1: there is no puzzle: the input is empty or holds only blank "
                          "lines and comments"),
]


@pytest.mark.parametrize("text, message", MALFORMED, ids=range(len(MALFORMED)))
def test_malformed_files_name_the_line_and_column(text, message):
    assert error_of(text) == message


@settings(max_examples=examples(60))
@given(filled_puzzles(max_side=6), st.data())
def test_a_damaged_file_raises_only_a_placed_puzzle_error(puzzle_and_fill, data):
    text = write_comma(puzzle_and_fill[0])
    at = data.draw(st.integers(0, len(text)))
    junk = data.draw(st.sampled_from(["q", ",", ",,", "\n", " ", "-", "99", "#", "0", "5 5\n"]))
    try:
        parse_comma(text[:at] + junk + text[at:])
    except PuzzleError as e:
        assert e.line is not None and e.col is not None
