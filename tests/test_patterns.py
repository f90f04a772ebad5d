"""Across-run patterns: what a run needs, and the X-wing, against the fillings and fills."""

import itertools
import json

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from conftest import ROOT, examples
from kakuro_np.explanation import _board, board_runs
from kakuro_np.patterns import needs, x_wing
from strategies import filled_puzzles

#: A 3x4 block the ladder leaves stuck; one x-wing (the downs 21 and 19 each need a 9 in
#: rows 1 or 3) opens it, and the ladder finishes.
XWING = ("x ; 17 0 ; 9 0 ; 21 0 ; 19 0\n0 28 ; _ ; _ ; _ ; _\n0 11 ; _ ; _ ; _ ; _\n"
         "0 27 ; _ ; _ ; _ ; _\n")


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.integers(1, 511), min_size=1, max_size=5), st.integers(1, 45))
def test_what_a_run_needs_is_in_every_filling(masks, total):
    """``needs`` against every filling of the run by hand: a needed digit is in every
    filling's open cells, and no digit every fitting combination holds is missed."""
    m = np.array(masks, np.int64)
    need = needs(m, total)
    fillings = [way for way in itertools.product(*[[d for d in range(1, 10) if x >> (d - 1) & 1]
                                                   for x in masks])
                if len(set(way)) == len(way) and sum(way) == total]
    decided = {x.bit_length() for x in masks if bin(x).count("1") == 1}
    for way in fillings:
        open_digits = {d for x, d in zip(masks, way) if bin(x).count("1") != 1}
        assert all(d in open_digits for d in range(1, 10) if need >> (d - 1) & 1), (way, need)
    assert not need & sum(1 << (d - 1) for d in decided)


def test_an_x_wing_opens_what_the_ladder_and_region_sums_leave():
    from kakuro_np.explanation import LADDER
    p = kn.parse(XWING)
    assert kn.count(p, limit=2) == 1
    assert kn.explain(p, top=LADDER.index("x-wing")).status == "stuck"
    steps = kn.explain(p, top=LADDER.index("chain"))
    assert steps.status == "solved"
    wing, = [s for s in steps if s.technique == "x-wing"]
    assert wing.reason.startswith("The down 21 at (0, 3) and the down 19 at (0, 4) each need "
                                  "a 9")
    assert wing.removed == {(1, 1): {9}, (3, 1): {9}} and wing.entry is None
    assert kn.grade(p).hardest == "x-wing" and kn.grade(p).label == "expert"


def test_an_x_wing_on_a_published_style_puzzle():
    """pub-0255: two across runs each need an 8 in the same two down runs."""
    with open(ROOT / "bench" / "sets" / "published.jsonl") as f:
        row = next(r for r in map(json.loads, f) if r["name"] == "pub-0255")
    p = kn.parse(row["grid"])
    steps = kn.explain(p)
    wing, = [s for s in steps if s.technique == "x-wing"]
    assert wing.reason.startswith("The across 29 at (3, 0) and the across 26 at (4, 0) each "
                                  "need an 8")
    assert wing.removed == {(7, 2): {8}, (5, 3): {8}, (7, 3): {8}}
    solution = kn.kakuro(p)[0]
    assert 8 in {solution[3, 2], solution[3, 3]} and 8 in {solution[4, 2], solution[4, 3]}
    assert steps.status == "solved" and "chain" not in {s.technique for s in steps}
    assert kn.grade(p).hardest == "x-wing"


@settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
@given(filled_puzzles(max_side=8))
def test_an_x_wing_never_removes_a_digit_of_the_fill(case):
    puzzle, fill = case
    board = _board(puzzle)
    cand = kn.reduce(puzzle).candidates.reshape(-1, 9)[board.var_cell]
    mask = (cand << np.arange(9)).sum(axis=1).astype(np.int64)
    digit = 1 << (fill.ravel()[board.var_cell].astype(np.int64) - 1)
    var_run = board_runs(board)
    for _ in range(5):
        wing = x_wing(board.packed.ent_off, board.ent_var, board.packed.ent_sum,
                      board.packed.n_across, var_run, mask)
        if wing is None:
            break
        assert (wing.new == wing.old & ~(1 << (wing.digit - 1))).all()
        mask[wing.var] = wing.new
        assert (mask & digit).all()
