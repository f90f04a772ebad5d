"""Robustness: every bad input gets a clear PuzzleError, every huge job stays bounded.

BAD_INPUTS is the table of malformed inputs with the exact message each gives;
it covers every validation rule: text that is not a puzzle, unknown tokens,
ragged rows, clues that are not whole numbers or lie outside 1-45, runs longer
than 9, clues with no cells, unclued runs, grids over the size limit and given
digits outside 1-9.
"""

import re
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from kakuro_np import budget
from kakuro_np.engine.core import ahead
from conftest import PUZZLES, examples
from strategies import FOUR_BLOCKS, OPEN_BLOCK

B = np.zeros((2, 2), bool)
B[1, 1] = True
Z = np.zeros((2, 2), int)
UNKNOWN_JBOXED = "use x (black), _ (blank), a digit 1-9 or 'down across' (a clue)"

BAD_INPUTS = [
    # text that is not a puzzle
    ("", "1:1: there is no puzzle: the input is empty or holds only blank lines and comments"),
    ("\n \n\t\n", "1:1: there is no puzzle: the input is empty or holds only blank lines and comments"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "1:1: byte 0x89 is not UTF-8 text; is this a puzzle file?"),
    (b"x ; 3 0\n0 3 ; \xe9\n", "2:7: byte 0xe9 is not UTF-8 text; is this a puzzle file?"),
    ("x ; 3 0\n0 3 ; _\x07\n", "2:8: control character U+0007 is not puzzle text; is this a binary file?"),
    ("x ; " * (5 << 20), "the input is over 16,777,216 bytes, more than any puzzle of 200x200 cells needs"),
    # jboxed
    ("x ; 3 0\n0 3 ; q\n", f"2:7: unknown cell 'q': {UNKNOWN_JBOXED}"),
    ("x ; 3 0 ; 4 0\n0 3 ; _\n", "2:8: row 2 has 2 cells, expected 3 (as row 1 has)"),
    ("x ; ; 3 0\n0 3 ; _ ; _\n", "1:4: empty cell between ';'"),
    ("x ; 3.5 0\n0 3 ; _\n", f"1:5: unknown cell '3.5 0': {UNKNOWN_JBOXED}"),
    ("x ; 50 0\n0 3 ; _\n", "1:5: clue 50 is more than 45, the most 9 digits make"),
    ("x ; -3 0\n0 3 ; _\n", f"1:5: unknown cell '-3 0': {UNKNOWN_JBOXED}"),
    ("x ; 3 0 1\n0 3 ; _\n", f"1:5: unknown cell '3 0 1': {UNKNOWN_JBOXED}"),
    ("x ; 3 0\n0 3 ; 0\n", f"2:7: unknown cell '0': {UNKNOWN_JBOXED}"),
    ("x ; 3 0\n0 3 ; 12\n", f"2:7: unknown cell '12': {UNKNOWN_JBOXED}"),
    # backslash (Kuroro)
    ("\\ 3\\\n\\3 y\n", "2:4: unknown cell 'y': use \\ (black), x or _ (blank), a digit 1-9 "
                        "or down\\across (a clue)"),
    ("2 2 TAB\n\\ 3\\\n\\3 x x\n", "3:6: row 2 has 3 cells, expected 2 (as the header says)"),
    ("3 2 TAB\n\\ 3\\\n\\3 x\n", "1:1: the header says 3 rows, but the grid has 2"),
    ("\\ 46\\\n\\3 x\n", "1:3: clue 46 is more than 45, the most 9 digits make"),
    ("\\ 3\\\\4\n\\3 x\n", "1:5: clue '3\\\\4' has more than one '\\'"),
    # pipe (thesis)
    ("\\|3\\\n\\3| (1,x)\n", "2:8: choice 'x' is not a digit 1-9"),
    ("\\|3\\\n\\3|12\n", "2:4: unknown cell '12': a blank holds nothing, a digit 1-9 and/or "
                        "(choices); \\ is black, down\\across a clue"),
    ("\\|3\\\n\\3| 1(2,3\n", "2:6: choices need a closing ')', as in 5(1,2,3)"),
    # comma
    ("2 2\n- 3,\n,3 ?\n", "3:4: unknown cell '?': use - (black), 0 (blank), a digit 1-9 or "
                          "down,across (a clue)"),
    ("3 2\n- 3,\n,3 0\n", "1:1: the header says 3 rows, but the grid has 2"),
    ("2 2\n- 3,\n,3 0 0\n", "3:6: row 2 has 3 cells, expected 2 (as the header says)"),
    ("2 2\n- a,\n,3 0\n", "2:3: clue sum 'a' is not a whole number"),
    # json
    ('{"rows": [["x", [3, 0]], [[0, 3], "_"]', "1:39: bad JSON: Expecting ',' delimiter"),
    ('{"grid": []}', '1:1: a JSON puzzle is {"rows": [[cell, ...], ...]}'),
    ('{"rows": [["x", [3, 0]], [[0, 3], "q"]]}',
     "1:35: unknown cell 'q': use 'x', '_', a digit or (down, across)"),
    ('{"rows": [["x", [3, 0]], [[0, 99], "_"]]}', "1:27: clue sums must be 0-45, got (0, 99)"),
    ('{"rows": [["x", [3, 0]], [[0, 2.5], "_"]]}',
     "1:27: clue sums must be whole numbers, got [0, 2.5]"),
    # runs
    ("x ; 3 0 ; x\n0 3 ; _ ; 0 4\n", "cell (1, 2): the across clue 4 has no blank cells to its right"),
    ("x ; 3 0 ; 4 0\n0 3 ; _ ; x\n", "cell (0, 2): the down clue 4 has no blank cells below it"),
    ("x ; 3 0 ; 4 0\nx ; _ ; _\n", "cell (1, 1): a run of 2 blank cells has no across clue to its left"),
    ("x ; x\n0 3 ; _\n0 4 ; _\n", "cell (1, 1): a run of 2 blank cells has no down clue above it"),
    (" ; ".join(["0 45"] + ["_"] * 10) + "\n",
     "1:1: cell (0, 0): the across run right of this cell is 10 cells long, longer than 9, so "
     "it cannot hold distinct digits"),
    ("\n".join(["45 0 ;"] + ["_ ;"] * 10) + "\n",
     "1:1: cell (0, 0): the down run below this cell is 10 cells long, longer than 9, so it "
     "cannot hold distinct digits"),
    (" ; ".join(["_"] * 11) + "\n", "1:1: cell (0, 0): the across run that starts here is 11 "
                                    "cells long, longer than 9, so it cannot hold distinct digits"),
    (lambda: kn.Puzzle.from_rows([[(0, 45)] + ["_"] * 10]),
     "cell (0, 1): an across run of 10 cells is longer than 9, so it cannot hold distinct digits"),
    (lambda: kn.Puzzle.from_rows([[(45, 0)]] + [["_"]] * 10),
     "cell (1, 0): a down run of 10 cells is longer than 9, so it cannot hold distinct digits"),
    # size
    ("\n".join(" ; ".join(["x"] * 10) for _ in range(201)),
     "the grid is 201x10, larger than the 200x200 allowed (set kakuro_np.Puzzle.MAX_SIDE to "
     "allow more)"),
    # rows and arrays given to the API
    (lambda: kn.Puzzle.from_rows([["x", "?"]]),
     "cell (0, 1): unknown cell '?': use 'x', '_', a digit or (down, across)"),
    (lambda: kn.Puzzle.from_rows([["x", (3.0, 0)], [(0, 3), "_"]]),
     "cell (0, 1): clue sums must be whole numbers, got (3.0, 0)"),
    (lambda: kn.Puzzle.from_rows([["x", (3, 0)], [(0, 3), 12]]),
     "cell (1, 1): a digit must be 1-9, got 12"),
    (lambda: kn.Puzzle.from_rows([["x", (3, 0)], [(0, 3)]]), "cell (1, 0): row 1 has 1 cell, row 0 has 2"),
    (lambda: kn.Puzzle.from_rows([["x", (3, 0)], [(0, 46), "_"]]),
     "cell (1, 0): clue sums must be 0-45, got (0, 46)"),
    (lambda: kn.Puzzle(B, Z, Z, [[0, 0], [0, 11]]), "cell (1, 1): given digit 11 is not 1-9"),
    (lambda: kn.Puzzle(B, Z, Z, [[0, 5], [0, 0]]), "cell (0, 1): a given digit must sit in a blank cell"),
    (lambda: kn.Puzzle(B, Z, [[0, 0], [0, 3]]), "cell (1, 1): a blank cell cannot hold a clue"),
    (lambda: kn.Puzzle(B, [[0, 0], [0, 0], [0, 0]], Z), "down has shape (3, 2), blank has (2, 2)"),
    (lambda: kn.Puzzle(B, Z * 1.5, Z), "down must hold whole numbers, not float64"),
    (lambda: kn.Puzzle(B, [[0, 50], [0, 0]], Z), "cell (0, 1): down sum 50 is outside 1-45"),
    (lambda: kn.Puzzle([True, False], [0, 0], [0, 0]),
     "a grid must be a non-empty 2-d array, got shape (2,)"),
    (lambda: kn.Puzzle(np.zeros((2, 201), bool), np.zeros((2, 201), int), np.zeros((2, 201), int)),
     "the grid is 2x201, larger than the 200x200 allowed (set kakuro_np.Puzzle.MAX_SIDE to "
     "allow more)"),
]


def error_of(source):
    """The PuzzleError the library raises for an input of the table."""
    with pytest.raises(kn.PuzzleError) as info:
        kn.kakuro(source() if callable(source) else kn.parse(source))
    return info.value


@pytest.mark.parametrize("source, message", BAD_INPUTS,
                         ids=[f"bad{i:02d}" for i in range(len(BAD_INPUTS))])
def test_bad_input_gives_its_message(source, message):
    error = error_of(source)
    assert str(error) == message
    assert isinstance(error, ValueError)


def test_the_library_tells_the_bad_inputs_apart():
    """The table draws 45 or more different messages, each saying where the error is
    unless it is about the whole input or grid."""
    messages = {str(error_of(source)) for source, _ in BAD_INPUTS}
    assert len(messages) >= 45
    whole = ("the input is over", "the grid is", "down has shape", "down must hold", "a grid must")
    assert all(re.match(r"\d+:\d+: |cell \(\d+, \d+\): ", m) or m.startswith(whole)
               for m in messages)


def test_the_size_limit_is_configurable(monkeypatch):
    rows = [["x"] * 250]
    with pytest.raises(kn.PuzzleError, match="larger than the 200x200"):
        kn.Puzzle.from_rows(rows)
    monkeypatch.setattr(kn.Puzzle, "MAX_SIDE", 300)
    assert kn.Puzzle.from_rows(rows).shape == (1, 250)


# -- runs longer than 9: every reader refuses them ------------------------------

def long_run_grid(n: int, way: str) -> kn.Puzzle:
    """A 2 x (n + 1) grid (or its transpose, ``way`` "down"): one run of ``n`` blank cells,
    clued, its crossing cells clued from the border as a puzz.link URL holds them."""
    blank = np.zeros((2, n + 1), bool)
    blank[1, 1:] = True
    down, across = np.zeros((2, n + 1), int), np.zeros((2, n + 1), int)
    down[0, 1:], across[1, 0] = 1, 45
    if way == "down":
        blank, down, across = blank.T, across.T, down.T
    return kn.Puzzle(blank, down, across)


@pytest.mark.parametrize("fmt", kn.formats.FORMATS)
@pytest.mark.parametrize("n", [10, 199])
@pytest.mark.parametrize("way", ["across", "down"])
def test_every_reader_refuses_a_run_over_9_naming_its_clue_and_length(fmt, n, way):
    # read and parse took runs of 10 or 199 cells; only the solver, or check_runs, refused them
    text = kn.format(long_run_grid(n, way), fmt)
    said = "right of" if way == "across" else "below"
    for call in (lambda: kn.parse(text), lambda: kn.read(text, format=fmt)):
        with pytest.raises(kn.PuzzleError) as info:
            call()
        error = info.value
        assert error.cell == ((1, 0) if way == "across" else (0, 1))
        assert f"cell {error.cell}: the {way} run {said} this cell is {n} cells long, " \
               f"longer than 9" in str(error)
        assert error.line is not None and error.col is not None


def test_a_run_of_9_reads_and_a_puzzle_of_arrays_may_hold_longer():
    for way in ("across", "down"):
        p = long_run_grid(9, way)
        assert all(kn.parse(kn.format(p, fmt)) == p for fmt in kn.formats.FORMATS)
        long = long_run_grid(10, way)                  # the engine's arrays stay permissive
        assert kn.Puzzle.from_rows(long.to_rows()) == long
        with pytest.raises(kn.PuzzleError, match="run of 10 cells is longer than 9"):
            kn.entries(long)


def test_the_samples_and_test_data_still_read():
    files = [*PUZZLES.rglob("*.txt"), *PUZZLES.glob("*.pipe"), *(PUZZLES.parent / "tests" / "data").glob("*")]
    files = [f for f in files if not f.name.endswith("-solution.txt")]     # boxed pictures
    assert len(files) >= 15
    for path in files:
        assert kn.read(path).shape[0] >= 2, path


def test_a_layout_picture_with_a_long_run_is_left_to_the_layout_check():
    from kakuro_np.layout import read_layout
    picture = "#" * 12 + "\n" + ("#" + "." * 11 + "\n") * 2
    assert read_layout(picture).sum() == 22              # a picture is no puzzle: generate
    with pytest.raises(kn.PuzzleError, match="a run of 11 cells across"):   # says so
        kn.generate(layout=read_layout(picture))


# -- error messages show the input safely: one line, nothing hidden, cut short --

HIDDEN = "\u202e\u200b\u200c\u200d\u200e\u200f\u202a\u2066\u2069\ufeff\x85"


def hidden_inputs() -> list:
    """Inputs whose error quotes a token holding hidden characters, in every reader."""
    h = "q" + HIDDEN.replace("\x85", "") + "q"           # decode refuses U+0085 itself
    return [
        f"x ; 3 0\n0 3 ; {h}\n", f"\\ 3\\\n\\3 {h}\n", f"\\|3\\\n\\3| (1,{h})\n",
        f"2 2\n- 3,\n,3 {h}\n", f'{{"rows": [["x", [3, 0]], [[0, 3], "{h}"]]}}',
        f"kakuro/1/1/{h[1:]}", f"https://puzz.link/p?{h}/1/1/k", f"{h} \n", "x ; 3 0\n0 3;\u202e\n",
    ]


@pytest.mark.parametrize("text", hidden_inputs(), ids=range(len(hidden_inputs())))
def test_hidden_characters_in_the_input_are_escaped_in_the_message(text):
    # a right-to-left override or a zero-width space was repeated raw into the message
    with pytest.raises(kn.PuzzleError) as info:
        kn.parse(text)
    message = str(info.value)
    assert message.isprintable() and "\\u202e" in message, message
    assert not set(HIDDEN) & set(message)


def test_a_file_name_and_a_format_name_are_escaped_too(tmp_path):
    path = tmp_path / "evil\u202etxt.kakuro"
    with pytest.raises(kn.PuzzleError) as info:
        kn.read(path)
    assert "evil\\u202etxt.kakuro: cannot read file" in str(info.value)
    path.write_text("x ; 3 0\n0 3 ; q\u2066\n")
    with pytest.raises(kn.PuzzleError, match=r"evil\\u202etxt.kakuro:2:7: unknown cell 'q\\u2066'"):
        kn.read(path)
    with pytest.raises(kn.PuzzleError, match=r"unknown format 'csv\\u202e'"):
        kn.parse("x ; 3 0\n0 3 ; _\n", format="csv\u202e")
    with pytest.raises(kn.PuzzleError) as info:
        kn.parse("x ; 3 0\n0 3 ; _\n", format="c" * 5000)
    assert len(str(info.value)) < 200
    from kakuro_np.layout import read_layout
    with pytest.raises(kn.PuzzleError, match="cannot read file") as info:
        read_layout("q" * (1 << 20))                # one line: a path, too long for one
    assert len(str(info.value)) < 4200


@pytest.mark.parametrize("make, words", [
    (lambda: kn.Puzzle.from_rows([["x", (10 ** 4500, 0)]]),
     "clue sums must be 0-45, got (100000000000... (4,501 digits), 0)"),
    (lambda: kn.Puzzle.from_rows([["x", (10 ** 4000 + 7, 0)]]),
     "clue sums must be 0-45, got (100000000000... (4,001 digits), 0)"),
    (lambda: kn.Puzzle.from_rows([["x", -3 * 10 ** 4999]]),
     "a digit must be 1-9, got -300000000000... (5,000 digits)"),
    (lambda: kn.Puzzle.from_rows([["x", (10 ** 4999, 2.5)]]),
     "clue sums must be whole numbers, got (100000000000... (5,000 digits), 2.5)"),
    (lambda: kn.Puzzle.from_rows([["x", ("a" * 5000, 1)]]), "clue sums must be whole numbers"),
    (lambda: kn.Puzzle.from_rows([["x", 10 ** 100_000]]), "got a number of about 100,000 digits"),
    (lambda: kn.parse("x ; 3 0\n0 " + "9" * 4500 + " ; _"),
     "2:3: clue 999999999999... (4,500 digits) is more than 45"),
    (lambda: kn.parse("x ; 3 0\n0 3 ; " + "7" * 5000),
     "2:7: unknown cell '777777777777... (5,000 digits)'"),
    (lambda: kn.parse("2 " + "9" * 5000 + "\n- 3,\n,3 0\n"),
     "1:3: the header says 999999999999... (5,000 digits) columns"),
    (lambda: kn.parse("kakuro/" + "9" * 4200 + "/1/k"),
     "1:8: the width is 999999999999... (4,200 digits): with its clue row"),
    (lambda: kn.parse("x ; 3 0\n0 3 ; " + "\u202e" * 5000), "unknown cell '" + "\\u202e" * 20 + "...'"),
])
def test_long_numbers_and_tokens_are_cut_in_the_message(make, words):
    # numbers of 4,000-5,000 digits were printed in full (and past 4,300 digits, Python
    # refused to write them: a ValueError of its own instead of the message)
    with pytest.raises(kn.PuzzleError) as info:
        make()
    message = str(info.value)
    assert words in message and len(message) < 300 and message.isprintable(), message


# -- impossible but well-formed puzzles are answers, not errors ---------------

@pytest.mark.parametrize("rows, reason", [
    ([["x", (3, 0), (4, 0)], [(0, 30), "_", "_"]],
     "the across 30 at (1, 0) over 2 cells: no 2 different digits add up to 30 "
     "(2 cells make 3 to 17)"),
    ([["x", (9, 0), (4, 0)], [(0, 6), 5, 5], [(0, 7), "_", "_"]],
     "the across 6 at (1, 0) over 2 cells: the digit 5 is given twice"),
    ([["x", (9, 0), (4, 0)], [(0, 16), 9, "_"], [(0, 7), "_", "_"]],
     "the down 9 at (0, 1) over 2 cells: the given 9 leaves 0 for the other cell, "
     "which no other digit makes"),
    ([["x", (10, 0), (4, 0), (9, 0)], [(0, 17), 9, "_", 8], [(0, 7), "_", "_", "_"]],
     "the across 17 at (1, 0) over 3 cells: the given 8, 9 leave 0 for the other cell, "
     "which no other digit makes"),
    ([["x", (9, 0), (4, 0)], [(0, 6), 2, "_"], [(0, 7), "_", "_"]],
     "the down 9 at (0, 1) over 2 cells: no way to fill it fits the runs that cross it"),
    ([["x", (12, 0)], [(0, 12), "_"]], "the across 12 at (1, 0) over 1 cell: one cell cannot hold 12"),
])
def test_impossible_puzzles_have_no_solution_and_a_reason(rows, reason):
    assert kn.kakuro(rows).shape[0] == 0 and kn.count(rows) == 0
    r = kn.reduce(rows)
    assert r.status == "contradiction" and r.reason == reason


# -- bounded work ---------------------------------------------------------------



def test_open_block_refuses_to_materialise_quickly():
    ahead.main(["model", "search", "checks", "count"])   # compiled or loaded, as a helper
    kn.kakuro(OPEN_BLOCK, limit=1)                     # build once, so the timing is the search
    started = time.perf_counter()
    with pytest.raises(kn.TooManySolutions, match="limit=.*count()"):
        kn.kakuro(OPEN_BLOCK)
    assert time.perf_counter() - started < 30


def test_open_block_with_limits():
    assert kn.kakuro(OPEN_BLOCK, limit=10).shape == (10, 10, 10)
    assert kn.count(OPEN_BLOCK, limit=2 * 10**5) == 2 * 10**5


def listed_caps(monkeypatch) -> list:
    """The caps of every ``essay_solutions`` call ``kakuro()`` makes from now on."""
    from kakuro_np import solve
    caps, essay_solutions = [], solve.essay_solutions
    monkeypatch.setattr(solve, "essay_solutions",
                        lambda m, cap, *a: caps.append(cap) or essay_solutions(m, cap, *a))
    return caps


def test_too_many_to_list_are_counted_before_memory_is_filled(monkeypatch):
    # 110 billion solutions: listing stopped at the budget (1.2 GB, 37 s on a big grid) and
    # said "more than 1,164,578" where count() answers in a second.
    caps = listed_caps(monkeypatch)
    with pytest.raises(kn.TooManySolutions, match="has 110,075,314,176 solutions, more than") as e:
        kn.kakuro(FOUR_BLOCKS)
    assert e.value.count == e.value.at_least == kn.count(FOUR_BLOCKS) == 110_075_314_176
    assert max(caps) <= budget.FIRST_TRY


def test_past_the_quick_count_a_count_to_the_budget_decides(monkeypatch):
    monkeypatch.setattr(budget, "QUICK_COUNT", 0.0)              # the exact count gives up
    monkeypatch.setattr(budget, "typical_estimate", lambda m: -np.inf)   # Knuth says nothing
    caps = listed_caps(monkeypatch)
    with pytest.raises(kn.TooManySolutions, match="more than the 99,999 that") as e:
        kn.kakuro(FOUR_BLOCKS, max_bytes=99_999 * (2 * 64 + 10 * 10 + 1))
    assert e.value.count is None and e.value.at_least == 100_000 and max(caps) <= budget.FIRST_TRY


@pytest.mark.parametrize("quick", [0.0, 2.0])
def test_a_count_within_the_budget_lists_every_solution(monkeypatch, quick):
    monkeypatch.setattr(budget, "FIRST_TRY", 5)                 # k3's 40 pass the first try
    monkeypatch.setattr(budget, "QUICK_COUNT", quick)
    k3 = kn.read("puzzles/k3.txt")
    assert len(kn.kakuro(k3)) == 40
    caps = listed_caps(monkeypatch)
    assert np.array_equal(kn.kakuro(k3), kn.kakuro(k3, limit=100)) and caps[1] == 41


def test_without_a_limit_a_grid_whose_count_cannot_tell_is_refused_within_seconds(monkeypatch):
    # the open 30x100 grid: its walk thrashes and Knuth's random descents meet no solution;
    # kakuro() listed and counted past 150 s and 1.5 GB before any answer
    monkeypatch.setattr(budget, "DECIDE_SECONDS", 1.0)
    grid = kn.read(Path(__file__).parents[1] / "bench" / "sets" / "open-30x100.txt")
    ahead.main(["model", "search", "checks", "count"])     # the decision alone is timed
    started = time.perf_counter()
    with pytest.raises(kn.TooManySolutions, match="could not tell within 1 s") as e:
        kn.kakuro(grid)
    assert e.value.at_least == 0 and e.value.count is None
    assert time.perf_counter() - started < 60   # 1 s of counting, and the walk's first nodes


def test_a_small_memory_budget_is_enforced_exactly():
    three_blocks = [["x", (3, 0), (3, 0), "x", (3, 0), (3, 0)],
                    [(0, 3), "_", "_", (0, 3), "_", "_"],
                    [(0, 3), "_", "_", (0, 3), "_", "_"]]
    assert len(kn.kakuro(three_blocks)) == 4
    with pytest.raises(kn.TooManySolutions, match="more than 3 solutions"):
        kn.kakuro(three_blocks, max_bytes=3 * (2 * 8 + 18 + 1))


def test_timeout_raises_cleanly():
    for call in (kn.count, kn.kakuro):
        started = time.perf_counter()
        with pytest.raises(kn.SolveTimeout):
            call(OPEN_BLOCK, timeout=0.3) if call is kn.count else call(OPEN_BLOCK, timeout=0.3,
                                                                          limit=10**7)
        assert time.perf_counter() - started < 30       # not the hours of the whole count
    assert kn.reduce(OPEN_BLOCK, timeout=60).status == "stuck"
    with pytest.raises(ValueError, match="timeout"):
        kn.count(OPEN_BLOCK, timeout=-1)


def test_a_timeout_holds_where_each_node_is_slow():
    # three 45-sums (9! rows each): a node of the essay's fan-out took up to 47 ms, and the
    # clock, read once in 1024 nodes, let a 20 s timeout run 48 s. Since its checks learn
    # clauses, the whole answer takes about 1 s (0.96-1.10 s warm), so the timeout is 0.2 s.
    draft = kn.read(Path(__file__).parent / "data" / "draft-45-sums.txt")
    started, worked = time.perf_counter(), time.process_time()
    with pytest.raises(kn.SolveTimeout):
        kn.kakuro(draft, limit=2, timeout=0.2)
    # the work past the deadline (a slow node's), however loaded the machine; and bounded
    assert time.process_time() - worked < 5 and time.perf_counter() - started < 60


def test_row_budget_raises_budget_error():
    with pytest.raises(kn.BudgetError, match="max_rows="):
        kn.count(OPEN_BLOCK, max_rows=1000)


# -- random grids of random shapes: only PuzzleError may come out ---------------

@st.composite
def random_grids(draw):
    """Arbitrary arrays: blanks, clues 0-45 anywhere that is not blank, givens anywhere."""
    H, W = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    cells = st.lists(st.integers(0, 4), min_size=H * W, max_size=H * W)
    kind = np.array(draw(cells)).reshape(H, W)
    blank = kind >= 2
    sums = st.lists(st.integers(0, 45), min_size=H * W, max_size=H * W)
    down = np.where(blank, 0, np.array(draw(sums)).reshape(H, W))
    across = np.where(blank, 0, np.array(draw(sums)).reshape(H, W))
    given = np.where(kind == 4, np.array(draw(st.lists(st.integers(0, 9), min_size=H * W,
                                                        max_size=H * W))).reshape(H, W), 0)
    return kn.Puzzle(blank, down, across, given)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_grids())
def test_random_grids_give_answers_or_puzzle_errors(p):
    try:
        sols = kn.kakuro(p, limit=50)
    except kn.PuzzleError:
        return
    n = kn.count(p, limit=50)
    r = kn.reduce(p)
    assert n == len(sols)
    assert (n == 0) == (r.status == "contradiction") or r.status == "stuck"
    if r.status == "contradiction":
        assert r.reason


# -- parser fuzzing: arbitrary text and mutated samples --------------------------

from conftest import SAMPLES  # noqa: E402

SAMPLE_TEXTS = [(PUZZLES / name).read_text() for name in SAMPLES]
PUZZLE_ALPHABET = "x_\\|;,-0123456789 \t\n#()[]{}\"rows:"


def only_puzzle_errors(text, fmt=None):
    """Parse and, if that works, solve a little; only PuzzleError may come out, or a
    SolveTimeout of a puzzle that parsed (5 s include compiling on an empty cache, so
    whether they suffice depends on the machine)."""
    try:
        p = kn.parse(text, format=fmt)
    except kn.PuzzleError as e:
        assert str(e)
        return
    try:
        kn.kakuro(p, limit=5, timeout=5)
        kn.count(p, limit=5, timeout=5)
        kn.reduce(p, timeout=5)
    except (kn.PuzzleError, kn.SolveTimeout):
        pass


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=300), st.text(PUZZLE_ALPHABET, max_size=300)),
       st.sampled_from((None,) + kn.formats.FORMATS))
def test_arbitrary_text_gives_only_puzzle_errors(text, fmt):
    only_puzzle_errors(text, fmt)


@st.composite
def mutated_samples(draw):
    """A sample's text after one to four random edits."""
    text = draw(st.sampled_from(SAMPLE_TEXTS))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 12)))
        edit = draw(st.sampled_from(["delete", "insert", "replace", "duplicate"]))
        if edit == "delete":
            text = text[:i] + text[j:]
        elif edit == "insert":
            text = text[:i] + draw(st.text(PUZZLE_ALPHABET, min_size=1, max_size=4)) + text[i:]
        elif edit == "replace":
            text = text[:i] + draw(st.text(PUZZLE_ALPHABET, max_size=4)) + text[j:]
        else:
            text = text[:i] + text[i:j] + text[i:]
    return text


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_samples(), st.sampled_from((None,) + kn.formats.FORMATS))
def test_mutated_samples_give_only_puzzle_errors(text, fmt):
    only_puzzle_errors(text, fmt)
