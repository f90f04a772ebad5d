"""Reading, writing and detecting the five text formats, and their error messages."""

import re

import numpy as np

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from conftest import PUZZLES, SAMPLES, examples
from kakuro_np.formats import FORMATS

# The formats that hold any grid and given digits. A puzz.link URL holds neither given
# digits nor blanks or stray sums in row 0 and column 0, so it stays out of the loops over
# arbitrary grids; tests/formats/test_puzzlink.py round-trips every grid a URL can hold.
ANY_GRID = tuple(f for f in FORMATS if f != "puzzlink")

# The Kuroro example, written by hand in the essay's format.
KURORO_AS_JBOXED = """\
x ; x ; 27 0 ; 4 0 ; x ; x ; 9 0 ; 11 0 ; x ; x
x ; 6 11 ; _ ; _ ; 7 0 ; 0 3 ; _ ; _ ; 16 0 ; 13 0
0 10 ; _ ; _ ; _ ; _ ; 28 24 ; _ ; _ ; _ ; _
0 10 ; _ ; _ ; 5 6 ; _ ; _ ; 28 0 ; 11 13 ; _ ; _
x ; 0 12 ; _ ; _ ; 29 10 ; _ ; _ ; _ ; _ ; 7 0
x ; 9 0 ; 18 41 ; _ ; _ ; _ ; _ ; _ ; _ ; _
0 4 ; _ ; _ ; 11 23 ; _ ; _ ; _ ; 4 3 ; _ ; _
0 28 ; _ ; _ ; _ ; _ ; _ ; _ ; _ ; 27 0 ; x
x ; 13 29 ; _ ; _ ; _ ; _ ; 15 11 ; _ ; _ ; 5 0
0 15 ; _ ; _ ; 12 0 ; 4 14 ; _ ; _ ; 9 12 ; _ ; _
0 10 ; _ ; _ ; _ ; _ ; 0 13 ; _ ; _ ; _ ; _
x ; x ; 0 12 ; _ ; _ ; x ; 0 14 ; _ ; _ ; x
"""

# One small puzzle, 3x3 with a given 2, in every format.
SMALL = kn.Puzzle.from_rows([["x", (4, 0), (3, 0)], [(0, 3), "_", 2], [(0, 4), "_", "_"]])
SMALL_TEXTS = {
    "jboxed": "x ; 4 0 ; 3 0\n0 3 ; _ ; 2\n0 4 ; _ ; _\n",
    "backslash": "3 3 TAB\n\\\t4\\\t3\\\n\\3\tx\t2\n\\4\t_\t__\n",
    "pipe": "\\|4\\|3\\\n\\3||2\n\\4||\n",
    "comma": "3 3\n- 4, 3,\n,3 0 2\n,4 0 0\n",
    "json": '{"rows": [["x", [4, 0], [3, 0]], [[0, 3], "_", 2], [[0, 4], "_", "_"]]}',
}


# -- the samples ------------------------------------------------------------------

@pytest.mark.parametrize("name", SAMPLES)
def test_sample_reads_in_its_format(name, expected):
    text = (PUZZLES / name).read_text()
    assert kn.detect(text) == expected[name]["format"]
    p = kn.read(PUZZLES / name)
    assert p == kn.parse(text, format=expected[name]["format"]) == kn.read(str(PUZZLES / name))
    assert p.shape == (expected[name]["rows"], expected[name]["cols"])
    assert int(p.blank.sum()) == expected[name]["blank_cells"]


@pytest.mark.parametrize("fmt", FORMATS)  # every sample fits a URL too
@pytest.mark.parametrize("name", SAMPLES)
def test_sample_round_trips_through_every_format(name, fmt):
    p = kn.read(PUZZLES / name)
    text = kn.format(p, fmt)
    assert kn.detect(text) == fmt
    assert kn.parse(text) == p
    assert kn.parse(text, format=fmt) == p


def test_kuroro_example_matches_the_hand_written_jboxed():
    p = kn.read(PUZZLES / "kuroro-example.txt")
    assert p == kn.parse(KURORO_AS_JBOXED)
    assert (p.down[1, 1], p.across[1, 1]) == (6, 11)   # 6\11
    assert (p.down[0, 2], p.across[0, 2]) == (27, 0)   # 27\
    assert (p.down[2, 0], p.across[2, 0]) == (0, 10)   # \10
    assert (p.down[2, 5], p.across[2, 5]) == (28, 24)  # 28\24
    assert p.inactive[0, 0] and p.inactive[11, 9] and p.blank[1, 2]


def test_kuroro_writer_gives_back_the_document_tokens():
    original = (PUZZLES / "kuroro-example.txt").read_text().split("\n")
    written = kn.format(kn.read(PUZZLES / "kuroro-example.txt"), "backslash").split("\n")
    assert written[0].split() == original[0].split() == ["12", "10", "TAB"]
    assert [line.split() for line in written[1:13]] == [line.split() for line in original[1:13]]


# -- random puzzles ----------------------------------------------------------------

@st.composite
def puzzles(draw, max_side=12):
    """Any grid of blank, clue and inactive cells (runs of 9 at most), clue sums 1-45,
    givens in some blanks."""
    h, w = draw(st.integers(1, max_side)), draw(st.integers(1, max_side))
    n = h * w
    kind = np.array(draw(st.lists(st.sampled_from("bci"), min_size=n, max_size=n))).reshape(h, w)
    one = np.array(draw(st.lists(st.integers(1, 45), min_size=n, max_size=n))).reshape(h, w)
    other = np.array(draw(st.lists(st.integers(0, 45), min_size=n, max_size=n))).reshape(h, w)
    flip = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n))).reshape(h, w)
    digits = np.array(draw(st.lists(st.integers(0, 9), min_size=n, max_size=n))).reshape(h, w)
    kind[:, 9::10] = kind[9::10] = "i"      # runs of 9 at most: a reader refuses longer ones
    blank, clue = kind == "b", kind == "c"
    down = np.where(clue, np.where(flip, one, other), 0)
    across = np.where(clue, np.where(flip, other, one), 0)
    return kn.Puzzle(blank, down, across, np.where(blank, digits, 0))


FAST = settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(puzzles())
@example(kn.Puzzle([[True]], [[0]], [[0]]))                       # one blank
@example(kn.Puzzle([[True, True]], [[0, 0]], [[0, 0]]))           # a row of blanks
@example(kn.Puzzle([[True]] * 3, [[0]] * 3, [[0]] * 3, [[0], [5], [0]]))
@example(kn.Puzzle([[False]] * 4, [[3]] + [[0]] * 3, [[1]] + [[0]] * 3))
@example(kn.Puzzle([[False], [True], [True]], [[3], [0], [0]], [[1], [0], [0]], [[0], [5], [6]]))
def test_random_puzzles_round_trip_through_every_format(p):
    for fmt in ANY_GRID:
        text = kn.format(p, fmt)
        assert kn.detect(text) == fmt, text
        assert kn.parse(text) == p, text


@FAST
@given(puzzles(max_side=8), st.data())
def test_solutions_round_trip_as_given_digits(p, data):
    h, w = p.shape
    solution = np.array(data.draw(st.lists(st.integers(1, 9), min_size=h * w, max_size=h * w)))
    solution = solution.reshape(h, w)
    solved = p.with_given(np.where(p.blank, solution, 0))
    for fmt in ANY_GRID:
        assert kn.parse(kn.format(p, fmt, solution=solution)) == solved


# -- what real files look like ---------------------------------------------------------

@pytest.mark.parametrize("fmt", [f for f in ANY_GRID if f != "json"])
def test_every_format_reads_the_small_puzzle(fmt):
    assert kn.parse(SMALL_TEXTS[fmt]) == SMALL
    assert kn.detect(SMALL_TEXTS[fmt]) == fmt


def test_json_reads_the_small_puzzle():
    assert kn.parse(SMALL_TEXTS["json"]) == SMALL and kn.detect(SMALL_TEXTS["json"]) == "json"


def _messy(text: str) -> bytes:
    """A BOM, Windows line endings, tabs for spaces, comments, trailing blanks and blank lines."""
    lines = ["# a comment", "   # an indented comment"] + text.rstrip("\n").split("\n")
    lines = [line.replace(" ", " \t  ") + "  \t" for line in lines]
    return ("\ufeff" + "\r\n".join(lines) + "\r\n\r\n  \r\n").encode("utf-8")


@pytest.mark.parametrize("fmt", ["jboxed", "backslash", "comma", "json"])
def test_bom_crlf_tabs_and_comments_do_not_change_the_puzzle(fmt):
    text = SMALL_TEXTS[fmt] if fmt != "json" else kn.format(SMALL, "json")
    data = _messy(text) if fmt != "json" else b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode()
    assert kn.parse(data) == SMALL
    assert kn.parse(data.decode("utf-8")) == SMALL


def test_pipe_survives_bom_crlf_spaces_and_comments():
    data = "\ufeff# thesis file\r\n \\ | 4\\ | 3\\ \r\n\\3 |  | 2  \r\n\t\\4|\t|\r\n\r\n".encode()
    assert kn.parse(data) == SMALL


def test_kuroro_header_free_text_after_the_grid_is_ignored():
    text = SMALL_TEXTS["backslash"] + "Comments may follow the grid; | \\ anything 99\\99\n"
    assert kn.parse(text) == SMALL


def test_backslash_without_header_ends_at_a_blank_line():
    text = "\\ 4\\ 3\\\n\\3 x 2\n\\4 ___ _\n\nsolved by hand in 5 minutes\n"
    assert kn.parse(text) == SMALL and kn.detect(text) == "backslash"


def test_backslash_reads_tabs_spaces_and_every_blank_spelling():
    text = "3 3\n\\   4\\\t\t3\\\n\\3 X 2\n\\4 _____ x\n"
    assert kn.parse(text) == SMALL and kn.detect(text) == "backslash"


def test_pipe_with_digits_and_choices_parses():
    text = "\\|4\\|3\\\n\\3|1(1,2)|2\n\\4|(1,3)|3( 1 , 2 )\n"
    p = kn.parse(text)
    assert kn.detect(text) == "pipe"
    assert p.given.tolist() == [[0, 0, 0], [0, 1, 2], [0, 0, 3]]
    assert p.with_given(np.zeros((3, 3), int)) == SMALL.with_given(np.zeros((3, 3), int))


def test_pipe_choices_hold_nine_digits_at_most_and_are_read_back():
    from kakuro_np.formats.pipe import pipe_marks
    text = "\\|4\\|3\\\n\\3|( 1 , 2 ,3,4,5,6,7,8,9 )|2\n\\4|(9,9)|\n"
    assert kn.parse(text) == SMALL
    marks = pipe_marks(text)
    assert marks[1, 1].all() and marks[2, 1].tolist() == [False] * 8 + [True]


def test_pipe_accepts_borders_and_thesis_spacing():
    plain = "\\|4\\|3\\\n\\3||2\n\\4||\n"
    bordered = "|\\|4\\|3\\|\n|\\3||2|\n|\\4|||\n"
    spaced = " \\ | 4 \\ | 3 \\\n \\ 3 |   | 2\n \\ 4 |  |   \n"
    assert kn.parse(plain) == kn.parse(bordered) == kn.parse(spaced) == SMALL


def test_pipe_writer_borders_only_when_needed():
    assert kn.format(SMALL, "pipe") == "\\|4\\|3\\\n\\3||2\n\\4||\n"
    all_blank = kn.Puzzle(np.ones((2, 3), bool), np.zeros((2, 3), int), np.zeros((2, 3), int))
    assert kn.format(all_blank, "pipe") == "||||\n||||\n"
    assert kn.parse(kn.format(all_blank, "pipe")) == all_blank


def test_comma_solution_puts_digits_in_place_of_zeros():
    p = SMALL.with_given(np.zeros((3, 3), int))
    solution = np.array([[0, 0, 0], [0, 1, 2], [0, 3, 1]])
    assert kn.format(p, "comma") == "3 3\n- 4, 3,\n,3 0 0\n,4 0 0\n"
    assert kn.format(p, "comma", solution=solution) == "3 3\n- 4, 3,\n,3 1 2\n,4 3 1\n"
    assert kn.format(p, "jboxed", solution=solution).splitlines()[2] == "0 4 ; 3 ; 1"
    assert kn.parse(kn.format(p, "comma", solution=solution)).given.tolist() == solution.tolist()


def test_comma_solution_of_a_sample():
    p = kn.read(PUZZLES / "k0.txt")
    s = np.array([[0, 0, 0, 0, 0], [0, 0, 0, 2, 1], [0, 3, 1, 4, 2], [0, 1, 2, 0, 0]])
    assert kn.format(p, "comma", solution=s) == (
        "4 5\n- - - 6, 3,\n- 4, 3,3 2 1\n,10 3 1 4 2\n,3 1 2 - -\n")
    assert (kn.parse(kn.format(p, "pipe", solution=s)).given == s).all()


def test_read_accepts_paths_text_and_bytes(tmp_path):
    path = tmp_path / "small.txt"
    path.write_bytes(_messy(SMALL_TEXTS["comma"]))
    assert kn.read(path) == kn.read(str(path)) == kn.read(SMALL_TEXTS["pipe"]) == SMALL
    assert kn.read(SMALL_TEXTS["comma"].encode()) == SMALL


def test_errors_from_a_file_name_it(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("x ; 3 0\n0 3 ; q\n")
    with pytest.raises(kn.PuzzleError, match=r"bad\.txt:2:7: unknown cell 'q'"):
        kn.read(path)
    with pytest.raises(kn.PuzzleError, match="cannot read file"):
        kn.read(tmp_path / "missing.txt")


def test_format_names_are_checked():
    with pytest.raises(kn.PuzzleError, match="unknown format 'csv'"):
        kn.format(SMALL, "csv")
    with pytest.raises(kn.PuzzleError, match="unknown format 'csv'"):
        kn.parse(SMALL_TEXTS["comma"], format="csv")
    with pytest.raises(kn.PuzzleError, match="solution has shape"):
        kn.format(SMALL, "comma", solution=np.zeros((2, 2), int))


# -- malformed input -------------------------------------------------------------------

MALFORMED = [
    # (input, format or None, words the message must hold)
    ("", None, "1:1: there is no puzzle: the input is empty"),
    ("\n  \n\t\n", None, "1:1: there is no puzzle: the input is empty"),
    ("# only a comment\n", None, "1:1: there is no puzzle: the input is empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", None, "1:1: byte 0x89 is not UTF-8"),
    (b"x ; 3 0\n0 3 ; \xe9", None, "2:7: byte 0xe9 is not UTF-8"),
    ("x ; 3 0\n0 3 ; _\x00", None, "2:8: control character U+0000"),
    ("hello world\n", None, "1:1: cannot tell the format of 'hello world' "
                            "(tried jboxed, backslash, pipe, comma, json, puzzlink)"),
    ("x ; 3 0\n0 3 ; q", None, "2:7: unknown cell 'q'"),
    ("x ; 3 0\n0 3 ;  ; _", None, "2:6: empty cell between ';'"),
    ("x ; 3 0 ; x\n0 3 ; _", None, "2:8: row 2 has 2 cells, expected 3 (as row 1 has)"),
    ("x ; 46 0\n0 3 ; _", None, "1:5: clue 46 is more than 45"),
    ("x ; 3 0\n0 3 ; _ ; _ ; _", None, "2:11: row 2 has 4 cells, expected 2"),
    ("3 2 TAB\n\\ 3\\\n\\3 x\n", None, "1:1: the header says 3 rows, but the grid has 2"),
    ("2 3 TAB\n\\ 3\\ \\\n\\3 x\n", None, "3:5: row 2 has 2 cells, expected 3 (as the header says)"),
    ("0 3 TAB\n\\ 3\\ \\\n", None, "1:1: the header says 0 rows; a grid has 1 to 999999"),
    ("\\ 3\\\n\\3 y\n", None, "2:4: unknown cell 'y'"),
    ("\\ 3\\\n\\3 0\n", None, "2:4: unknown cell '0'"),
    ("\\ 3\\\n\\99 x\n", None, "2:2: clue 99 is more than 45"),
    ("\\ 3\\\n\\3\\4 x\n", None, "2:3: clue '\\3\\4' has more than one '\\'"),
    ("\\ 3\\\n\\3a x\n", None, "2:2: clue sum '3a' is not a whole number"),
    ("\\|3\\\n\\3|5(1,0)\n", None, "2:8: choice '0' is not a digit 1-9"),
    ("\\|3\\\n\\3|5(1,2\n", None, "2:5: choices need a closing ')'"),
    ("\\|3\\\n\\3|(1,2)7\n", None, "2:9: unexpected '7' after the choices"),
    ("\\|3\\\n\\3|5(1,2,3,4,5,6,7,8,9,1)\n", None, "2:5: 10 choices in one cell, more than the 9"),
    ("\\|3\\\n\\3|(" + "1," * 10 ** 6 + "1)\n", None, "2:4: 1,000,001 choices in one cell"),
    ("\\|3\\\n\\3|12\n", None, "2:4: unknown cell '12'"),
    ("\\|3\\\n\\3||\n", None, "2:5: row 2 has 3 cells, expected 2"),
    ("\\|3\\\n\\3|\\50\n", None, "2:5: clue 50 is more than 45"),
    ("- 3,\n,3 0\n", "comma", "1:1: a comma file starts with a 'ROWS COLS' header"),
    ("2 2\n- 3,\n,3 0\n0 0\n", None, "4:1: the header says 2 rows, but the grid goes on"),
    ("3 2\n- 3,\n,3 0\n", None, "1:1: the header says 3 rows, but the grid has 2"),
    ("2 2\n- 3,\n,3 a\n", None, "3:4: unknown cell 'a'"),
    ("2 2\n- 3,\n,3 0 0\n", None, "3:6: row 2 has 3 cells, expected 2 (as the header says)"),
    ("2 2\n- 3,,4\n,3 0\n", None, "2:5: clue '3,,4' has more than one ','"),
    ("2 2\n- 3,\n,300 0\n", None, "3:2: clue 300 is more than 45"),
    ('{"rows": [["x", [3, 0]],\n  [[0, 3], "_"]', None, "2:16: bad JSON: Expecting ',' delimiter"),
    ('{"rows": [["x", [3, 0]],\n  [[0, 3], "q"]]}', None, "2:12: unknown cell 'q'"),
    ('{"rows": [["x", [3, 0]],\n  [[0, 3]]]}', None, "2:3: row 2 has 1 cell, expected 2"),
    ('{"rows": [["x", [3, 0]],\n  [[0, 99], "_"]]}', None, "2:4: clue sums must be 0-45, got (0, 99)"),
    ('{"cells": []}', None, '1:1: a JSON puzzle is {"rows"'),
    ('{"rows": []}', None, "1:1: there is no puzzle"),
    ('{"rows": [[]]}', None, "1:11: row 1 has no cells"),
    ('{"rows": [["_"], 3]}', None, "1:18: row 2 is not a list of cells"),
    ('{"rows": [[' + "9" * 5000 + "]]}", None, "1:1: bad JSON"),
    ("[" * 100_000, "json", "1:1: bad JSON"),
    ("x ; 3 0\n0 " + "9" * 5000 + " ; _", None, "2:3: clue 999999999999... (5,000 digits) is more "
                                              "than 45"),
    ("x ; 3 0\n0 3 ; \x85", None, "2:7: control character U+0085"),
    ("2 " + "9" * 5000 + "\n- 3,\n,3 0\n", None,
     "1:3: the header says 999999999999... (5,000 digits) columns"),
]


@pytest.mark.parametrize("text, fmt, words", MALFORMED, ids=range(len(MALFORMED)))
def test_malformed_input_names_its_place(text, fmt, words):
    with pytest.raises(kn.PuzzleError) as info:
        kn.parse(text, format=fmt)
    assert words in str(info.value)
    assert info.value.line is not None and info.value.col is not None


@FAST
@given(st.binary(max_size=200))
def test_junk_bytes_raise_puzzle_error_or_parse(data):
    try:
        kn.parse(data)
    except kn.PuzzleError as e:
        assert e.line is not None and e.col is not None


@FAST
@given(puzzles(max_side=6), st.sampled_from(ANY_GRID), st.data())
def test_damaged_files_raise_only_puzzle_error(p, fmt, data):
    text = kn.format(p, fmt)
    i = data.draw(st.integers(0, len(text)))
    junk = data.draw(st.sampled_from(["q", "|", ";", "\\", ",", "\n", " ", "99", "(", "#", "0", "-", "{"]))
    try:
        kn.parse(text[:i] + junk + text[i:])
    except kn.PuzzleError as e:
        assert e.line is not None and e.col is not None


@pytest.mark.parametrize("path, why", [("puzzles/k9.kakuro", "No such file or directory"),
                                       ("puzzles/", "Is a directory"),
                                       ("puzzles", "Is a directory"),
                                       ("no-such-folder/", "No such file or directory"),
                                       ("no-such.txt", "No such file or directory")])
def test_read_of_a_path_it_cannot_read_says_so(path, why, monkeypatch):
    """A path that is missing, a folder, or of any extension: "cannot read file", not a
    format it cannot tell."""
    from conftest import ROOT
    monkeypatch.chdir(ROOT)
    with pytest.raises(kn.PuzzleError, match=f"^{re.escape(path)}: cannot read file: {why}$"):
        kn.read(path)


@pytest.mark.parametrize("fmt", ["jboxed", "backslash", "pipe", "comma", "json"])
def test_several_solutions_written_as_a_stream_read_back_one_by_one(fmt):
    k3 = kn.read(PUZZLES / "k3.txt")
    solutions = kn.kakuro(k3, limit=3)
    text = "".join(kn.formats.write_all(k3, fmt, solutions))
    back = kn.parse_all(text)
    assert len(back) == 3
    for puzzle, solution in zip(back, solutions):
        assert np.array_equal(puzzle.given, solution) and np.array_equal(puzzle.blank, k3.blank)
    with pytest.raises(kn.PuzzleError, match="holds several grids"):
        kn.parse(text)                          # never read as one glued grid
    assert [p.shape for p in kn.parse_all(kn.format(k3, fmt))] == [k3.shape]


def test_a_bad_grid_in_a_stream_is_named_by_its_line_in_the_whole_text(tmp_path):
    text = "x ; 3 0\n0 3 ; _\n---\nx ; 3 0\n0 3 ; q\n"
    (tmp_path / "s.txt").write_text(text)
    with pytest.raises(kn.PuzzleError, match=r"s\.txt:5:7: unknown cell 'q'"):
        kn.read_all(tmp_path / "s.txt")


# -- plain rows, read without a walk over the cells ---------------------------------------

def _read_both(text):
    """``parse(text)`` (plain rows by ``_plain_grid``) and the same by the cell-by-cell reader
    (``with_places`` asks for places, which ``_plain_grid`` leaves to it): each the Puzzle,
    or the error's message."""
    from kakuro_np.formats import parse, with_places
    out = []
    for read in (parse, lambda t: with_places(parse, t)[0]):
        try:
            out.append(read(text))
        except kn.PuzzleError as e:
            out.append(str(e))
    return out


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_plain_rows_read_as_the_cell_by_cell_reader_reads_them(data):
    """Random puzzles written as compact plain rows are read by ``_plain_grid`` into the
    same Puzzle as the cell-by-cell reader's."""
    from strategies import filled_puzzles
    from kakuro_np.formats.jboxed import _plain_grid
    puzzle, _ = data.draw(filled_puzzles())
    rows = [line.split(" ; ") for line in kn.formats.write_jboxed(puzzle).rstrip("\n").split("\n")]
    compact = "\n".join(";".join(cell.strip(" ;") for cell in row) for row in rows) + "\n"
    fast, slow = _read_both(compact)
    assert fast == slow == puzzle
    assert puzzle.shape[1] == 1 or _plain_grid(compact) == puzzle


PLAIN_TOKENS = ["x", "X", "_", "5", "0", "3 4", "45 0", "46 1", "7  8", "07 3", "", "a", " 9 ",
                "\t_", "1 2 3"]


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.lists(st.sampled_from(PLAIN_TOKENS), min_size=1, max_size=5), min_size=1,
                max_size=5), st.sampled_from(["", "\n", ";\n", "\n\n"]))
def test_any_plain_text_reads_as_the_cell_by_cell_reader_reads_it(rows, end):
    """Texts near the plain rows (bad tokens, sums past 45, rows of two widths, runs too
    long, blank lines): the same Puzzle, or the same error naming the same place."""
    text = "\n".join(";".join(row) for row in rows) + end
    assume(text.strip())                        # no text at all: nothing to compare
    fast, slow = _read_both(text)
    assert fast == slow
