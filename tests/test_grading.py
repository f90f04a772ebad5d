"""kakuro_np.grading: a puzzle's score and label, from the techniques its solve needs."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from conftest import PUZZLES, SAMPLES, examples
from kakuro_np.grading import (BANDS, CHAIN_LEVEL, FANOUT_LEVEL, HALF_EFFORT, HALF_FANOUTS,
                               HALF_LINKS, LABEL_TOP, LABELS, LEVELS, MAX_FANOUTS,
                               TECHNIQUE_LEVEL, TECHNIQUE_WEIGHT, WEIGHTS, Grade, count_fanouts,
                               counted_solutions, logic_score)
from kakuro_np.techniques import NAMES
from strategies import filled_puzzles

K2, K3 = PUZZLES / "k2.txt", PUZZLES / "k3.txt"
BROKEN = [["x", (3, 0), (4, 0)], [(0, 30), "_", "_"]]

#: The samples' grades: (label, score, hardest, fan-outs, solutions).
SAMPLE_GRADES = {
    "k0.txt": ("easy", 10.3, "unique combination", 0, 1),
    "k1.txt": ("medium", 22.3, "bounds", 0, 1),
    "k2.txt": ("easy", 11.2, "unique combination", 0, 1),
    "k3.txt": ("expert", 99.7, "chain", 46, 40),
    "k4.txt": ("easy", 11.3, "unique combination", 0, 1),
    "k5.txt": ("medium", 24.9, "bounds", 0, 1),
    "k6.txt": ("medium", 21.4, "bounds", 0, 1),
    "k7.txt": ("medium", 25.9, "bounds", 0, 1),
    "kuroro-example.txt": ("medium", 22.6, "bounds", 0, 1),
}


def level_of(g: Grade) -> int:
    return LEVELS[g.hardest] if g.hardest else 0


# -- the samples ----------------------------------------------------------------------


def test_every_sample_has_a_recorded_grade():
    assert sorted(SAMPLE_GRADES) == SAMPLES


@pytest.mark.parametrize("name", SAMPLES)
def test_the_samples_grades_are_stable(name):
    g = kn.grade(PUZZLES / name)
    assert (g.label, g.score, g.hardest, g.fanouts, g.solutions) == SAMPLE_GRADES[name]
    assert g.complete
    assert kn.grade(kn.read(PUZZLES / name)) == g                 # the same, every time


def test_the_samples_solved_by_logic_score_in_their_hardest_levels_band():
    for name, (label, score, hardest, fanouts, _) in SAMPLE_GRADES.items():
        if not fanouts:
            level = LEVELS[hardest]
            assert 10 * level <= score <= 10 * level + 9.9, name
            assert label == LABELS[min(level // 2, len(LABELS) - 1)], name


def test_a_fully_given_puzzle_needs_no_technique_and_scores_0():
    p = kn.read(K2)
    g = kn.grade(p.with_given(kn.kakuro(p)[0]))
    assert (g.score, g.label, g.hardest, g.techniques, g.status, g.solutions) == \
        (0.0, "easy", None, {}, "solved", 1)
    assert str(g) == "easy (score 0.0): hardest none"


# -- the scores -----------------------------------------------------------------------


def test_the_bands_are_the_labels_in_order_and_cover_every_score():
    assert list(BANDS) == list(LABELS) == ["easy", "medium", "hard", "expert"]
    lows = [BANDS[label][0] for label in LABELS]
    highs = [BANDS[label][1] for label in LABELS]
    assert lows[0] == 0.0 and lows[1:] == highs[:-1] and highs[-1] > 99.9
    for i, label in enumerate(LABELS[:-1]):              # two levels a label
        assert BANDS[label] == (20.0 * i, 20.0 * (i + 1))


def test_label_top_is_the_prefix_of_the_ladder_each_label_allows():
    tops = [LABEL_TOP[label] for label in LABELS]
    assert tops == sorted(tops) and tops[-1] == len(NAMES)
    for i, label in enumerate(LABELS[:-1]):
        allowed = [LEVELS[name] < 2 * (i + 1) for name in NAMES]
        assert allowed == [k < LABEL_TOP[label] for k in range(len(NAMES))]


def test_each_techniques_level_and_weight_are_the_ladders():
    assert TECHNIQUE_LEVEL.tolist() == [LEVELS[name] for name in NAMES]
    assert TECHNIQUE_WEIGHT.tolist() == [WEIGHTS[LEVELS[name]] for name in NAMES]
    assert WEIGHTS[0] == 0 and list(WEIGHTS) == sorted(WEIGHTS)


@pytest.mark.parametrize("level", range(FANOUT_LEVEL))
def test_a_logic_score_starts_its_band_and_is_halfway_at_half_the_effort(level):
    half = HALF_LINKS if level == CHAIN_LEVEL else HALF_EFFORT
    assert logic_score(level, 0.0) == 10.0 * level
    assert logic_score(level, float(half)) == pytest.approx(10.0 * level + 4.95)
    assert logic_score(level, 1e9) == pytest.approx(10.0 * level + 9.9)


@settings(max_examples=examples(100))
@given(st.integers(0, CHAIN_LEVEL), st.floats(0, 1e6), st.floats(0, 1e6))
def test_a_logic_score_rises_with_the_effort_and_stays_in_its_levels_ten(level, a, b):
    low, high = sorted((a, b))
    s_low, s_high = logic_score(level, low), logic_score(level, high)
    assert 10 * level <= s_low <= s_high <= 10 * level + 9.9


def test_fanout_scores_start_above_every_logic_score():
    """Logic alone tops out below 90; a single fan-out scores above it."""
    assert logic_score(CHAIN_LEVEL, 1e12) < 10 * FANOUT_LEVEL
    g = kn.grade([["x", (3, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 3), "_", "_"]])
    assert g.fanouts == 1
    assert g.score == round(10 * FANOUT_LEVEL + 9.9 * (1 - 2 ** (-1 / HALF_FANOUTS)), 1)


# -- the fan-outs, and the solutions counted ----------------------------------------------


def test_count_fanouts_of_a_puzzle_logic_solves_is_none():
    assert count_fanouts(kn.read(K2)) == (0, 1, True)


def test_count_fanouts_walks_k3s_whole_tree_and_stops_where_told():
    k3 = kn.read(K3)
    assert count_fanouts(k3) == (46, 40, True)
    assert count_fanouts(k3, 46) == (46, 40, True)
    fanouts, solutions, complete = count_fanouts(k3, 45)
    assert (fanouts, complete) == (45, False) and solutions < 40
    assert count_fanouts(k3, 0) == (0, 0, False)


def test_count_fanouts_of_a_puzzle_the_tables_refute_is_complete_with_none():
    assert count_fanouts(BROKEN) == (0, 0, True)


def test_counted_solutions_counts_to_two():
    assert [counted_solutions(kn.read(p)) for p in (K2, K3)] == [1, 2]
    assert counted_solutions(kn.Puzzle.from_rows(BROKEN)) == 0


def test_a_deadline_past_stops_the_counts_while_grading():
    with pytest.raises(kn.SolveTimeout, match="^timed out while grading$"):
        counted_solutions(kn.read(K3), deadline=0)
    with pytest.raises(kn.SolveTimeout):
        count_fanouts(kn.read(K3), deadline=0)


# -- the grade as a line of text ------------------------------------------------------------


def test_a_grade_lists_the_techniques_of_level_2_up_and_the_longest_chain():
    g = Grade(85.0, "expert", 0, {"no repeats": 3, "unique combination": 4, "bounds": 2,
                                  "chain": 2}, "chain", "solved", 1, (3, 7))
    assert str(g) == ("expert (score 85.0): hardest chain "
                      "(bounds x2, chain x2, longest chain 7 links)")


def test_one_fanout_is_said_in_the_singular():
    g = Grade(91.2, "expert", 1, {}, None, "stuck", 1)
    assert str(g) == "expert (score 91.2): hardest none; 1 fan-out"
    assert g.complete and g.chains == () and g.unique


# -- random puzzles ---------------------------------------------------------------------------


@settings(max_examples=examples(60))
@given(filled_puzzles(max_side=8))
def test_a_random_puzzles_grade_is_a_documented_one_and_proves_its_count(case):
    puzzle, _ = case
    g = kn.grade(puzzle)
    assert g.label in LABELS and BANDS[g.label][0] <= g.score < BANDS[g.label][1]
    assert 0 <= g.score < 100 and 0 <= g.fanouts <= MAX_FANOUTS
    assert g.status in ("solved", "stuck", "contradiction")
    assert list(g.techniques) == [name for name in LEVELS if name in g.techniques]
    assert g.hardest == max(g.techniques, key=LEVELS.get, default=None)
    if g.fanouts:
        assert g.label == "expert" and g.score >= 10 * FANOUT_LEVEL
    else:
        level = level_of(g)
        assert 10 * level <= g.score <= 10 * level + 9.9
        assert g.label == LABELS[min(level // 2, len(LABELS) - 1)]
    # every random puzzle has its fill as a solution, so "no solution" is never said
    assert g.solutions >= 1 and g.status != "contradiction"
    assert g.unique == (kn.count(puzzle, limit=2) == 1)
    if g.complete:
        assert g.solutions == kn.count(puzzle)
    else:
        assert g.solutions >= 2
