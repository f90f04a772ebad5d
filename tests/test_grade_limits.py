"""A grade claims only what it proved, and every long loop of grade, explain, hint, stats,
convert and generate keeps its time limit.

The limits are tested without racing the machine: a deadline already past must stop each
loop before its work (the unbounded versions ran that work to the end), and the layout's
carving is run against a clock that moves one tick per look. The few tests that time a
whole command are marked slow and allow generous slack.
"""

import importlib
import subprocess
import sys
import time
import types

import numpy as np
import pytest

import kakuro_np as kn
from kakuro_np.chains import shortest_chain
from kakuro_np.engine.core.codes import OK, OVER_BUDGET, TIMED_OUT
from kakuro_np.engine.core.jit import NO_DEADLINE
from kakuro_np.engine.search import walk_fanouts
from kakuro_np.explanation import _board, _regions, board_runs
from kakuro_np.generator import draft_of, fill_of, kick, lower_ambiguity, random_fill, steer
from kakuro_np.grading import BANDS, LABEL_TOP, Grade
from kakuro_np.layout import make_layout
from kakuro_np.regions import region_step, regions
from kakuro_np.solve import model
from kakuro_np.techniques import N_TECHNIQUES, climb
from conftest import PUZZLES, ROOT
from test_cli import run

grade_module = importlib.import_module("kakuro_np.grading")
layout_module = importlib.import_module("kakuro_np.layout")
K2, K3 = PUZZLES / "k2.txt", PUZZLES / "k3.txt"
#: Logic is stuck at once on a fully open 9x9 block, and its fan-out tree is astronomical:
#: the fan-out count stops after 10 fan-outs (FANOUT_WORK) with no solution found.
OPEN_BLOCK = "\n".join(["x" + " ; 45 0" * 9] + ["0 45" + " ; _" * 9] * 9) + "\n"
#: The grid of the report: 13 s of logic, then a fan-out count cut short.
BIG = ROOT / "bench" / "sets" / "open-30x100.txt"
#: A deadline (monotonic ns) long past.
PAST = 0


def stuck_mask(path):
    """``(board, mask)``: a puzzle's board and the candidates where the ladder stops."""
    board = _board(kn.read(path))
    cand = kn.explain(path, top=N_TECHNIQUES).candidates.reshape(-1, 9)[board.var_cell]
    return board, (cand << np.arange(9)).sum(axis=1).astype(np.int64)


# -- the verdict ---------------------------------------------------------------------


def test_a_fanout_count_cut_short_never_claims_no_solution():
    g = kn.grade(kn.parse(OPEN_BLOCK))
    assert (g.fanouts, g.complete, g.unique) == (10, False, False)
    assert g.solutions == 2 and "no solution" not in str(g)
    assert str(g).endswith("; search stopped after 10 fan-outs; not unique: 2 solutions or more")


def test_the_command_lines_grade_exits_as_check_does(tmp_path):
    (tmp_path / "block.txt").write_text(OPEN_BLOCK)
    graded, checked = run("grade", tmp_path / "block.txt"), run("check", tmp_path / "block.txt")
    assert graded.returncode == checked.returncode == 3
    assert "no solution" not in graded.stdout and "search stopped after 10" in graded.stdout


@pytest.mark.parametrize("complete", [True, False])
@pytest.mark.parametrize("solutions", [0, 1, 2])
def test_a_grade_says_only_what_it_proved(complete, solutions):
    """``solutions`` 0 and 1 are proved either way (with the count cut short, by the
    solver's count); 2 or more are exact only when the count walked the whole tree."""
    g = Grade(93.1, "expert", 10, {"lone square": 3}, "lone square", "stuck", solutions, (),
              complete)
    fanouts = "; 10 fan-outs" if complete else "; search stopped after 10 fan-outs"
    said = {0: "no solution, so no grade",
            1: f"expert (score 93.1): hardest lone square{fanouts}",
            2: f"expert (score 93.1): hardest lone square{fanouts}; not unique: 2 solutions"
               f"{'' if complete else ' or more'}"}
    assert (str(g), g.unique) == (said[solutions], solutions == 1)


def test_a_grade_of_logic_alone_is_complete_and_says_so():
    g = kn.grade(K2)
    assert (g.complete, g.fanouts, g.solutions, g.unique) == (True, 0, 1, True)
    assert "fan-out" not in str(g)


def published(name):
    """A puzzle of bench/sets/published.jsonl, by name."""
    import json
    with open(ROOT / "bench" / "sets" / "published.jsonl") as f:
        return kn.parse(next(row for row in map(json.loads, f) if row["name"] == name)["grid"])


def fanning_out(case):
    """A puzzle whose fan-out count from the fixpoint of ``force`` needs more than one
    fan-out, with no solution, one, or several: pub-0347 (5 fan-outs, one solution), and
    with a 2 at (7, 8) (5 fan-outs, none), or k3 (46 fan-outs, 40 solutions)."""
    if case == "several":
        return kn.read(K3)
    p = published("pub-0347")
    given = np.zeros(p.shape, np.int8)
    given[7, 8] = 2 if case == "none" else 0
    return p.with_given(given)


@pytest.mark.parametrize("case", ["none", "one", "several"])
def test_a_count_cut_short_is_settled_by_the_solvers_count(case, monkeypatch):
    """Where logic is stuck (here made so) and the fan-out count stops after one fan-out,
    the grade still proves what it says: no solution, one, or two or more."""
    monkeypatch.setattr(grade_module, "logic_summary", lambda puzzle, deadline: ("stuck", {}, []))
    puzzle = fanning_out(case)
    whole = kn.grade(puzzle)
    assert whole.complete and whole.fanouts > 1
    monkeypatch.setattr(grade_module, "MAX_FANOUTS", 1)     # the count stops after 1 fan-out
    cut = kn.grade(puzzle)
    assert (cut.fanouts, cut.complete, cut.unique) == (1, False, whole.unique)
    if case == "none":
        assert whole.solutions == cut.solutions == 0
        assert str(whole) == str(cut) == "no solution, so no grade"
    elif case == "one":
        assert whole.solutions == cut.solutions == 1
        assert str(cut).endswith("; search stopped after 1 fan-out")
    else:
        assert cut.solutions >= 2 and whole.solutions == 40
        assert str(cut).endswith("; search stopped after 1 fan-out; not unique: "
                                 f"{cut.solutions} solutions or more")


def test_the_fanout_walk_says_how_it_ended():
    root = model(kn.read(K3)).root
    assert tuple(walk_fanouts(root(), np.int64(1000), np.int64(NO_DEADLINE))) == (46, 40, OK)
    assert tuple(walk_fanouts(root(), np.int64(46), np.int64(NO_DEADLINE))) == (46, 40, OK)
    assert tuple(walk_fanouts(root(), np.int64(10), np.int64(NO_DEADLINE)))[::2] == \
        (10, OVER_BUDGET)
    assert walk_fanouts(root(), np.int64(1000), np.int64(PAST))[2] == TIMED_OUT


# -- the solve by logic keeps its deadline ---------------------------------------------


def test_the_ladder_stops_at_a_deadline_past():
    board = _board(kn.read(K2))
    mask = np.full(len(board.var_cell), 0x1FF, np.int64)
    climbed = climb(board.runs, mask, np.int64(-1), np.int64(N_TECHNIQUES), np.int64(-1),
                    np.int64(PAST))
    assert climbed[0] == TIMED_OUT and len(climbed[1]) == 0 and (mask == 0x1FF).all()


def test_region_sums_and_chains_stop_at_a_deadline_past():
    board, mask = stuck_mask(K3)
    b = board.packed
    with pytest.raises(kn.SolveTimeout, match="solving by logic"):
        regions(b.ent_off, board.ent_var, b.ent_sum, b.n_across, board.var_cell,
                board.puzzle.shape[1], deadline=PAST)
    found = _regions(board)
    assert region_step(found, mask, board_runs(board)) is not None
    with pytest.raises(kn.SolveTimeout):
        region_step(found, mask, board_runs(board), {}, PAST)
    with pytest.raises(kn.SolveTimeout):
        shortest_chain(board.runs, mask, 100, deadline=PAST)


@pytest.mark.parametrize("verb", ["grade", "explain", "hint", "stats"])
def test_a_verb_past_its_deadline_does_no_more_work(verb, monkeypatch):
    """Past the deadline, none of the region sums is looked for: the solve by logic (which
    ran to its end before and took 13 s on the big grid) stops at once; so does the
    hint's step, its check of the digits left out."""
    def never(*args, **kwargs):
        raise AssertionError("region sums looked for past the deadline")
    monkeypatch.setattr(importlib.import_module("kakuro_np.regions"), "regions", never)
    more = {"check_digits": False} if verb == "hint" else {}
    with pytest.raises(kn.SolveTimeout):
        getattr(kn, verb)(K3, timeout=0, **more)


@pytest.mark.parametrize("args", [["grade"], ["explain"], ["hint"], ["stats"],
                                  ["convert", "--to", "json"]])
def test_every_command_keeps_its_timeout(args):
    out = run(*args, "--timeout", "1e-9", K3)
    assert out.returncode == 124 and out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1 and "timed out" in out.stderr


# -- the generator keeps its deadline ---------------------------------------------------


class TickingClock:
    """A clock for the layout's carving that moves one tick each time it is read."""

    def __init__(self):
        self.now = 0

    def monotonic_ns(self):
        self.now += 1
        return self.now


def test_the_layouts_carving_looks_at_the_clock_before_every_cut(monkeypatch):
    cuts = []
    allowed = layout_module.cut_allowed
    monkeypatch.setattr(layout_module, "cut_allowed", lambda *a: cuts.append(1) or allowed(*a))
    monkeypatch.setattr(layout_module, "time", types.SimpleNamespace(
        monotonic_ns=TickingClock().monotonic_ns))
    with pytest.raises(kn.SolveTimeout, match="drawing a layout"):
        make_layout(60, 60, np.random.default_rng(1), deadline=50)
    assert 0 < len(cuts) <= 50                 # a look at the clock before each cut


def test_a_deadline_never_changes_a_layout():
    far = time.monotonic_ns() + 10 ** 12
    assert np.array_equal(make_layout(20, 20, np.random.default_rng(4), deadline=far),
                          make_layout(20, 20, np.random.default_rng(4)))


def test_the_generator_past_its_deadline_draws_no_layout(monkeypatch):
    def never(*args):
        raise AssertionError("a cut looked at past the deadline")
    monkeypatch.setattr(layout_module, "cut_allowed", never)
    # kernels not compiled yet would time out first, while compiling: as if all were
    monkeypatch.setattr(importlib.import_module("kakuro_np.engine.core.ahead"), "ready",
                        lambda names, deadline: None)
    with pytest.raises(kn.SolveTimeout):
        kn.generate(60, 60, seed=1, timeout=0)


def a_draft(size=12, seed=2):
    """``(rng, blank, draft)``: a drawn layout, a random fill of it, and their draft."""
    rng = np.random.default_rng(seed)
    blank = make_layout(size, size, rng)
    return rng, blank, draft_of(blank, random_fill(blank, rng))


def test_the_climb_and_the_steer_stop_at_a_deadline_past():
    rng, blank, draft = a_draft()
    before = draft.digit.copy()
    lower_ambiguity(draft, 7, 256, PAST)
    assert np.array_equal(draft.digit, before)
    top, (low, high) = LABEL_TOP["hard"], BANDS["hard"]
    steer(draft, 7, 64, top, low, high, PAST)
    assert np.array_equal(draft.digit, before)
    lower_ambiguity(draft, 7, 256, NO_DEADLINE)          # without one, they change digits
    assert not np.array_equal(draft.digit, before)


def test_a_kick_stops_at_a_deadline_past():
    rng, blank, draft = a_draft()
    before = fill_of(draft, blank.shape)
    with pytest.raises(kn.SolveTimeout, match="making a puzzle unique"):
        kick(draft, np.argwhere(blank)[:5], blank.shape, rng, None, PAST)
    assert np.array_equal(fill_of(draft, blank.shape), before)


# -- whole commands, timed (slow) --------------------------------------------------------


def timed(*args) -> tuple:
    """``(exit status, stderr, seconds)`` of the command line as a program."""
    started = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "kakuro_np", *map(str, args)],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    return out.returncode, out.stderr, time.monotonic() - started


@pytest.mark.slow
@pytest.mark.parametrize("args", [["grade", BIG], ["explain", BIG],
                                  ["generate", "200", "200", "--seed", "1"],
                                  ["generate", "100", "100", "--seed", "1", "--grade", "expert"]])
def test_a_long_command_ends_soon_after_its_timeout(args):
    """Before: grade 16.5 s, explain 13.6 s, generate 200x200 85.8 s with 10 s allowed."""
    code, err, seconds = timed(*args, "--timeout", "2")
    assert code == 124 and len(err.strip().splitlines()) == 1
    assert seconds < 2 + 10                    # the start-up, and a loaded machine's slack
