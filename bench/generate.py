"""How fast the generator makes unique puzzles, and which repair works.

For each size, ``kn.generate(n, n, seed=i)`` for seeds 0..N-1 (their own
layouts, fills and repairs): the median and slowest time, the layouts drawn
per puzzle, and the share of blank cells the puzzles end with. The repair
strategies are compared on the same seeds: the climb of the fill's digits down
the combinations' ambiguity with blocks where it stalls (``generate``'s), against
blocks alone (the digits as drawn, a black cell where two solutions differ until
the count is 1).

With ``--grades``, the grades instead: for each label and for no label,
``kn.generate(size, size, grade=label, seed=i)`` for seeds 0..N-1, and the
labels ``kn.grade`` gives the puzzles made, with time and scores.

Run: ``.venv/bin/python bench/generate.py [--sizes 10 15 20 30] [--n 10] [--results]``
or ``.venv/bin/python bench/generate.py --grades [--sizes 10] [--n 100] [--results]``
"""

from __future__ import annotations

import argparse
import collections
import importlib
import os
import statistics
import sys
import time

import numpy as np

import kakuro_np as kn
gen = importlib.import_module("kakuro_np.generator")   # the module (kn.generate is the function)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sections import markers, write_section  # noqa: E402

#: Targets of the issue: median seconds per size.
TARGETS = {10: 0.3, 20: 2.0, 30: 10.0}


def one(size, seed, climb_stall, tries):
    """``(seconds, layouts drawn, blank share)`` of one puzzle, as ``generate`` makes it
    but with the climb's stall limit given (0: blocks alone); None past ``tries``
    layouts."""
    t = time.perf_counter()
    try:
        p, drawn = gen.unique_puzzle(np.random.default_rng(seed), size, size,
                                     gen.DEFAULT_DENSITY, "rotational", 2, tries,
                                     climb_stall=climb_stall)
    except kn.PuzzleError:
        return None
    dt = time.perf_counter() - t
    assert kn.count(p, limit=2) == 1
    return dt, drawn, float(p.blank[1:, 1:].mean())


def grades(sizes, n, results):
    """The grade distribution over ``n`` puzzles per requested grade (and none)."""
    labels = ("easy", "medium", "hard", "expert")
    rows = ["| size | grade= | made | " + " | ".join(labels) + " | scores | median | slowest |",
            "|---|---|---:|" + "---:|" * len(labels) + "---|---:|---:|"]
    for size in sizes:
        for label in (None, *labels):
            got, times, scores, failed = collections.Counter(), [], [], 0
            for seed in range(n):
                t = time.perf_counter()
                try:
                    p = kn.generate(size, size, grade=label, seed=seed)
                except kn.PuzzleError:
                    failed += 1
                    continue
                times.append(time.perf_counter() - t)
                assert kn.count(p, limit=2) == 1
                g = kn.grade(p)
                got[g.label] += 1
                scores.append(g.score)
            rows.append(f"| {size}x{size} | {label or '(none)'} | {n - failed} of {n} | "
                        + " | ".join(str(got[lab]) for lab in labels)
                        + f" | {min(scores):.1f}-{max(scores):.1f} | "
                        f"{statistics.median(times):.3f} s | {max(times):.2f} s |")
            print(rows[-1], flush=True)
    begin, end = markers("generate-grades")
    text = "\n".join([
        begin, "## Generator: the grades it hits (bench/generate.py --grades)", "",
        f"{n} puzzles per requested grade and size (seeds 0-{n - 1}), rotational symmetry, "
        f"density {gen.DEFAULT_DENSITY}; each checked with `count(limit=2) == 1` and graded "
        "with `kn.grade`. The columns easy-expert count the labels `kn.grade` gave; "
        "(none) is `generate` without `grade=`.", "", *rows, "", end, ""])
    print(text)
    if results:
        write_section("generate-grades", text)


#: Published grids' layout figures (999 puzzles of a public collection, issue 49): the
#: blank share's 5th-95th percentile, and the most the other two reach in them.
PUBLISHED = {"blank_share": (0.62, 0.81), "black_region": 0.091, "black_square": 3}


def figures(sizes, n):
    """Layout figures and time per puzzle of ``kn.generate(size, size, seed=i)``, seeds
    0..n-1, against published grids' (PUBLISHED)."""
    from kakuro_np.layout import LARGEST_BLACK, WIDEST_BLACK, layout_figures
    rows = ["| size | made | median | slowest | blank share, median (min-max) | largest black "
            "region, median (max) | widest black square, median (max) | within published |",
            "|---|---:|---:|---:|---|---|---|---:|"]
    for size in sizes:
        times, figs = [], []
        for seed in range(n):
            t = time.perf_counter()
            p = kn.generate(size, size, seed=seed)
            times.append(time.perf_counter() - t)
            assert kn.count(p, limit=2) == 1
            figs.append(layout_figures(p.blank))
        share = [f.blank_share for f in figs]
        region = [f.black_region for f in figs]
        square = [f.black_square for f in figs]
        low, high = PUBLISHED["blank_share"]
        within = sum(low <= f.blank_share <= high and f.black_region <= LARGEST_BLACK
                     and f.black_square <= WIDEST_BLACK for f in figs)
        rows.append(f"| {size}x{size} | {n} | {statistics.median(times):.2f} s | "
                    f"{max(times):.2f} s | {statistics.median(share):.2f} ({min(share):.2f}-"
                    f"{max(share):.2f}) | {statistics.median(region):.1%} ({max(region):.1%}) | "
                    f"{statistics.median(square):g} ({max(square)}) | {within} of {n} |")
        print(rows[-1], flush=True)
    return rows


#: The blank shares a writer's dense 20x25 layouts are drawn at: published grids' median
#: (about 0.7) and near their 95th percentile.
DENSE_SHARES = (0.70, 0.78)


def within_published(blank) -> bool:
    """Whether a layout's figures lie within published grids' (PUBLISHED)."""
    from kakuro_np.layout import layout_figures
    f = layout_figures(blank)
    low, high = PUBLISHED["blank_share"]
    return (low <= f.blank_share <= high and f.black_region <= PUBLISHED["black_region"]
            and f.black_square <= PUBLISHED["black_square"])


def writers_layouts(n, dense, timeout=60.0, in_range=False, seeds=1):
    """``kn.generate(layout=...)`` on the samples' patterns, on ``n`` of the
    published-style set's (with ``in_range``, on every one whose figures lie within
    published grids' instead), and on ``dense`` layouts of 20x25 drawn as published grids
    look at each of DENSE_SHARES (``layout.make_layout``): seconds to a unique puzzle on
    each pattern (the slowest of seeds 1 to ``seeds``), each given ``timeout`` seconds."""
    import pathlib
    from explain import load
    root = pathlib.Path(__file__).resolve().parent.parent
    patterns = [(path.stem, kn.read(path).blank) for path in sorted(root.glob("puzzles/k*.txt"))]
    published = load("published")
    if in_range:
        patterns += [(name, p.blank) for name, p in published if within_published(p.blank)]
    elif n:
        patterns += [(name, p.blank) for name, p in published[::max(1, len(published) // n)][:n]]
    layout = importlib.import_module("kakuro_np.layout")
    for share in DENSE_SHARES:
        for i in range(dense):
            drawn = layout.make_layout(20, 25, np.random.default_rng(100 + i), share,
                                       "rotational", 2)
            patterns.append((f"dense-{share:.2f}-{i}", drawn))
    rows = ["| pattern | size | blanks | within published figures | seconds (slowest) | unique |",
            "|---|---|---:|---|---:|---|"]
    times = []
    for name, blank in patterns:
        took, said = [], []
        for seed in range(1, seeds + 1):
            t = time.perf_counter()
            try:
                p = kn.generate(layout=blank, seed=seed, timeout=timeout)
            except (kn.PuzzleError, kn.SolveTimeout) as e:   # no filling tried was unique
                p = None
                said.append(f"none: {e}")
            took.append(time.perf_counter() - t)
            if p is not None:
                assert (p.blank == blank).all()
                said.append("yes" if kn.count(p, limit=2) == 1 else "NO")
        times += took
        made = sum(s == "yes" for s in said)
        shown = said[0] if seeds == 1 else f"{made} of {seeds} seeds" + (
            "" if made == seeds else f" ({next(s for s in said if s != 'yes')})")
        rows.append(f"| {name} | {blank.shape[0]}x{blank.shape[1]} | {int(blank.sum())} | "
                    f"{'yes' if within_published(blank) else 'no'} | {max(took):.2f} | "
                    f"{shown} |")
        print(rows[-1], flush=True)
    return rows, times


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 15, 20, 30])
    ap.add_argument("--n", type=int, default=10, help="puzzles per size")
    ap.add_argument("--results", action="store_true", help="keep the table in RESULTS.md")
    ap.add_argument("--climb-only", action="store_true", help="skip blocks alone")
    ap.add_argument("--grades", action="store_true",
                    help="the grades hit per requested grade, in place of the times")
    ap.add_argument("--figures", action="store_true",
                    help="layout figures and time per puzzle against published grids'")
    ap.add_argument("--layouts", type=int, metavar="N",
                    help="fill the samples' patterns and N of the published-style set's")
    ap.add_argument("--dense", type=int, default=10, metavar="N",
                    help="with --layouts, also N dense 20x25 layouts at each of DENSE_SHARES")
    ap.add_argument("--in-range", action="store_true",
                    help="with --layouts, every published-style pattern within published "
                         "grids' figures in place of N of them")
    ap.add_argument("--seeds", type=int, default=1, metavar="N",
                    help="with --layouts, fill each pattern with seeds 1 to N")
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="with --layouts, seconds for each filling")
    args = ap.parse_args()
    kn.generate(8, 8, seed=0)                      # compile every kernel first
    kn.generate(8, 8, seed=0, grade="hard")
    kn.generate(layout=kn.generate(8, 8, seed=0).blank, seed=0)   # and a writer's layout's
    if args.grades:
        return grades(args.sizes, args.n, args.results)
    if args.figures:
        print("\n".join(figures(args.sizes, args.n)))
        return None
    if args.layouts is not None:
        rows, times = writers_layouts(args.layouts, args.dense, args.timeout, args.in_range,
                                      args.seeds)
        print("\n".join(rows))
        print(f"{len(times)} fillings: median {statistics.median(times):.2f} s, slowest "
              f"{max(times):.2f} s")
        return None
    assert kn.generate(12, 12, seed=1) == kn.generate(12, 12, seed=1)
    rows = ["| size | repair | made | median | slowest | layouts drawn | blank share | target |",
            "|---|---|---:|---:|---:|---:|---:|---|"]
    for size in args.sizes:
        for name, stall, tries in (("climb + blocks", gen.CLIMB_STALL, 100),
                                   ("blocks alone", 0, 20))[:1 if args.climb_only else 2]:
            runs = [one(size, seed, stall, tries) for seed in range(args.n)]
            made = [r for r in runs if r is not None]
            times = [r[0] for r in made]
            target = TARGETS.get(size)
            mark = "" if target is None or name != "climb + blocks" else (
                f"{target} s: {'met' if statistics.median(times) <= target else 'not met'}")
            if not made:
                rows.append(f"| {size}x{size} | {name} | 0 of {len(runs)} (each past {tries} "
                            f"layouts) | | | | | |")
            else:
                rows.append(f"| {size}x{size} | {name} | {len(made)} of {len(runs)} | "
                            f"{statistics.median(times):.3f} s | {max(times):.2f} s | "
                            f"{statistics.mean(r[1] for r in made):.1f} | "
                            f"{statistics.mean(r[2] for r in made):.2f} | {mark} |")
            print(rows[-1], flush=True)
    begin, end = markers("generate")
    text = "\n".join([begin, "## Generator: time per unique puzzle (bench/generate.py)", "",
                      f"{args.n} puzzles per size (seeds 0-{args.n - 1}), rotational symmetry, "
                      f"density {gen.DEFAULT_DENSITY}; each puzzle checked with "
                      "`count(limit=2) == 1`. Blocks alone get 20 layouts a puzzle, "
                      "the climb 100 (generate's default).", "", *rows, "", end, ""])
    print(text)
    if args.results:
        write_section("generate", text)


if __name__ == "__main__":
    main()
