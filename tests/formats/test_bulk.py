"""Tests of kakuro_np.formats.bulk: many plain grids read, and comma texts written, at once.

The reader gives exactly the Puzzle ``parse`` gives, or None (left to ``parse``), never
a Puzzle for a text ``parse`` refuses; the writer gives exactly ``format``'s text, and
``format``'s error where it refuses."""

import json

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from conftest import examples
from kakuro_np.errors import PuzzleError
from kakuro_np.formats import bulk, format, parse, with_places
from kakuro_np.formats.bulk import comma_texts, from_cells, read_plain
from kakuro_np.formats.jboxed import write_jboxed
from kakuro_np.puzzle import Puzzle
from strategies import ANY_GRID, filled_puzzles, grids


def parsed(text):
    """``parse(text)``, or the PuzzleError it raises."""
    try:
        return parse(text)
    except PuzzleError as e:
        return e


def agrees(text):
    """Whether ``read_plain`` reads ``text`` as ``parse`` does, or leaves it (None); returns
    whether it read it."""
    got = read_plain([text])[0]
    if got is not None:
        want = parsed(text)
        assert isinstance(want, Puzzle) and got == want
        assert got.blank.dtype == bool and got.down.dtype == got.across.dtype == np.int16
        assert got.given.dtype == np.int8 and not got.blank.flags.writeable
        assert all(a.flags.c_contiguous for a in (got.blank, got.down, got.across, got.given))
    return got is not None


# -- the reader ------------------------------------------------------------------------------

@settings(max_examples=examples(60))
@given(filled_puzzles(), st.sampled_from(["", "\n"]), st.booleans())
def test_a_plain_grid_is_read_as_parse_reads_it(puzzle_and_fill, end, compact):
    puzzle = puzzle_and_fill[0]
    text = write_jboxed(puzzle).rstrip("\n") + end
    if compact:
        text = text.replace(" ; ", ";")
    assert read_plain([text]) == [puzzle]
    assert agrees(text)


@settings(max_examples=examples(60))
@given(ANY_GRID)
def test_any_grid_of_two_columns_or_more_is_read(puzzle):
    text = write_jboxed(puzzle).replace(" ; ", ";")
    assert agrees(text) == (puzzle.shape[1] > 1)


JUNK = ["q", ";", ";;", "\n", "\n\n", " ", "  ", "99", "100", "46", "#", "0", "x", "\t", "\r",
        "_", "7", " ; ", "é", "\x00", "3 ", " 3", "0 0", "1 2 3", "\ufeff"]


@settings(max_examples=examples(200))
@given(filled_puzzles(max_side=6), st.booleans(), st.data())
def test_a_damaged_grid_is_read_as_parse_reads_it_or_left(puzzle_and_fill, compact, data):
    text = write_jboxed(puzzle_and_fill[0])
    if compact:
        text = text.replace(" ; ", ";")
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 3))
        text = text[:at] + data.draw(st.sampled_from(JUNK)) + text[at + cut:]
    agrees(text)


@settings(max_examples=examples(200))
@given(st.text(alphabet="x_X0123456789 ;\n\t", max_size=40))
@example("x;3 0\n0 3;_")
@example("x;3 0\n0 3;_\n\n")
@example("x;3 0\n 0 3;_")
@example("x;3 0\n0 3 ;_ ")
@example("x;3\t0\n0 3;_")
@example("x;3  0\n0 3;_")
@example("x;03 00\n0 3;_")
@example("x;123 0\n0 3;_")
@example("x ; ; _")
@example(" ; x;_")
@example("x;_\n ")
def test_any_text_of_plain_characters_is_read_as_parse_reads_it_or_left(text):
    agrees(text)


def test_what_parse_refuses_is_left_to_it():
    texts = ["x;3 0\n0 3;_;_",                         # rows of two widths
             "x;3 46\n0 3;_",                          # a sum past 45
             "x;" + ";".join(["10 0"] * 10) + "\n0 45;" + ";".join(["_"] * 10),  # a run of 10
             "x;x\n" + "\n".join(["0 9;_"] * 10),     # a down run of 10
             "x\n_",                                   # one column: not jboxed
             "x;3 0\n0 3;q", "", "\n", "x;3 0\r\n0 3;_", 7, b"x;3 0\n0 3;_", None]
    assert read_plain(texts) == [None] * len(texts)
    for text in texts[:4]:
        assert isinstance(parsed(text), PuzzleError)


def test_a_grid_past_max_side_is_left_to_parse(monkeypatch):
    text = "x;3 0;x\n0 3;_;x\nx;x;x"
    assert agrees(text)
    monkeypatch.setattr(Puzzle, "MAX_SIDE", 2)
    assert read_plain([text]) == [None] and "larger than" in str(parsed(text))


def test_nothing_is_read_while_places_are_asked():
    text = "x;3 0\n0 3;_\n"
    assert with_places(read_plain, [text]) == ([None], None)


@settings(max_examples=examples(30))
@given(st.lists(st.one_of(filled_puzzles(max_side=6).map(lambda pf: write_jboxed(pf[0])),
                          st.text(alphabet="x_0123456789 ;\n", max_size=30),
                          st.none(), st.integers()), max_size=12),
       st.sampled_from([1, 40, 1 << 14]))
def test_many_texts_read_at_once_are_each_read_alone(texts, piece):
    alone = [read_plain([text])[0] for text in texts]
    old = bulk.PIECE
    bulk.PIECE = piece
    try:
        assert read_plain(texts) == alone
    finally:
        bulk.PIECE = old


# -- Puzzles made at once -------------------------------------------------------------------

def made(make):
    """``make()``, or the message of the PuzzleError it raises."""
    try:
        return make()
    except PuzzleError as e:
        return str(e)


@settings(max_examples=examples(60))
@given(st.lists(grids(), min_size=1, max_size=6))
def test_puzzles_made_at_once_from_their_cells_are_the_puzzles(many):
    cells = [np.concatenate([a.ravel() for a in arrays]) for arrays in zip(*many)]
    made_at_once = from_cells(*cells, [arrays[0].shape for arrays in many])
    assert made_at_once == [Puzzle(*arrays) for arrays in many]
    for p in made_at_once:
        assert [a.dtype for a in (p.blank, p.down, p.across, p.given)] == [
            bool, np.int16, np.int16, np.int8]
        assert all(not a.flags.writeable and a.flags.c_contiguous
                   for a in (p.blank, p.down, p.across, p.given))
        assert not any(np.shares_memory(a, c) for a in (p.blank, p.given) for c in cells)


@settings(max_examples=examples(100))
@given(st.lists(st.tuples(st.integers(1, 3), st.integers(1, 3)), min_size=1, max_size=3),
       st.data())
def test_cells_puzzle_refuses_are_refused_with_its_error_for_the_first(shapes, data):
    n = sum(h * w for h, w in shapes)
    value = st.integers(-2, 50)
    blank = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    down, across, given = (np.array(data.draw(st.lists(st.sampled_from([0, 0, 0, 3, 46, -1, 9, 10])
                                                        | value, min_size=n, max_size=n)))
                           for _ in range(3))
    starts = np.cumsum([h * w for h, w in shapes]) - [h * w for h, w in shapes]

    def one_by_one():
        return [Puzzle(*(a[s:s + h * w].reshape(h, w) for a in (blank, down, across, given)))
                for s, (h, w) in zip(starts, shapes)]
    assert made(lambda: from_cells(blank, down, across, given, shapes)) == made(one_by_one)


def test_cells_of_another_count_than_the_shapes_say_are_refused():
    with pytest.raises(ValueError, match="take 4"):
        from_cells([0, 0, 1], [0, 0, 0], [0, 0, 0], [0, 0, 0], [(2, 2)])


# -- the writer ------------------------------------------------------------------------------

@st.composite
def solved(draw):
    """A puzzle and digits for its cells (0-9 on the blank cells, anything elsewhere)."""
    puzzle = draw(ANY_GRID)
    digits = draw(st.lists(st.integers(0, 9), min_size=puzzle.blank.size,
                           max_size=puzzle.blank.size))
    digits = np.array(digits, np.int8).reshape(puzzle.shape)
    digits[~puzzle.blank] = draw(st.integers(-3, 60))
    return puzzle, digits


@settings(max_examples=examples(60))
@given(st.lists(solved(), max_size=40))
def test_comma_texts_are_what_format_writes(pairs):
    puzzles, digits = [p for p, _ in pairs], [d for _, d in pairs]
    want = [format(p, "comma", solution=d) for p, d in pairs]
    assert comma_texts(puzzles, digits) == want
    assert comma_texts(puzzles, digits, json=True) == [json.dumps(t)[1:-1] for t in want]


def written(write):
    """``write()``, or the PuzzleError it raises, as text."""
    try:
        return write()
    except PuzzleError as e:
        return f"PuzzleError: {e}"


@pytest.mark.parametrize("digits", [[[0, 0], [0, 10]], [[0, 0], [0, -1]], [[0.0, 0], [0, 1]],
                                    [[0, 0, 0], [0, 1, 0]], [[True, False], [False, True]],
                                    [[7, 7], [7, 3]]])
def test_odd_digits_are_written_or_refused_as_format_does(digits):
    p = Puzzle.from_rows([["x", (3, 0)], [(0, 3), "_"]])
    want = written(lambda: format(p, "comma", solution=np.array(digits)))
    assert written(lambda: comma_texts([p, p], [p.given, np.array(digits)])[1]) == want


def test_a_grid_given_as_rows_is_written_by_format():
    rows = [["x", (3, 0)], [(0, 3), "_"]]
    assert comma_texts([rows], [[[0, 0], [0, 3]]]) == ["2 2\n- 3,\n,3 3\n"]
