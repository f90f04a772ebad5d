"""Puzzle writers' drafts: published-style grids from a random fill, before uniqueness repair.

A writer's first draft usually has many solutions, and the question is "is it
unique yet?": ``kn.kakuro(p, limit=2)`` against CP-SAT stopping at a second
solution, side by side, on drafts made reproducibly (fixed seed) the way
``make_sets.py`` makes the published set, minus the repair to one solution.

This is where plain fan-out is weakest: a choice made early can doom a branch
that forced moves only refute many levels deeper, and the levels in between
are tried in full (thrashing). CP-SAT learns from its failures instead.

Run: ``.venv/bin/python bench/drafts.py [N] [TIMEOUT_S]`` (defaults 40 and 10).
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

import kakuro_np as kn

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


def main(argv):
    n = int(argv[0]) if argv else 40
    cap = float(argv[1]) if len(argv) > 1 else 10.0
    kn.kakuro(kn.read("puzzles/k3.txt"))                    # load the kernels first
    print("| draft | size | blanks | ours (limit=2) | CP-SAT (to a 2nd) | solutions |")
    print("|---|---|---:|---:|---:|---:|")
    ours_t, sat_t, sat_all, stuck = [], [], [], 0
    for name, p in drafts(n):
        t = time.perf_counter()
        try:
            found = len(kn.kakuro(p, limit=2, timeout=cap))
        except kn.SolveTimeout:
            found = None
        ours = time.perf_counter() - t
        cells, sums = kn.entries(p)
        sat, sat_found, *_ = cpsat_solve(cells, sums, np.flatnonzero(p.blank.ravel()),
                                         stop_after=2, time_cap=cap)
        sat_all.append(sat)
        if found is None:
            stuck += 1
        else:
            ours_t.append(ours)
            sat_t.append(sat)
        mark = f"{ours:.3f} s" if found is not None else f"> {cap:.0f} s"
        print(f"| {name} | {p.shape[0]}x{p.shape[1]} | {int(p.blank.sum())} | {mark} "
              f"| {sat:.3f} s | {found if found is not None else sat_found} |", flush=True)
    done = len(ours_t)
    print(f"\nours finished {done} of {n} drafts within {cap:.0f} s "
          f"({stuck} timed out); CP-SAT took {max(sat_all):.2f} s at most, "
          f"{sum(sat_all):.2f} s in all.")
    if done:
        print(f"on the {done} both finished: ours {sum(ours_t):.2f} s, CP-SAT {sum(sat_t):.2f} s, "
              f"CP-SAT / ours = {sum(sat_t) / sum(ours_t):.2f}x")


if __name__ == "__main__":
    main(sys.argv[1:])
