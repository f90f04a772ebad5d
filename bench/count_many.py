"""Counting without enumerating: 21x21 grids with astronomically many solutions.

Each grid is made reproducibly (fixed seeds): bands of two blank rows cut into
4-cell runs, a few cells of the separating rows opened to link the bands, a
random fill, and the clues read off the fill. ``kn.count`` splits what forced
moves leave undecided into independent pieces and multiplies their counts.
Smaller grids of the same kind (one or two bands) are counted both ways,
``count()`` and ``len(kakuro())``, to check the method.

Run: ``.venv/bin/python bench/count_many.py`` (it prints a table; ``make bench``
runs it too).
"""

from __future__ import annotations

import random
import time
from types import SimpleNamespace

import numpy as np

import kakuro_np as kn
from kakuro_np import essay


def random_fill(blank, runs, rnd):
    """Flat digits for every blank cell, none repeated in a run, or None if the search gave up."""
    cells = np.flatnonzero(blank).tolist()                       # in row-major order
    peers = {c: set() for c in cells}                             # the cells sharing a run with c
    for run in runs:
        for c in run.tolist():
            peers[c].update(run.tolist())
    fill = np.zeros(blank.size, np.int8)
    steps = 0

    def place(i):                                                 # depth first, digits shuffled
        nonlocal steps
        if i == len(cells):
            return True
        steps += 1
        if steps > 20000:
            return False
        used = set(fill[list(peers[cells[i]])].tolist())          # what its peers hold (0: none)
        digits = [d for d in range(1, 10) if d not in used]
        rnd.shuffle(digits)
        for d in digits:
            fill[cells[i]] = d
            if place(i + 1):
                return True
        fill[cells[i]] = 0
        return False

    return fill if place(0) else None


def banded_grid(seed: int, bands: int = 7, links: int = 6, size: int = 21):
    """A ``size`` x ``size`` puzzle of two-row bands of 4-cell runs, or None if the fill failed."""
    rnd = random.Random(seed)
    blank = np.zeros((size, size), bool)
    band_rows = [r for r in range(1, size, 3)][:bands]
    for r0 in band_rows:
        for r in (r0, r0 + 1):
            if r < size:
                for c0 in range(1, size - 1, 5):
                    blank[r, c0:min(c0 + 4, size)] = True
    separators = [r0 + 2 for r0 in band_rows[:-1] if r0 + 2 < size]
    for _ in range(links if separators else 0):
        blank[rnd.choice(separators), rnd.choice([c for c in range(1, size) if c % 5])] = True
    # Every run, lone cells too: the essay's entries, with a clue in every cell that is not blank.
    runs, _ = essay.entries(SimpleNamespace(blank=blank, down=~blank, across=~blank))
    fill = random_fill(blank, runs, rnd)
    if fill is None or max(len(run) for run in runs) > 9:
        return None
    starts = np.diff(np.pad(blank, ((0, 0), (1, 0))).astype(np.int8), axis=1) == 1
    n_across = int(starts.sum())                # a blank after a non-blank in a row starts a run
    down = np.zeros(size * size, int)
    across = np.zeros(size * size, int)
    for k, run in enumerate(runs):              # the across runs come first, then the down runs
        clues, before = (across, 1) if k < n_across else (down, size)
        clues[run[0] - before] = fill[run].sum()                  # the run's digits added up
    return kn.Puzzle(blank, down.reshape(size, size), across.reshape(size, size))


def main():
    kn.count(kn.read("puzzles/k3.txt"))                     # load the kernels first
    print("| grid | solutions | count() |")
    print("|---|---:|---:|")
    worst = 0.0
    for seed in range(5):
        p = banded_grid(seed)
        if p is None:
            continue
        t = time.perf_counter()
        n = kn.count(p, timeout=120)
        dt = time.perf_counter() - t
        worst = max(worst, dt)
        print(f"| 21x21 seed {seed} | {n:.3e} | {dt:.3f} s |")
    print(f"\nslowest 21x21 count: {worst:.3f} s (target: under 60 s for over 1e7 solutions)")
    print("\nCheck against enumeration on smaller grids of the same kind:")
    print("| grid | count() | len(kakuro()) | count time | kakuro time | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for seed in range(4):
        p = banded_grid(100 + seed, bands=2, links=2, size=11)
        if p is None:
            continue
        t = time.perf_counter()
        n = kn.count(p)
        tc = time.perf_counter() - t
        t = time.perf_counter()
        m = len(kn.kakuro(p, timeout=120))
        tk = time.perf_counter() - t
        flag = "" if n == m else "  MISMATCH"
        print(f"| 11x11 seed {100 + seed} | {n} | {m} | {tc * 1e3:.2f} ms | {tk * 1e3:.1f} ms "
              f"| {tk / tc:.0f}x{flag} |")


if __name__ == "__main__":
    main()
