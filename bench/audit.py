"""What one piece of the engine buys: the bench sets with it and without it, in one process.

Issue 48's audit: each piece must earn its lines, its compile seconds and its time
where it does not help. This times ``kn.kakuro`` (every solution) on the bench sets
and ``kn.kakuro(p, limit=1)`` on the open grids of ``open_grids.py``, with the piece
on and off in turns (rounds alternate, so a busy machine slows both alike), and
prints each set's total per round and the ratio off / on of the rounds' medians.

Pieces (each turned off without a new compile: what the kernels take as an argument):

- ``index``: the row index of big tables (``force.build_index``: a table of
  ``force.INDEX_MIN`` rows or more is filtered through its index of rows by position
  and digit instead of row by row); off: ``solve.INDEX_MIN`` past every table.

Run: ``.venv/bin/python bench/audit.py index [--rounds 2] [--sets published,big30]``.

Examples
--------
>>> median_ratio([2.0, 4.0], [1.0, 2.0])
2.0
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import kakuro_np as kn
from kakuro_np import solve

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from open_grids import open_grids  # noqa: E402
from run import load_set  # noqa: E402

SETS = ("published", "big30", "big40", "many", "long", "open")
#: piece -> (module, name, value that turns it off)
PIECES = {"index": (solve, "INDEX_MIN", 1 << 62)}


def puzzles(name):
    """``[(puzzle, limit)]`` of a set: every solution, or the first of an open grid."""
    if name == "open":
        return [(p, 1) for _, p in open_grids()]
    return [(p, None) for _, p, _ in load_set(name)]


def set_seconds(items) -> float:
    """Seconds ``kn.kakuro`` takes over the set."""
    started = time.perf_counter()
    for p, limit in items:
        kn.kakuro(p, limit=limit)
    return time.perf_counter() - started


def median_ratio(off, on) -> float:
    """Off / on of the rounds' medians."""
    return statistics.median(off) / statistics.median(on)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("piece", choices=PIECES)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--sets", default=",".join(SETS))
    args = ap.parse_args(argv)
    module, name, off_value = PIECES[args.piece]
    on_value = getattr(module, name)
    print("| set | on, s per round | off, s per round | off / on |\n|---|---|---|---:|")
    for set_name in args.sets.split(","):
        items = puzzles(set_name)
        set_seconds(items)                     # warm: every kernel the set needs
        on, off = [], []
        for _ in range(args.rounds):
            for value, times in ((on_value, on), (off_value, off)):
                setattr(module, name, value)
                try:
                    times.append(set_seconds(items))
                finally:
                    setattr(module, name, on_value)
        print(f"| {set_name} | {' '.join(f'{t:.3f}' for t in on)} | "
              f"{' '.join(f'{t:.3f}' for t in off)} | {median_ratio(off, on):.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
