"""Whole collections (``batch``): results in input order, every input kind, errors and
timeouts recorded, worker deaths survived, and a batch killed (SIGKILL, SIGTERM, SIGINT)
resumed to the same file. The safety of its output and its workers: test_batch_safety."""

import importlib
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import kakuro_np as kn
from kakuro_np.batch import items, run_batch, solve_many, solve_one
from conftest import PUZZLES, ROOT
from strategies import satisfies

batch = importlib.import_module("kakuro_np.batch")
EXPECTED = {k[:-4]: v["solutions"] for k, v in
            json.loads((PUZZLES / "expected.json").read_text()).items() if k.endswith(".txt")}
SAMPLES = sorted(str(PUZZLES / f"{name}.txt") for name in EXPECTED)
#: A 9x9 block of runs of 45: a Latin square's count, far too many to finish.
OPEN_BLOCK = "\n".join(["x" + " ; 45 0" * 9] + ["0 45" + " ; _" * 9] * 9)


def same(a, b):
    """Two results alike but for their times."""
    return (a.id, a.count, a.status, a.error) == (b.id, b.count, b.status, b.error) and \
        np.array_equal(a.solutions, b.solutions)


@pytest.mark.parametrize("workers", [1, 2])
def test_the_samples_get_their_counts_and_valid_solutions_in_input_order(workers):
    results = solve_many(SAMPLES, workers=workers, limit=50, keep=3)
    assert [r.id for r in results] == sorted(EXPECTED)
    for r in results:
        want = EXPECTED[r.id]
        assert r.count == min(want, 50) and r.error is None
        assert r.status == {0: "none", 1: "unique"}.get(want, "multiple")
        assert len(r.solutions) == min(want, 3)
        assert all(satisfies(r.puzzle, s) for s in r.solutions)
        assert len({s.tobytes() for s in r.solutions}) == len(r.solutions)
        assert r.seconds >= 0


def test_one_process_and_two_give_the_same_results():
    one = solve_many(SAMPLES, workers=1, limit=2)
    two = solve_many(SAMPLES, workers=2, limit=2)
    assert all(same(a, b) for a, b in zip(one, two, strict=True))


def test_a_bad_puzzle_records_its_error_and_the_batch_goes_on():
    results = solve_many([("bad", "x ; 3 0\n0 3 ; q"), ("k2", str(PUZZLES / "k2.txt")),
                          ("missing", "no/such/file.txt")], workers=2)
    assert [r.status for r in results] == ["error", "unique", "error"]
    assert results[0].error.startswith("2:7: unknown cell") and results[0].count is None
    assert results[0].puzzle is None and results[2].error


def test_a_puzzle_past_its_timeout_is_a_timeout():
    results = solve_many({"open": OPEN_BLOCK, "k0": PUZZLES / "k0.txt"}, workers=1, timeout=0.3)
    assert [r.status for r in results] == ["timeout", "unique"]
    assert "timed out" in results[0].error


def test_a_worker_that_dies_is_replaced_and_its_puzzle_recorded(monkeypatch):
    solve_one = batch.solve_one

    def dying(item, *args):
        if item[0] == "die":
            os._exit(3)                               # as the kernel's OOM killer would
        return solve_one(item, *args)

    monkeypatch.setattr(batch, "solve_one", dying)    # the forked workers inherit it
    grids = [(name, str(PUZZLES / f"{name}.txt")) for name in ("k0", "k1", "k2")]
    results = solve_many(grids[:2] + [("die", "x")] + grids[2:], workers=2)
    assert [r.id for r in results] == ["k0", "k1", "die", "k2"]
    assert [r.status for r in results] == ["unique", "unique", "error", "unique"]
    assert "died" in results[2].error


def test_every_input_kind_is_read_with_ids(tmp_path):
    (tmp_path / "set" / "deep").mkdir(parents=True)
    for name in ("k0", "k1"):
        (tmp_path / "set" / f"{name}.txt").write_text((PUZZLES / f"{name}.txt").read_text())
    (tmp_path / "set" / "deep" / "k2.txt").write_text((PUZZLES / "k2.txt").read_text())
    (tmp_path / "set" / "k1-solution.txt").write_text("not a puzzle")
    (tmp_path / "set" / "k1.svg").write_text("<svg/>")
    assert [i for i, _ in items(tmp_path / "set")] == ["deep/k2", "k0", "k1"]
    assert [i for i, _ in items(str(tmp_path / "set" / "k*.txt"))] == ["k0", "k1"]
    lines = [json.dumps({"id": "a", "grid": (PUZZLES / "k0.txt").read_text()}), "",
             json.dumps({"name": "a", "puzzle": (PUZZLES / "k1.txt").read_text()}),
             "{not json", json.dumps({"id": "c"}), json.dumps([1, 2])]
    (tmp_path / "set.jsonl").write_text("\n".join(lines) + "\n")
    read = items(tmp_path / "set.jsonl")
    assert [i for i, _ in read] == ["a", "a~2", "line 4", "c", "line 6"]
    results = solve_many(tmp_path / "set.jsonl", workers=1)
    assert [r.status for r in results] == ["unique", "unique", "error", "error", "error"]
    assert "not JSON" in results[2].error and "no grid" in results[3].error
    k0 = kn.format(kn.read(PUZZLES / "k0.txt"), "comma")
    (tmp_path / "collection.json").write_text(json.dumps(
        {"data": {"7": {"problem": k0, "author": "x"}, "8": {"answer": "?"}}}))
    results = solve_many(str(tmp_path / "collection.json"), workers=1)
    assert [(r.id, r.status) for r in results] == [("7", "unique"), ("8", "error")]
    assert [i for i, _ in items(PUZZLES / "k3.txt")] == ["k3"]
    with pytest.raises(kn.PuzzleError, match="no such file"):
        items(tmp_path / "nothing.txt")
    with pytest.raises(kn.PuzzleError, match="no file matches"):
        items(str(tmp_path / "*.nothing"))


def test_results_lines_are_json_with_comma_solutions(tmp_path):
    out = tmp_path / "r.jsonl"
    tally = run_batch(str(PUZZLES / "k[23].txt"), out, workers=1, limit=5)
    assert tally == {"skipped": 0, "unique": 1, "multiple": 1}
    k2, k3 = [json.loads(line) for line in out.read_text().splitlines()]
    assert (k2["id"], k2["size"], k2["count"], k2["status"]) == ("k2", [10, 8], 1, "unique")
    solved = kn.parse(k2["solutions"][0], format="comma")
    assert np.array_equal(solved.given, kn.kakuro(PUZZLES / "k2.txt")[0])
    assert (k3["count"], len(k3["solutions"]), k3["error"]) == (5, 5, None)


def _lines(path):
    """The results file without times, as comparable rows."""
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    return [{k: v for k, v in row.items() if k not in ("seconds", "error")} for row in rows]


#: The kill tests' ``--timeout``: the slow grid's time in each run that reaches its end (the
#: whole run and each resumed one). A sample takes milliseconds, but the first one a worker
#: solves loads the kernels from the cache (0.5 s of processor time; 2.2 s with three busy
#: processes on two cores, past a timeout of 2 s).
KILL_TIMEOUT = 6


def _killable_batch(folder):
    """The input of the kill tests (12 samples with a slow grid in 7th place, which holds
    the run while it is killed) and their command without ``--out``."""
    grids = [{"id": f"s{i}", "grid": (PUZZLES / f"k{i % 8}.txt").read_text()} for i in range(12)]
    grids.insert(6, {"id": "slow", "grid": OPEN_BLOCK})
    (folder / "in.jsonl").write_text("".join(json.dumps(g) + "\n" for g in grids))
    return [sys.executable, "-m", "kakuro_np", "batch", str(folder / "in.jsonl"), "--timeout",
            str(KILL_TIMEOUT)]


def _compile_the_batchs_kernels():
    """The kernels a batch's workers run, in the cache before the kill tests' runs. On an
    empty cache a run's samples time out while helpers compile (the timeout counts the
    compile), or the essay answers them meanwhile (``first_run``), in its own order where
    the engine hunts in any order: either way a run made later answers otherwise."""
    from kakuro_np.engine.core import ahead
    from kakuro_np.solve import count_kernels, kakuro_kernels
    for name in ("model", *count_kernels(None), *kakuro_kernels(batch.KEEP, "any")):
        for kernel, types in ahead.kernels_of(name):
            kernel.compile(types)


@pytest.fixture(scope="module")
def whole_batch(tmp_path_factory):
    """The kill tests' results file, written by a run nobody stops (one for all three)."""
    _compile_the_batchs_kernels()
    folder = tmp_path_factory.mktemp("whole")
    whole = folder / "whole.jsonl"
    subprocess.run(_killable_batch(folder) + ["--workers", "2", "--out", str(whole)], check=True,
                   cwd=ROOT, capture_output=True)
    return whole


@pytest.mark.xdist_group("batch-killed")         # one worker: the whole run is made once
@pytest.mark.parametrize("signum, workers", [(signal.SIGKILL, "1"), (signal.SIGTERM, "2"),
                                             (signal.SIGINT, "2")])
def test_a_batch_killed_and_resumed_writes_the_same_file(tmp_path, whole_batch, signum, workers):
    cmd = _killable_batch(tmp_path) + ["--workers", workers]
    whole = whole_batch
    killed = tmp_path / "killed.jsonl"
    run = subprocess.Popen(cmd + ["--out", str(killed)], cwd=ROOT, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300                          # a wait on a condition
    while (not killed.exists() or killed.read_text().count("\n") < 6) and \
            time.monotonic() < deadline:
        time.sleep(0.05)
    run.send_signal(signum)                                   # on the slow puzzle
    assert run.wait() == {signal.SIGKILL: -signal.SIGKILL, signal.SIGTERM: 143,
                          signal.SIGINT: 130}[signum]
    assert killed.read_text().count("\n") == 6
    with open(killed, "a") as f:
        f.write('{"id": "slow", "sta')                        # a line cut short
    again = subprocess.run(cmd + ["--out", str(killed)], cwd=ROOT, capture_output=True,
                           text=True)
    assert again.returncode == 0 and "6 already there" in again.stderr
    assert _lines(killed) == _lines(whole)
    assert [row["status"] for row in _lines(whole)][6] == "timeout"


def test_a_malformed_run_is_located_by_file_line_and_column(tmp_path):
    """As ``kakuro-np solve`` names it: ``bad.txt:2:5``, not the cell (1, 1)."""
    (tmp_path / "bad.txt").write_text("x ; x ; x\nx ; _ ; _\n")
    r = solve_one(("bad", str(tmp_path / "bad.txt")))
    assert r.status == "error"
    said = "2:5: a run of 2 blank cells has no across clue to its left"
    assert r.error == f"{tmp_path / 'bad.txt'}:{said}"
    r = solve_one(("text", "x ; x ; x\nx ; _ ; _"))
    assert r.error == said
