"""Tests of kakuro_np.formats.jsongrid: ``{"rows": [...]}`` read with its places, and written."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples, placed_error
from kakuro_np.errors import PuzzleError
from kakuro_np.formats import detect
from kakuro_np.formats.jsongrid import (MAX_DEPTH, MAX_NUMBER, _from_json_obj, _Walk, parse_json,
                                        write_json)
from kakuro_np.puzzle import Puzzle
from strategies import ANY_GRID, filled_puzzles

def error_of(text):
    """The PuzzleError ``parse_json(text)`` raises, as its message with its place."""
    return placed_error(parse_json, text)


# -- round trips -------------------------------------------------------------------------------

@settings(max_examples=examples(60))
@given(st.one_of(filled_puzzles().map(lambda pf: pf[0]), ANY_GRID))
def test_random_puzzles_round_trip_one_row_a_line_and_are_detected(puzzle):
    text = write_json(puzzle)
    assert parse_json(text) == puzzle
    assert detect(text) == "json"
    assert json.loads(text) == {"rows": puzzle.to_rows()}
    lines = text.splitlines()
    assert len(lines) == puzzle.shape[0] + 2
    assert [json.loads(line.rstrip(",")) for line in lines[1:-1]] == puzzle.to_rows()


# -- a hand-written file ------------------------------------------------------------------------

HAND_TEXT = """\
{"by": "hand", "notes": {"seen": [1, 2.5, true, null]},
 "rows": [
  ["x",      [16, 0], [24, 0], null],
  [[0, 17],  "_",     7,       [9, 0]],
  [[0, 23],  0,       " ",     ""],
  ["X",      [0, 12], "5",     "_"]
]}
"""


def test_a_hand_written_file_reads_cell_by_cell():
    p = parse_json(HAND_TEXT)
    assert p.shape == (4, 4)
    assert p.blank.astype(int).tolist() == [[0, 0, 0, 0], [0, 1, 1, 0], [0, 1, 1, 1], [0, 0, 1, 1]]
    assert p.down.tolist() == [[0, 16, 24, 0], [0, 0, 0, 9], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert p.across.tolist() == [[0, 0, 0, 0], [17, 0, 0, 0], [23, 0, 0, 0], [0, 12, 0, 0]]
    assert p.given.tolist() == [[0, 0, 0, 0], [0, 0, 7, 0], [0, 0, 0, 0], [0, 0, 5, 0]]
    assert detect(HAND_TEXT) == "json"


def test_the_writer_writes_the_rows_of_to_rows():
    p = Puzzle.from_rows([["x", (3, 0)], [(0, 3), 2]])
    assert write_json(p) == '{"rows": [\n  ["x", [3, 0]],\n  [[0, 3], 2]\n]}\n'


def test_the_walk_notes_where_each_row_and_cell_starts():
    text = '{"rows": [\n ["x", [3, 0]],\n [[0, 3], "_"]], "by": {"rows": 1}}'
    walk = _Walk(text)
    assert walk.document() == {"rows": [["x", [3, 0]], [[0, 3], "_"]], "by": {"rows": 1}}
    rows, starts, cells = walk.rows
    assert [text[i] for i in starts] == ["[", "["]
    assert [[text[i:i + 3] for i in row] for row in cells] == [['"x"', "[3,"], ["[0,", '"_"']]


def test_a_json_object_already_read_is_a_puzzle():
    assert (_from_json_obj({"rows": [["x", [3, 0]], [[0, 3], 2]]})
            == Puzzle.from_rows([["x", (3, 0)], [(0, 3), 2]]))
    for bad in ({"rows": 5}, {"cells": []}, [["x"]]):
        with pytest.raises(PuzzleError, match=r'^a JSON puzzle is \{"rows": \[\[cell, \.\.\.\]'):
            _from_json_obj(bad)


# -- malformed files ---------------------------------------------------------------------------

SHAPE = 'a JSON puzzle is {"rows": [[cell, ...], ...]}'
ROWS = '{"rows": [["x", [3, 0]], [[0, 3], '
MALFORMED = [
    (ROWS + '"_"]]} x', "1:42: bad JSON: Extra data"),
    ('{rows: 1}', "1:2: bad JSON: Expecting property name enclosed in double quotes"),
    ('{"rows" 1}', "1:9: bad JSON: Expecting ':' delimiter"),
    ('{"rows": [["_"],]}', "1:17: bad JSON: Expecting value"),
    ('{"rows": [["_"]], "a": "abc}', "1:24: bad JSON: Unterminated string starting at"),
    ('[[1]]', f"1:1: {SHAPE}"),
    ('\n  {"rows": 5}', f"2:3: {SHAPE}"),
    ('{"by": {"rows": [["_"]]}}', f"1:1: {SHAPE}"),
    (ROWS + '[3, 0.5]]]}', "1:35: clue sums must be whole numbers, got [3, 0.5]"),
    (ROWS + '[03, 0]]]}', "1:37: bad JSON: Expecting ',' delimiter"),
    (ROWS + '10]]}', "1:35: a digit must be 1-9, got 10"),
    (ROWS + 'true]]}', "1:35: unknown cell True"),
    (ROWS + '"q"]]}', "1:35: unknown cell 'q': use 'x', '_', a digit or (down, across)"),
    (ROWS + '"_", "_"]]}', "1:40: row 2 has 3 cells, expected 2 (as row 1 has)"),
    ('{"rows": [["x", [3, 0]],\n  ["_"], 7]}', "2:10: row 3 is not a list of cells"),
    ('{"rows": [["_"], [' + "[0, 45], " + '"_", ' * 10 + '"_"]]}',
     "1:28: row 2 has 12 cells, expected 1 (as row 1 has)"),
    ('{"rows": [[[0, 45]' + ', "_"' * 10 + "]]}", "1:12: cell (0, 0): the across run right of "
     "this cell is 10 cells long, longer than 9, so it cannot hold distinct digits"),
]


@pytest.mark.parametrize("text, message", MALFORMED, ids=range(len(MALFORMED)))
def test_malformed_files_name_the_line_and_column(text, message):
    assert error_of(text) == message


def test_lists_and_objects_may_nest_32_deep_and_no_deeper():
    def nested(n):
        return '{"rows": [["_"]], "k": ' + "[" * n + "]" * n + "}"
    assert MAX_DEPTH == 32
    assert parse_json(nested(MAX_DEPTH - 1)) == Puzzle.from_rows([["_"]])
    assert error_of(nested(MAX_DEPTH)) == "1:1: bad JSON: lists and objects nest more than 32 deep"


def test_a_number_longer_than_max_number_is_named_at_the_documents_start():
    assert error_of('{"rows": [[' + "9" * (MAX_NUMBER + 1) + "]]}") == (
        "1:1: bad JSON: the number at 1:12 is 41 characters long, more than the 40 a puzzle "
        "may take")
    assert error_of('{"rows": [[' + "9" * MAX_NUMBER + "]]}") == (
        "1:12: a digit must be 1-9, got 999999999999... (40 digits)")


def test_a_grid_or_row_past_max_side_is_named_where_it_passes(monkeypatch):
    monkeypatch.setattr(Puzzle, "MAX_SIDE", 2)
    too_large = ", larger than the 2x2 allowed (set kakuro_np.Puzzle.MAX_SIDE to allow more)"
    assert error_of('{"rows": [["_"], ["_"],\n ["_"]]}') == (
        "2:2: the grid has more than 2 rows" + too_large)
    assert error_of('{"rows": [["_", [1, 2], [3, 4]]]}') == (
        "1:25: row 1 has more than 2 cells" + too_large)


def test_more_values_than_the_largest_grid_holds_are_bad_json(monkeypatch):
    monkeypatch.setattr(Puzzle, "MAX_SIDE", 2)                # 3 values a cell of 3x3: 27
    text = '{"rows": [["_"]], "k": [' + ",".join(["0"] * 30) + "]}"
    assert error_of(text) == (
        "1:69: bad JSON: more than 27 values, more than a puzzle of 2x2 cells holds")
    assert (parse_json('{"rows": [["_"]], "k": [' + ",".join(["0"] * 22) + "]}")
            == Puzzle.from_rows([["_"]]))


@settings(max_examples=examples(60))
@given(filled_puzzles(max_side=6), st.data())
def test_a_damaged_file_raises_only_a_placed_puzzle_error(puzzle_and_fill, data):
    text = write_json(puzzle_and_fill[0])
    at = data.draw(st.integers(0, len(text)))
    junk = data.draw(st.sampled_from(["q", "[", "]", "{", "}", ",", ":", '"', "\n", "99", "-",
                                      "0", "1e9", "null", "[0, 0]"]))
    try:
        parse_json(text[:at] + junk + text[at:])
    except PuzzleError as e:
        assert e.line is not None and e.col is not None
