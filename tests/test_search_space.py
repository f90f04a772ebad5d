"""stats: the search-space figures of Davies et al., against kc, the paper and the solver."""

import json
import re
import math

import pytest
from hypothesis import HealthCheck, given, settings

import kakuro_np as kn
from conftest import PUZZLES, examples
from kakuro_np.search_space import COMBINATIONS, stats
from strategies import filled_puzzles

# U2 by hand: across 10 in 2 -> {1,2,3,4,6,7,8,9}, across 11 in 2 -> {2..9},
# down 23 in 3 -> {6,8,9}, down 4 in 2 -> {1,3}; (3, 1) has no across clue.
HAND = [["x", (23, 0), (4, 0)],
        [(0, 10), "_", "_"],
        [(0, 11), "_", "_"],
        ["x", "_", "x"]]


def with_given(rows, digit):
    return [row[:1] + [digit] + row[2:] if i == 3 else row for i, row in enumerate(rows)]


@pytest.mark.parametrize("length", range(10))
def test_generating_function_table_equals_kc(length):
    assert COMBINATIONS.shape == (10, 46)
    for total in range(46):
        assert COMBINATIONS[length, total] == len(kn.kc(total, length)), (total, length)


@pytest.mark.parametrize("total, length, combos, perms", [(16, 2, 1, 2), (20, 4, 12, 288)])
def test_the_papers_runs(total, length, combos, perms):
    s = stats([[(0, total)] + ["_"] * length])
    assert (s["lengths"], s["sums"]) == ([length], [total])
    assert (s["combinations"], s["permutations"]) == ([combos], [perms])


def test_U1_and_white_cells_on_k0():
    s = stats(kn.read(PUZZLES / "k0.txt"))
    assert s["white_cells"] == 8          # 2 + 4 + 2 blanks
    assert s["U1"] == 9 ** 8
    assert s["log10_U1"] == pytest.approx(8 * math.log10(9))
    assert s["entries"] == len(kn.entries(PUZZLES / "k0.txt")[1])


def test_U2_by_hand():
    s = stats(HAND)
    assert s["white_cells"] == 5
    assert (s["lengths"], s["sums"]) == ([2, 2, 3, 2], [10, 11, 23, 4])
    assert (s["combinations"], s["permutations"]) == ([4, 4, 1, 1], [8, 8, 6, 2])
    #                 (1,1) (1,2) (2,1) (2,2) (3,1)
    assert s["U2"] == 3 * 2 * 3 * 1 * 3
    assert s["after_forced"] == 1          # forced moves solve it: 9 1 / 8 3 / 6
    assert stats(with_given(HAND, 6))["U2"] == 3 * 2 * 3 * 1 * 1
    impossible = stats(with_given(HAND, 5))   # 5 is not in {6, 8, 9}
    assert impossible["U2"] == 0 and impossible["log10_U2"] is None
    assert impossible["after_forced"] == 0


@settings(max_examples=examples(40), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(filled_puzzles(max_side=6))
def test_bounds_hold_on_random_puzzles(case):
    p, _ = case
    s = stats(p)
    n = kn.count(p)
    assert s["U1"] >= s["U2"] >= s["after_forced"] >= n
    assert s["white_cells"] == int(p.blank.sum())


@pytest.mark.parametrize("rows", [HAND, with_given(HAND, 5)])
def test_json_round_trip(rows):
    s = stats(rows)
    assert json.loads(json.dumps(s)) == s


def test_the_command_line_prints_the_figures_of_a_big_grid():
    """U1 of a 100x30 grid is past a float (9 ** 1763): the command prints it, exit 0."""
    import subprocess
    import sys
    from conftest import ROOT
    out = subprocess.run([sys.executable, "-m", "kakuro_np", "stats",
                          str(ROOT / "bench/sets/open-30x100.txt")],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "U1 = 9^1763 = 2.136e+1682" in out.stdout
    assert re.search(r"U2 = product of \|C_across & C_down\| = \d\.\d{3}e\+\d+", out.stdout)


def test_the_figures_read_as_a_dict_and_as_attributes():
    s = stats(PUZZLES / "k2.txt")
    assert s.white_cells == s["white_cells"] == 48 and s.U1 == 9 ** 48
    assert json.loads(json.dumps(s))["U2"] == s.U2
    with pytest.raises(AttributeError, match="no figure 'U3'"):
        s.U3


def test_dir_of_the_package_lists_what_it_offers():
    names = dir(kn)
    assert set(kn.__all__) <= set(names) and "__version__" in names
    assert not {"TYPE_CHECKING", "importlib", "sys", "types", "os"} & set(names)
