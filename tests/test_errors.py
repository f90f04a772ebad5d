"""kakuro_np.errors: the error classes, their messages, and how input is quoted in them."""

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from conftest import examples
from kakuro_np.errors import (SHOWN_DIGITS, SHOWN_NAME, BudgetError, PuzzleError, SolveTimeout,
                              TooManySolutions, escaped, seconds, shown)

# -- the classes --------------------------------------------------------------


@pytest.mark.parametrize("error, base", [(PuzzleError, ValueError),
                                         (TooManySolutions, RuntimeError),
                                         (SolveTimeout, TimeoutError),
                                         (BudgetError, RuntimeError)])
def test_each_error_is_the_documented_builtin_kind(error, base):
    assert issubclass(error, base)


def test_the_errors_are_four_distinct_kinds():
    """No error is caught by another's ``except``: a timeout is no budget, a budget no
    malformed input."""
    kinds = [PuzzleError, TooManySolutions, SolveTimeout, BudgetError]
    for a in kinds:
        assert [issubclass(a, b) for b in kinds] == [a is b for b in kinds]


def test_the_package_exports_the_same_classes():
    assert (kn.PuzzleError, kn.TooManySolutions, kn.SolveTimeout, kn.BudgetError) == \
        (PuzzleError, TooManySolutions, SolveTimeout, BudgetError)


# -- PuzzleError: the place, then the message -----------------------------------


@pytest.mark.parametrize("where, text", [
    ({}, "bad"),
    ({"source": "a.txt"}, "a.txt: bad"),
    ({"line": 3}, "3: bad"),
    ({"line": 3, "col": 7}, "3:7: bad"),
    ({"source": "a.txt", "line": 3}, "a.txt:3: bad"),
    ({"cell": (2, 4)}, "cell (2, 4): bad"),
    ({"source": "a.txt", "cell": (0, 1)}, "a.txt: cell (0, 1): bad"),
    ({"source": "a.txt", "line": 1, "col": 2, "cell": (3, 4)}, "a.txt:1:2: cell (3, 4): bad"),
    ({"line": 0, "col": 0}, "0:0: bad"),
])
def test_a_puzzle_error_names_its_place_before_the_message(where, text):
    error = PuzzleError("bad", **where)
    assert str(error) == text
    assert error.message == "bad"
    assert (error.line, error.col, error.cell, error.source) == tuple(
        where.get(k) for k in ("line", "col", "cell", "source"))


def test_with_source_keeps_the_place_and_adds_the_file():
    error = PuzzleError("unknown cell 'q'", line=2, col=7, cell=(1, 1))
    named = error.with_source("k.txt")
    assert isinstance(named, PuzzleError) and named is not error
    assert str(named) == "k.txt:2:7: cell (1, 1): unknown cell 'q'"
    assert (named.message, named.line, named.col, named.cell) == ("unknown cell 'q'", 2, 7, (1, 1))
    assert error.source is None and str(error) == "2:7: cell (1, 1): unknown cell 'q'"


def test_a_puzzle_error_is_one_printable_line_whatever_its_parts_hold():
    error = PuzzleError("two\nlines\u202e", source="a\tb\u200b.txt", line=1)
    assert str(error) == "a\\u0009b\\u200b.txt:1: two\\u000alines\\u202e"
    assert str(error).isprintable()


def test_a_long_file_name_is_cut_to_shown_name_characters():
    error = PuzzleError("bad", source="n" * (SHOWN_NAME + 500))
    assert str(error) == "n" * SHOWN_NAME + "...: bad"
    assert str(PuzzleError("bad", source="n" * SHOWN_NAME)) == "n" * SHOWN_NAME + ": bad"


def test_a_puzzle_error_survives_pickling_as_a_process_pool_sends_it():
    error = PuzzleError("bad", line=2, col=5, source="k.txt")
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is PuzzleError and str(again) == str(error)


# -- TooManySolutions: what is known of the count ----------------------------------


@pytest.mark.parametrize("known, said", [
    ({"count": 1234567}, (1234567, 1234567, "1,234,567")),
    ({"at_least": 1000}, (None, 1000, "at least 1,000")),
    ({}, (None, None, "many")),
    ({"count": 5, "how_many": "about 1.2e+40 (estimated)"}, (5, 5, "about 1.2e+40 (estimated)")),
    ({"at_least": 2000, "how_many": "more than 1,000"}, (None, 2000, "more than 1,000")),
])
def test_too_many_solutions_says_what_is_known_of_the_count(known, said):
    error = TooManySolutions("too many to print", **known)
    assert (error.count, error.at_least, error.how_many) == said
    assert str(error) == "too many to print"


# -- seconds ---------------------------------------------------------------------


@pytest.mark.parametrize("timeout, said", [(4.992365343, "4.99"), (5, "5"), (0.5, "0.5"),
                                           (10.0, "10"), (0.25, "0.25"), (120, "120"),
                                           (np.float64(1.5), "1.5")])
def test_seconds_shows_a_timeout_with_at_most_two_decimals(timeout, said):
    assert seconds(timeout) == said


# -- shown: input quoted in a message -------------------------------------------------


@pytest.mark.parametrize("value, said", [
    ("q", "q"),
    ("x" * 20, "x" * 20),
    ("x" * 21, "x" * 20 + "..."),
    ("7" * SHOWN_DIGITS, "7" * SHOWN_DIGITS),
    ("7" * (SHOWN_DIGITS + 1), "777777777777... (13 digits)"),
    ("\u0663" * 25, "\u0663" * 20 + "..."),           # digits, but not ASCII: cut as text
    (10 ** SHOWN_DIGITS - 1, "999999999999"),
    (10 ** SHOWN_DIGITS, "100000000000... (13 digits)"),
    (-(10 ** SHOWN_DIGITS), "-100000000000... (13 digits)"),
    (np.int64(-5), "-5"),
    (np.uint8(200), "200"),
    (True, "True"),                                  # a bool is no number here
    (None, "None"),
    (2.5, "2.5"),
    ((10 ** 30, "q"), "(100000000000... (31 digits), 'q')"),
    ("a\x00b", "a\\u0000b"),
])
def test_shown_quotes_text_and_numbers_on_one_short_line(value, said):
    assert shown(value) == said


def test_shown_cuts_text_to_its_limit_before_escaping():
    assert shown("abcdef", limit=3) == "abc..."
    assert shown("\x00" * 5, limit=2) == "\\u0000\\u0000..."
    assert shown("abc", limit=3) == "abc"


def test_a_number_past_the_bits_divided_is_told_by_its_size_alone():
    assert shown(2 ** 70000) == "a number of about 21,072 digits"      # 21,073 in truth
    assert shown(2 ** 65535).endswith("... (19,729 digits)")            # still divided


@settings(max_examples=examples(100))
@given(st.integers(SHOWN_DIGITS + 1, 19_000))
def test_shown_counts_the_digits_of_a_power_of_ten_and_of_one_less(k):
    """The first digits and the length are exact on both sides of every power of ten."""
    assert shown(10 ** k) == f"100000000000... ({k + 1:,} digits)"
    assert shown(-(10 ** k)) == f"-100000000000... ({k + 1:,} digits)"
    assert shown(10 ** k - 1) == f"999999999999... ({k:,} digits)"


@settings(max_examples=examples(100))
@given(st.integers(-(10 ** 4000), 10 ** 4000))
def test_shown_gives_a_whole_number_in_full_or_its_first_digits_and_length(n):
    digits = str(abs(n))
    sign = "-" if n < 0 else ""
    if len(digits) <= SHOWN_DIGITS:
        assert shown(n) == str(n)
    else:
        assert shown(n) == f"{sign}{digits[:SHOWN_DIGITS]}... ({len(digits):,} digits)"


@settings(max_examples=examples(200))
@given(st.text(max_size=60))
def test_escaped_text_is_printable_and_printable_text_is_unchanged(text):
    out = escaped(text)
    assert out.isprintable()
    assert (out == text) == text.isprintable()
    assert len(out) >= len(text)


@settings(max_examples=examples(200))
@given(st.text(max_size=60), st.integers(1, 30))
def test_shown_text_is_one_printable_line_no_longer_than_its_limit_allows(text, limit):
    out = shown(text, limit)
    assert out.isprintable() and "\n" not in out
    if text.isprintable() and not (text.isascii() and text.isdigit()):
        assert out == (text if len(text) <= limit else text[:limit] + "...")


def test_escaped_writes_characters_past_the_bmp_with_eight_hex_digits():
    assert escaped("a\U000e0001b") == "a\\U000e0001b"
    assert escaped("\u2066") == "\\u2066"
