"""Tests of kakuro_np.formats.pipe: the thesis's rows split by ``|``, with choices."""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from conftest import examples, placed_error
from kakuro_np.errors import PuzzleError
from kakuro_np.formats import detect
from kakuro_np.formats.pipe import (_pipe_bordered, _pipe_cell, _pipe_fields, parse_pipe,
                                    pipe_marks, write_pipe)
from kakuro_np.puzzle import Puzzle
from strategies import ANY_GRID, filled_puzzles

# -- round trips ---------------------------------------------------------------------------

@settings(max_examples=examples(60))
@given(filled_puzzles())
def test_random_puzzles_round_trip_and_are_detected(puzzle_and_fill):
    puzzle, _ = puzzle_and_fill
    text = write_pipe(puzzle)
    assert parse_pipe(text) == puzzle
    assert detect(text) == "pipe"


@settings(max_examples=examples(60))
@given(ANY_GRID)
@example(Puzzle.from_rows([["_"]]))
@example(Puzzle.from_rows([["_", "_"], ["_", "_"]]))
@example(Puzzle.from_rows([["_", 5, "_"], ["_", "x", "_"]]))
@example(Puzzle.from_rows([["_", "x", "_"], [(3, 0), "_", 4]]))
def test_any_grid_round_trips_with_borders_where_needed(puzzle):
    text = write_pipe(puzzle)
    assert parse_pipe(text) == puzzle
    assert detect(text) == "pipe"
    height, width = puzzle.shape
    empty = puzzle.blank & (puzzle.given == 0)          # a cell written as nothing
    bordered = width == 1 or width >= 3 and bool(empty[:, 0].all() and empty[:, -1].all())
    bars = width + 1 if bordered else width - 1
    assert [line.count("|") for line in text.splitlines()] == [bars] * height


@settings(max_examples=examples(60))
@given(filled_puzzles(), st.data())
def test_choices_written_with_the_grid_are_read_back_as_marks(puzzle_and_fill, data):
    puzzle, _ = puzzle_and_fill
    n = puzzle.blank.size * 9
    marks = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    marks = marks.reshape(puzzle.shape + (9,))
    text = write_pipe(puzzle, marks)
    assert parse_pipe(text) == puzzle
    assert np.array_equal(pipe_marks(text), marks & puzzle.blank[:, :, None])


# -- hand-written files --------------------------------------------------------------------

HAND_TEXT = ("# the thesis's format, spaced as its Table 2\n"
             " \\ | 16\\ | 24\\ | \\\n"
             " \\17 |  | 7(1,2) | 9\\\n"
             "\n"
             " \\23 | (1,3) | | \n"
             " \\ | \\12 | 5 | \n")


def test_a_hand_written_file_reads_cell_by_cell():
    p = parse_pipe(HAND_TEXT)
    assert p.shape == (4, 4)
    assert p.blank.astype(int).tolist() == [[0, 0, 0, 0], [0, 1, 1, 0], [0, 1, 1, 1], [0, 0, 1, 1]]
    assert p.down.tolist() == [[0, 16, 24, 0], [0, 0, 0, 9], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert p.across.tolist() == [[0, 0, 0, 0], [17, 0, 0, 0], [23, 0, 0, 0], [0, 12, 0, 0]]
    assert p.given.tolist() == [[0, 0, 0, 0], [0, 0, 7, 0], [0, 0, 0, 0], [0, 0, 5, 0]]
    assert detect(HAND_TEXT) == "pipe"


def test_a_hand_written_files_choices_are_its_marks():
    marks = pipe_marks(HAND_TEXT)
    assert [tuple(int(i) for i in at) for at in np.argwhere(marks)] == [
        (1, 2, 0), (1, 2, 1), (2, 1, 0), (2, 1, 2)]               # 7(1,2) and (1,3)


def test_outer_bars_on_every_row_are_borders():
    bordered = "|\\|16\\|24\\|\\|\n|\\17||7|9\\|\n|\\23||||\n|\\|\\12|5||\n"
    assert parse_pipe(bordered) == parse_pipe(HAND_TEXT)


def test_the_writer_joins_cells_by_bars_and_adds_choices():
    p = parse_pipe(HAND_TEXT)
    assert write_pipe(p) == "\\|16\\|24\\|\\\n\\17||7|9\\\n\\23|||\n\\|\\12|5|\n"
    assert write_pipe(p, pipe_marks(HAND_TEXT)) == (
        "\\|16\\|24\\|\\\n\\17||7(1,2)|9\\\n\\23|(1,3)||\n\\|\\12|5|\n")
    assert write_pipe(Puzzle.from_rows([["x"], [(3, 0)], [2]])) == "|\\|\n|3\\|\n|2|\n"


def test_bordered_rows_are_those_that_all_start_and_end_with_a_bar():
    assert _pipe_bordered(["|a|", "  |b|  "])
    assert not _pipe_bordered(["|a|", "b|"])
    assert not _pipe_bordered(["|"])                  # one bar: two blank cells, no border


def test_fields_of_a_bordered_row_count_columns_from_the_line_start():
    assert _pipe_fields(" |a| b|", True) == (2, [(3, "a"), (6, "b")])
    assert _pipe_fields(" |a| b|", False) == (4, [(1, ""), (3, "a"), (6, "b"), (8, "")])


def test_cells_of_every_kind():
    assert [_pipe_cell(t, 1, 1) for t in ("", "5", "(1,2)", "3(4)", "\\", "12\\", "\\7", "3\\4")
            ] == ["_", 5, "_", 3, (0, 0), (12, 0), (0, 7), (3, 4)]


# -- malformed files -------------------------------------------------------------------------

HINT = "a blank holds nothing, a digit 1-9 and/or (choices); \\ is black, down\\across a clue"
MALFORMED = [
    ("\\|3\\\n\\3|(1,,2)\n", "2:7: choice '' is not a digit 1-9"),
    ("\\|3\\\n\\3|(a)\n", "2:5: choice 'a' is not a digit 1-9"),
    ("\\|3\\\n\\3|5 (1,2\n", "2:6: choices need a closing ')', as in 5(1,2,3)"),
    ("\\|3\\\n\\3|5(1,2) 3\n", "2:10: unexpected '3' after the choices"),
    ("\\|3\\\n\\3|3\\4\\5\n", "2:7: clue '3\\4\\5' has more than one '\\'"),
    ("\\|50\\\n\\3|\n", "1:3: clue 50 is more than 45, the most 9 digits make"),
    ("\\|3\\\n\\3|0\n", f"2:4: unknown cell '0': {HINT}"),
    ("\\|3\\\n\\3|5|\n", "2:6: row 2 has 3 cells, expected 2 (as row 1 has)"),
    ("|\\|3\\|\n|\\3|5|x|\n", "2:7: row 2 has 3 cells, expected 2 (as row 1 has)"),
    ("|\\|3\\|\n\\3|5\n", "2:5: row 2 has 2 cells, expected 4 (as row 1 has)"),
    ("\\45" + "|" * 10 + "\n", "1:1: cell (0, 0): the across run right of this cell is 10 cells "
                               "long, longer than 9, so it cannot hold distinct digits"),
    ("# nothing\n", "1:1: there is no puzzle: the input is empty or holds only blank lines and "
                    "comments"),
]


@pytest.mark.parametrize("text, message", MALFORMED, ids=range(len(MALFORMED)))
def test_malformed_files_name_the_line_and_column(text, message):
    assert placed_error(parse_pipe, text) == message
    assert placed_error(pipe_marks, text) == message


@settings(max_examples=examples(60))
@given(filled_puzzles(max_side=6), st.data())
def test_a_damaged_file_raises_only_a_placed_puzzle_error(puzzle_and_fill, data):
    puzzle = puzzle_and_fill[0]
    text = write_pipe(puzzle, np.ones(puzzle.shape + (9,), bool))
    at = data.draw(st.integers(0, len(text)))
    junk = data.draw(st.sampled_from(["q", "|", "\\", "(", ")", ",", "\n", " ", "99", "0", "#"]))
    try:
        parse_pipe(text[:at] + junk + text[at:])
    except PuzzleError as e:
        assert e.line is not None and e.col is not None
