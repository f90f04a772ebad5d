"""Make the benchmark's puzzle sets, reproducibly, from one fixed seed.

Run: ``.venv/bin/python bench/make_sets.py [--only NAME ...] [--quick]``

Each set is one JSON Lines file in ``bench/sets/``, one puzzle a line::

    {"name": "pub-0007", "size": [15, 15], "blanks": 121, "solutions": 1,
     "grid": "x;x;16 0;...\\n0 17;_;_;..."}

``grid`` is the essay's jboxed text (``kn.parse`` reads it). ``solutions`` is
what the generator measured with ``kn.count`` (1 for the uniqueness sets).

Glossary
--------
N, H, W  : grid size; row 0 and column 0 hold only clues, as in published puzzles.
layout   : an (H, W) bool array, True for a blank cell.
fill     : an (H, W) int8 array of digits 1-9 in the blanks (0 elsewhere),
           distinct along every run.
run      : a maximal line of blank cells, across or down (2 to 9 long).
twin     : the cell at 180 degrees, ``(H - r, W - c)`` inside the interior
           rows/columns ``1..H-1`` x ``1..W-1``; layouts are symmetric under it.

How a unique puzzle is made
---------------------------
1. Layout: black out random twin pairs of interior cells, then repair until
   every run is 2 to 9 long (a lone blank is blacked out or its line extended,
   an over-long run is split), keep the largest connected blank region if it is
   its own twin (on 30x30 and 40x40: every region at least a quarter of the
   largest), and reject layouts whose interior is less than half blank. For the
   long-run set, black twin pairs are then opened wherever that joins runs into
   runs of 8 or 9 cells (making no new all-blank 3x3 square), until N / 3 such runs exist.
2. Fill: random digits by backtracking, distinct in every run; the clues are
   the sums of the fill's runs.
3. Uniqueness, by local search on the fill: each round changes the fill at a
   cell that forced moves (``kn.reduce``) leave open, by a new digit for it (and
   perhaps a neighbour) or a swap with another cell of its run, and keeps the
   change unless more candidates stay open (after a while without progress it
   keeps one anyway). Once few cells are open, ``kn.count(p, limit=2) == 1``
   ends the search. The fill is a solution throughout. A layout whose search
   runs too long is thrown away. No given digits are ever added: every puzzle
   is clues only, and each is checked with ``kn.count(p, limit=2) == 1``.

The many-solution set skips step 3: random fills of 7x7 to 11x11 layouts whose
``kn.count`` falls between 100 and 300,000, spread evenly over four bands on a
log scale.

Everything random comes from ``numpy.random.default_rng([SEED, set index])``
and the generator reads only solution counts and forced-move candidates from
the engine (never timings or solution order), so the files are reproducible.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

import kakuro_np as kn

SEED = 20240611
HERE = os.path.dirname(os.path.abspath(__file__))
SETS_DIR = os.path.join(HERE, "sets")
ALL = 0x3FE                                  # bits 1..9: digit d is bit d


# ---------------------------------------------------------------------------
# Runs

def runs(layout):
    """Every run of ``layout`` as ``(kind, r, c, length)``, across then down; kind 'a'|'d'."""
    out = []
    for kind, grid in (("a", layout), ("d", layout.T)):
        for i, line in enumerate(grid):
            j = 0
            n = len(line)
            while j < n:
                if line[j]:
                    s = j
                    while j < n and line[j]:
                        j += 1
                    r, c = (i, s) if kind == "a" else (s, i)
                    out.append((kind, r, c, j - s))
                else:
                    j += 1
    return out


def run_cells(kind, r, c, length):
    """The (r, c) cells of one run."""
    return [(r, c + k) if kind == "a" else (r + k, c) for k in range(length)]


# ---------------------------------------------------------------------------
# Layouts

def twin(H, W, r, c):
    """The 180-degree twin of interior cell (r, c)."""
    return H - r, W - c


def set_pair(layout, r, c, value):
    """Set cell (r, c) and its twin to ``value``."""
    H, W = layout.shape
    layout[r, c] = value
    layout[twin(H, W, r, c)] = value


def split_point(rng, length):
    """Where to black out a cell in an over-long run: pieces of 2+ on both sides."""
    return int(rng.choice(list(range(2, length - 2))))


def components(layout):
    """Label connected blank regions (4-neighbour); returns (labels, sizes)."""
    H, W = layout.shape
    labels = np.full((H, W), -1, np.int64)
    sizes = []
    for r0 in range(H):
        for c0 in range(W):
            if layout[r0, c0] and labels[r0, c0] < 0:
                k = len(sizes)
                stack = [(r0, c0)]
                labels[r0, c0] = k
                n = 0
                while stack:
                    r, c = stack.pop()
                    n += 1
                    for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                        if 0 <= rr < H and 0 <= cc < W and layout[rr, cc] and labels[rr, cc] < 0:
                            labels[rr, cc] = k
                            stack.append((rr, cc))
                sizes.append(n)
    return labels, sizes


def make_layout(rng, H, W, black_p, min_fill=0.5, tries=200, keep="largest"):
    """A random 180-degree symmetric layout with every run 2 to 9 long, or None.

    ``keep="largest"`` keeps the largest connected region (if it is its own twin);
    ``keep="big"`` keeps every region at least a quarter the size of the largest
    (twin regions have the same size, so the layout stays symmetric), which
    large grids need, as their repairs cut them into several regions.
    """
    for _ in range(tries):
        layout = np.zeros((H, W), bool)
        inner = rng.random((H - 1, W - 1)) >= black_p
        inner &= inner[::-1, ::-1]
        layout[1:, 1:] = inner
        for _ in range(4 * (H + W)):
            changed = False
            for kind, r, c, n in runs(layout):
                if n == 1:
                    # a lone blank: black it out, or extend its line into a black cell
                    rr, cc = (r, c + 1) if kind == "a" else (r + 1, c)
                    back = (r, c - 1) if kind == "a" else (r - 1, c)
                    opts = [x for x in (back, (rr, cc))
                            if 1 <= x[0] < H and 1 <= x[1] < W and not layout[x]]
                    if opts and rng.random() < 0.5:
                        x = opts[int(rng.integers(len(opts)))]
                        set_pair(layout, x[0], x[1], True)
                    else:
                        set_pair(layout, r, c, False)
                    changed = True
                    break
                if n > 9:
                    k = split_point(rng, n)
                    x = run_cells(kind, r, c, n)[k]
                    set_pair(layout, x[0], x[1], False)
                    changed = True
                    break
            if not changed:
                break
        else:
            continue
        labels, sizes = components(layout)
        if not sizes:
            continue
        if keep == "big":
            kept = np.isin(labels, np.flatnonzero(np.array(sizes) >= max(sizes) / 4))
        else:
            kept = labels == int(np.argmax(sizes))
        inner = kept[1:, 1:]
        if not np.array_equal(inner, inner[::-1, ::-1]):
            continue
        layout = kept
        if any(n == 1 or n > 9 for *_, n in runs(layout)):
            continue
        if layout[1:, 1:].mean() < min_fill:
            continue
        return layout
    return None


def lengthen(rng, layout, target):
    """Join runs into runs of 8 and 9 cells by opening black twin pairs, up to ``target`` of them.

    A black cell is opened only if every run stays 2 to 9 long, no new 3x3
    square becomes all blank (open blocks of long runs have astronomically many
    fillings), and the number of runs of 8 or 9 grows. Returns that number.
    """
    H, W = layout.shape

    def blocks(lay):
        block = np.ones((H - 2, W - 2), bool)
        for dr in range(3):
            for dc in range(3):
                block &= lay[dr:H - 2 + dr, dc:W - 2 + dc]
        return int(block.sum())

    n_blocks = blocks(layout)

    def n_long(lay):
        rl = [n for *_, n in runs(lay)]
        if blocks(lay) > n_blocks or any(n == 1 or n > 9 for n in rl):
            return -1
        return sum(n >= 8 for n in rl)

    have = n_long(layout)
    for _ in range(3):
        black = [tuple(int(v) for v in x) for x in np.argwhere(~layout[1:, 1:]) + 1]
        rng.shuffle(black)
        for r, c in black:
            if have >= target:
                return have
            if layout[r, c]:
                continue
            set_pair(layout, r, c, True)
            k = n_long(layout)
            if k > have:
                have = k
            else:
                set_pair(layout, r, c, False)
    return have


# ---------------------------------------------------------------------------
# Fills and clues

def cell_runs(layout):
    """For each blank cell, the index of its across run and of its down run; and the runs."""
    rs = runs(layout)
    H, W = layout.shape
    across = np.full((H, W), -1, np.int64)
    down = np.full((H, W), -1, np.int64)
    for k, (kind, r, c, n) in enumerate(rs):
        for x in run_cells(kind, r, c, n):
            (across if kind == "a" else down)[x] = k
    return rs, across, down


def fill_cells(rng, fill, cells, across, down, rs, budget=20000, lean=None):
    """Give ``cells`` random digits, distinct in every run, keeping the other digits.

    Backtracking in the given order; returns True on success (``fill`` changed in place).
    ``lean`` (one number per run, -1 to 1) tilts a run towards low or high digits:
    digit d is tried early with odds ``exp(lean * (d - 5))`` from each of its runs.
    """
    used = {}
    for k, (kind, r, c, n) in enumerate(rs):
        m = 0
        for x in run_cells(kind, r, c, n):
            if fill[x]:
                m |= 1 << int(fill[x])
        used[k] = m
    for x in cells:
        if fill[x]:
            used[across[x]] &= ~(1 << int(fill[x]))
            used[down[x]] &= ~(1 << int(fill[x]))
            fill[x] = 0
    digits = np.arange(1, 10)

    def draw(x):
        if lean is None:
            return rng.permutation(digits)
        w = np.exp((lean[across[x]] + lean[down[x]]) * (digits - 5))
        return rng.choice(digits, 9, replace=False, p=w / w.sum())

    order = [draw(x) for x in cells]
    pos = [0] * len(cells)
    i = 0
    steps = 0
    while 0 <= i < len(cells):
        steps += 1
        if steps > budget:
            break
        x = cells[i]
        a, d = across[x], down[x]
        if fill[x]:
            used[a] &= ~(1 << int(fill[x]))
            used[d] &= ~(1 << int(fill[x]))
            fill[x] = 0
        placed = False
        while pos[i] < 9:
            v = int(order[i][pos[i]])
            pos[i] += 1
            if not (used[a] | used[d]) & (1 << v):
                fill[x] = v
                used[a] |= 1 << v
                used[d] |= 1 << v
                placed = True
                break
        if placed:
            i += 1
        else:
            pos[i] = 0
            order[i] = draw(x)
            i -= 1
    if i == len(cells):
        return True
    for x in cells:
        fill[x] = 0
    return False


def random_fill(rng, layout, lean=None):
    """A random fill of ``layout``, or None."""
    rs, across, down = cell_runs(layout)
    fill = np.zeros(layout.shape, np.int8)
    cells = [tuple(int(v) for v in x) for x in np.argwhere(layout)]
    for _ in range(20):
        if fill_cells(rng, fill, cells, across, down, rs, lean=lean):
            return fill
    return None


def puzzle_of(layout, fill):
    """The clues-only puzzle whose runs add up to ``fill``."""
    H, W = layout.shape
    downs = np.zeros((H, W), np.int16)
    acrosses = np.zeros((H, W), np.int16)
    for kind, r, c, n in runs(layout):
        total = sum(int(fill[x]) for x in run_cells(kind, r, c, n))
        if kind == "a":
            acrosses[r, c - 1] = total
        else:
            downs[r - 1, c] = total
    return kn.Puzzle(layout, downs, acrosses)


def jboxed(p):
    """The essay's jboxed text of a clues-only puzzle."""
    lines = []
    for row in p.to_rows():
        lines.append(";".join("_" if cell == "_" else "x" if cell == "x" else f"{cell[0]} {cell[1]}"
                              for cell in row))
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Uniqueness repair

def undetermined(p):
    """What forced moves leave open: (open cells as an (n, 2) array, spare candidates).

    The spare candidates are the candidates beyond one per cell, summed.
    """
    ncand = kn.reduce(p).candidates.sum(axis=2)
    return np.argwhere(p.blank & (ncand > 1)), int(ncand[p.blank].sum() - p.blank.sum())


def swap_in_run(rng, fill, x, rs, across, down):
    """Swap cell x's digit with another cell of one of its runs, if both crossing runs allow.

    The run's own sum is kept; the two crossing runs change. Returns True if swapped.
    """
    k = across[x] if rng.random() < 0.5 else down[x]
    other = down if k == across[x] else across
    mates = [y for y in run_cells(*rs[k]) if y != x]
    rng.shuffle(mates)
    for y in mates:
        a, b = int(fill[x]), int(fill[y])
        cx = [fill[z] for z in run_cells(*rs[other[x]]) if z != x]
        cy = [fill[z] for z in run_cells(*rs[other[y]]) if z != y]
        if b not in cx and a not in cy:
            fill[x], fill[y] = b, a
            return True
    return False


def make_unique(rng, layout, fill, max_rounds, check_below=60, patience=150):
    """Local search on the fill until the puzzle has one solution.

    Each round changes the fill at one cell that forced moves leave open: a new
    digit for it (sometimes with a neighbour), or a swap with another cell of
    its run. The change is kept unless it leaves more spare candidates (after
    ``patience`` rounds without progress, a change is kept anyway: a kick).
    Once few cells are open, ``kn.count(p, limit=2)`` decides. The fill is a
    solution throughout. Returns ``(puzzle, rounds)``, or ``(None, rounds)``.
    """
    rs, across, down = cell_runs(layout)
    H, W = layout.shape
    p = puzzle_of(layout, fill)
    open_, score = undetermined(p)
    best, since = score, 0
    for rounds in range(max_rounds):
        if len(open_) == 0 or (len(open_) <= check_below and kn.count(p, limit=2) == 1):
            return p, rounds
        r, c = (int(v) for v in open_[int(rng.integers(len(open_)))])
        old = fill.copy()
        move = rng.random()
        if move < 0.4:
            ok = swap_in_run(rng, fill, (r, c), rs, across, down)
        else:
            cells = [(r, c)]
            if move < 0.7:
                nb = [(r + dr, c + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                      if 0 <= r + dr < H and 0 <= c + dc < W and layout[r + dr, c + dc]]
                cells.append(nb[int(rng.integers(len(nb)))])
            ok = fill_cells(rng, fill, cells, across, down, rs)
        if not ok or np.array_equal(old, fill):
            fill[:] = old
            continue
        q = puzzle_of(layout, fill)
        new_open, new_score = undetermined(q)
        since += 1
        if new_score <= score or since > patience:
            p, open_, score = q, new_open, new_score
            if score < best:
                best, since = score, 0
            elif since > patience:
                best, since = score, 0
        else:
            fill[:] = old
    return None, max_rounds


def unique_puzzle(rng, H, W, black_p, min_long=0, keep="largest",
                  max_rounds=None, max_tries=None):
    """One unique puzzle of H x W: (puzzle, layouts tried, repair rounds).

    After ``max_tries`` layouts without success, (None, tries, rounds).
    """
    tried = 0
    rounds_total = 0
    while True:
        tried += 1
        if max_tries and tried > max_tries:
            return None, tried, rounds_total
        layout = make_layout(rng, H, W, black_p, keep=keep)
        if layout is None:
            continue
        if min_long and lengthen(rng, layout, min_long) < min_long:
            continue
        fill = random_fill(rng, layout)
        if fill is None:
            continue
        p, rounds = make_unique(rng, layout, fill,
                                max_rounds or max(1500, 12 * int(layout.sum())))
        rounds_total += rounds
        if p is not None and kn.count(p, limit=2) == 1:
            return p, tried, rounds_total


# ---------------------------------------------------------------------------
# The sets

def record(name, p, solutions):
    """One JSON Lines record (and a progress line on stderr)."""
    print(f"  {name}: {p.shape[0]}x{p.shape[1]}, {int(p.blank.sum())} blanks, "
          f"{solutions} solutions", file=sys.stderr, flush=True)
    return {"name": name, "size": list(p.shape), "blanks": int(p.blank.sum()),
            "solutions": int(solutions), "grid": jboxed(p)}


def set_published(rng, n):
    """(a) published-style unique puzzles, N x N with N from 10 to 20."""
    out, stats = [], []
    for i in range(n):
        N = int(rng.integers(10, 21))
        p, tried, rounds = unique_puzzle(rng, N, N, float(rng.uniform(0.22, 0.38)))
        out.append(record(f"pub-{i:04d}", p, 1))
        stats.append(rounds)
    return out, f"repair rounds per puzzle: median {np.median(stats):.0f}, max {max(stats)}"


def set_big(rng, N, n):
    """(b) N x N unique puzzles (N = 30 or 40)."""
    out, stats = [], []
    for i in range(n):
        p, tried, rounds = unique_puzzle(rng, N, N, float(rng.uniform(0.2, 0.28)), keep="big")
        out.append(record(f"big{N}-{i:02d}", p, 1))
        stats.append(rounds)
    return out, f"repair rounds per puzzle: median {np.median(stats):.0f}, max {max(stats)}"


def set_long(rng, n):
    """(d) unique puzzles with runs of 8 and 9 cells (N / 3 of them at least)."""
    out, stats = [], []
    while len(out) < n:
        N = int(rng.integers(10, 16))
        p, tried, rounds = unique_puzzle(rng, N, N, float(rng.uniform(0.25, 0.35)),
                                         min_long=N // 3, max_rounds=700, max_tries=12)
        if p is None:                            # a hard size and density: draw new ones
            continue
        out.append(record(f"long-{len(out):03d}", p, 1))
        stats.append(rounds)
    return out, f"repair rounds per puzzle: median {np.median(stats):.0f}, max {max(stats)}"


def set_many(rng, n, lo=100, hi=300_000):
    """(c) puzzles with many solutions, spread evenly over decades from lo to hi."""
    edges = np.geomspace(lo, hi, 5)
    per = [n // 4 + (1 if k < n % 4 else 0) for k in range(4)]
    buckets = [[] for _ in range(4)]
    tried = 0
    while any(len(b) < q for b, q in zip(buckets, per)):
        tried += 1
        N = int(rng.integers(7, 12))
        layout = make_layout(rng, N, N, float(rng.uniform(0.1, 0.3)), min_fill=0.4)
        if layout is None:
            continue
        fill = random_fill(rng, layout)
        if fill is None:
            continue
        p = puzzle_of(layout, fill)
        m = kn.count(p, limit=hi + 1)
        if not lo <= m <= hi:
            continue
        k = min(int(np.searchsorted(edges, m, side="right")) - 1, 3)
        if len(buckets[k]) < per[k]:
            buckets[k].append(record("", p, m))
    out = [r for b in buckets for r in b]
    for i, r in enumerate(out):
        r["name"] = f"many-{i:03d}"
    counts = [r["solutions"] for r in out]
    return out, f"{tried} grids tried; solutions from {min(counts)} to {max(counts)}"


SETS = {                                     # name -> (seed index, maker)
    "published": (0, lambda rng, quick: set_published(rng, 40 if quick else 500)),
    "big30": (1, lambda rng, quick: set_big(rng, 30, 2 if quick else 10)),
    "many": (2, lambda rng, quick: set_many(rng, 8 if quick else 40)),
    "long": (3, lambda rng, quick: set_long(rng, 10 if quick else 30)),
    "big40": (4, lambda rng, quick: set_big(rng, 40, 2 if quick else 10)),
}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", choices=list(SETS), help="make only these sets")
    ap.add_argument("--quick", action="store_true", help="small sets, into bench/sets-quick/")
    ap.add_argument("--out", default=None, help="output folder (default bench/sets)")
    args = ap.parse_args(argv)
    out_dir = args.out or (SETS_DIR + "-quick" if args.quick else SETS_DIR)
    os.makedirs(out_dir, exist_ok=True)
    for name, (k, make) in SETS.items():
        if args.only and name not in args.only:
            continue
        rng = np.random.default_rng([SEED, k])
        t = time.perf_counter()
        recs, note = make(rng, args.quick)
        dt = time.perf_counter() - t
        path = os.path.join(out_dir, f"{name}.jsonl")
        with open(path, "w") as f:
            for r in recs:
                f.write(json.dumps(r, separators=(",", ":")) + "\n")
        print(f"{name}: {len(recs)} puzzles in {dt:.1f} s -> {os.path.relpath(path)} "
              f"({os.path.getsize(path) / 1e3:.0f} kB); {note}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
