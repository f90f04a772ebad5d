"""Scale: a batch on 1, 2, 4, ... workers, with the CPU its main process spends a puzzle.

Each run is ``run_batch`` of the published set repeated ``--copies`` times (a
JSON-lines input, ids made unique) into ``os.devnull``, in a fresh process of the
checkout asked for (its own warm cache), warmed up first. It reports the wall time,
puzzles a second, the main process's own CPU time a puzzle (user + system, its
threads included) and its workers' CPU a puzzle, beside a loop of ``kn.kakuro`` over
the same puzzles (read beforehand) in one process: the ceiling a batch's main process
sets shows on two cores too. Rounds alternate the checkouts; medians. With ``--counts
GRIDS`` it times instead exact counts of those grids in one process and on a Dask
LocalCluster of each worker count (single-threaded processes, their memos dropped before
each count), in this checkout: each cluster's speed-up over one process.

    git worktree add /tmp/before HEAD~1
    python bench/scale.py /tmp/before . --workers 1 2      # a Markdown table
    python bench/scale.py . . --rounds 1                    # one checkout, timed once
    python bench/scale.py --counts bench/sets/long_counts.jsonl --workers 1 2   # Dask counts

Examples
--------
>>> worker_counts(2), worker_counts(16)
([1, 2], [1, 2, 4, 8, 16])
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import tempfile
import time

from checkouts import commit_of, run_in

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PUBLISHED = os.path.join(HERE, "sets", "published.jsonl")
#: Puzzles of the input a batch's warm-up solves (its kernels loaded, the cache read).
WARM_UP = 1000


def worker_counts(cores: int) -> list:
    """1, 2, 4, ... up to ``cores`` (and ``cores`` itself)."""
    counts, n = [], 1
    while n < cores:
        counts.append(n)
        n *= 2
    return counts + [cores]


def make_input(copies: int, folder: str) -> str:
    """A JSON-lines input of the published set ``copies`` times over; its path."""
    with open(PUBLISHED) as f:
        rows = [json.loads(line) for line in f]
    path = os.path.join(folder, f"published-x{copies}.jsonl")
    with open(path, "w") as f:
        for c in range(copies):
            for row in rows:
                f.write(json.dumps({"id": f"{row['name']}-{c}", "grid": row["grid"]}) + "\n")
    return path


def cpu(who) -> float:
    """User + system seconds of ``resource.RUSAGE_SELF`` or ``RUSAGE_CHILDREN``."""
    import resource
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def measure(source: str, workers: int) -> dict:
    """This process's side: a batch of ``source`` on ``workers`` (the kernels warm)."""
    import resource
    import kakuro_np as kn
    from kakuro_np.batch import items, run_batch
    listed = items(source)
    n = len(listed)
    try:                                               # the collection's kernel, if any
        from kakuro_np.engine.core import ahead
        ahead.main(["many"])
    except Exception:
        pass
    if workers == 0:                                   # the loop of kn.kakuro
        puzzles = [kn.parse(grid) for _, grid in listed]
        for p in puzzles[:50]:
            kn.kakuro(p)
        started, own = time.perf_counter(), cpu(resource.RUSAGE_SELF)
        for p in puzzles:
            kn.kakuro(p)
        wall = time.perf_counter() - started
        return {"n": n, "wall": wall, "main_us": (cpu(resource.RUSAGE_SELF) - own) / n * 1e6,
                "workers_us": 0.0}
    with open(source) as f, tempfile.NamedTemporaryFile("w", suffix=".jsonl") as head:
        head.writelines(line for _, line in zip(range(WARM_UP), f))
        head.flush()
        run_batch(head.name, os.devnull, workers=workers)           # warm: kernels loaded
    started = time.perf_counter()
    own, children = cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_CHILDREN)
    run_batch(source, os.devnull, workers=workers)
    wall = time.perf_counter() - started
    own, children = cpu(resource.RUSAGE_SELF) - own, cpu(resource.RUSAGE_CHILDREN) - children
    if workers == 1:                                   # solved in this process
        own, children = 0.0, own
    return {"n": n, "wall": wall, "main_us": own / n * 1e6, "workers_us": children / n * 1e6}


def count_scaling(grids_path: str, workers: list, rounds: int, timeout: float) -> list:
    """``[(name, solutions, {side: [seconds]})]``: ``kn.count(p)`` of each grid of
    ``grids_path`` (JSON lines with ``name`` and ``grid``) in this process, and split on
    a Dask LocalCluster of each number of ``workers`` (single-threaded processes, their
    memos dropped before each count); sides alternate from round to round."""
    from distributed import Client, LocalCluster
    from kakuro_np import dist
    from batch import timed_counts                     # bench/batch.py
    with open(grids_path) as f:
        grids = [json.loads(line) for line in f if line.strip()]
    clusters = {}
    try:
        for n in workers:
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                   host="127.0.0.1", dashboard_address=":0")
            clusters[n] = (cluster, Client(cluster))
            clusters[n][1].wait_for_workers(n)
        sides = {"one process": lambda p: _within(timeout, p)}
        before = {}
        for n, (_, client) in clusters.items():
            sides[f"{n} workers"] = (lambda client: lambda p: _within(
                timeout, p, scheduler=client))(client)
            before[f"{n} workers"] = (lambda client: lambda: client.run(dist.forget))(client)
        return timed_counts(grids, sides, rounds, before)
    finally:
        for cluster, client in clusters.values():
            client.close()
            cluster.close()


def _within(timeout: float, puzzle, scheduler=None):
    """``kn.count(puzzle)`` within ``timeout`` seconds, or None past them (its time is then
    the limit's: the table says "> limit")."""
    import kakuro_np as kn
    try:
        return kn.count(puzzle, timeout=timeout, scheduler=scheduler)
    except kn.SolveTimeout:
        return None


def count_table(rows, timeout: float = math.inf) -> str:
    """``count_scaling``'s rows as a Markdown table: the median seconds of each side and
    each cluster's speed-up over one process; a side past ``timeout`` is "> timeout"."""
    sides = list(rows[0][2])
    lines = ["| grid | solutions | " + " | ".join(sides) + " | " +
             " | ".join(f"{side}: speed-up" for side in sides[1:]) + " |",
             "|---|---:|" + "---:|" * (2 * len(sides) - 1)]
    for name, found, times in rows:
        med = [statistics.median(times[side]) for side in sides]
        lines.append(f"| {name} | {found or 0:,} | " + " | ".join(
            f"> {timeout:g} s" if m >= timeout else f"{m:.2f} s" for m in med) + " | "
                     + " | ".join(f"{med[0] / m:.2f}x" for m in med[1:]) + " |")
    return "\n".join(lines)


def run(tree: str, source: str, workers: int) -> dict:
    """``measure`` in a fresh process of the checkout ``tree``."""
    return run_in(tree, [os.path.abspath(__file__), "--measure", source, str(workers)])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before", nargs="?", default=ROOT)
    ap.add_argument("after", nargs="?", default=ROOT)
    ap.add_argument("--copies", type=int, default=4, help="times the published set (500)")
    ap.add_argument("--workers", type=int, nargs="*", default=None,
                    help="worker counts (default 1, 2, 4, ... up to the cores)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--measure", nargs=2, help=argparse.SUPPRESS)
    ap.add_argument("--counts", metavar="GRIDS", help="instead: exact counts of these grids "
                    "(JSON lines, e.g. sets/long_counts.jsonl) in one process and on Dask "
                    "clusters of each worker count, this checkout only")
    ap.add_argument("--timeout", type=float, default=600, help="seconds a count (--counts)")
    args = ap.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure[0], int(args.measure[1]))))
        return
    if args.counts:
        workers = args.workers or worker_counts(os.cpu_count() or 1)
        rows = count_scaling(args.counts, workers, args.rounds, args.timeout)
        print(f"\nExact counts, {args.rounds} rounds alternating, medians; "
              f"{os.cpu_count()} cores\n")
        print(count_table(rows, args.timeout))
        return
    counts = [0] + (args.workers or worker_counts(os.cpu_count() or 1))
    both = ("before", "after")
    if os.path.realpath(args.before) == os.path.realpath(args.after):
        both = ("after",)                              # one checkout: timed once
    with tempfile.TemporaryDirectory() as folder:
        source = make_input(args.copies, folder)
        got = {(side, w): [] for side in both for w in counts}
        for r in range(args.rounds):
            sides = both if r % 2 == 0 else both[::-1]
            for w in counts:
                for side in sides:
                    got[side, w].append(run(getattr(args, side), source, w))
    n = got["after", counts[0]][0]["n"]
    print(f"{n:,} published puzzles (the set x{args.copies}); before {commit_of(args.before)}, "
          f"after {commit_of(args.after)}; {args.rounds} rounds alternating, medians; "
          f"{os.cpu_count()} cores\n")
    print("| workers | side | seconds | puzzles/s | main process, CPU µs a puzzle "
          "| workers, CPU µs a puzzle |")
    print("|---|---|---:|---:|---:|---:|")
    for w in counts:
        for side in both:
            rows = got[side, w]
            wall = statistics.median(r["wall"] for r in rows)
            main_us = statistics.median(r["main_us"] for r in rows)
            workers_us = statistics.median(r["workers_us"] for r in rows)
            label = "kn.kakuro loop" if w == 0 else str(w)
            print(f"| {label} | {side} | {wall:.2f} | {n / wall:,.0f} | {main_us:,.0f} "
                  f"| {workers_us:,.0f} |")


if __name__ == "__main__":
    main()
