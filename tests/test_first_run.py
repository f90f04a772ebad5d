"""A first run's answer while the kernels compile (``first_run``): the essay in numpy, equal
to the engine's answer, and used only while the kernels are not in the cache."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from kakuro_np import turns
from kakuro_np import first_run, solve
from kakuro_np.combos import candidate_grid
from kakuro_np.engine.build.entries import packed_entries
from kakuro_np.engine.core.jit import NO_DEADLINE
from kakuro_np.errors import PuzzleError
from strategies import filled_puzzles

from conftest import PUZZLES, ROOT, SAMPLES, examples


@pytest.mark.parametrize("name", SAMPLES)
def test_the_essay_answers_the_samples_as_the_engine_does(name, expected):
    p = kn.read(PUZZLES / name)
    digits, complete = first_run.essay_answer(p, 1000, NO_DEADLINE)
    assert complete and len(digits) == expected[name]["solutions"]
    assert np.array_equal(digits, kn.kakuro(p))


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(filled_puzzles(max_side=7), st.integers(1, 5), st.booleans())
def test_the_essay_answer_is_the_engines_first_solutions(case, cap, with_given):
    puzzle, fill = case
    if with_given and puzzle.blank.any():      # one more of the fill's digits given
        given = puzzle.given.copy()
        cell = np.unravel_index(np.flatnonzero(puzzle.blank.ravel())[-1], puzzle.shape)
        given[cell] = fill[cell]
        puzzle = puzzle.with_given(given)
    answer = first_run.essay_answer(puzzle, cap, NO_DEADLINE)
    assert answer is not None
    digits, complete = answer
    assert np.array_equal(digits, kn.kakuro(puzzle, limit=cap))
    assert complete == (kn.count(puzzle, limit=cap + 1) <= cap) or len(digits) == cap


@settings(max_examples=examples(80), deadline=None)
@given(st.integers(2, 8), st.integers(2, 8), st.data())
def test_the_interpreted_scan_finds_what_the_kernel_finds(H, W, data):
    cells = data.draw(st.lists(st.sampled_from(["x", "_", (3, 0), (0, 4), (12, 17), (0, 45)]),
                               min_size=H * W, max_size=H * W))
    # Known tokens in full rows: always a Puzzle (its runs are checked by packed_entries).
    p = kn.Puzzle.from_rows([cells[r * W:(r + 1) * W] for r in range(H)])
    outcomes = []
    for compiled in (True, False):
        try:
            packed = packed_entries(p, compiled=compiled)
            outcomes.append(("ok", [a.tolist() for a in packed[:3]], packed.n_across))
        except PuzzleError as e:
            outcomes.append(("error", str(e)))
    assert outcomes[0] == outcomes[1]


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(filled_puzzles(max_side=7), st.booleans())
def test_the_essays_candidates_are_the_engines_fixpoint(case, with_given):
    puzzle, fill = case
    if with_given and puzzle.blank.any():      # a digit given: the fill's, or a wrong one
        given = puzzle.given.copy()
        cell = np.unravel_index(np.flatnonzero(puzzle.blank.ravel())[0], puzzle.shape)
        given[cell] = fill[cell] % 9 + 1 if fill[cell] % 2 else fill[cell]
        puzzle = puzzle.with_given(given)
    masks = first_run.essay_masks(puzzle, NO_DEADLINE)
    engine = kn.reduce(puzzle)
    if engine.status == "contradiction":
        assert masks is None
    else:
        assert np.array_equal(essay_candidates(puzzle, masks), engine.candidates)


@pytest.mark.parametrize("name", SAMPLES)
def test_the_essays_candidates_of_the_samples(name):
    p = kn.read(PUZZLES / name)
    masks = first_run.essay_masks(p, NO_DEADLINE)
    assert np.array_equal(essay_candidates(p, masks), kn.reduce(p).candidates)


def essay_candidates(puzzle, masks):
    """The (H, W, 9) candidates of the essay's masks (one per blank cell, row-major)."""
    return candidate_grid(puzzle.shape, np.flatnonzero(puzzle.blank.ravel()), masks)[0]


def test_it_gives_up_when_told_to_stop_or_when_the_tables_are_too_big():
    k3 = kn.read(PUZZLES / "k3.txt")
    assert first_run.essay_answer(k3, 5, NO_DEADLINE, stop=lambda: True) is None
    assert first_run.essay_answer(k3, 5, NO_DEADLINE, max_rows=10) is None
    assert first_run.essay_answer(k3, 5, 0) is None                   # past its deadline


#: A fresh process on an empty cache: what ``kakuro()`` and ``count()`` answer, how many
#: kernels compiled in the process itself, and the kernels it started helpers for. Its
#: helpers compile nothing: whether a helper's kernels are in the cache before the essay
#: answers is a race between processes (a loaded machine, or a compile of seconds, lets the
#: helpers win, and the engine answers, compiling here what they did not), so the
#: answers here are the essay's, however fast this machine compiles.
FIRST_RUN = r"""
import json, subprocess, sys
from numba.core import event
import kakuro_np as kn
from kakuro_np.engine.core import ahead
P = sys.argv[1]
helped = []

def helper(*names, **how):
    helped.extend(names)
    return subprocess.Popen([sys.executable, "-c", "pass"])

ahead._helper = helper
with event.install_recorder("numba:compile") as rec:
    k2 = kn.kakuro(P + "/k2.txt")
    k3 = kn.kakuro(P + "/k3.txt", limit=5)
    counts = [kn.count(P + "/k3.txt"), kn.count(P + "/k3.txt", limit=2)]
    reduced = [kn.reduce(P + "/k2.txt").digits.tolist(), kn.reduce(P + "/k3.txt").status]
    try:
        kn.kakuro([["x", (3, 0), (4, 0)], ["x", "_", "_"]])
        error = None
    except kn.PuzzleError as e:
        error = str(e)
compiled = sum(1 for _, ev in rec.buffer if ev.is_start)
print(json.dumps({"k2": k2.tolist(), "k3": k3.tolist(), "counts": counts, "reduced": reduced,
                  "error": error, "compiled": compiled, "helped": sorted(set(helped))}))
"""


def test_a_first_run_answers_from_the_essay_and_compiles_nothing_itself(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", FIRST_RUN, str(PUZZLES)], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["compiled"] == 0
    assert got["helped"] == sorted({"model", *solve.kakuro_kernels(None), *solve.kakuro_kernels(5),
                                    *turns.count_kernels(None), *turns.count_kernels(2)})
    assert got["k2"] == kn.kakuro(PUZZLES / "k2.txt").tolist()
    assert got["k3"] == kn.kakuro(PUZZLES / "k3.txt", limit=5).tolist()
    assert got["counts"] == [40, 2]
    assert got["reduced"] == [kn.reduce(PUZZLES / "k2.txt").digits.tolist(), "stuck"]
    with pytest.raises(PuzzleError) as e:
        kn.kakuro([["x", (3, 0), (4, 0)], ["x", "_", "_"]])
    assert got["error"] == str(e.value)
