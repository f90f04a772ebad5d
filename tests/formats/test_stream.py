"""Tests of kakuro_np.formats.stream: several grids in one text, joined and split."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from kakuro_np.errors import PuzzleError
from kakuro_np import formats
from kakuro_np.formats import detect, parse, parse_all
from kakuro_np.formats.jsongrid import write_json
from kakuro_np.formats.stream import SEPARATOR, chunks, joined
from kakuro_np.puzzle import Puzzle
from strategies import filled_puzzles

#: The formats a stream holds: every one that keeps given digits and holds any grid.
STREAM_FORMATS = ("jboxed", "backslash", "pipe", "comma", "json")


@settings(max_examples=examples(60))
@given(st.lists(filled_puzzles(max_side=6).map(lambda pf: pf[0]), min_size=1, max_size=4),
       st.sampled_from(STREAM_FORMATS))
def test_grids_joined_into_a_stream_are_split_back_in_order(puzzles, fmt):
    stream = "".join(joined([formats.format(p, fmt) for p in puzzles], fmt))
    found = chunks(stream)
    assert len(found) == len(puzzles)
    lines = stream.splitlines(keepends=True)
    for (start, chunk), puzzle in zip(found, puzzles):
        assert "".join(lines[start:start + len(chunk.splitlines())]) == chunk
        assert detect(chunk) == fmt
        assert parse(chunk, format=fmt) == puzzle
    assert all(a == b for a, b in zip(parse_all(stream), puzzles))


# -- joined ------------------------------------------------------------------------------------

def test_text_grids_are_each_named_and_separated():
    assert SEPARATOR == "---"
    assert list(joined(["a\n", "b\n", "c\n"], "comma", 1234)) == [
        "# solution 1 of 1,234\na\n",
        "---\n# solution 2 of 1,234\nb\n",
        "---\n# solution 3 of 1,234\nc\n"]


def test_joined_takes_the_count_from_the_texts_or_from_n_for_a_generator():
    assert list(joined(["x\n"], "pipe")) == ["# solution 1 of 1\nx\n"]
    lazy = joined((t for t in ("x\n", "y\n")), "pipe", 2)
    assert next(lazy) == "# solution 1 of 2\nx\n"
    assert next(lazy) == "---\n# solution 2 of 2\ny\n"


def test_json_grids_are_one_compact_line_each():
    p = Puzzle.from_rows([["x", (3, 0)], [(0, 3), 2]])
    assert list(joined([write_json(p), write_json(p)], "json")) == [
        '{"rows": [["x", [3, 0]], [[0, 3], 2]]}\n'] * 2


# -- chunks ------------------------------------------------------------------------------------

def test_chunks_split_at_lines_holding_only_the_separator():
    text = "x\n  ---\t\ny\n----\nz\n# ---\nw\n"
    assert chunks(text) == [(0, "x\n"), (2, "y\n----\nz\n# ---\nw\n")]


def test_chunks_drop_empty_grids_between_separators():
    assert chunks("---\nx\n---\n---\n\n---\ny\n---\n") == [(1, "x\n"), (6, "y\n")]


def test_a_text_of_nothing_is_one_empty_chunk_for_the_reader_to_refuse():
    assert chunks("") == [(0, "")]
    assert chunks("\n\n") == [(0, "\n\n")]
    with pytest.raises(PuzzleError, match=r"^1:1: there is no puzzle"):
        parse_all("\n\n")


def test_json_lines_are_one_grid_a_line_and_one_json_document_is_one_grid():
    one, other = '{"rows": [["_"]]}\n', '{"rows": [["x"]]}\n'
    assert chunks(one + "\n" + other) == [(0, one), (2, other)]
    pretty = write_json(Puzzle.from_rows([["x", (3, 0)], [(0, 3), 2]]))
    assert chunks(pretty) == [(0, pretty)]
    assert chunks(json.dumps({"rows": [["_"]]}, indent=2)) == [
        (0, json.dumps({"rows": [["_"]]}, indent=2))]


# -- a bad grid in a stream -----------------------------------------------------------------------

@pytest.mark.parametrize("text, message", [
    ('{"rows": [["_"]]}\n{"rows": [["q"]]}\n',
     "2:12: unknown cell 'q': use 'x', '_', a digit or (down, across)"),
    ("# solution 1 of 2\n2 2\n- 3,\n,3 0\n---\n# solution 2 of 2\n2 2\n- 3,\n,3 y\n",
     "9:4: unknown cell 'y': use - (black), 0 (blank), a digit 1-9 or down,across (a clue)"),
    ("x ; 3 0\n0 3 ; _\n---\n\\|3\\\n\\3|0(1,2\n",          # a jboxed grid, then a pipe one
     "5:5: choices need a closing ')', as in 5(1,2,3)"),
])
def test_a_bad_grid_is_named_by_its_line_in_the_whole_stream(text, message):
    with pytest.raises(PuzzleError) as info:
        parse_all(text)
    assert str(info.value) == message


def test_one_json_document_over_several_lines_is_a_stream_of_one():
    text = json.dumps({"rows": [["x", [3, 0]], [[0, 3], "_"]], "notes": [{"by": "me"}]},
                      indent=2)
    assert chunks(text) == [(0, text)]
    assert [p == parse(text) for p in parse_all(text)] == [True]
