"""Region sums: the equations hold on every fill, and a step never removes a digit of it."""

import numpy as np
from hypothesis import HealthCheck, given, settings

import kakuro_np as kn
from conftest import examples
from kakuro_np.explanation import _board, _regions, board_runs
from kakuro_np.regions import _filled, region_step
from kakuro_np.techniques import N_TECHNIQUES
from strategies import filled_puzzles

#: Stuck on the ladder; one region sum (the across 12 and the down runs crossing it)
#: opens it, and the ladder finishes.
REGION = ("x ; 19 0 ; 17 0 ; 33 0\n0 23 ; _ ; _ ; _\n0 11 ; _ ; _ ; _\n0 12 ; _ ; _ ; _\n"
          "0 16 ; _ ; _ ; _\n0 7 ; _ ; _ ; _\n")


def test_a_region_sum_opens_what_the_ladder_leaves():
    p = kn.parse(REGION)
    assert kn.count(p, limit=2) == 1
    assert kn.explain(p, top=N_TECHNIQUES).status == "stuck"
    steps = kn.explain(p, top=N_TECHNIQUES + 1)
    assert steps.status == "solved"
    region = [s for s in steps if s.technique == "region sum"]
    assert len(region) == 1 and region[0].entry is None
    step = region[0]
    assert step.reason.startswith("The across 12 at (3, 0) makes 12, and the 3 down runs")
    assert "make 69 - 12 = 57" in step.reason and step.placed == {(4, 3): 9}
    assert set(step.removed) <= set(step.cells)
    assert kn.grade(p).hardest == "region sum" and kn.grade(p).label == "expert"


@settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
@given(filled_puzzles(max_side=8))
def test_every_region_sum_holds_on_the_fill(case):
    puzzle, fill = case
    board = _board(puzzle)
    digits = fill.ravel()[board.var_cell].astype(np.int64)
    for r in _regions(board).found:
        assert digits[r.plus].sum() - digits[r.minus].sum() == r.difference, r
        assert len(r.plus) + len(r.minus) > 0


@settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
@given(filled_puzzles(max_side=8))
def test_a_region_step_never_removes_a_digit_of_the_fill(case):
    """From where the ladder stops, each region step in turn keeps the fill's digits."""
    puzzle, fill = case
    board = _board(puzzle)
    found = _regions(board)
    cand = kn.reduce(puzzle).candidates.reshape(-1, 9)[board.var_cell]
    mask = (cand << np.arange(9)).sum(axis=1).astype(np.int64)
    digit = 1 << (fill.ravel()[board.var_cell].astype(np.int64) - 1)
    for _ in range(5):
        step = region_step(found, mask, board_runs(board))
        if step is None:
            break
        assert (step.new & ~step.old == 0).all() and (step.new != step.old).all()
        mask[step.var] = step.new
        assert (mask & digit).all()


def test_every_filling_of_a_few_cells_is_tried():
    """``_filled`` against a count by hand: x - y == 2 over {1..4} x {1..4}, then with the
    two cells in one run (no digit twice) and x + y == 5."""
    m = np.array([0b1111, 0b1111], np.int64)
    apart = np.array([[-1, -1], [-1, -1]], np.int64)
    assert _filled(m, np.array([1, -1]), 2, apart).tolist() == [0b1100, 0b0011]
    together = np.array([[0, 0], [-1, -1]], np.int64)
    assert _filled(m, np.array([1, 1]), 4, together).tolist() == [0b0101, 0b0101]
    assert _filled(m, np.array([1, 1]), 4, apart).tolist() == [0b0111, 0b0111]
