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

import os
import random
import sys
import time

import numpy as np

import kakuro_np as kn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from strategies import random_fill, runs  # noqa: E402


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
    fill = random_fill(blank, rnd)
    if fill is None:
        return None
    down = np.zeros((size, size), int)
    across = np.zeros((size, size), int)
    for direction, clue, cells in runs(blank):
        if len(cells) > 9:
            return None
        (across if direction == "a" else down)[clue] = sum(int(fill[c]) for c in cells)
    return kn.Puzzle(blank, down, across)


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
