"""Bounded output on a grid with astronomically many solutions.

A 10x10 grid holding a fully blank 9x9 block, every clue 45: ``kakuro(limit=1000)``
must stop early with 1000 distinct valid solutions and stay far below 1 GiB.

Run: ``.venv/bin/python bench/open_block.py``
"""

import resource
import time

import kakuro_np as kn


def main():
    rows = [["x"] + [(45, 0)] * 9] + [[(0, 45)] + ["_"] * 9 for _ in range(9)]
    p = kn.Puzzle.from_rows(rows)
    kn.kakuro(kn.read("puzzles/k0.txt"))                   # compile / load the cache first
    for limit in (1, 1000, 100_000):
        t = time.perf_counter()
        n = len(kn.kakuro(p, limit=limit)) if limit <= 1000 else kn.count(p, limit=limit)
        dt = time.perf_counter() - t
        how = "kakuro" if limit <= 1000 else "count "
        print(f"{how} limit={limit:>7}: {n:>7} solutions in {dt:6.2f} s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory: {peak:.0f} MB")


if __name__ == "__main__":
    main()
