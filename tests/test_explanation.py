"""explain, hint and grade: the solve by logic, step by step, against the engine and the solutions."""

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import kakuro_np as kn
from conftest import PUZZLES, SAMPLES, examples
from kakuro_np.explanation import LADDER, replay
from kakuro_np.techniques import NAMES, N_TECHNIQUES, try_technique
from strategies import filled_puzzles

K2, K3 = PUZZLES / "k2.txt", PUZZLES / "k3.txt"


def masks_of(candidates, cells):
    """Digit sets of ``cells`` from (H, W, 9) candidates."""
    return [int((candidates[r, c] << np.arange(9)).sum()) for r, c in cells]


def fillings(total, masks):
    """Every way to fill an entry with distinct digits from ``masks`` adding to ``total``."""
    out = []
    for combo in kn.kc(total, len(masks)).tolist():
        for perm in itertools.permutations(combo):
            if all((m >> (d - 1)) & 1 for m, d in zip(masks, perm)):
                out.append(perm)
    return out


def test_k2_is_explained_to_the_end_without_fanout():
    steps = kn.explain(K2)
    assert steps.status == "solved"
    assert np.array_equal(replay(steps.start, steps), kn.reduce(K2).candidates)
    assert np.array_equal(steps.digits, kn.kakuro(K2)[0])
    g = kn.grade(K2)
    assert (g.fanouts, g.status, g.solutions) == (0, "solved", 1)


def kept_by_every_solution(candidates, solutions):
    """Whether ``candidates`` keep each solution's digit in every blank cell."""
    H, W = solutions.shape[1:]
    rows, cols = np.indices((H, W))
    return all(candidates[rows, cols, np.maximum(s - 1, 0)][s > 0].all() for s in solutions)


def test_k3_the_ladder_stops_where_reduce_stops_and_reasoning_across_runs_goes_on():
    r = kn.reduce(K3)
    ladder = kn.explain(K3, top=N_TECHNIQUES)
    assert ladder.status == r.status == "stuck"
    assert np.array_equal(ladder.candidates, r.candidates)
    assert np.array_equal(replay(ladder.start, ladder), r.candidates)
    steps = kn.explain(K3)                      # 40 solutions: stuck still, but further on
    assert steps.status == "stuck" and {"region sum", "chain"} <= {s.technique for s in steps}
    assert not (steps.candidates & ~r.candidates).any()
    assert steps.candidates.sum() < r.candidates.sum()
    assert kept_by_every_solution(steps.candidates, kn.kakuro(K3))
    g = kn.grade(K3)
    assert g.fanouts > 0 and g.label == "expert" and g.solutions == 40 and g.score >= 90
    assert kn.hint(K3, candidates=steps.candidates) is None
    assert kn.hint(K3, candidates=r.candidates).technique == "region sum"
    assert kn.hint(K3, candidates=steps.start) == steps[0]


@pytest.mark.parametrize("name", SAMPLES)
def test_replaying_the_steps_agrees_with_reduce_and_the_solutions(name):
    steps = kn.explain(PUZZLES / name)
    r = kn.reduce(PUZZLES / name)
    assert steps.status == r.status or (steps.status, r.status) == ("solved", "stuck")
    assert np.array_equal(replay(steps.start, steps), steps.candidates)
    assert not (steps.candidates & ~r.candidates).any()
    assert kept_by_every_solution(steps.candidates, kn.kakuro(PUZZLES / name))


def test_a_step_has_the_shape_the_api_promises():
    steps = kn.explain(K2)
    p = kn.read(K2)
    cells, _ = kn.entries(p)
    for step in steps:
        assert step.technique in NAMES and isinstance(step.reason, str) and step.reason
        assert [r * p.shape[1] + c for r, c in step.cells] == cells[step.entry].tolist()
        assert set(step.removed) <= set(step.cells) and set(step.placed) <= set(step.removed)
        assert all(isinstance(d, set) and d for d in step.removed.values())
        assert str(step) == f"{step.technique}: {step.reason}"
        assert step.reason.endswith(".") and "\n" not in step.reason
    placed = {cell: d for step in steps for cell, d in step.placed.items()}
    solution = kn.kakuro(K2)[0]
    assert placed == {(int(r), int(c)): int(solution[r, c]) for r, c in np.argwhere(p.blank)}


@pytest.mark.parametrize("name", ["k1.txt", "k3.txt", "k5.txt", "k7.txt"])
def test_each_step_is_the_simplest_technique_that_makes_progress(name):
    """No technique lower on the ladder could have made progress anywhere before a step."""
    p = kn.read(PUZZLES / name)
    cells, sums = kn.entries(p)
    pairs = [[divmod(int(i), p.shape[1]) for i in c] for c in cells]
    steps = kn.explain(p)
    state = steps.start
    scratch, info = np.zeros(32, np.int64), np.zeros(4, np.int64)
    for step in steps:
        t = LADDER.index(step.technique)
        for k, entry in enumerate(pairs):
            m = np.array(masks_of(state, entry), np.int64)
            for lower in range(min(t, N_TECHNIQUES)):
                assert not try_technique(lower, m, int(sums[k]), m.copy(), info, scratch), \
                    (step, NAMES[lower], k)
        if step.technique == "chain":           # no region sum nor x-wing could have helped
            assert kn.explain(p, candidates=state, top=LADDER.index("chain"), max_steps=1) == []
        state = replay(state, [step])


def assert_follows_from_its_entry(step, state, sums):
    """No filling of the step's entry that fits the candidates before it uses a digit
    the step removes."""
    ways = fillings(int(sums[step.entry]), masks_of(state, step.cells))
    for i, cell in enumerate(step.cells):
        kept = {w[i] for w in ways}
        assert not kept & step.removed.get(cell, set()), step


@settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
@given(filled_puzzles(max_side=7))
def test_every_step_is_true(case):
    """No step removes a digit of the fill (a solution), nor of any solution; each step of
    the ladder follows from its entry alone (no filling of the entry that fits the
    candidates before it uses the digit), and each link of a chain does too."""
    puzzle, fill = case
    steps = kn.explain(puzzle)
    cells, sums = kn.entries(puzzle)
    solutions = kn.kakuro(puzzle, limit=2000)
    state = steps.start
    for step in steps:
        for (r, c), digits in step.removed.items():
            assert fill[r, c] not in digits, (step, fill[r, c])
            assert not set(solutions[:, r, c].tolist()) & digits, step
        if step.entry is not None:
            assert_follows_from_its_entry(step, state, sums)
        for link in step.links:
            assert link.entry is not None
        state = replay(state, [step])
    assert steps.status != "contradiction"
    r = kn.reduce(puzzle)
    assert steps.status == r.status or (steps.status, r.status) == ("solved", "stuck")
    assert not (steps.candidates & ~r.candidates).any()
    assert np.array_equal(kn.explain(puzzle, top=N_TECHNIQUES).candidates, r.candidates)


@settings(max_examples=examples(30), deadline=None, suppress_health_check=list(HealthCheck))
@given(filled_puzzles(max_side=6))
def test_the_hint_is_the_first_step_and_never_wrong(case):
    puzzle, fill = case
    step = kn.hint(puzzle)
    steps = kn.explain(puzzle)
    if not len(steps):
        assert step is None
    else:
        assert step == steps[0]
        assert all(fill[cell] not in digits for cell, digits in step.removed.items())


def test_a_hint_names_a_wrong_digit():
    p = kn.read(K2)
    solution = kn.kakuro(p)[0]
    given = np.zeros_like(solution)
    r, c = np.argwhere(p.blank)[5]
    given[r, c] = solution[r, c] % 9 + 1
    step = kn.hint(p.with_given(given))
    assert step.technique == "mistake" and step.removed == {(int(r), int(c)): {int(given[r, c])}}
    assert kn.hint(p.with_given(given), check_digits=False).technique != "mistake"


def test_a_hint_starts_from_the_players_pencil_marks():
    steps = kn.explain(K2)
    after = replay(steps.start, steps[:10])
    assert kn.hint(K2, candidates=after) == kn.explain(K2, candidates=after)[0]
    assert kn.explain(K2, candidates=after).status == "solved"
    with pytest.raises(ValueError, match="shape"):
        kn.explain(K2, candidates=after[:, :, :8])


def test_a_contradiction_ends_the_explanation():
    p = kn.Puzzle.from_rows([["x", (4, 0), (3, 0)], [(0, 3), 2, "_"], [(0, 4), "_", 2]])
    steps = kn.explain(p)
    assert steps.status == "contradiction" and "no candidate left" in steps.reason
    assert steps.candidates.sum(axis=2)[p.blank].min() == 0


def test_max_steps_and_top():
    assert kn.explain(K2, max_steps=3).status == "paused"
    assert len(kn.explain(K2, max_steps=3)) == 3
    low = kn.explain(K3, top=NAMES.index("bounds"))
    assert {s.technique for s in low} <= set(NAMES[:NAMES.index("bounds")])
    for bad in ({"top": len(LADDER) + 1}, {"top": -1}, {"max_steps": -2}, {"max_steps": 1.5}):
        with pytest.raises(ValueError):
            kn.explain(K2, **bad)


def test_pencil_marks_that_leave_a_cell_empty_are_a_contradiction():
    start = kn.explain(K2).start.copy()
    start[1, 1] = False
    steps = kn.explain(K2, candidates=start)
    assert (len(steps), steps.status) == (0, "contradiction") and "(1, 1)" in steps.reason


def test_grades_order_the_samples():
    grades = {name: kn.grade(PUZZLES / name) for name in SAMPLES}
    assert grades["k2.txt"].label == "easy" and grades["k3.txt"].label == "expert"
    assert grades["k2.txt"].score < grades["k7.txt"].score < grades["k3.txt"].score
    for g in grades.values():
        assert g.label in ("easy", "medium", "hard", "expert") and 0 <= g.score <= 100
        assert sum(g.techniques.values()) > 0
        assert list(g.techniques) == [n for n in LADDER if n in g.techniques]


def test_a_grade_rises_with_the_hardest_technique():
    easy = kn.grade(K2)
    logic = kn.Puzzle.from_rows([["x", (3, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 3), "_", "_"]])
    guess = kn.grade(logic)
    assert (guess.fanouts, guess.solutions, guess.label) == (1, 2, "expert")
    assert easy.score < 20 <= kn.grade(PUZZLES / "k7.txt").score < 40 < guess.score


def test_techniques_cover_the_ladder():
    assert len(NAMES) == N_TECHNIQUES == len(set(NAMES)) and LADDER[:N_TECHNIQUES] == NAMES
    from kakuro_np.grading import LEVELS
    assert set(LEVELS) == set(LADDER) == set(NAMES) | {"region sum", "x-wing", "chain"}
    assert [LEVELS[n] for n in LADDER] == sorted(LEVELS[n] for n in LADDER)


def test_published_style_puzzles_never_lose_their_solution():
    """On unique puzzles made as published ones are, no step removes a digit of the solution,
    the ladder goes exactly as far as forced moves, and reasoning across runs to the end."""
    import json
    from conftest import ROOT
    with open(ROOT / "bench" / "sets" / "published.jsonl") as f:
        rows = [json.loads(line) for _, line in zip(range(25), f)]
    for row in rows:
        p = kn.parse(row["grid"])
        solution = kn.kakuro(p)[0]
        steps = kn.explain(p)
        for step in steps:
            assert all(solution[cell] not in digits for cell, digits in step.removed.items())
        assert steps.status == "solved", row["name"]
        assert np.array_equal(kn.explain(p, top=N_TECHNIQUES).candidates,
                              kn.reduce(p).candidates), row["name"]


def test_grading_an_open_block_is_bounded():
    """A fully open 9x9 block (every clue 45): logic is stuck at once, and the fan-out count
    stops after FANOUT_WORK rows swept instead of walking an astronomical tree."""
    from kakuro_np.grading import FANOUT_WORK
    rows = [["x"] + [(45, 0)] * 9] + [[(0, 45)] + ["_"] * 9 for _ in range(9)]
    g = kn.grade(rows)
    assert (g.status, g.label, g.hardest) == ("stuck", "expert", None)
    assert g.fanouts == max(10, FANOUT_WORK // 6_531_840)
    assert kn.hint(rows) is None


def test_grade_and_hint_keep_their_timeout():
    """``timeout=`` counts from the call: one already over raises SolveTimeout (the grade's,
    and the hint's check of the digits placed); a generous one changes nothing."""
    p = kn.read(K2)
    assert kn.grade(p, timeout=60) == kn.grade(p)
    with pytest.raises(kn.SolveTimeout):
        kn.grade(p, timeout=0)
    given = np.zeros(p.shape, int)
    r, c = np.argwhere(p.blank)[0]
    given[r, c] = 1
    with pytest.raises(kn.SolveTimeout):
        kn.hint(p.with_given(given), timeout=0)
    assert kn.hint(p.with_given(given), timeout=60) == kn.hint(p.with_given(given))


def test_a_grade_is_unique_only_for_a_puzzle_with_one_solution():
    broken = kn.parse("x ; 3 0 ; 4 0\n0 30 ; _ ; _")
    g = kn.grade(broken)
    assert (g.solutions, g.unique, str(g)) == (0, False, "no solution, so no grade")
    g = kn.grade(PUZZLES / "k3.txt")
    assert (g.solutions, g.unique) == (40, False) and str(g).endswith("not unique: 40 solutions")
    assert kn.grade(PUZZLES / "k2.txt").unique


def test_a_hint_on_a_puzzle_with_no_solution_says_why_not_a_step():
    step = kn.hint(kn.parse("x ; 3 0 ; 4 0\n0 30 ; _ ; _"))
    assert step.technique == "no solution" and "the across 30 at (1, 0)" in step.reason
