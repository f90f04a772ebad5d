"""Open grids: big random layouts with few black cells and many solutions, against CP-SAT.

Each grid is made reproducibly (fixed seed) the way ``make_sets.py`` makes its
sets: a random 180-degree symmetric layout with every run 2 to 9 cells long,
a random fill, and the clues read off the fill, so each has a solution, and
at these densities very many. Sizes run from 12x12 to 30x30, plus one 30x100.
Each grid is asked three questions, ours and CP-SAT's answer side by side in
one process, one after the other:

- the first solution: ``kn.kakuro(p, limit=1)`` (the essay's order: the first
  solution of the full list) and ``order="any"``, against CP-SAT's first;
- "one or more?": ``kn.count(p, limit=2)`` against CP-SAT stopping at a second;
- how many: ``kn.count(p)`` against CP-SAT enumerating every solution (one
  worker, presolve off as enumeration requires), where either finishes.

A question past its time cap counts as the cap in the totals and is marked
"> cap". Grids our solver did not shape: the generator never asks it anything.

Run: ``.venv/bin/python bench/open_grids.py [--cap S] [--count-cap S] [--results]``
(``--results`` keeps the table in ``bench/RESULTS.md``). ``--seed N`` makes the
grids from another seed, ``--grids open-08,open-10`` asks only those: a set the
solver was never tuned on (the 30x100 grids of seeds 2 and 3 showed it needed
the sums in clause learning; bench/README, 2026-11-25).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

import kakuro_np as kn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_sets as ms  # noqa: E402
from drafts import warm_up  # noqa: E402  (every kernel the timed calls use)
from run import cpsat_solve  # noqa: E402
from sections import markers, write_section  # noqa: E402

#: (rows, columns, share of black cells inside the border), in the order they are made.
SIZES = [(12, 12, 0.20), (12, 12, 0.15), (14, 14, 0.20), (16, 16, 0.20), (16, 16, 0.15),
         (18, 18, 0.20), (20, 20, 0.20), (24, 24, 0.20), (30, 30, 0.20), (30, 30, 0.15),
         (30, 100, 0.18)]


#: The seed of the set in bench/RESULTS.md.
SEED = 20261123


def open_grids(seed=SEED):
    """``[(name, puzzle)]``: one grid per SIZES row, each with a solution by construction."""
    rng = np.random.default_rng(seed)
    out = []
    for H, W, black in SIZES:
        while True:
            layout = ms.make_layout(rng, H, W, black, keep="big")
            fill = None if layout is None else ms.random_fill(rng, layout)
            if fill is not None:
                break
        out.append((f"open-{len(out):02d}", ms.puzzle_of(layout, fill)))
    return out


def ours(f, cap):
    """``(seconds, answer)`` of ``f(cap)``; the answer is None past the cap."""
    t = time.perf_counter()
    try:
        out = f(cap)
    except kn.SolveTimeout:                           # past the cap
        out = None
    return time.perf_counter() - t, out


def theirs(p, stop_after, cap):
    """``(seconds, solutions found or None past the cap)`` of CP-SAT on ``p``."""
    cells, sums = kn.entries(p)
    dt, found, complete, *_ = cpsat_solve(cells, sums, np.flatnonzero(p.blank.ravel()),
                                          stop_after=stop_after, time_cap=cap)
    return dt, found if complete else None


def cell(t, answer, cap):
    return f"{t:.2f} s" if answer is not None else f"> {cap:.0f} s"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cap", type=float, default=30.0, help="seconds per first/second question")
    ap.add_argument("--count-cap", type=float, default=60.0, help="seconds per full count")
    ap.add_argument("--results", action="store_true", help="keep the table in RESULTS.md")
    ap.add_argument("--seed", type=int, default=SEED, help="the generator's seed")
    ap.add_argument("--grids", help="the grids to ask, by name, comma-separated (default all)")
    args = ap.parse_args(argv)
    if args.results and (args.seed != SEED or args.grids):
        ap.error("--results keeps the whole set of the default seed only")
    grids = [(name, p) for name, p in open_grids(args.seed)
             if not args.grids or name in args.grids.split(",")]
    warm_up()
    lines = ["| grid | size | blanks | kakuro(limit=1) | order=\"any\" | CP-SAT 1st "
             "| count(limit=2) | CP-SAT 2nd | count() | CP-SAT all |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    print(lines[0] + "\n" + lines[1], flush=True)
    totals = {k: 0.0 for k in ("k1", "any", "sat1", "c2", "sat2", "count", "satall")}
    worst = dict(totals)
    done = {k: 0 for k in totals}
    for name, p in grids:
        cap, ccap = args.cap, args.count_cap
        row = {
            "k1": ours(lambda c: kn.kakuro(p, limit=1, timeout=c), cap),
            "any": ours(lambda c: kn.kakuro(p, limit=1, order="any", timeout=c), cap),
            "sat1": theirs(p, 1, cap),
            "c2": ours(lambda c: kn.count(p, limit=2, timeout=c), cap),
            "sat2": theirs(p, 2, cap),
            "count": ours(lambda c: kn.count(p, timeout=c), ccap),
            "satall": theirs(p, None, ccap),
        }
        for k in ("k1", "any", "sat1"):
            got = row[k][1]
            if got is not None and (len(got) if k != "sat1" else got) != 1:
                raise SystemExit(f"{name}: {k} found {got}")
        if None not in (row["c2"][1], row["sat2"][1]) and row["c2"][1] != row["sat2"][1]:
            raise SystemExit(f"{name}: count(limit=2) {row['c2'][1]}, CP-SAT {row['sat2'][1]}")
        if None not in (row["count"][1], row["satall"][1]) and row["count"][1] != row["satall"][1]:
            raise SystemExit(f"{name}: count {row['count'][1]}, CP-SAT {row['satall'][1]}")
        for k, (t, answer) in row.items():
            limit = ccap if k in ("count", "satall") else cap
            spent = t if answer is not None else limit
            totals[k] += spent
            worst[k] = max(worst[k], spent)
            done[k] += answer is not None
        shown = [cell(t, a, ccap if k in ("count", "satall") else cap) for k, (t, a) in row.items()]
        n = row["count"][1] if row["count"][1] is not None else row["satall"][1]
        size = f"{p.shape[0]}x{p.shape[1]}"
        count_cell = shown[5] + (f" ({n:,})" if n is not None else "")
        line = (f"| {name} | {size} | {int(p.blank.sum())} | {shown[0]} | {shown[1]} | "
                f"{shown[2]} | {shown[3]} | {shown[4]} | {count_cell} | {shown[6]} |")
        lines.append(line)
        print(line, flush=True)
    n = len(grids)
    summary = [
        "",
        f"Caps: {args.cap:.0f} s per first or second solution, {args.count_cap:.0f} s per full "
        f"count; a question past its cap counts as the cap.",
        "",
        "| question | ours: answered, total, slowest | CP-SAT: answered, total, slowest "
        "| CP-SAT / ours (total) |",
        "|---|---|---|---:|"]
    for label, a, b in (("first solution, essay's order", "k1", "sat1"),
                        ("first solution, any order", "any", "sat1"),
                        ("one or more? (limit=2)", "c2", "sat2"),
                        ("how many (exact)", "count", "satall")):
        summary.append(f"| {label} | {done[a]} of {n}, {totals[a]:.1f} s, {worst[a]:.1f} s "
                       f"| {done[b]} of {n}, {totals[b]:.1f} s, {worst[b]:.1f} s "
                       f"| {totals[b] / max(totals[a], 1e-9):.1f}x |")
    print("\n".join(summary))
    if args.results:
        begin, end = markers("open_grids.py")
        write_section("open_grids.py", "\n".join(
            [begin, "## Open grids (`bench/open_grids.py`)", "",
             f"Measured {time.strftime('%Y-%m-%d')}, one process, ours then CP-SAT per grid "
             "and question (`.venv/bin/python bench/open_grids.py --results`).", ""]
            + lines + summary + [end]))


if __name__ == "__main__":
    main(sys.argv[1:])
