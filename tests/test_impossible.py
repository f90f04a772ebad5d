"""kakuro_np.impossible: why a well-formed puzzle has no solution, in words."""

import pytest
from hypothesis import given, settings

import kakuro_np as kn
from conftest import PUZZLES, SAMPLES, examples
from kakuro_np.engine.build.entries import describe_entry, packed_entries
from kakuro_np.impossible import static_reason, why_impossible
from strategies import filled_puzzles


def reasons(rows):
    """``static_reason`` of each entry of the puzzle of ``rows``."""
    p = kn.Puzzle.from_rows(rows)
    packed = packed_entries(p)
    return [static_reason(p, packed, k) for k in range(len(packed.ent_sum))]


def why(rows, culprit=-1):
    p = kn.Puzzle.from_rows(rows)
    return why_impossible(p, packed_entries(p), culprit)


# -- static_reason: a run that cannot be filled on its own ------------------------------


@pytest.mark.parametrize("rows, reason", [
    # a 2-cell run of sum 2 needs two equal digits
    ([["x", (1, 0), (1, 0)], [(0, 2), "_", "_"]],
     "no 2 different digits add up to 2 (2 cells make 3 to 17)"),
    ([["x", (4, 0), (5, 0), (6, 0)], [(0, 25), "_", "_", "_"]],
     "no 3 different digits add up to 25 (3 cells make 6 to 24)"),
    ([["x", (10, 0)], [(0, 10), "_"]], "one cell cannot hold 10"),
    # the givens sum to 3, the clue says 5
    ([["x", (1, 0), (2, 0)], [(0, 5), 1, 2]], "the given digits add up to 3, not 5"),
    # 10 - 8 leaves 2 for two cells, which no two different digits make
    ([["x", (8, 0), (1, 0), (1, 0)], [(0, 10), 8, "_", "_"]],
     "the given 8 leaves 2 for the other 2 cells, which no 2 other different digits make"),
    ([["x", (8, 0), (9, 0), (1, 0), (1, 0)], [(0, 19), 9, 8, "_", "_"]],
     "the given 8, 9 leave 2 for the other 2 cells, which no 2 other different digits make"),
    ([["x", (4, 0), (4, 0), (1, 0)], [(0, 9), 4, 4, "_"]], "the digit 4 is given twice"),
])
def test_a_run_that_cannot_be_filled_says_why_in_the_puzzles_words(rows, reason):
    assert reasons(rows)[0] == reason


def test_a_run_that_can_be_filled_has_no_static_reason():
    assert reasons([["x", (4, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]]) == [""] * 4
    assert reasons([["x", (45, 0)]] + [[(0, 1), "_"]] * 9)[-1] == ""         # 45 over 9
    # a given digit in a run is a reason only when no combination holds it
    assert reasons([["x", (3, 0), (9, 0)], [(0, 10), 1, 9]])[0] == ""


def test_runs_that_clash_only_together_have_no_static_reason():
    """Each down 1 holds a 1 and the across 3 a 1 and a 2, but not both 1s at once."""
    rows = [["x", (1, 0), (1, 0)], [(0, 3), "_", "_"]]
    assert kn.count(rows) == 0 and reasons(rows) == ["", "", ""]


@settings(max_examples=examples(60))
@given(filled_puzzles())
def test_no_run_of_a_puzzle_with_a_solution_has_a_static_reason(case):
    """Every random puzzle here is filled by its own fill, givens included."""
    puzzle, _ = case
    packed = packed_entries(puzzle)
    assert [static_reason(puzzle, packed, k) for k in range(len(packed.ent_sum))] == \
        [""] * len(packed.ent_sum)


@pytest.mark.parametrize("name", SAMPLES)
def test_no_run_of_a_sample_has_a_static_reason(name):
    p = kn.read(PUZZLES / name)
    packed = packed_entries(p)
    assert not any(static_reason(p, packed, k) for k in range(len(packed.ent_sum)))


# -- why_impossible: one sentence naming the entry ----------------------------------------


def test_why_impossible_names_the_entry_before_its_reason():
    rows = [["x", (1, 0), (1, 0)], [(0, 2), "_", "_"]]
    p = kn.Puzzle.from_rows(rows)
    packed = packed_entries(p)
    assert why(rows) == (f"{describe_entry(p, packed, 0)}: no 2 different digits add up to 2 "
                         "(2 cells make 3 to 17)")
    assert why(rows).startswith("the across 2 at (1, 0) over 2 cells: ")


def test_the_first_impossible_run_in_entry_order_is_named():
    """Across entries come before down ones; the down 30 is impossible too, but the
    across 2 is named."""
    rows = [["x", (30, 0), (3, 0)], [(0, 2), "_", "_"], [(0, 3), "_", "_"]]
    assert why(rows).startswith("the across 2 at (1, 0) over 2 cells: no 2 different")
    fixed = [["x", (30, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 3), "_", "_"]]
    assert why(fixed).startswith("the down 30 at (0, 1) over 2 cells: no 2 different")


def test_a_static_reason_comes_before_the_culprit():
    rows = [["x", (1, 0), (1, 0)], [(0, 2), "_", "_"]]
    assert why(rows, culprit=2) == why(rows, culprit=-1)


def test_without_a_static_reason_the_culprit_is_named_as_ruled_out_by_its_crossings():
    rows = [["x", (9, 0), (4, 0)], [(0, 6), 2, "_"], [(0, 7), "_", "_"]]
    assert why(rows, culprit=2) == ("the down 9 at (0, 1) over 2 cells: no way to fill it "
                                    "fits the runs that cross it")
    assert why(rows, culprit=0).startswith("the across 6 at (1, 0) over 2 cells: no way")


@pytest.mark.parametrize("culprit", [-1, 4, 99])
def test_with_no_culprit_the_givens_are_blamed_when_there_are_any(culprit):
    rows = [["x", (9, 0), (4, 0)], [(0, 6), 2, "_"], [(0, 7), "_", "_"]]
    assert why(rows, culprit) == "the given digits leave no way to fill the grid"


def test_with_no_culprit_and_no_givens_the_forced_moves_are_blamed():
    rows = [["x", (1, 0), (1, 0)], [(0, 3), "_", "_"]]
    assert why(rows, culprit=-1) == "every way to go on from the forced moves fails"


@pytest.mark.parametrize("rows", [
    [["x", (1, 0), (1, 0)], [(0, 2), "_", "_"]],
    [["x", (1, 0), (1, 0)], [(0, 3), "_", "_"]],
    [["x", (30, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 3), "_", "_"]],
    [["x", (8, 0), (1, 0), (1, 0)], [(0, 10), 8, "_", "_"]],
    [["x", (9, 0), (4, 0)], [(0, 6), 2, "_"], [(0, 7), "_", "_"]],
])
def test_the_solver_reports_the_reason_of_why_impossible(rows):
    r = kn.reduce(rows)
    assert kn.count(rows) == 0 and r.status == "contradiction"
    p = kn.Puzzle.from_rows(rows)
    packed = packed_entries(p)
    if any(static_reason(p, packed, k) for k in range(len(packed.ent_sum))):
        assert r.reason == why(rows)
    else:
        assert r.reason in [why(rows, k) for k in range(len(packed.ent_sum))]


def test_a_solvable_puzzle_gets_no_reason_from_the_solver():
    r = kn.reduce(PUZZLES / "k2.txt")
    assert r.status == "solved" and not r.reason
    assert kn.kakuro(PUZZLES / "k2.txt").shape == (1, 10, 8)
