"""Puzzle writers' drafts: published-style grids from a random fill, before uniqueness repair.

A writer's first draft usually has many solutions, and the question is "is it
unique yet?". Side by side on drafts made reproducibly (fixed seed) the way
``make_sets.py`` makes the published set, minus the repair to one solution:

- ``kn.count(p, limit=2)``, the writer's question (``kakuro-np check``): turns of
  counting alternate with a hunt for solutions in any order (``anyorder``);
- ``kn.kakuro(p, limit=2)``, the first two solutions in the essay's order;
- ``kn.kakuro(p, limit=2, order="any")``, any two solutions (the hunt);
- CP-SAT stopping at a second solution.

The essay's order is where plain fan-out is weakest: a choice made early can
doom a branch that forced moves only refute many levels deeper, and the levels
in between are tried in full (thrashing). CP-SAT learns from its failures; the
hunt, free to choose its order, fans out first on the entries that keep failing
and restarts. ``kakuro(limit=2)`` must refute every doomed branch that comes
before its second solution in the essay's order, so it can still thrash.

Run: ``.venv/bin/python bench/drafts.py [N] [TIMEOUT_S]`` (defaults 40 and 10), or
``bench/drafts.py slow [TIMEOUT_S]`` for the drafts kept in ``sets/slow_drafts.jsonl``
(met by the generator, each slow for some question when it was kept).
"""

from __future__ import annotations

import json
import os
import sys
import time

import numpy as np

import kakuro_np as kn
import kakuro_np.solve as solve
import kakuro_np.turns as turns
from kakuro_np.engine.core import policy
from kakuro_np.engine.proofs.checks import checks_for
from kakuro_np.engine.search import search

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_sets as ms  # noqa: E402
from run import cpsat_solve  # noqa: E402


def drafts(n, seed=20261122):
    """``n`` drafts ``(name, puzzle)``: 10x10 to 20x20, random symmetric layouts, random fills."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        N = int(rng.integers(10, 21))
        layout = ms.make_layout(rng, N, N, float(rng.uniform(0.25, 0.35)))
        if layout is None:
            continue
        fill = ms.random_fill(rng, layout)
        if fill is None:
            continue
        out.append((f"draft-{len(out):03d}", ms.puzzle_of(layout, fill)))
    return out


def slow_drafts():
    """``[(name, puzzle)]`` of ``sets/slow_drafts.jsonl``."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sets", "slow_drafts.jsonl")
    with open(path) as f:
        return [(d["name"], kn.parse(d["grid"])) for d in map(json.loads, f)]


def warm_up():
    """Load (or compile) every kernel the timed calls use, the checked search included."""
    k3 = kn.read("puzzles/k3.txt")
    kn.kakuro(k3), kn.count(k3), kn.count(k3, limit=2), kn.kakuro(k3, limit=2, order="any")
    m = solve.model(k3)
    search(m.root(), np.int64(2), True, np.int64(turns.NO_LIMIT), np.int64(0),
           checks_for(m))
    turns.Learner(m, 2).turn(1000, solve.NO_DEADLINE)   # count(limit=2)'s and "any"'s
    turns.solutions_in_any_order(m, 2, solve.NO_DEADLINE, None, turns=(1, 2))   # its count's turn
    saved, policy.THRASH_NODES = policy.THRASH_NODES, 0      # the root's check, once it thrashes
    try:
        solve.essay_solutions(m, 2, solve.NO_DEADLINE)
    finally:
        policy.THRASH_NODES = saved


def timed(f, cap):
    """``(seconds, result)`` of ``f(cap)``; the result is None past the timeout."""
    t = time.perf_counter()
    try:
        out = f(cap)
    except kn.SolveTimeout:
        out = None
    return time.perf_counter() - t, out


def summary(label, times, finished, sat_times, n, cap):
    """One line: how many finished, their total against CP-SAT's on the same drafts."""
    done = [t for t, ok in zip(times, finished) if ok]
    sat = sum(s for s, ok in zip(sat_times, finished) if ok)
    ratio = f"{sat / sum(done):.1f}x" if done and sum(done) > 0 else "-"
    worst = f"{max(done):.3f} s" if done else "-"
    return (f"{label}: finished {len(done)} of {n} within {cap:.0f} s; on those, ours "
            f"{sum(done):.2f} s (slowest {worst}), CP-SAT {sat:.2f} s, CP-SAT / ours = {ratio}")


def main(argv):
    chosen = slow_drafts() if argv and argv[0] == "slow" else drafts(int(argv[0]) if argv else 40)
    n = len(chosen)
    cap = float(argv[1]) if len(argv) > 1 else 10.0
    warm_up()
    print("| draft | size | blanks | count(limit=2) | kakuro(limit=2) | order=\"any\" "
          "| CP-SAT (to a 2nd) | solutions |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    t_count, t_kakuro, t_any, t_sat, ok_count, ok_kakuro, ok_any = [], [], [], [], [], [], []
    for name, p in chosen:
        tc, counted = timed(lambda c: kn.count(p, limit=2, timeout=c), cap)
        tk, sols = timed(lambda c: kn.kakuro(p, limit=2, timeout=c), cap)
        ta, some = timed(lambda c: kn.kakuro(p, limit=2, order="any", timeout=c), cap)
        cells, sums = kn.entries(p)
        sat, sat_found, *_ = cpsat_solve(cells, sums, np.flatnonzero(p.blank.ravel()),
                                         stop_after=2, time_cap=cap)
        for got in (counted, None if sols is None else len(sols),
                    None if some is None else len(some)):
            if got is not None and got != sat_found:
                raise SystemExit(f"{name}: count {counted}, kakuro {sols is not None and len(sols)}"
                                 f", any {some is not None and len(some)}, CP-SAT {sat_found}")
        t_count.append(tc)
        t_kakuro.append(tk)
        t_any.append(ta)
        t_sat.append(sat)
        ok_count.append(counted is not None)
        ok_kakuro.append(sols is not None)
        ok_any.append(some is not None)
        show = [f"{t:.3f} s" if ok else f"> {cap:.0f} s"
                for t, ok in ((tc, ok_count[-1]), (tk, ok_kakuro[-1]), (ta, ok_any[-1]))]
        print(f"| {name} | {p.shape[0]}x{p.shape[1]} | {int(p.blank.sum())} | {show[0]} "
              f"| {show[1]} | {show[2]} | {sat:.3f} s | {sat_found} |", flush=True)
    print(f"\nCP-SAT took {max(t_sat):.2f} s at most, {sum(t_sat):.2f} s in all.")
    print(summary("count(limit=2)", t_count, ok_count, t_sat, n, cap))
    print(summary("kakuro(limit=2)", t_kakuro, ok_kakuro, t_sat, n, cap))
    print(summary('kakuro(limit=2, order="any")', t_any, ok_any, t_sat, n, cap))


if __name__ == "__main__":
    main(sys.argv[1:])
