"""Two checkouts side by side on open grids of many seeds: a change's before and after.

The big open grids are where luck rules: a hunt that finds its solution in one
turn on one grid needs three on the next, and the essay's walk from a witness
costs what that witness makes its checks cost. One grid says little about a
change; this asks the same grids of ``open_grids.py`` at several seeds (by
default the 30x100 grid, open-10, of seeds 20261123 and 1-6) three questions,
in a worker process per checkout (its own package and numba cache, warmed
first), rounds alternating between the two:

- ``kn.kakuro(p, limit=1)``, the essay's first solution;
- ``kn.kakuro(p, limit=1, order="any")``;
- ``kn.count(p, limit=2)``.

A question past ``--cap`` counts as the cap. It prints each grid's times per
round and, per question, the totals and the slowest grid of each side.

    git worktree add /tmp/before <commit>
    python bench/open_before_after.py /tmp/before . --rounds 2

Examples
--------
>>> summary({"g": [1.0, 2.0]}, {"g": [3.0, 1.0]})
(1.5, 1.5, 2.0, 2.0)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys

from checkouts import run_in

HERE = os.path.dirname(os.path.abspath(__file__))
QUESTIONS = ("essay", "any", "c2")
SEEDS = "20261123,1,2,3,4,5,6"


def ask(seeds, grids, cap) -> dict:
    """``{"seed/grid": {question: seconds}}`` of this process's kakuro_np (the worker)."""
    import kakuro_np as kn
    sys.path.insert(0, HERE)
    from drafts import warm_up
    from open_grids import open_grids, ours

    def timed(f):
        """Seconds of ``f(cap)``, or the cap past it (``open_grids.ours``)."""
        t, answer = ours(f, cap)
        return t if answer is not None else cap

    warm_up()
    out = {}
    for seed in seeds:
        for name, p in open_grids(seed):
            if name in grids:
                out[f"{seed}/{name}"] = {
                    "essay": timed(lambda c: kn.kakuro(p, limit=1, timeout=c)),
                    "any": timed(lambda c: kn.kakuro(p, limit=1, order="any", timeout=c)),
                    "c2": timed(lambda c: kn.count(p, limit=2, timeout=c))}
    return out


def run_tree(tree, args) -> dict:
    """``ask`` in a worker process of the checkout ``tree``."""
    return run_in(tree, [os.path.abspath(__file__), "--worker", tree, tree, "--seeds",
                         args.seeds, "--grids", args.grids, "--cap", str(args.cap)])


def summary(before: dict, after: dict) -> tuple:
    """(total before, slowest before, total after, slowest after) of the medians of the
    rounds per grid (``{grid: [seconds per round]}``)."""
    b = [statistics.median(ts) for ts in before.values()]
    a = [statistics.median(ts) for ts in after.values()]
    return sum(b), max(b), sum(a), max(a)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", help="a checkout of kakuro_np before the change")
    ap.add_argument("after", help="a checkout after it")
    ap.add_argument("--rounds", type=int, default=2, help="rounds of both sides (default 2)")
    ap.add_argument("--seeds", default=SEEDS, help=f"open_grids.py's seeds (default {SEEDS})")
    ap.add_argument("--grids", default="open-10", help="grid names, comma-separated")
    ap.add_argument("--cap", type=float, default=30.0, help="seconds per question")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(ask([int(s) for s in args.seeds.split(",")], args.grids.split(","),
                             args.cap)))
        return 0
    sides = {"before": {}, "after": {}}
    for r in range(args.rounds):
        for side in sides:
            got = run_tree(os.path.abspath(getattr(args, side)), args)
            for grid, times in got.items():
                for q, t in times.items():
                    sides[side].setdefault(q, {}).setdefault(grid, []).append(t)
            print(f"round {r + 1} {side}: " + ", ".join(
                f"{g} " + "/".join(f"{t[q]:.2f}" for q in QUESTIONS) for g, t in got.items()),
                flush=True)
    print("\n| question | before: total, slowest | after: total, slowest | after / before |")
    print("|---|---|---|---:|")
    for q in QUESTIONS:
        tb, wb, ta, wa = summary(sides["before"][q], sides["after"][q])
        print(f"| {q} | {tb:.2f} s, {wb:.2f} s | {ta:.2f} s, {wa:.2f} s | {ta / tb:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
