"""puzz.link (pzprjs) Kakuro URLs: reading, writing, detection and malformed URLs."""

import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from conftest import PUZZLES, examples
from kakuro_np.formats.puzzlink import parse_puzzlink, write_puzzlink
from strategies import filled_puzzles

# cspuz's test URL for Kakuro (cspuz_rs/src/puzzle/kakuro.rs), one solution.
CSPUZ = "https://puzz.link/p?kakuro/6/5/Dclh4t9fl3-p-gl-alJeC3BgG"
CSPUZ_SOLUTION = [
    [0, 0, 0, 0, 0, 0, 0],
    [0, 0, 3, 9, 0, 3, 1],
    [0, 6, 4, 5, 3, 1, 2],
    [0, 9, 7, 0, 9, 6, 0],
    [0, 8, 6, 2, 5, 4, 1],
    [0, 0, 9, 7, 0, 8, 2],
]
BODY = CSPUZ.split("?")[1]
SAMPLES = sorted(p.name for p in PUZZLES.glob("k*.txt"))


def test_the_cspuz_url_reads_and_has_one_solution():
    p = kn.parse(CSPUZ)
    assert p.shape == (6, 7)
    assert (p.down[1, 1], p.across[1, 1]) == (23, 12)
    assert p.down[0].tolist() == [0, 0, 29, 14, 0, 22, 3]
    assert p.across[:, 0].tolist() == [0, 0, 21, 16, 26, 0]
    assert (p.down[3, 6], p.across[3, 6]) == (3, 0)          # '3-'
    assert (p.down[5, 1], p.across[5, 1]) == (0, 16)         # '-g'
    assert p.inactive[0, 0] and p.inactive[0, 1] and p.inactive[1, 0] and p.inactive[5, 0]
    assert kn.count(p) == 1
    assert kn.kakuro(p)[0].tolist() == CSPUZ_SOLUTION


def test_the_cspuz_url_is_written_back_as_it_was():
    assert kn.format(kn.parse(CSPUZ), "puzzlink") == CSPUZ + "\n"


def test_old_urls_write_zero_for_no_sum():
    assert kn.parse(CSPUZ.replace("-", "0")) == kn.parse(CSPUZ)


@pytest.mark.parametrize("url", [
    CSPUZ,
    CSPUZ.replace("https://", "http://"),
    "http://pzv.jp/p.html?" + BODY,
    "https://pzprxs.vercel.app/p?" + BODY,
    "puzz.link/p?" + BODY,
    BODY,
    "  \n\t" + CSPUZ + "  \n\n",
    "# from puzz.link\n" + CSPUZ + "\n",
])
def test_every_spelling_is_detected_and_read(url):
    assert kn.formats.detect(url) == "puzzlink"
    assert kn.parse(url) == kn.read(url) == kn.parse(url, format="puzzlink") == kn.parse(CSPUZ)
    assert kn.read(url.encode()) == kn.parse(CSPUZ)


def test_a_url_is_not_taken_for_a_file_name():
    url = "https://puzz.link/p?kakuro/9/6/" + "." * 20 + "txt" + "abc"   # ends like a file name
    assert url.endswith(".txtabc")                   # 34 blank cells, then three border sums
    p = kn.read(url)
    assert p.shape == (7, 10) and p.blank.sum() == 34 and p.blank[4:, 1:].all()
    assert p.across[4:, 0].tolist() == [10, 11, 12]


@pytest.mark.parametrize("name", SAMPLES)
def test_samples_round_trip_through_the_url(name):
    p = kn.read(PUZZLES / name)
    if p.given.any():
        with pytest.raises(kn.PuzzleError, match="holds no given digits"):
            kn.format(p, "puzzlink")
        p = p.with_given(None)
    url = kn.format(p, "puzzlink")
    assert kn.formats.detect(url) == "puzzlink"
    assert kn.parse(url) == p


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(filled_puzzles(max_side=12))
def test_random_puzzles_round_trip(pf):
    p = pf[0].with_given(None)
    url = write_puzzlink(p)
    assert url.startswith("https://puzz.link/p?kakuro/") and url.endswith("\n")
    assert parse_puzzlink(url) == p == kn.parse(url)


def test_long_blank_runs_are_cut_at_sixteen():
    blank = np.zeros((6, 9), bool)
    blank[1:, 1:] = True                 # 40 blank cells across row ends: z z r (runs of 8, 5)
    p = kn.Puzzle(blank, np.zeros((6, 9), int), np.zeros((6, 9), int))
    url = write_puzzlink(p)
    assert url == "https://puzz.link/p?kakuro/8/5/zzr" + "-" * 13 + "\n"
    assert parse_puzzlink(url) == p


def test_a_run_over_9_is_refused_at_its_place_in_the_url():
    # a URL's blank runs pass row ends, but the grid's runs hold 9 cells at most; the place
    # is where the URL writes the clue cell: in the body, or as a border sum (the down 9)
    with pytest.raises(kn.PuzzleError) as info:
        parse_puzzlink("kakuro/10/1/t" + "1" * 10 + "9")
    assert str(info.value) == ("1:24: cell (1, 0): the across run right of this cell is 10 cells "
                               "long, longer than 9, so it cannot hold distinct digits")
    with pytest.raises(kn.PuzzleError, match=r"^1:25: cell \(0, 1\): the down run below this "
                                             r"cell is 12 cells long"):
        parse_puzzlink("kakuro/1/12/" + "k" * 12 + "9" + "-" * 12)


# -- what a URL cannot hold -------------------------------------------------------------

def _grid(rows):
    return kn.Puzzle.from_rows(rows)


CANNOT_HOLD = [
    (_grid([["x", (3, 0)], [(0, 3), 2]]), "cell (1, 1): a puzz.link URL holds no given digits"),
    (_grid([["x", (3, 0), "x"]]), "at least 2x2"),
    (_grid([["x"], [(0, 0)]]), "at least 2x2"),
    (_grid([["_", (3, 0)], [(0, 3), "_"]]), "cell (0, 0): a puzz.link URL keeps row 0 and column 0"),
    (_grid([["x", (3, 0), "_"], [(0, 3), "_", "_"]]), "cell (0, 2): a puzz.link URL keeps row 0"),
    (_grid([["x", (3, 0)], ["_", "_"]]), "cell (1, 0): a puzz.link URL keeps row 0"),
    (_grid([[(1, 1), (3, 0)], [(0, 3), "_"]]), "cell (0, 0): a puzz.link URL has no sums in the corner"),
    (_grid([["x", (3, 4)], [(0, 3), "_"]]), "cell (0, 1): a puzz.link URL has no across sum in row 0"),
    (_grid([["x", (3, 0)], [(5, 3), "_"]]), "cell (1, 0): a puzz.link URL has no down sum in column 0"),
    (_grid([["x", (3, 0), (7, 0)], [(0, 3), "_", "x"]]),
     "cell (0, 2): a puzz.link URL holds a down sum in row 0 only over a blank cell"),
    (_grid([["x", (3, 0)], [(0, 3), "_"], [(0, 8), "x"]]),
     "cell (2, 0): a puzz.link URL holds an across sum in column 0 only beside a blank cell"),
]


@pytest.mark.parametrize("p, words", CANNOT_HOLD, ids=range(len(CANNOT_HOLD)))
def test_the_writer_refuses_what_a_url_cannot_hold(p, words):
    with pytest.raises(kn.PuzzleError) as info:
        kn.format(p, "puzzlink")
    assert words in str(info.value)


def test_a_solution_cannot_be_written_as_a_url():
    p = kn.parse(CSPUZ)
    with pytest.raises(kn.PuzzleError, match="holds no given digits"):
        kn.format(p, "puzzlink", solution=CSPUZ_SOLUTION)


def test_every_inner_cell_can_be_written():
    """Sums over no cells, and clue cells with sums of 0-45, are all written inside the grid."""
    rows = [["x", (3, 0), "x", "x"],
            [(0, 3), "_", (45, 1), (0, 19)],
            ["x", (20, 0), (10, 9), "x"]]
    p = _grid(rows)
    url = write_puzzlink(p)
    assert url == "https://puzz.link/p?kakuro/3/2/kZ1-jA-a9.33\n"
    assert parse_puzzlink(url) == p


# -- malformed URLs ---------------------------------------------------------------------

MALFORMED = [
    ("kakuro/0/5/k", "1:8: the width is 0"),
    ("kakuro/6/x/k", "1:10: the height 'x' is not a whole number"),
    ("kakuro/-6/5/k", "1:8: the width '-6' is not a whole number"),
    ("kakuro//5/k", "1:8: the width is missing"),
    ("kakuro/6", "1:9: the URL ends after the width"),
    ("https://puzz.link/p?kakuro", "1:27: the URL ends after the puzzle type"),
    ("https://puzz.link/p?", "1:21: the puzzle type is missing"),
    ("https://puzz.link/p?sudoku/9/9/abc", "1:21: this URL is for 'sudoku', not kakuro"),
    ("https://puzz.link/pkakuro/1/1/k--", "1:1: no '?' in the address"),
    (CSPUZ[:-1], "1:56: the URL ends before the across sum of cell (4, 0)"),
    (CSPUZ[:40], "1:41: the URL ends after 17 of its 30 cells (6x5)"),
    (CSPUZ[:32], "1:33: the URL ends inside a clue cell"),
    (CSPUZ + "k", "1:57: unexpected 'k' after the last border sum"),
    (CSPUZ + "/", "1:57: unexpected '/' after the last border sum"),
    (CSPUZ.replace("h4", "h!"), "1:36: '!' is not a sum"),
    (CSPUZ.replace("Dc", "D!"), "1:33: '!' is not a sum"),
    (CSPUZ.replace("lh", "l!"), "1:35: unknown character '!': a cell is k-z"),
    (CSPUZ.replace("BgG", "B G"), "1:55: '\u0020' is not a sum"),
    ("kakuro/1/1/zz", "1:12: 'z' is 16 blank cells, but only 1 of the 1 cells are left"),
    ("kakuro/2/2/o4334", "1:12: 'o' is 5 blank cells, but only 4"),
    ("kakuro/1000000000/1000000000/k", "1:8: the width is 1000000000: with its clue row and column"),
    ("kakuro/5/" + "9" * 5000 + "/k", "1:10: the height is 999999999999... (5,000 digits): "
                                     "with its clue row"),
    ("kakuro/199/200/k", "1:12: the height is 200: with its clue row and column the grid is larger"),
    ("kakuro/1/1/k--\nkakuro/1/1/k--", "2:1: a puzz.link puzzle is one URL on one line"),
    ("  kakuro/1/1/k?", "1:15: '?' is not a sum"),
]


@pytest.mark.parametrize("url, words", MALFORMED, ids=range(len(MALFORMED)))
def test_malformed_urls_name_their_place(url, words):
    start = time.thread_time()                  # the work, not the machine's load
    with pytest.raises(kn.PuzzleError) as info:
        kn.parse(url)
    assert time.thread_time() - start < 1.0
    assert words in str(info.value)
    assert info.value.line is not None and info.value.col is not None
    with pytest.raises(kn.PuzzleError):
        kn.parse(url, format="puzzlink")


def test_the_largest_url_reads():
    side = kn.Puzzle.MAX_SIDE - 1
    p = kn.parse(f"kakuro/{side}/{side}/" + "." * side * side)
    assert p.shape == (side + 1, side + 1) and not p.blank.any()


@settings(max_examples=examples(200), deadline=None)
@given(filled_puzzles(max_side=6), st.data())
def test_damaged_urls_raise_only_puzzle_error(pf, data):
    url = write_puzzlink(pf[0].with_given(None)).strip()
    i = data.draw(st.integers(0, len(url)))
    junk = data.draw(st.sampled_from(["k", "z", ".", "-", "0", "Z", "/", "?", "!", " ", "9" * 30]))
    try:
        kn.parse(url[:i] + junk + url[i + 1:])
    except kn.PuzzleError as e:
        assert e.line is not None and e.col is not None
