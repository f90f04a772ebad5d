"""Tests of kakuro_np.formats.backslash: Kuroro's format, read and written in both styles."""

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from conftest import examples, placed_error
from kakuro_np.errors import PuzzleError
from kakuro_np.formats import detect
from kakuro_np.formats.backslash import (BACKSLASH_STYLES, _backslash_cell, parse_backslash,
                                         write_backslash)
from kakuro_np.puzzle import Puzzle
from strategies import ANY_GRID, filled_puzzles

def error_of(text):
    """The PuzzleError ``parse_backslash(text)`` raises, as its message with its place."""
    return placed_error(parse_backslash, text)


# -- round trips ---------------------------------------------------------------------------

@settings(max_examples=examples(60))
@given(filled_puzzles(), st.sampled_from(BACKSLASH_STYLES))
def test_random_puzzles_round_trip_and_are_detected_in_both_styles(puzzle_and_fill, style):
    puzzle, _ = puzzle_and_fill
    text = write_backslash(puzzle, style)
    assert parse_backslash(text) == puzzle
    assert detect(text) == "backslash"


@settings(max_examples=examples(60))
@given(ANY_GRID)
@example(Puzzle.from_rows([[5]]))
@example(Puzzle.from_rows([[3, 4], ["_", (0, 7)]]))
@example(Puzzle.from_rows([["x"], [(4, 0)], ["_"]]))
def test_kuroro_style_round_trips_any_grid(puzzle):
    text = write_backslash(puzzle)
    assert parse_backslash(text) == puzzle
    assert detect(text) == "backslash"


@settings(max_examples=examples(40))
@given(filled_puzzles())
def test_underscores_style_lines_up_its_columns(puzzle_and_fill):
    puzzle, _ = puzzle_and_fill
    lines = write_backslash(puzzle, "underscores").splitlines()
    starts = [[m.start() for m in re.finditer(r"\S+", line)] for line in lines]
    assert all(len(s) == puzzle.shape[1] for s in starts)
    assert all(s == starts[0] for s in starts)
    assert all(line == line.rstrip() for line in lines)


# -- hand-written files --------------------------------------------------------------------

KURORO = ("4 4 TAB\n"
          "\\\t23\\\t16\\\t\\\n"
          "\\16\tx\t7\t6\\\n"
          "\\24\tx\tx\tx\n"
          "\\\t\\12\tx\tx\n"
          "solved by hand in 5 minutes; 99\\99 | anything\n")
HAND = dict(
    blank=[[0, 0, 0, 0], [0, 1, 1, 0], [0, 1, 1, 1], [0, 0, 1, 1]],
    down=[[0, 23, 16, 0], [0, 0, 0, 6], [0, 0, 0, 0], [0, 0, 0, 0]],
    across=[[0, 0, 0, 0], [16, 0, 0, 0], [24, 0, 0, 0], [0, 12, 0, 0]],
    given=[[0, 0, 0, 0], [0, 0, 7, 0], [0, 0, 0, 0], [0, 0, 0, 0]])


def check_hand(p):
    assert p.shape == (4, 4)
    assert p.blank.astype(int).tolist() == HAND["blank"]
    assert p.down.tolist() == HAND["down"] and p.across.tolist() == HAND["across"]
    assert p.given.tolist() == HAND["given"]


def test_a_kuroro_file_reads_cell_by_cell_and_ignores_the_text_after_its_rows():
    check_hand(parse_backslash(KURORO))
    assert detect(KURORO) == "backslash"


def test_a_file_without_header_is_the_block_of_lines_before_a_blank_one():
    text = ("# from another solver\n"
            "\\    23\\  16\\ \\\n"
            "\\16  __   7    6\\\n"
            "\\24  X    ___  x\n"
            "\\    \\12  _    x\n"
            "\n"
            "notes: 99\\99 | ; anything\n")
    check_hand(parse_backslash(text))
    assert detect(text) == "backslash"
    cut = text.replace("6\\\n", "6\\\n\n")            # a blank line after row 1
    assert parse_backslash(cut).shape == (2, 4)
    assert parse_backslash(cut).down[1].tolist() == [0, 0, 0, 6]


def test_the_kuroro_writer_writes_a_tab_header_and_tab_separated_tokens():
    p = parse_backslash(KURORO)
    assert write_backslash(p) == KURORO[:KURORO.index("solved")]
    assert write_backslash(p, "kuroro") == write_backslash(p)


def test_the_underscores_writer_pads_blanks_with_underscores():
    p = parse_backslash(KURORO)
    assert write_backslash(p, "underscores") == (
        "\\   23\\ 16\\ \\\n"
        "\\16 ___ 7   6\\\n"
        "\\24 ___ ___ __\n"
        "\\   \\12 ___ __\n")          # each column as wide as its widest token


def test_a_style_that_is_not_known_is_a_value_error():
    with pytest.raises(ValueError, match=r"^style must be one of kuroro, underscores, got 'tabs'$"):
        write_backslash(parse_backslash(KURORO), "tabs")


def test_cells_of_every_spelling():
    assert [_backslash_cell(t, 1, 1) for t in ("x", "X", "_", "_____", "7")] == [
        "_", "_", "_", "_", 7]
    assert [_backslash_cell(t, 1, 1) for t in ("\\", "12\\", "\\9", "3\\4")] == [
        (0, 0), (12, 0), (0, 9), (3, 4)]


# -- malformed files -----------------------------------------------------------------------

MALFORMED = [
    ("\\ 3\\\n\\3 _\nsolved by hand\n",
     "3:1: unknown cell 'solved': use \\ (black), x or _ (blank), a digit 1-9 or down\\across "
     "(a clue)"),
    ("2 2 TAB\n\\ 3\\\n", "1:1: the header says 2 rows, but the grid has 1"),
    ("  2 2 TAB\n\\ 3\\\n\\3 _ x\n", "3:6: row 2 has 3 cells, expected 2 (as the header says)"),
    ("\\ 3\\\n\\3 _ _\n", "2:6: row 2 has 3 cells, expected 2 (as row 1 has)"),
    ("\\ 3\\ \\\n\\3 _\n", "2:5: row 2 has 2 cells, expected 3 (as row 1 has)"),
    ("\\ 3\\\n\\3 5_\n", "2:4: unknown cell '5_': use \\ (black), x or _ (blank), a digit 1-9 "
                         "or down\\across (a clue)"),
    ("\\ 3\\\n\\3 _x\n", "2:4: unknown cell '_x': use \\ (black), x or _ (blank), a digit 1-9 "
                         "or down\\across (a clue)"),
    ("\\ 3\\x\n\\3 _\n", "1:5: clue sum 'x' is not a whole number"),
    ("\\ 3\\\n\\ 46\\\n", "2:3: clue 46 is more than 45, the most 9 digits make"),
    ("2 2 tab\n\\ 3\\\\\n\\3 _\n", "2:5: clue '3\\\\' has more than one '\\'"),
    ("300 3 TAB\n", "1:1: the grid is 300x3, larger than the 200x200 allowed "
                    "(set kakuro_np.Puzzle.MAX_SIDE to allow more)"),
    ("# nothing but a comment\n\n", "1:1: there is no puzzle: the input is empty or holds "
                                     "only blank lines and comments"),
    ("\\ 45\\\n" + "\\ x\n" * 10, "1:3: cell (0, 1): the down run below this cell is 10 "
                                    "cells long, longer than 9, so it cannot hold distinct digits"),
]


@pytest.mark.parametrize("text, message", MALFORMED, ids=range(len(MALFORMED)))
def test_malformed_files_name_the_line_and_column(text, message):
    assert error_of(text) == message


@settings(max_examples=examples(60))
@given(filled_puzzles(max_side=6), st.sampled_from(BACKSLASH_STYLES), st.data())
def test_a_damaged_file_raises_only_a_placed_puzzle_error(puzzle_and_fill, style, data):
    text = write_backslash(puzzle_and_fill[0], style)
    at = data.draw(st.integers(0, len(text)))
    junk = data.draw(st.sampled_from(["q", "\\", "\n", "\n\n", " ", "\t", "99", "#", "0", "_x",
                                      "2 2 TAB\n", "\\\\"]))
    try:
        parse_backslash(text[:at] + junk + text[at:])
    except PuzzleError as e:
        assert e.line is not None and e.col is not None
