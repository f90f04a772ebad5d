"""Tests of kakuro_np.formats.jboxed: the essay's rows of cells split by ``;``."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from conftest import examples, placed_error
from kakuro_np.errors import PuzzleError
from kakuro_np.formats import detect, parse, with_places
from kakuro_np.formats.jboxed import (_jboxed_cell, _jboxed_fields, _plain_code, _plain_grid,
                                      parse_jboxed, write_jboxed)
from kakuro_np.puzzle import Puzzle
from strategies import ANY_GRID, filled_puzzles

def error_of(text):
    """The PuzzleError ``parse_jboxed(text)`` raises, as its message with its place."""
    return placed_error(parse_jboxed, text)


# -- round trips ---------------------------------------------------------------------------

@settings(max_examples=examples(60))
@given(filled_puzzles())
def test_random_puzzles_round_trip_and_are_detected(puzzle_and_fill):
    puzzle, _ = puzzle_and_fill
    text = write_jboxed(puzzle)
    assert parse_jboxed(text) == puzzle
    assert detect(text) == "jboxed"


@settings(max_examples=examples(60))
@given(ANY_GRID)
@example(Puzzle.from_rows([["x"]]))
@example(Puzzle.from_rows([[3], [(0, 7)], ["_"]]))
def test_any_grid_round_trips_a_lone_column_too(puzzle):
    text = write_jboxed(puzzle)
    assert parse_jboxed(text) == puzzle
    assert detect(text) == "jboxed"
    assert all(line.endswith(" ;") for line in text.splitlines()) == (puzzle.shape[1] == 1)


# -- hand-written files --------------------------------------------------------------------

HAND_TEXT = ("# the essay's format, spaced by hand\n"
             "x ; 16 0 ; 24 0 ; x\n"
             "0 17 ;  _ ; 7 ; 9\t0 ;\n"
             "\n"
             "0 23 ; _ ;_;\t_\n"
             "X ; 0 12 ; _ ; _   \n")
HAND_ROWS = [["x", (16, 0), (24, 0), "x"], [(0, 17), "_", 7, (9, 0)],
             [(0, 23), "_", "_", "_"], ["x", (0, 12), "_", "_"]]


def test_a_hand_written_file_reads_cell_by_cell():
    p = parse_jboxed(HAND_TEXT)
    assert p.shape == (4, 4)
    assert p.blank.astype(int).tolist() == [[0, 0, 0, 0], [0, 1, 1, 0], [0, 1, 1, 1], [0, 0, 1, 1]]
    assert p.down.tolist() == [[0, 16, 24, 0], [0, 0, 0, 9], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert p.across.tolist() == [[0, 0, 0, 0], [17, 0, 0, 0], [23, 0, 0, 0], [0, 12, 0, 0]]
    assert p.given.tolist() == [[0, 0, 0, 0], [0, 0, 7, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert detect(HAND_TEXT) == "jboxed"


def test_compact_plain_rows_read_as_the_spaced_file():
    compact = "x;16 0;24 0;x\n0 17;_;7;9 0\n0 23;_;_;_\nX;0 12;_;_\n"
    assert _plain_grid(compact) == Puzzle.from_rows(HAND_ROWS)
    assert parse_jboxed(compact) == parse_jboxed(HAND_TEXT)


def test_the_writer_spaces_the_cells_and_ends_a_lone_columns_rows_with_a_semicolon():
    assert write_jboxed(Puzzle.from_rows(HAND_ROWS)) == (
        "x ; 16 0 ; 24 0 ; x\n0 17 ; _ ; 7 ; 9 0\n0 23 ; _ ; _ ; _\nx ; 0 12 ; _ ; _\n")
    assert write_jboxed(Puzzle.from_rows([["x"], [(4, 0)], [3]])) == "x ;\n4 0 ;\n3 ;\n"


# -- the plain rows' quick reader ----------------------------------------------------------

@pytest.mark.parametrize("text", [
    "# a comment\nx;3 0\n0 3;_\n",          # a comment
    "x;3 0\n\n0 3;_\n",                     # a blank line
    "x;3 0;\n0 3;_;\n",                     # rows ending with ';'
    "x;3 0\n0 3;_;_\n",                     # rows of two widths
    "x;46 1\n0 3;_\n",                      # a sum past 45
    "x;3 0\n0 3;q\n",                       # a cell it does not know
    "0 45" + ";_" * 10 + "\n",              # a run of 10
])
def test_plain_grid_leaves_to_the_cell_reader_what_it_would_refuse_or_not_see(text):
    assert _plain_grid(text) is None


def test_plain_grid_leaves_the_text_to_the_cell_reader_while_places_are_asked():
    text = "x;3 0\n0 3;_\n"
    assert _plain_grid(text) == parse_jboxed(text)
    assert with_places(lambda t: _plain_grid(t), text) == (None, None)
    p, places = with_places(parse, text)
    assert p == parse_jboxed(text) and places == [[(1, 1), (1, 3)], [(2, 1), (2, 5)]]


def test_plain_codes_pack_each_kind_of_cell():
    assert [_plain_code(t) for t in ("x", "X", "_", " 1", "9 ")] == [0, 0, -1, -2, -10]
    assert [_plain_code(t) for t in ("07 3", "45 45", "0 1", "2  0")] == [
        7 * 64 + 3, 45 * 64 + 45, 1, 2 * 64]


# -- fields and cells ----------------------------------------------------------------------

def test_fields_drop_a_trailing_semicolon_but_not_an_empty_cell():
    assert _jboxed_fields("x ; 3 0 ;", 5) == (2, [(1, "x"), (5, "3 0")])
    assert _jboxed_fields("x ; ; _", 5) == (3, [(1, "x"), (4, ""), (7, "_")])
    assert _jboxed_fields("_", 5) == (1, [(1, "_")])
    assert _jboxed_fields(";", 5) == (1, [(1, "")])


def test_cells_of_every_kind():
    assert [_jboxed_cell(t, 1, 1) for t in ("x", "X", "_", "1", "9")] == ["x", "x", "_", 1, 9]
    assert [_jboxed_cell(t, 1, 1) for t in ("3 0", "0\t17", "045  7")] == [
        (3, 0), (0, 17), (45, 7)]


# -- malformed files -----------------------------------------------------------------------

HINT = "use x (black), _ (blank), a digit 1-9 or 'down across' (a clue)"
MALFORMED = [
    ("x ; 3 0 ;\n0 3 ; _ ; _ ;\n", "2:11: row 2 has 3 cells, expected 2 (as row 1 has)"),
    ("x ; 3 0 ; x\n0 3 ; _ ;\n", "2:10: row 2 has 2 cells, expected 3 (as row 1 has)"),
    ("x ; 3 0 0\n0 3 ; _\n", f"1:5: unknown cell '3 0 0': {HINT}"),
    ("x ; 3 a\n0 3 ; _\n", f"1:5: unknown cell '3 a': {HINT}"),
    ("x ; 3 0\n0 3 ; 10\n", f"2:7: unknown cell '10': {HINT}"),
    ("x ; 3 0\n0 3 ; 0\n", f"2:7: unknown cell '0': {HINT}"),
    ("x ; 3  50\n0 3 ; _\n", "1:8: clue 50 is more than 45, the most 9 digits make"),
    ("x;46 1\n0 3;_\n", "1:3: clue 46 is more than 45, the most 9 digits make"),
    (";\n", "1:1: empty cell between ';'"),
    ("x ; 3 0\n ; _\n", "2:1: empty cell between ';'"),
    ("0 45" + " ; _" * 10 + "\n", "1:1: cell (0, 0): the across run right of this cell is 10 "
                                  "cells long, longer than 9, so it cannot hold distinct digits"),
    ("\n# nothing\n", "1:1: there is no puzzle: the input is empty or holds only blank lines "
                      "and comments"),
]


@pytest.mark.parametrize("text, message", MALFORMED, ids=range(len(MALFORMED)))
def test_malformed_files_name_the_line_and_column(text, message):
    assert error_of(text) == message


@settings(max_examples=examples(60))
@given(filled_puzzles(max_side=6), st.booleans(), st.data())
def test_a_damaged_file_raises_only_a_placed_puzzle_error(puzzle_and_fill, compact, data):
    text = write_jboxed(puzzle_and_fill[0])
    if compact:                                        # as ``_plain_grid`` reads it
        text = text.replace(" ; ", ";")
    at = data.draw(st.integers(0, len(text)))
    junk = data.draw(st.sampled_from(["q", ";", ";;", "\n", " ", "99", "#", "0", "x", "\t"]))
    try:
        parse_jboxed(text[:at] + junk + text[at:])
    except PuzzleError as e:
        assert e.line is not None and e.col is not None


@given(st.integers(46, 99), st.booleans())
@settings(max_examples=examples(30))
def test_a_clue_past_45_is_refused_by_its_place_never_misread(clue, across):
    cell, column = (f"3 {clue}", 5) if across else (f"{clue} 3", 3)
    with pytest.raises(PuzzleError, match=rf"^1:{column}: clue {clue} is more than 45"):
        parse_jboxed(f"x;{cell}\n0 3;_\n")
