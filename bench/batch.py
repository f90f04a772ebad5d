"""Scale: batch throughput on 1 core against 2, and a distributed count against one process.

Two measurements, each side by side in one run, rounds alternating which side goes
first:

- **throughput**: ``kn.solve_many`` over a set (default: the 500 puzzles of
  ``sets/published.jsonl``, exact counts and one solution kept each) with
  ``workers=1`` (in this process), ``workers=2`` (a process pool), and on a
  2-worker Dask LocalCluster; puzzles per second, and the ratio to 1 core.
- **distributed count**: ``kn.count(p)`` in this process against
  ``kn.count(p, scheduler=client)`` on the 2-worker LocalCluster, for the grids of
  ``sets/long_counts.jsonl`` (random open grids whose exact count takes 10 s or
  more on one core; ``--find`` makes more). The workers' memos are dropped
  before each distributed count (``dist.forget``), so every count starts cold.

Run: ``.venv/bin/python bench/batch.py [--rounds R] [--results]`` (``--results``
keeps the tables in ``bench/RESULTS.md``, section "batch");
``.venv/bin/python bench/batch.py --find SEED SIZE BLACK N`` appends grids to the counts
set (the set holds ``--find 3 12 0.22 25``'s two and ``--find 1 12 0.25 12``'s #11 with
``low`` lowered to 4 s: a count whose pieces every branch shares).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

import kakuro_np as kn
from kakuro_np import dist
from kakuro_np.batch import items

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sections import markers, write_section  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SETS = os.path.join(HERE, "sets")
COUNTS = os.path.join(SETS, "long_counts.jsonl")


def cluster(n):
    """A LocalCluster of ``n`` single-threaded worker processes and its Client, warmed up
    (every kernel loaded in every worker)."""
    from distributed import Client, LocalCluster
    c = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                     dashboard_address=":0")
    client = Client(c)
    client.wait_for_workers(n)
    client.run(warm, os.path.join(HERE, "..", "puzzles", "k3.txt"))
    return c, client


def warm(path):
    """Load in a worker every kernel the timed calls use."""
    import kakuro_np
    kakuro_np.count(path), kakuro_np.count(path, limit=2)
    kakuro_np.kakuro(path, limit=2, order="any"), kakuro_np.kakuro(path, limit=2)


def throughput(client, puzzles, rounds):
    """``{side: [seconds per round]}`` for the batch of ``puzzles`` on each side."""
    sides = {"1 core (workers=1)": dict(workers=1), "2 cores (workers=2)": dict(workers=2),
             "Dask LocalCluster, 2 workers": dict(scheduler=client)}
    times = {name: [] for name in sides}
    counts = None
    for r in range(rounds):
        order = list(sides) if r % 2 == 0 else list(sides)[::-1]
        for name in order:
            t = time.perf_counter()
            results = kn.solve_many(puzzles, keep=1, **sides[name])
            times[name].append(time.perf_counter() - t)
            got = [(x.id, x.count, x.status) for x in results]
            assert counts is None or got == counts, f"{name} disagrees"
            counts = got
    return times, counts


def big_memo_count(p, timeout):
    """``count(p)`` in this process with the memo a worker has (``dist.MEMO_*``)."""
    from kakuro_np.engine.core.jit import deadline_ns
    from kakuro_np.engine.walk.memo import new_memo
    from kakuro_np.solve import model
    from kakuro_np.turns import NO_LIMIT, count_in_turns
    return count_in_turns(model(p), NO_LIMIT, deadline_ns(timeout),
                          memo=new_memo(dist.MEMO_SLOTS_LOG2, dist.MEMO_WORDS))


def distributed_counts(client, grids, rounds, timeout):
    """``[(name, count, {side: [seconds]})]``: ``kn.count`` in this process, the same
    with a worker's memo, and split on the cluster."""
    return timed_counts(grids, {
        "one process": lambda p: kn.count(p, timeout=timeout),
        "one process, a worker's memo": lambda p: big_memo_count(p, timeout),
        "2 workers": lambda p: kn.count(p, timeout=timeout, scheduler=client)},
        rounds, before={"2 workers": lambda: client.run(dist.forget)})


def timed_counts(grids, sides, rounds, before=None):
    """``[(name, count, {side: [seconds]})]``: each of ``grids`` (dicts with ``name`` and
    ``grid``) counted by each of ``sides`` (name -> ``count(puzzle)``), ``rounds`` times,
    the order reversed every other round; ``before[side]()``, untimed, before each of
    that side's counts (dropping the workers' memos). Every side that answers must give
    one count; a side's None (past its time limit) is timed but not compared. A line a
    grid as it ends."""
    before = before or {}
    names, rows = list(sides), []
    for g in grids:
        p = kn.parse(g["grid"])
        times, n = {side: [] for side in names}, None
        for r in range(rounds):
            for side in (names if r % 2 == 0 else names[::-1]):
                if side in before:
                    before[side]()
                t = time.perf_counter()
                got = sides[side](p)
                times[side].append(time.perf_counter() - t)
                if got is None:
                    continue
                assert n is None or got == n, f"{g['name']}: {got} != {n}"
                n = got
        rows.append((g["name"], n, times))
        print(f"{g['name']}: {n or 0:,} solutions, " + ", ".join(
            f"{side} {statistics.median(ts):.2f} s" for side, ts in times.items()), flush=True)
    return rows


def find(seed, size, black, n, low=10.0, high=120.0):
    """Append to the counts set the random open grids whose exact count takes ``low`` to
    ``high`` s here: ``n`` draws from ``default_rng(seed)`` of a ``size`` x ``size``
    layout with that share of ``black`` cells (``make_sets.make_layout``, keep="big") and a
    random fill; draw ``i`` is named ``count-SIZE-BLACK-SEED-i``."""
    import make_sets as ms
    rng = np.random.default_rng(seed)
    for i in range(n):
        layout = ms.make_layout(rng, size, size, black, keep="big")
        fill = None if layout is None else ms.random_fill(rng, layout)
        if fill is None:
            continue
        p = ms.puzzle_of(layout, fill)
        t = time.perf_counter()
        try:
            count = kn.count(p, timeout=high)
        except (kn.SolveTimeout, kn.TooManySolutions):
            print(f"#{i}: past {high} s", flush=True)
            continue
        seconds = time.perf_counter() - t
        print(f"#{i}: {count:,} in {seconds:.1f} s", flush=True)
        if seconds >= low:
            with open(COUNTS, "a") as f:
                f.write(json.dumps({"name": f"count-{size}-{black}-{seed}-{i}",
                                    "size": [size, size], "solutions": count,
                                    "seconds_one_core": round(seconds, 1),
                                    "grid": kn.format(p, "jboxed")}) + "\n")


def report(times, n_puzzles, rows, set_name) -> str:
    begin, end = markers("batch")
    base = statistics.median(times["1 core (workers=1)"])
    lines = [begin, "## Scale: batches on 1 and 2 cores, and a count on a 2-worker Dask cluster "
             "(`bench/batch.py`)", "",
             f"Throughput on `{set_name}` ({n_puzzles} puzzles, exact counts, one solution "
             f"kept each; median of {len(next(iter(times.values())))} rounds, sides "
             f"alternating; every side gave the same counts):", "",
             "| side | seconds | puzzles/s | vs 1 core |", "|---|---:|---:|---:|"]
    for name, ts in times.items():
        s = statistics.median(ts)
        lines.append(f"| {name} | {s:.2f} | {n_puzzles / s:,.0f} | {base / s:.2f}x |")
    if rows:
        lines += ["", "Exact counts of open grids (`sets/long_counts.jsonl`): `kn.count(p)` in "
                  "one process; the same with the larger memo each worker keeps "
                  f"(2**{dist.MEMO_SLOTS_LOG2} slots, {dist.MEMO_WORDS:,} key words); and "
                  "`kn.count(p, scheduler=client)` on a 2-worker LocalCluster, split into "
                  f"{dist.TASKS_PER_THREAD} subproblems a worker, the workers' memos dropped "
                  "before each. Median of the rounds, sides alternating; every side gave "
                  "the same count:", "",
                  "| grid | solutions | one process | one process, worker's memo | "
                  "2 workers | speed-up | speed-up, same memo |",
                  "|---|---:|---:|---:|---:|---:|---:|"]
        totals = [0.0, 0.0, 0.0]
        for name, n, times in rows:
            a, b, s = (statistics.median(ts) for ts in times.values())
            totals = [totals[0] + a, totals[1] + b, totals[2] + s]
            lines.append(f"| {name} | {n:,} | {a:.1f} s | {b:.1f} s | {s:.1f} s | "
                         f"{a / s:.2f}x | {b / s:.2f}x |")
        a, b, s = totals
        lines.append(f"| total | | {a:.1f} s | {b:.1f} s | {s:.1f} s | {a / s:.2f}x | "
                     f"{b / s:.2f}x |")
    lines.append(end)
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", default=os.path.join(SETS, "published.jsonl"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--count-rounds", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--no-counts", action="store_true")
    ap.add_argument("--results", action="store_true")
    ap.add_argument("--find", nargs=4, metavar=("SEED", "SIZE", "BLACK", "N"))
    args = ap.parse_args(argv)
    if args.find:
        seed, size, black, n = args.find
        find(int(seed), int(size), float(black), int(n))
        return
    puzzles = items(args.set)
    kn.solve_many(puzzles[:20], workers=1)               # kernels loaded here first
    c, client = cluster(2)
    try:
        times, _ = throughput(client, puzzles, args.rounds)
        for name, ts in times.items():
            print(f"{name}: {statistics.median(ts):.2f} s, "
                  f"{len(puzzles) / statistics.median(ts):,.0f} puzzles/s", flush=True)
        rows = []
        if not args.no_counts and os.path.exists(COUNTS):
            grids = [json.loads(line) for line in open(COUNTS) if line.strip()]
            rows = distributed_counts(client, grids, args.count_rounds, args.timeout)
    finally:
        client.close()
        c.close()
    text = report(times, len(puzzles), rows, os.path.relpath(args.set, HERE))
    print(text)
    if args.results:
        write_section("batch", text)


if __name__ == "__main__":
    main()
