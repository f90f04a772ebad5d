"""The generator (``generate``, ``layout``): well-formed layouts, valid fills, one solution."""

import importlib

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from kakuro_np.generator import (KICK_COUNT_CAP, KICKS_AT_CAP, KICKS_WITHOUT_GAIN, ambiguity,
                                anneal_ambiguity, cells_to_block, clues_of, differences,
                                draft_of, fill_of, grade_cost, kick, lower_ambiguity,
                                make_unique, random_fill, shifts)
from kakuro_np.combos import POPCOUNT
from kakuro_np.engine.core.jit import NO_DEADLINE
from kakuro_np.grading import BANDS
from kakuro_np.techniques import N_TECHNIQUES
from kakuro_np.layout import (SYMMETRIES, make_layout, orbits, run_lengths, well_formed)
from strategies import satisfies
from conftest import examples


def assert_layout_rules(blank, symmetry, min_run=2):
    assert not blank[0].any() and not blank[:, 0].any()
    across, down = run_lengths(blank)
    for lengths in (across, down):
        assert lengths[blank].min() >= min_run and lengths.max() <= 9
    assert well_formed(blank, orbits(*blank.shape, symmetry), min_run)
    if symmetry == "rotational":
        assert np.array_equal(blank[1:, 1:], blank[1:, 1:][::-1, ::-1])
    elif symmetry == "mirror":
        assert np.array_equal(blank[1:, 1:], blank[1:, 1:][:, ::-1])


@settings(max_examples=examples(20), deadline=None)
@given(st.integers(5, 15), st.integers(5, 15), st.sampled_from(SYMMETRIES),
       st.integers(0, 2**32 - 1))
def test_generated_puzzles_are_well_formed_and_unique(rows, cols, symmetry, seed):
    p = kn.generate(rows, cols, symmetry=symmetry, seed=seed)
    assert p.shape == (rows, cols)
    assert_layout_rules(p.blank, symmetry)
    assert kn.count(p, limit=2) == 1
    assert not p.given.any()


def test_the_same_seed_gives_the_same_puzzle():
    assert kn.generate(12, 12, seed=5) == kn.generate(12, 12, seed=5)
    assert kn.generate(12, 12, seed=5) != kn.generate(12, 12, seed=6)


@settings(max_examples=examples(12), deadline=None)
@given(st.integers(6, 12), st.sampled_from(["easy", "medium", "hard", "expert"]),
       st.integers(0, 2**32 - 1))
def test_a_requested_grade_is_the_grade_the_puzzle_gets(size, label, seed):
    p = kn.generate(size, size, grade=label, seed=seed)
    assert kn.grade(p).label == label
    assert_layout_rules(p.blank, "rotational")
    assert kn.count(p, limit=2) == 1


@pytest.mark.parametrize("label", ["easy", "medium", "hard", "expert"])
def test_the_steer_score_is_the_grades_score(label, monkeypatch):
    # grade_cost's score (of the ladder's steps, their level and effort) agrees with kn.grade (an
    # expert puzzle as the steer leaves it, before changes that take it past the ladder)
    monkeypatch.setattr(importlib.import_module("kakuro_np.generator"), "BEYOND_TRIES", 0)
    p = kn.generate(10, 10, grade=label, seed=11)
    low, high = BANDS[label]
    draft = draft_of(p.blank, kn.kakuro(p)[0])
    mask = np.empty(len(draft.digit), np.int64)
    g = kn.grade(p)
    assert grade_cost(draft, mask, N_TECHNIQUES, low, high, NO_DEADLINE) == 0
    assert grade_cost(draft, mask, N_TECHNIQUES, g.score + 1, 100.0, NO_DEADLINE) == \
        pytest.approx(1, abs=0.06)


def test_an_unknown_grade_is_a_clear_error():
    with pytest.raises(kn.PuzzleError, match="easy, medium, hard, expert"):
        kn.generate(9, 9, grade="tricky")


def test_single_cell_runs_are_allowed_with_min_run_1():
    p = kn.generate(9, 9, min_run=1, seed=3)
    assert_layout_rules(p.blank, "rotational", min_run=1)
    assert kn.count(p, limit=2) == 1


def random_draft(rows, cols, seed):
    """``(rng, blank, fill, draft)``: a random layout without symmetry, a random fill of it
    (checked to be a solution of its clues) and their ``Draft``."""
    rng = np.random.default_rng(seed)
    blank = make_layout(rows, cols, rng, symmetry="none")
    fill = random_fill(blank, rng)
    assert fill is not None and satisfies(clues_of(blank, fill), fill)
    return rng, blank, fill, draft_of(blank, fill)


@settings(max_examples=examples(30), deadline=None)
@given(st.integers(4, 14), st.integers(4, 14), st.integers(0, 2**32 - 1))
def test_a_climb_keeps_the_fill_a_solution_of_its_clues(rows, cols, seed):
    rng, blank, fill, draft = random_draft(rows, cols, seed)
    score = lower_ambiguity(draft, seed, 20, NO_DEADLINE)
    climbed = fill_of(draft, blank.shape)
    puzzle = clues_of(blank, climbed)
    assert satisfies(puzzle, climbed)
    assert np.array_equal(draft_of(blank, climbed).ent_sum, draft.ent_sum)
    assert score == ambiguity(draft, np.empty(len(draft.digit), np.int64)) >= 0
    if score == 0:
        assert kn.count(puzzle, limit=2) == 1


@settings(max_examples=examples(30), deadline=None)
@given(st.integers(4, 12), st.integers(4, 12), st.integers(0, 2**32 - 1))
def test_a_kick_changes_one_digit_and_keeps_the_fill_valid(rows, cols, seed):
    rng, blank, fill, draft = random_draft(rows, cols, seed)
    cells = np.argwhere(blank)[rng.permutation(int(blank.sum()))[:3]]
    assume(kick(draft, cells, blank.shape, rng))    # 0: none of the cells has another digit
    kicked = fill_of(draft, blank.shape)
    changed = np.argwhere(kicked != fill)
    assert len(changed) == 1 and any((changed[0] == c).all() for c in cells)
    assert satisfies(clues_of(blank, kicked), kicked)
    assert np.array_equal(draft_of(blank, kicked).ent_sum, draft.ent_sum)


@settings(max_examples=examples(20), deadline=None)
@given(st.integers(4, 12), st.integers(4, 12), st.integers(0, 2**32 - 1))
def test_annealing_ends_at_the_least_ambiguity_it_met_with_a_valid_fill(rows, cols, seed):
    rng, blank, fill, draft = random_draft(rows, cols, seed)
    mask = np.empty(len(draft.digit), np.int64)
    start = ambiguity(draft, mask)
    least = anneal_ambiguity(draft, seed, 50 * len(draft.digit), 3.0, 0.05, 0.3, NO_DEADLINE)
    annealed = fill_of(draft, blank.shape)
    assert satisfies(clues_of(blank, annealed), annealed)
    assert np.array_equal(draft_of(blank, annealed).ent_sum, draft.ent_sum)
    assert 0 <= least == ambiguity(draft, mask) <= start
    assert anneal_ambiguity(draft_of(blank, fill), seed, 50 * len(draft.digit), 3.0, 0.05,
                            0.3, NO_DEADLINE) == least
    past = draft_of(blank, fill)                # a deadline passed: it stops at once
    assert anneal_ambiguity(past, seed, 50 * len(draft.digit), 3.0, 0.05, 0.3, 0) == start
    assert np.array_equal(fill_of(past, blank.shape), fill)


@pytest.mark.parametrize("seed", range(3))
def test_the_anneal_shifts_digits_along_runs_of_9_where_no_single_digit_may_change(seed):
    blank = np.zeros((3, 10), bool)
    blank[1:, 1:] = True                    # two runs of 9 across, nine runs of 2 down
    fill = random_fill(blank, np.random.default_rng(seed))
    draft = draft_of(blank, fill)
    start = ambiguity(draft, np.empty(18, np.int64))
    assert anneal_ambiguity(draft, seed, 1000, 3.0, 0.05, 0.0, NO_DEADLINE) == start
    assert np.array_equal(fill_of(draft, blank.shape), fill)
    least = anneal_ambiguity(draft, seed, 1000, 3.0, 0.05, 1.0, NO_DEADLINE)
    annealed = fill_of(draft, blank.shape)
    assert least < start and satisfies(clues_of(blank, annealed), annealed)


@settings(max_examples=examples(20), deadline=None)
@given(st.integers(4, 10), st.integers(4, 10), st.integers(0, 2**32 - 1))
def test_a_kick_on_a_writers_layout_says_how_many_solutions_it_left(rows, cols, seed):
    rng, blank, fill, draft = random_draft(rows, cols, seed)
    cells = np.argwhere(blank)[rng.permutation(int(blank.sum()))[:3]]
    left = kick(draft, cells, blank.shape, rng, blank)
    kicked = fill_of(draft, blank.shape)
    if left:
        assert satisfies(clues_of(blank, kicked), kicked)
        assert left == kn.count(clues_of(blank, kicked), limit=KICK_COUNT_CAP)
        changed = np.argwhere(kicked != fill)           # a digit, or a shift along a run
        assert len(changed) == 1 or len(changed) == 2 and (
            changed[0, 0] == changed[1, 0] or changed[0, 1] == changed[1, 1])
    else:
        assert np.array_equal(kicked, fill)


def test_blocks_go_where_two_solutions_differ_or_where_cells_are_open(monkeypatch):
    gen = importlib.import_module("kakuro_np.generator")
    p = kn.read("puzzles/k3.txt")                         # 40 solutions
    fill = kn.kakuro(p, limit=1)[0]
    draft = draft_of(p.blank, fill)
    cells = cells_to_block(p, draft)
    sols = kn.kakuro(p)
    assert any(np.array_equal(np.argwhere(s != t), cells) for s in sols for t in sols)
    monkeypatch.setattr(gen, "HUNT_NODES", 0)            # the hunt finds none: open cells
    mask = np.empty(len(draft.digit), np.int64)
    ambiguity(draft, mask)
    open_cells = cells_to_block(p, draft)
    assert len(open_cells) and np.array_equal(
        np.ravel_multi_index(open_cells.T, p.shape), draft.var_cell[POPCOUNT[mask] > 1])


def test_random_weights_find_solutions_that_differ_in_each_separate_place():
    """Two 2x2 blocks, each with two fillings (1 3 / 3 1 and 3 1 / 1 3): 4 solutions. The
    hunt alone finds two that differ in the same block each time; with an ``rng`` its
    pairs differ in either block, so a writer's kicks reach both."""
    blank = np.zeros((3, 6), bool)
    blank[1:, 1:3] = blank[1:, 4:] = True
    fill = np.zeros((3, 6), np.int8)
    fill[1:, 1:3] = fill[1:, 4:] = [[1, 3], [3, 1]]
    p = clues_of(blank, fill)
    draft = draft_of(blank, fill)
    block_of = lambda cells: tuple(sorted(set((cells[:, 1] > 3).tolist())))
    assert kn.count(p) == 4
    assert {block_of(cells_to_block(p, draft)) for _ in range(5)} in ({(False,)}, {(True,)})
    rng = np.random.default_rng(1)
    found = [cells_to_block(p, draft, rng=rng) for _ in range(20)]
    assert {block_of(cells) for cells in found} == {(False,), (True,)}
    assert all(len(cells) == 4 for cells in found)


@pytest.mark.parametrize("lefts, kicks", [
    ([KICK_COUNT_CAP] * 50, KICKS_AT_CAP),                 # no change below the cap
    ([KICK_COUNT_CAP, 40] + [50] * 50, 2 + KICKS_WITHOUT_GAIN)])  # no fewer than 40 again
def test_a_writers_fill_is_given_up_when_kicks_stop_gaining(monkeypatch, lefts, kicks):
    """A fill whose kicks count no fewer solutions than the fewest yet for
    KICKS_WITHOUT_GAIN kicks, or whose kicks find every change at KICK_COUNT_CAP for
    KICKS_AT_CAP kicks, is given up (None) for a new one."""
    gen = importlib.import_module("kakuro_np.generator")
    said = iter(lefts)
    made = []
    monkeypatch.setattr(gen, "counted", lambda puzzle, cap, deadline: 2)
    monkeypatch.setattr(gen, "cells_to_block", lambda *a: np.zeros((1, 2), np.int64))
    monkeypatch.setattr(gen, "kick", lambda *a: made.append(1) or next(said))
    p = kn.read("puzzles/k3.txt")
    fill = kn.kakuro(p, limit=1)[0]
    assert make_unique(p.blank, fill, orbits(*p.shape, "none"), np.random.default_rng(1), 2,
                       1.0, may_block=False) is None
    assert len(made) == kicks


def test_the_hunt_for_two_solutions_compiles_within_the_deadline(monkeypatch):
    """The hunt runs the kernels that helpers compile ahead (``ahead``'s "hunt"), with the
    types they compile, and has them ready by the deadline: on an empty cache,
    ``generate(timeout=30)`` compiled this hunt itself for about 50 s before (92 s in all)."""
    from kakuro_np.engine.core import ahead
    kernels = ahead.kernels_of("hunt")
    for kernel, types in kernels:                       # what a helper does
        kernel.compile(types)
    before = [set(kernel.signatures) for kernel, _ in kernels]
    asked = []
    monkeypatch.setattr(ahead, "ready", lambda names, deadline: asked.append((names, deadline)))
    p = kn.read("puzzles/k3.txt")                         # 40 solutions
    cells = cells_to_block(p, draft_of(p.blank, kn.kakuro(p, limit=1)[0]), 10 ** 18)
    assert len(cells) and [at for names, at in asked if "hunt" in names] == [10 ** 18]
    assert [set(kernel.signatures) for kernel, _ in kernels] == before


def test_differences_are_the_cells_where_two_solutions_differ():
    two = kn.parse("x ; 4 0 ; 6 0\n0 5 ; _ ; _\n0 5 ; _ ; _")
    assert differences(two).tolist() == [[1, 1], [1, 2], [2, 1], [2, 2]]
    assert differences(kn.read("puzzles/k2.txt")).shape == (0, 2)
    sols = kn.kakuro(kn.read("puzzles/k3.txt"), limit=2)
    assert np.array_equal(differences(None, sols), np.argwhere(sols[0] != sols[1]))


@pytest.mark.parametrize("args, words", [((2, 9), "at least 3 rows"), ((9, 9, 0.1), "density"),
                                         ((500, 9), "at most 200")])
def test_impossible_requests_get_a_clear_error(args, words):
    H, W, *density = args
    with pytest.raises(kn.PuzzleError, match=words):
        kn.generate(H, W, density=density[0] if density else None)


def test_unknown_symmetry_is_a_value_error():
    with pytest.raises(ValueError, match="symmetry"):
        kn.generate(9, 9, symmetry="diagonal")


@pytest.mark.parametrize("size, label", [(10, "easy"), (12, "hard"), (14, "expert")])
def test_the_readmes_pictured_puzzles_are_what_the_command_makes(size, label):
    from conftest import ROOT
    name = ROOT / "puzzles" / "generated" / f"kakuro-{size}x{size}-1-1"
    p = kn.read(name.with_suffix(".txt"))
    assert p == kn.generate(size, size, grade=label, seed=[1, 0])    # --seed 1, puzzle 1
    g = kn.grade(p)
    assert g.label == label and kn.count(p, limit=2) == 1
    assert f"{label} (score {g.score})" in (ROOT / "README.md").read_text()
    assert f"{label} ({g.score})" in name.with_suffix(".svg").read_text()
    solution = name.parent.joinpath(name.name + "-solution.txt").read_text()
    assert kn.boxed(p, kn.kakuro(p)[0]) + "\n" == solution


@settings(max_examples=examples(20), deadline=None)
@given(st.integers(4, 10), st.integers(4, 10), st.integers(0, 2**32 - 1))
def test_a_shift_keeps_its_runs_sum_and_the_fill_valid(rows, cols, seed):
    rng, blank, fill, draft = random_draft(rows, cols, seed)
    v = int(rng.integers(len(draft.digit)))
    for a, da, b, db in shifts(draft, v):
        assert a == v and da + db == draft.digit[a] + draft.digit[b]
        shifted = fill.copy()
        shifted.ravel()[draft.var_cell[[a, b]]] = da, db
        assert satisfies(clues_of(blank, shifted), shifted)
        shared = np.intersect1d(draft.var_ent[draft.var_eoff[a]:draft.var_eoff[a + 1]],
                                draft.var_ent[draft.var_eoff[b]:draft.var_eoff[b + 1]])
        assert len(shared) == 1 and np.array_equal(draft_of(blank, shifted).ent_sum[shared],
                                                   draft.ent_sum[shared])
    assert np.array_equal(fill_of(draft, blank.shape), fill)      # the draft is left as it was


def test_an_expert_puzzle_needs_more_than_the_ladder():
    """grade="expert" on a dense 12x12: unique, the ladder (up to joint possibilities) is
    stuck, and region sums, x-wings or chains finish it."""
    p = kn.generate(12, 12, grade="expert", seed=3)
    assert kn.count(p, limit=2) == 1
    assert kn.explain(p, top=N_TECHNIQUES).status == "stuck"
    steps = kn.explain(p)
    assert steps.status == "solved"
    assert {"region sum", "x-wing", "chain"} & {s.technique for s in steps}
    assert kn.grade(p).label == "expert"
