"""Tests of kakuro_np.formats.text: the decoding, lines, tokens, rows and sums readers share."""

from unittest import mock

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from conftest import examples
from kakuro_np.errors import PuzzleError
from kakuro_np.formats import text as tx
from kakuro_np.puzzle import Puzzle
from kakuro_np.tokens import cell_tokens
from strategies import filled_puzzles


def error_of(verb, *args):
    """The PuzzleError ``verb(*args)`` raises, as its message with its place."""
    with pytest.raises(PuzzleError) as info:
        verb(*args)
    return str(info.value)


# Lines of a text as the readers see them: spaces of several kinds, comments, blank lines.
LINE_TEXT = st.text(st.sampled_from(["a", "_", " ", "\t", "#", "\n", "\u3000", "\x1c", "é"]),
                    max_size=40)


def naive_lines(text):
    """The content lines ``(number, text)`` of ``text`` and how many come before the first
    blank line that follows one (``_Lines.block``), line by line in plain Python."""
    found, block, blank_before = [], None, False
    for number, line in enumerate(text.split("\n"), start=1):
        solid = line.strip()
        if solid.startswith("#"):
            continue                                    # a comment is neither
        if not solid:
            blank_before = True
            continue
        if found and blank_before and block is None:
            block = len(found)
        blank_before = False
        found.append((number, line))
    return found, len(found) if block is None else block


# -- decode --------------------------------------------------------------------------------

def test_decode_drops_a_bom_and_makes_every_line_end_a_newline():
    assert tx.decode(b"\xef\xbb\xbfx ; _\r\n0 3\rend\n") == "x ; _\n0 3\nend\n"
    assert tx.decode(bytearray(b"a\r\nb")) == "a\nb"
    assert tx.decode("\ufeff\ufeffx\r\n") == "x\n"


@settings(max_examples=examples(60))
@given(st.text(st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters="\ufeff")
               | st.sampled_from("\n\t"), max_size=30))
def test_decode_gives_back_the_text_its_utf8_bytes_hold(text):
    assert tx.decode(text.encode("utf-8")) == text
    assert tx.decode(text) == text


def test_decode_names_the_line_and_character_column_of_a_byte_that_is_not_utf8():
    assert error_of(tx.decode, "ab\n\xc3\xa9x\xff".encode("latin-1")) == (
        "2:3: byte 0xff is not UTF-8 text; is this a puzzle file?")   # é is one column


def test_decode_names_the_place_of_a_control_character():
    assert error_of(tx.decode, "x ; _\n\ty\x07") == (
        "2:3: control character U+0007 is not puzzle text; is this a binary file?")
    assert error_of(tx.decode, b"\xc2\xb0\n\xc2\x9b") == (
        "2:1: control character U+009B is not puzzle text; is this a binary file?")


def test_decode_refuses_a_text_longer_than_max_text():
    message = error_of(tx.decode, b"x" * (tx.MAX_TEXT + 1))
    assert message.startswith("the input is over 16,777,216 bytes")


@settings(max_examples=examples(100))
@given(st.text(st.characters(max_codepoint=0x2FF), max_size=20))
@example("\x7f")
@example("\x85")
def test_may_hold_control_never_misses_a_control_character(text):
    if tx._CONTROL.search(text):
        assert tx._may_hold_control(text)
    if text.isascii() and text.isprintable():
        assert not tx._may_hold_control(text)


# -- characters and places -----------------------------------------------------------------

def test_codes_are_bytes_for_ascii_and_code_points_otherwise():
    ascii_codes = tx._codes("a\n#")
    assert ascii_codes.dtype == np.uint8 and ascii_codes.tolist() == [97, 10, 35]
    wide = tx._codes("a\u3000\U0001F600")
    assert wide.dtype == np.uint32 and wide.tolist() == [97, 0x3000, 0x1F600]


@settings(max_examples=examples(60))
@given(st.text(st.characters(max_codepoint=0x3100, blacklist_categories=("Cs",)), max_size=30))
@example("a \x1c\t\n")
def test_is_space_is_str_isspace_but_for_the_newline(text):
    expected = [ch.isspace() and ch != "\n" for ch in text]
    assert tx._is_space(tx._codes(text)).tolist() == expected


@settings(max_examples=examples(60))
@given(LINE_TEXT, st.integers(1, 6))
def test_places_are_lines_and_columns_whatever_the_chunk(text, chunk):
    indices = list(range(len(text)))
    with mock.patch.object(tx, "CHUNK", chunk):
        places = tx._places(text, indices)
    assert places == [(text.count("\n", 0, i) + 1, i - text.rfind("\n", 0, i)) for i in indices]


def test_place_of_one_index():
    assert tx._place("ab\ncd\n\ne", 7) == (4, 1)
    assert tx._places("abc", []) == []


# -- lines ---------------------------------------------------------------------------------

@settings(max_examples=examples(100))
@given(LINE_TEXT, st.integers(1, 6))
@example("a\n\n# c\n\nb\n", 3)
@example("\n\na\n# c\nb\n\nc", 2)
def test_lines_are_the_content_lines_however_the_text_is_scanned(text, chunk):
    with mock.patch.object(tx, "CHUNK", chunk):
        lines = tx._Lines(text)
        got = [lines[k] for k in range(len(lines))]
        block = tx._Lines(text).block()
    expected, expected_block = naive_lines(text)
    assert got == expected
    assert block == expected_block


def test_lines_number_the_lines_and_keep_only_so_many():
    lines = tx._Lines("# c\n\n a\nb\n  \nc\n", keep=2)
    assert lines[0] == (3, " a") and lines.get(1) == (4, "b")
    assert len(lines) == 3                        # counted, though not kept
    with pytest.raises(IndexError):
        lines.get(2)
    short = tx._Lines("a\n")
    assert short.get(1) is None
    with pytest.raises(IndexError):
        short[1]


def test_block_ends_at_the_first_blank_line_after_content():
    assert tx._Lines("\n\n a\n# c\nb\n\n\nc\n").block() == 2
    assert tx._Lines("a\n# comment between\nb\n").block() == 2
    assert tx._Lines("a\nb\n\n").block() == 2


# -- fields and tokens ---------------------------------------------------------------------

def test_fields_give_each_stripped_token_and_its_column():
    assert tx._fields("x ;  3 0 ;", ";") == [(1, "x"), (6, "3 0"), (11, "")]
    assert tx._fields("a|b", "|", offset=4) == [(5, "a"), (7, "b")]
    assert tx._fields("a|b|c|d", "|", limit=2) == [(1, "a"), (3, "b"), (5, "c|d")]


@settings(max_examples=examples(60))
@given(st.text(st.sampled_from(["a", "\\", "_", " ", "\t", "\u3000"]), max_size=30),
       st.integers(1, 5))
def test_tokens_and_words_split_as_str_split_does(line, chunk):
    tokens = tx._tokens(line)
    assert [t for _, t in tokens] == line.split()
    assert all(line[col - 1:col - 1 + len(t)] == t for col, t in tokens)
    with mock.patch.object(tx, "CHUNK", chunk):
        assert tx._words(line) == len(line.split())


def test_word_fields_count_every_token_but_split_only_the_first_ones():
    assert tx._word_fields(" a b\tc d", 2) == (4, [(2, "a"), (4, "b"), (6, "c")])
    assert tx._word_fields("a b", 5) == (2, [(1, "a"), (3, "b")])
    assert tx._tokens("a b c", 2) == [(1, "a"), (3, "b")]


def test_digits_and_underscores_are_told_apart():
    assert tx._is_digits("0123") and not tx._is_digits("")
    assert not tx._is_digits("\u0661\u0662") and not tx._is_digits("1a")   # Arabic-Indic
    assert tx._is_underscores("___") and not tx._is_underscores("")
    assert not tx._is_underscores("_x_")


# -- rows and grids ------------------------------------------------------------------------

def _cell(token, n, col):
    """A cell reader for plain tokens: ``x``, ``_`` or a digit, else an error at its place."""
    if token in ("x", "_"):
        return token
    if token.isdigit():
        return int(token)
    raise PuzzleError(f"bad {token}", line=n, col=col)


def test_grid_reads_rows_into_a_puzzle():
    p = tx._grid([(2, "x _"), (4, " _ 7")], 2, tx._word_fields, _cell)
    assert p.blank.tolist() == [[False, True], [True, True]]
    assert p.given.tolist() == [[0, 0], [0, 7]]


def test_grid_names_a_row_of_another_width_by_its_first_extra_cell_or_its_end():
    assert error_of(tx._grid, [(1, "x _"), (2, "_ _ x")], 2, tx._word_fields, _cell) == (
        "2:5: row 2 has 3 cells, expected 2 (as row 1 has)")
    assert error_of(tx._grid, [(1, "x _"), (3, "_  ")], 2, tx._word_fields, _cell) == (
        "3:2: row 2 has 1 cell, expected 2 (as row 1 has)")
    assert error_of(tx._grid, [(2, "x")], 1, tx._word_fields, _cell, 2) == (
        "2:2: row 1 has 1 cell, expected 2 (as the header says)")


def test_grid_reports_a_bad_cell_before_the_row_width():
    assert error_of(tx._grid, [(1, "x _"), (2, "q _ _")], 2, tx._word_fields, _cell) == (
        "2:1: bad q")


def test_grid_refuses_a_grid_too_large_before_it_reads_a_cell(monkeypatch):
    monkeypatch.setattr(Puzzle, "MAX_SIDE", 2)
    rows = [(1, "q q"), (2, "q q"), (3, "q q")]
    assert error_of(tx._grid, rows, 3, tx._word_fields, _cell).startswith(
        "the grid is 3x2, larger than the 2x2 allowed")


def test_build_names_a_bad_cell_and_a_long_run_by_their_places():
    assert error_of(tx._build, []).startswith("1:1: there is no puzzle")
    bad = [tx._Row([(0, 99), "_"], [(3, 1), (3, 5)], (3, 6))]
    assert error_of(tx._build, bad) == "3:1: clue sums must be 0-45, got (0, 99)"
    long_run = [tx._Row([(0, 45)] + ["_"] * 10, [(7, 2 * c + 1) for c in range(11)], (7, 22))]
    assert error_of(tx._build, long_run) == (
        "7:1: cell (0, 0): the across run right of this cell is 10 cells long, longer than 9, "
        "so it cannot hold distinct digits")


def test_width_error_says_cell_or_cells():
    assert str(tx._width_error(2, 1, 3, "as row 1 has", (5, 4))) == (
        "5:4: row 2 has 1 cell, expected 3 (as row 1 has)")
    assert str(tx._width_error(1, 4, 3, "as the header says", (1, 9))) == (
        "1:9: row 1 has 4 cells, expected 3 (as the header says)")


# -- clue sums and cells -------------------------------------------------------------------

def test_sums_are_zero_to_45_and_leading_zeros_do_not_count():
    assert [tx._sum(t, 1, 1) for t in ("", "0", "7", "045", "0" * 50 + "3")] == [0, 0, 7, 45, 3]
    assert error_of(tx._sum, "046", 2, 5) == "2:5: clue 46 is more than 45, the most 9 digits make"
    assert error_of(tx._sum, "4a", 3, 1) == "3:1: clue sum '4a' is not a whole number"
    assert error_of(tx._sum, "-3", 1, 2) == "1:2: clue sum '-3' is not a whole number"
    assert error_of(tx._sum, "1" * 30, 1, 1) == (
        "1:1: clue 111111111111... (30 digits) is more than 45, the most 9 digits make")


def test_number_caps_long_runs_of_digits():
    assert tx._number("000") == 0 and tx._number("123456789") == 123456789
    assert tx._number("1234567890") == 10 ** 9
    assert tx._shown("0012") == "12" and tx._shown("000") == "0"


@settings(max_examples=examples(60))
@given(st.integers(0, 45), st.integers(0, 45), st.sampled_from(["\\", ","]))
def test_a_clue_written_by_split_clue_reads_back(down, across, sep):
    written = tx._split_clue(sep)(down, across)
    assert tx._clue(written, sep, 1, 1) == (down, across)
    assert written.startswith(str(down) if down else sep)


def test_split_clue_leaves_a_zero_side_empty():
    assert [tx._split_clue("\\")(*s) for s in ((0, 5), (16, 0), (0, 0), (3, 4))] == [
        "\\5", "16\\", "\\", "3\\4"]


def test_clue_errors_name_the_column_of_the_side_at_fault():
    assert error_of(tx._clue, r" 3 \ x", "\\", 2, 10) == "2:15: clue sum 'x' is not a whole number"
    assert error_of(tx._clue, "q,4", ",", 1, 3) == "1:3: clue sum 'q' is not a whole number"
    assert error_of(tx._clue, r"1\2\3", "\\", 4, 1) == r"4:4: clue '1\2\3' has more than one '\'"


def test_given_takes_one_digit_1_to_9_and_names_the_format_cells():
    assert [tx._given(d, 1, 1, "comma") for d in "123456789"] == list(range(1, 10))
    assert error_of(tx._given, "0", 2, 3, "comma") == (
        "2:3: unknown cell '0': use - (black), 0 (blank), a digit 1-9 or down,across (a clue)")
    assert error_of(tx._given, "12", 1, 1, "jboxed").startswith(
        "1:1: unknown cell '12': use x (black)")
    assert error_of(tx._given, "", 5, 2, "pipe").startswith("5:2: unknown cell '': a blank holds")


def test_choices_are_digits_1_to_9_in_parentheses():
    assert tx._choices("1, 2,9)", 1, 3) is None
    assert tx._choices(" )  ", 1, 3) is None
    assert error_of(tx._choices, "1,2", 2, 6) == (
        "2:5: choices need a closing ')', as in 5(1,2,3)")
    assert error_of(tx._choices, "1)x", 1, 4) == "1:6: unexpected 'x' after the choices"
    assert error_of(tx._choices, "1,,2)", 1, 4) == "1:6: choice '' is not a digit 1-9"
    assert error_of(tx._choices, "1,0)", 1, 4) == "1:6: choice '0' is not a digit 1-9"
    assert error_of(tx._choices, "1," * 9 + "1)", 3, 2) == (
        "3:1: 10 choices in one cell, more than the 9 digits 1-9")


# -- headers -------------------------------------------------------------------------------

def test_header_fields_are_two_numbers_and_maybe_tab_or_space():
    assert tx._header_fields("3 4") == [(1, "3"), (3, "4")]
    assert tx._header_fields(" 3\t4 space") == [(2, "3"), (4, "4"), (6, "space")]
    assert [tx._header_fields(t) for t in ("3", "3 4 x", "3 4 TAB 5", "3 a", "- 3,")] == [
        None] * 5


def test_header_reads_rows_and_columns_and_refuses_impossible_ones():
    assert tx._header(1, "12 10 TAB") == (12, 10) and tx._header(1, "x ; 3 0") is None
    assert tx._header(1, "007 03") == (7, 3)
    assert error_of(tx._header, 2, " 0 3") == "2:2: the header says 0 rows; a grid has 1 to 999999"
    assert error_of(tx._header, 1, "3 0") == (
        "1:3: the header says 0 columns; a grid has 1 to 999999")
    assert error_of(tx._header, 1, "300 3").startswith("1:1: the grid is 300x3, larger than")


def test_under_header_takes_the_rows_the_header_says():
    lines = tx._Lines("2 2\na\n\n# c\nb\nfree text\n")
    assert tx._under_header(lines, 2, free_text_after=True) == [(2, "a"), (5, "b")]
    assert error_of(tx._under_header, lines, 2, False) == (
        "6:1: the header says 2 rows, but the grid goes on")
    assert error_of(tx._under_header, tx._Lines("  3 2\na\n"), 3, True) == (
        "1:3: the header says 3 rows, but the grid has 1")


def test_text_ends_every_line_with_a_newline():
    assert tx._text(["a", "", "b"]) == "a\n\nb\n"
    assert tx._text([]) == ""


# -- a puzzle through the shared writer and reader -----------------------------------------

def _shared_cell(token, n, col):
    """A cell as the shared helpers read one: ``-`` black, ``_`` blank, ``down,across``, a digit."""
    if token in ("-", "_"):
        return "x" if token == "-" else "_"
    if "," in token:
        return tx._clue(token, ",", n, col)
    return tx._given(token, n, col, "comma")


@settings(max_examples=examples(60))
@given(filled_puzzles())
def test_a_puzzle_written_by_the_shared_helpers_reads_back(puzzle_and_fill):
    puzzle, _ = puzzle_and_fill
    rows = cell_tokens(puzzle, "_", "-", tx._split_clue(","))
    text = "# written by the helpers\n\n" + tx._text(" \t".join(row) for row in rows)
    lines = tx._Lines(text)
    assert len(lines) == puzzle.shape[0] and lines[0][0] == 3
    back = tx._grid(lines, len(lines), tx._word_fields, _shared_cell)
    assert np.array_equal(back.blank, puzzle.blank)
    assert np.array_equal(back.down, puzzle.down) and np.array_equal(back.across, puzzle.across)
    assert np.array_equal(back.given, puzzle.given)
