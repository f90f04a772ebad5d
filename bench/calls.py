"""What a warm call costs: two checkouts side by side, per puzzle and per call.

Each round starts one worker process per checkout (its own numba cache, warmed up
first): it times ``kn.kakuro(p)`` (every solution) over the published set in one loop,
best of ``--repeat`` loops, each puzzle's best call, and single calls on small puzzles
(best of ``--calls``), asked again of one ``Puzzle`` (whose model is kept) and of a new
``Puzzle`` each call (copies made beforehand), and ``solve_many`` of 1,000 published
puzzles in this process; the puzzles are read beforehand. Rounds
alternate the checkouts, so a busy machine slows both alike; the table gives the median
of the rounds and the ratio after / before.

    git worktree add /tmp/b7debd6 b7debd6
    python bench/calls.py /tmp/b7debd6 .                 # a Markdown table
    python bench/calls.py . .  --rounds 1                # one checkout alone

Examples
--------
>>> small_puzzles()[0][0]
'k0 (8 cells)'
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from checkouts import commit_of, fresh_copy, run_in

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def small_puzzles() -> list:
    """``(name, text)`` of the small puzzles each call is timed on: k0 and k1 of the
    essay, and the first published puzzles of 10x10 (in jboxed text)."""
    out = []
    for name in ("k0", "k1"):
        with open(os.path.join(ROOT, "puzzles", f"{name}.txt")) as f:
            text = f.read()
        blanks = sum(line.count("_") for line in text.splitlines())
        out.append((f"{name} ({blanks} cells)", text))
    with open(os.path.join(HERE, "sets", "published.jsonl")) as f:
        first = json.loads(f.readline())
    out.append((f"{first['name']} ({first['blanks']} cells)", first["grid"]))
    return out


def worker(repeat: int, calls: int) -> dict:
    """The timings of this process's kakuro_np (the worker's side)."""
    import kakuro_np as kn
    try:                                               # the engine answers, not the essay
        from kakuro_np import first_run
        first_run.ENABLED = False
    except ImportError:                                # (older checkouts have no first run)
        pass
    with open(os.path.join(HERE, "sets", "published.jsonl")) as f:
        published = [kn.parse(json.loads(line)["grid"]) for line in f]
    small = [(name, kn.parse(text)) for name, text in small_puzzles()]
    for p in published[:20] + [p for _, p in small]:
        kn.kakuro(p)                                   # compiled or loaded, helpers done
    time.sleep(0.5)
    loops, slowest = [], [float("inf")] * len(published)
    for _ in range(repeat):
        started = time.perf_counter()
        for i, p in enumerate(published):
            t = time.perf_counter()
            kn.kakuro(p)
            slowest[i] = min(slowest[i], time.perf_counter() - t)
        loops.append(time.perf_counter() - started)
    out = {"published_us": min(loops) / len(published) * 1e6,
           "slowest_us": max(slowest) * 1e6, "calls": {}}
    out["many_per_s"] = (many_per_second(kn, published, repeat)    # none before 2026-11-27
                         if hasattr(kn, "solve_many") else None)
    for name, p in small:
        again = new = float("inf")
        for _ in range(5):
            started = time.perf_counter()
            for _ in range(calls):
                kn.kakuro(p)
            again = min(again, (time.perf_counter() - started) / calls)
            fresh = [fresh_copy(p) for _ in range(calls)]   # no model kept for these
            started = time.perf_counter()
            for q in fresh:
                kn.kakuro(q)
            new = min(new, (time.perf_counter() - started) / calls)
        out["calls"][f"{name}, asked again"] = again * 1e6
        out["calls"][f"{name}, a new Puzzle"] = new * 1e6
    return out


def many_per_second(kn, published, repeat) -> float:
    """Puzzles a second of ``kn.solve_many(workers=1)`` over 1,000 published puzzles (the
    set twice, new Puzzles each loop, read beforehand), the best of ``repeat`` loops."""
    try:                                               # the collection's kernel, if any
        from kakuro_np.engine.core import ahead
        ahead.main(["many"])
    except Exception:
        pass
    kn.solve_many([fresh_copy(p) for p in published[:20]], workers=1)
    best = float("inf")
    for _ in range(repeat):
        fresh = [fresh_copy(p) for p in (published * 2)[:1000]]
        started = time.perf_counter()
        kn.solve_many(fresh, workers=1)
        best = min(best, time.perf_counter() - started)
    return 1000 / best


def run_worker(tree: str, repeat: int, calls: int) -> dict:
    """A worker's timings of the checkout ``tree`` (a fresh process)."""
    return run_in(tree, [os.path.abspath(__file__), "--worker", "--repeat", str(repeat),
                         "--calls", str(calls)])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before", nargs="?", default=ROOT)
    ap.add_argument("after", nargs="?", default=ROOT)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=5, help="loops over the set a round")
    ap.add_argument("--calls", type=int, default=2000, help="calls a small puzzle a round")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(worker(args.repeat, args.calls)))
        return
    sides = {"before": [], "after": []}
    for _ in range(args.rounds):
        for side in ("before", "after"):
            sides[side].append(run_worker(getattr(args, side), args.repeat, args.calls))

    def median(side, key, name=None):
        values = [r["calls"][name] if name else r[key] for r in sides[side]]
        return None if None in values else statistics.median(values)

    rows = [("published, every solution, one loop (µs a puzzle)", "published_us", None),
            ("published, the slowest puzzle (µs)", "slowest_us", None),
            ("`solve_many`, 1,000 published, one process (puzzles/s)", "many_per_s", None)]
    rows += [(f"one call, {name} (µs)", None, name) for name in sides["after"][0]["calls"]]
    print(f"| work | before ({commit_of(args.before)}) | after ({commit_of(args.after)}) "
          f"| after / before |")
    print("|---|---:|---:|---:|")
    for label, key, name in rows:
        b, a = median("before", key, name), median("after", key, name)
        shown = ["" if v is None else f"{v:,.1f}" for v in (b, a)]
        print(f"| {label} | {shown[0]} | {shown[1]} | "
              f"{'' if None in (a, b) else f'{a / b:.2f}'} |")
    print(f"\n{args.rounds} rounds alternating, medians; {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
