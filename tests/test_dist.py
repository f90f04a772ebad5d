"""Dask (``dist``): a real LocalCluster on loopback with 2 worker processes runs a batch
as the local pool does, a split count and listing as one process does, and survives a
worker killed mid-count."""

import importlib
import json
import os
import signal
import sys
import threading
import time

import numpy as np
import pytest

import kakuro_np as kn
from kakuro_np.batch import run_batch, solve_many
from kakuro_np.cli import main
from conftest import PUZZLES

distributed = pytest.importorskip("distributed")
dist = importlib.import_module("kakuro_np.dist")

pytestmark = [pytest.mark.dask, pytest.mark.xdist_group("dask")]
SAMPLES = sorted(str(p) for p in PUZZLES.glob("k*.txt"))
#: A 12x12 grid of a random fill with 166,162,320 solutions: about 1.3 s to count in one
#: process, in hundreds of subproblems.
MANY = PUZZLES.parent / "tests" / "data" / "many-12x12.txt"


@pytest.fixture(scope="module")
def client():
    kn.count(MANY)                  # the kernels compiled here (and cached) before the workers
    kn.kakuro(MANY, limit=300)      # start, so that they load them rather than each compile
    solve_many(SAMPLES[:1], workers=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as c:
        c.wait_for_workers(2)
        yield c


def same(a, b):
    return (a.id, a.count, a.status, a.error) == (b.id, b.count, b.status, b.error) and \
        np.array_equal(a.solutions, b.solutions)


def test_a_batch_on_the_cluster_gives_what_the_local_pool_gives(client):
    here = solve_many(SAMPLES, workers=2, limit=50, keep=1)
    there = solve_many(SAMPLES, scheduler=client, limit=50, keep=1)
    assert [r.id for r in there] == [r.id for r in here]
    for a, b in zip(here, there):
        assert a.count == b.count and a.status == b.status and a.error is b.error is None
        assert len(a.solutions) == len(b.solutions)


def test_a_bad_puzzle_on_the_cluster_is_its_own_error(client, tmp_path):
    (tmp_path / "good.txt").write_text((PUZZLES / "k2.txt").read_text())
    (tmp_path / "bad.txt").write_text("x ; 3 0\n0 3 ; x\n")
    (tmp_path / "unreadable.txt").write_bytes(b"\xff\xfe x ; 3")
    results = solve_many(str(tmp_path), scheduler=client)
    assert [(r.id, r.status) for r in results] == \
        [("bad", "error"), ("good", "unique"), ("unreadable", "error")]
    assert [r.error for r in results] == [r.error for r in solve_many(str(tmp_path), workers=1)]


def test_a_split_count_is_the_count_of_one_process(client):
    want = kn.count(MANY)
    assert want == 166_162_320
    assert kn.count(MANY, scheduler=client) == want
    solve = importlib.import_module("kakuro_np.solve")
    assert dist.count_on(client, solve.count_subproblem, solve.model(MANY), 10**9, None,
                         solve.MAX_ROWS, tasks=7) == want
    assert kn.count(MANY, limit=1000, scheduler=client) == 1000


def test_a_split_listing_is_the_essays_order(client):
    for path, limit in ((PUZZLES / "k3.txt", None), (MANY, 300)):
        here = kn.kakuro(path, limit=limit)
        assert np.array_equal(kn.kakuro(path, limit=limit, scheduler=client), here)


def test_a_worker_killed_mid_count_still_gives_the_count(client):
    want = kn.count(MANY)
    client.run(dist.forget)                           # no memo kept from the tests before
    pids = client.run(os.getpid)
    out = {}
    counting = threading.Thread(
        target=lambda: out.setdefault("n", kn.count(MANY, scheduler=client)))
    counting.start()
    deadline = time.monotonic() + 30
    while not any(client.processing().values()) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert counting.is_alive()                        # the kill lands mid-count (its tasks
    os.kill(next(iter(pids.values())), signal.SIGKILL)  # build the model first: 0.5 s)
    counting.join(120)
    assert out["n"] == want
    client.wait_for_workers(2, timeout=60)            # the nanny starts another


def test_the_command_line_runs_a_batch_on_a_scheduler(client, tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    code = main(["batch", str(PUZZLES), "--out", str(out), "--limit", "5",
                 "--scheduler", client.scheduler.address])
    assert code == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["count"] for line in lines] == \
        [r.count for r in solve_many(str(PUZZLES), workers=1, limit=5)]
    assert "solved" in capsys.readouterr().err


def test_an_unreachable_scheduler_is_one_clear_line(monkeypatch, capsys):
    monkeypatch.setattr(dist, "CONNECT_SECONDS", 0.5)
    code = main(["batch", str(PUZZLES / "k2.txt"), "--out", os.devnull,
                 "--scheduler", "tcp://127.0.0.1:9"])
    err = capsys.readouterr().err
    assert code != 0 and err.count("\n") == 1 and "cannot reach the Dask scheduler" in err
    with pytest.raises(ConnectionError, match="cannot reach"):
        kn.count(PUZZLES / "k2.txt", scheduler="tcp://127.0.0.1:9")


def test_progress_is_for_a_count_in_this_process():
    with pytest.raises(ValueError, match="dashboard"):
        kn.count(PUZZLES / "k2.txt", progress=print, scheduler="local")


def test_a_killed_batch_on_the_cluster_resumes_to_the_same_file(client, tmp_path):
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    run_batch(str(PUZZLES), whole, scheduler=client, limit=5)
    lines = whole.read_text().splitlines(keepends=True)
    cut.write_text("".join(lines[:4]) + lines[4][:10])          # killed mid-line
    run_batch(str(PUZZLES), cut, scheduler=client, limit=5)
    strip = [{k: v for k, v in json.loads(line).items() if k != "seconds"}
             for line in whole.read_text().splitlines()]
    assert [{k: v for k, v in json.loads(line).items() if k != "seconds"}
            for line in cut.read_text().splitlines()] == strip


def test_a_cluster_without_workers_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(dist, "WORKER_WAIT", 0.5)
    with distributed.LocalCluster(n_workers=0, processes=True, host="127.0.0.1",
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as c:
        with pytest.raises(ConnectionError, match="has no worker"):
            kn.count(MANY, scheduler=c)


def test_without_dask_the_message_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)     # import distributed fails
    with pytest.raises(ImportError, match=r"kakuro_np\[dist\]"):
        kn.count(PUZZLES / "k2.txt", scheduler="local")
    code = main(["solve", "--count", "--dask", "local", str(PUZZLES / "k2.txt")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "pip install" in err
