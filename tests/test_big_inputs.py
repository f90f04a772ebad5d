"""Big inputs: every reader parses or refuses 16 MiB of text in bounded time and memory.

Each input is made here, ``MAX_TEXT`` (16 MiB) long or nearly: many rows, one
very wide row, long pencil marks (pipe choices), a largest grid of valid cells
padded with spaces, and garbage (blank lines, comments, one long line, nesting,
long numbers and strings, other JSON keys), in every format, through format
detection (``parse``) and with the format named, and as a layout picture
(``read_layout``, which ``generate --layout`` reads). Each must parse, or raise a
PuzzleError that says what is wrong, within ``SECONDS`` (they take about
0.05-0.3 s on 2 shared cores; the bound is for a slow machine, not a
measurement) and with a peak of traced memory (``tracemalloc``, numpy's arrays
included) under ``MEGABYTES``, the text itself aside.
"""

import gc
import time
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from kakuro_np.formats import FORMATS, MAX_TEXT
from kakuro_np.formats import text as formats_text
from conftest import examples

SECONDS = 2.0
MEGABYTES = 300
LIMIT = "larger than the 200x200 allowed"


def fill(head: str, unit: str, tail: str = "", size: int = MAX_TEXT) -> str:
    """``head``, as many ``unit`` as fit, then ``tail``: at most ``size`` bytes of UTF-8."""
    room = size - len(head.encode()) - len(tail.encode())
    return head + unit * (room // len(unit.encode())) + tail


def checkers(black: str, blank: str):
    """A cell maker for ``padded_grid``: ``black`` and ``blank`` tokens as a checkerboard (its
    runs are single cells)."""
    return lambda r, c: black if (r + c) % 2 else blank


def padded_grid(sep: str, cell, head: str = "", tail: str = "", start: str = "",
                end: str = "", side: int = 200) -> str:
    """A ``side`` x ``side`` grid of ``cell(r, c)`` tokens split by ``sep``, each padded with
    spaces so that the text, blank lines after it, is ``MAX_TEXT`` bytes; every row is
    ``start``, its cells and ``end`` on a line (the last row's ``end`` drops a trailing comma)."""
    per = (MAX_TEXT - len(head) - len(tail) - side * (len(start) + len(end) + 1)) // side ** 2
    rows = [start + sep.join(cell(r, c).center(per - len(sep)) for c in range(side)) + end
            for r in range(side)]
    rows[-1] = rows[-1].removesuffix(",")
    text = head + "\n".join(rows) + "\n" + tail
    return text + "\n" * (MAX_TEXT - len(text.encode()))


def padded_picture(side: int = 200) -> str:
    """A layout picture of ``side`` lines of ``side`` cells, each line padded with spaces, and
    blank lines after it: ``MAX_TEXT`` bytes."""
    pad = MAX_TEXT // side - side - 1
    lines = ["#" * side] + ["#" + "." * (side - 1)] * (side - 1)
    text = "".join(line + " " * pad + "\n" for line in lines)
    return text + "\n" * (MAX_TEXT - len(text))


def noise() -> str:
    """Printable ASCII in lines of 64, drawn from a fixed seed."""
    codes = np.random.default_rng(47).integers(32, 127, MAX_TEXT, dtype=np.uint8)
    codes[63::64] = ord("\n")
    return codes.tobytes().decode("ascii")


# (name, text maker, format or None, words of the message, or None: the text parses)
CASES = [
    # many rows
    ("jboxed rows", lambda: fill("", "0 3 ; _\n"), None, "the grid is 2097152x2, " + LIMIT),
    ("backslash rows", lambda: fill("", "\\3 x\n"), None, "the grid is 3355443x2, " + LIMIT),
    ("backslash rows under a header", lambda: fill("3 2 TAB\n", "\\3 x\n"), None, None),
    ("pipe rows", lambda: fill("", "\\3||\n"), None, "the grid is 3355443x3, " + LIMIT),
    ("comma rows", lambda: fill("2 2\n", ",3 0\n"), None,
     "4:1: the header says 2 rows, but the grid goes on"),
    ("comma header too large", lambda: fill("999999 2\n", ",3 0\n"), None,
     "1:1: the grid is 999999x2, " + LIMIT),
    ("json rows", lambda: fill('{"rows": [', "[1],", "[1]]}"), None,
     "1:811: the grid has more than 200 rows, " + LIMIT),
    ("json rows on lines", lambda: fill('{"rows": [\n', '  [[0, 3], "_"],\n', '[1]]}'), None,
     "202:3: the grid has more than 200 rows, " + LIMIT),
    ("puzzlink long body", lambda: fill("kakuro/199/199/", "."), None,
     "1:39617: unexpected '.' after the last border sum"),
    # one very wide row
    ("jboxed wide", lambda: fill("", "0 3 ; _ ; "), None, "the grid is 1x3355442, " + LIMIT),
    ("jboxed wide row 2", lambda: fill("x ; 3 0\n", "0 3 ; _ ; "), None,
     "2:11: row 2 has 3355440 cells, expected 2 (as row 1 has)"),
    ("backslash wide", lambda: fill("", "\\3 x "), None, "the grid is 1x6710886, " + LIMIT),
    ("pipe wide", lambda: fill("", "\\3|"), None, "the grid is 1x5592406, " + LIMIT),
    ("comma wide", lambda: fill("1 2\n", ",3 0 "), None,
     "2:6: row 1 has 6710884 cells, expected 2 (as the header says)"),
    ("json wide", lambda: fill('{"rows": [[', "1,", "1]]}"), None,
     "1:412: row 1 has more than 200 cells, " + LIMIT),
    ("json wide row 2", lambda: fill('{"rows": [["_"], [', '"_", ', '"_"]]}'), None,
     "1:1019: row 2 has more than 200 cells, " + LIMIT),
    ("puzzlink huge size", lambda: fill("kakuro/99999999/99999999/", "k"), None,
     "1:8: the width is 99999999: with its clue row and column the grid is larger"),
    # garbage
    ("newlines", lambda: "\n" * MAX_TEXT, None, "1:1: there is no puzzle"),
    ("spaces", lambda: " " * MAX_TEXT, None, "1:1: there is no puzzle"),
    ("wide spaces and newlines", lambda: fill("", "\u3000 \t\n"), None, "1:1: there is no puzzle"),
    ("comments, then a row", lambda: fill("", "# c\n", "x ; _\n"), None, None),
    ("a row, then newlines", lambda: fill("x ; 3 0\n0 3 ; _\n", "\n"), None, None),
    ("one long word", lambda: "a" * MAX_TEXT, None, "1:1: cannot tell the format of 'aaaa"),
    ("one long line of words", lambda: fill("", "ab "), None, "1:1: cannot tell the format"),
    ("one long line of x", lambda: fill("", "x "), None, "the grid is 1x8388608, " + LIMIT),
    ("short lines", lambda: fill("", "ab\n"), None, "1:1: cannot tell the format"),
    ("noise", noise, None, LIMIT),            # its first line holds ';': jboxed
    ("jboxed, then junk", lambda: fill("x ; 3 0\n", "q;w e\n"), None,
     "the grid is 2796202x2, " + LIMIT),
    ("jboxed with a long cell", lambda: fill("x ; ", "7"), None,
     "1:5: unknown cell '777777777777... (16,777,212 digits)'"),
    ("not ASCII", lambda: fill("", "é ; _\n"), None, "the grid is 2396745x2, " + LIMIT),
    ("jboxed long clue", lambda: fill("x ; 3 0\n0 ", "9", " ; _\n"), None,
     "2:3: clue 999999999999... (16,777,201 digits) is more than 45"),
    ("comma long header", lambda: fill("2 ", "9", "\n- 3,\n,3 0\n"), None,
     "1:3: the header says 999999999999... (16,777,203 digits) columns; a grid has 1 to 999999"),
    ("puzzlink long height", lambda: fill("kakuro/5/", "9", "/k"), None,
     "1:10: the height is 999999999999... (16,777,205 digits): with its clue row and column the "
     "grid is larger"),
    ("json nested lists", lambda: "[" * MAX_TEXT, None, "1:1: bad JSON: lists and objects nest"),
    ("json nested objects", lambda: fill("", '{"a":'), None, "1:1: bad JSON: lists and objects nest"),
    ("json long number", lambda: fill('{"rows": [[', "9", "]]}"), None,
     "1:1: bad JSON: the number at 1:12 is 16,777,202 characters long"),
    ("json long string", lambda: fill('{"rows": [["', "_", '"]]}'), None,
     "1:12: unknown cell '____________________...'"),
    ("json other key", lambda: fill('{"notes": [', "[1],", '[1]], "rows": [["x"]]}'), None,
     "bad JSON: more than 121,203 values, more than a puzzle of 200x200 cells holds"),
    ("json, spaces inside", lambda: fill('{"rows": [["x", [3, 0]],', " ", '[[0, 3], "_"]]}'), None,
     None),
    ("json, newlines before the rows", lambda: fill('{"rows": [', "\n", '["x", [3, 0]], [[0, 3], 2]]}'),
     None, None),
    ("json, then junk", lambda: fill('{"rows": [["_"]]}', "x"), None, "1:18: bad JSON: Extra data"),
    # pencil marks (pipe choices)
    ("pipe long choices", lambda: fill("\\|\\3\n\\3|(", "1,", "1)\n"), None,
     "2:4: 8,388,603 choices in one cell, more than the 9 digits 1-9"),
    ("pipe long spaced choices", lambda: fill("\\|\\3\n\\3|5(", "1 , ", "1)\n"), None,
     "2:5: 4,194,301 choices in one cell, more than the 9 digits 1-9"),
    ("pipe choices of spaces", lambda: fill("\\|\\3\n\\3|( 1", " ", ")\n"), None, None),
    ("pipe grid of long choices", lambda: padded_grid("|", lambda r, c: "(" + "1," * 200 + "1)"),
     None, "1:8: 201 choices in one cell"),
    ("pipe grid of choices", lambda: padded_grid("|", lambda r, c: "\\" if (r + c) % 2 else
                                                 "9(1,2,3,4,5,6,7,8,9)"), None, None),
    # a grid of valid cells, padded to 16 MiB
    ("jboxed padded grid", lambda: padded_grid(";", checkers("x", "_")), None, None),
    ("backslash padded grid", lambda: padded_grid(" ", checkers("\\", "x"), "200 200 TAB\n"),
     None, None),
    ("pipe padded grid", lambda: padded_grid("|", checkers("\\", "")), None, None),
    ("comma padded grid", lambda: padded_grid(" ", checkers("-", "0"), "200 200\n"), None, None),
    ("json padded grid", lambda: padded_grid(",", checkers('"x"', '"_"'), '{"rows": [\n', "]}",
                                             '[', '],'), None, None),
    # the format named
    ("jboxed rows as json", lambda: fill("", "0 3 ; _\n"), "json", "1:3: bad JSON: Extra data"),
    ("jboxed rows as comma", lambda: fill("", "0 3 ; _\n"), "comma", "1:1: a comma file starts with"),
    ("jboxed rows as puzzlink", lambda: fill("", "0 3 ; _\n"), "puzzlink",
     "2:1: a puzz.link puzzle is one URL on one line"),
    ("jboxed rows as backslash", lambda: fill("", "0 3 ; _\n"), "backslash", "the grid is 2097152x4, "),
    ("comma rows as pipe", lambda: fill("2 2\n", ",3 0\n"), "pipe", "the grid is 3355443x1, "),
    ("newlines as json", lambda: "\n" * MAX_TEXT, "json", "1:1: there is no puzzle"),
]


def measured(call) -> tuple:
    """``(seconds, megabytes, outcome)``: the processor time ``call()`` takes (its thread's:
    the work, however loaded the machine), its peak of traced memory (a second call,
    traced), and what it returned or raised (a PuzzleError)."""
    def timed():
        gc.freeze()             # the objects of earlier tests: no collection walks them
        try:
            started = time.thread_time()
            try:
                outcome = call()
            except kn.PuzzleError as e:
                outcome = e
            return time.thread_time() - started, outcome
        finally:
            gc.unfreeze()
    seconds, outcome = timed()
    tracemalloc.start()
    try:
        timed()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return seconds, peak / 1e6, outcome


@pytest.mark.parametrize("name, make, fmt, words", CASES, ids=[c[0] for c in CASES])
def test_16_mib_is_parsed_or_refused_quickly(name, make, fmt, words):
    text = make()
    assert MAX_TEXT - 64 < len(text.encode()) <= MAX_TEXT
    seconds, megabytes, outcome = measured(lambda: kn.parse(text, format=fmt))
    if words is None:
        assert isinstance(outcome, kn.Puzzle), outcome
    else:
        assert isinstance(outcome, kn.PuzzleError), outcome
        assert words in str(outcome) and len(str(outcome)) < 300
    assert seconds < SECONDS and megabytes < MEGABYTES, (seconds, megabytes)


def test_bytes_and_files_are_refused_quickly(tmp_path):
    data = fill("", "0 3 ; _\n").encode()
    path = tmp_path / "big.txt"
    path.write_bytes(data)
    for call in (lambda: kn.parse(data), lambda: kn.read(path), lambda: kn.detect(data)):
        seconds, megabytes, outcome = measured(call)
        assert outcome == "jboxed" or "the grid is 2097152x2, " + LIMIT in str(outcome)
        assert seconds < SECONDS and megabytes < MEGABYTES, (seconds, megabytes)


def largest(side: int = kn.Puzzle.MAX_SIDE) -> kn.Puzzle:
    """A grid of ``side`` by ``side`` cells that every format holds (its sums drawn, not solved;
    every tenth row and column black, so no run is over 9)."""
    rng = np.random.default_rng(47)
    blank = np.zeros((side, side), bool)
    blank[1:, 1:] = rng.random((side - 1, side - 1)) < 0.6
    blank[::10], blank[:, ::10] = False, False
    sums = rng.integers(1, 46, (2, side, side))
    down = np.where(~blank & np.roll(blank, -1, axis=0), sums[0], 0)
    across = np.where(~blank & np.roll(blank, -1, axis=1), sums[1], 0)
    down[-1], across[:, -1] = 0, 0
    return kn.Puzzle(blank, down, across)


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_largest_grid_reads_quickly_in_every_format(fmt):
    p = largest()
    text = kn.format(p, fmt)
    seconds, megabytes, outcome = measured(lambda: kn.parse(text))
    assert outcome == p
    assert seconds < SECONDS and megabytes < MEGABYTES, (seconds, megabytes)


@pytest.mark.parametrize("fmt, words", [
    ("jboxed", ("the grid is 201x3, ", "the grid is 3x201, ")),
    ("backslash", ("1:1: the grid is 201x3, ", "1:3: the grid is 3x201, ")),
    ("pipe", ("the grid is 201x3, ", "the grid is 3x201, ")),
    ("comma", ("1:1: the grid is 201x3, ", "1:3: the grid is 3x201, ")),
    ("json", ("202:3: the grid has more than 200 rows, ", "2:1004: row 1 has more than 200 cells, ")),
])
def test_one_more_row_or_column_is_refused(fmt, words, monkeypatch):
    for shape, said in zip(((201, 3), (3, 201)), words):
        monkeypatch.setattr(kn.Puzzle, "MAX_SIDE", 201)
        empty = np.zeros(shape, int)
        text = kn.format(kn.Puzzle(empty > 0, empty, empty), fmt)
        monkeypatch.undo()
        with pytest.raises(kn.PuzzleError, match=said + LIMIT):
            kn.parse(text)


def test_the_limit_moves_with_max_side(monkeypatch):
    text = fill("", "x ; _\nx ; x\n", size=300 * 6)         # blank cells apart: runs of 1
    with pytest.raises(kn.PuzzleError, match="the grid is 300x2, " + LIMIT):
        kn.parse(text)
    monkeypatch.setattr(kn.Puzzle, "MAX_SIDE", 300)
    assert kn.parse(text).shape == (300, 2)
    assert kn.parse(kn.format(kn.parse(text), "json")).shape == (300, 2)


# -- a writer's layout drawn as a picture (generate --layout) ----------------------

PICTURES = [
    ("one long line", lambda: fill("", "#.", "\n"), "the grid is 1x16777214, " + LIMIT),
    ("short lines", lambda: fill("", "#..\n"), "the grid is 4194304x3, " + LIMIT),
    ("wide lines", lambda: fill("", "#" * 4095 + "\n"), "the grid is 4096x4095, " + LIMIT),
    ("lines of other widths", lambda: fill("#" * 200 + "\n#.\n", " "),
     "2: a picture's lines are all 200 wide; this one is 2"),
    ("padded lines", lambda: padded_picture(), None),
    ("blank lines", lambda: fill("##\n#.\n", "  \n"), None),
    ("a picture, then junk", lambda: fill("##\n#.\n", "q"), "neither a puzzle file nor a picture"),
    ("junk", lambda: "q" * (MAX_TEXT - 1) + "\n", "neither a puzzle file nor a picture"),
]


@pytest.mark.parametrize("name, make, words", PICTURES, ids=[c[0] for c in PICTURES])
def test_a_16_mib_layout_picture_is_read_or_refused_quickly(name, make, words, tmp_path):
    # generate --layout read a picture a Python bool per character: 13 s and 1.2 GB
    from kakuro_np.layout import read_layout
    text = make()
    assert MAX_TEXT - 64 < len(text.encode()) <= MAX_TEXT
    path = tmp_path / "layout.txt"
    path.write_text(text)
    for source in (text, path):
        seconds, megabytes, outcome = measured(lambda: read_layout(source))
        if words is None:
            assert isinstance(outcome, np.ndarray) and outcome.shape[0] <= kn.Puzzle.MAX_SIDE
        else:
            assert isinstance(outcome, kn.PuzzleError), outcome
            assert words in str(outcome) and len(str(outcome)) < 300
        assert seconds < SECONDS and megabytes < MEGABYTES, (seconds, megabytes)


# -- the chunked scans agree with the plain reading they replace ----------------

PIECES = st.sampled_from(["x", " y", "\n", "\n", "# c", " ", "\t#", "\u3000", "z z", "é"])


def plain_lines(text: str) -> tuple:
    """The content lines ``(number, line)`` and the lines before the first blank one, read plainly."""
    lines = [(n, line if line.strip() else "") for n, line in enumerate(text.split("\n"), start=1)
             if not line.lstrip().startswith("#")]
    content = [(n, line) for n, line in lines if line]
    start = next((i for i, (_, line) in enumerate(lines) if line), len(lines))
    block = next((i for i, (_, line) in enumerate(lines[start:]) if not line), len(lines) - start)
    return content, block


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(PIECES, max_size=40).map("".join), st.sampled_from([1, 5, 16, 1 << 20]))
def test_lines_are_found_as_a_plain_split_finds_them(text, chunk):
    content, block = plain_lines(text)
    saved = formats_text.CHUNK
    formats_text.CHUNK = chunk   # small chunks: lines across their ends, and lines longer
    try:
        lines = formats_text._Lines(text)
        assert [lines[k] for k in range(len(lines))] == content
        assert lines.get(len(content)) is None
        assert formats_text._Lines(text).block() == block
        indices = list(range(len(text) + 1))
        assert formats_text._places(text, indices) == [
            (text.count("\n", 0, i) + 1, i - text.rfind("\n", 0, i)) for i in indices]
    finally:
        formats_text.CHUNK = saved
