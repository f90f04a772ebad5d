"""Exact counts of open grids: the memo that grows on demand against the fixed one.

``kn.count(p)`` keeps the counts of the pieces it meets in a memo (see
``kakuro_np/engine/memo.py``). A fixed memo that fills up is emptied and starts
over, so on a grid whose count needs more pieces than it holds, the same
pieces are counted again and again. The memo ``count`` makes now grows instead
(4 times larger each time, up to about 1.3 GiB) and the count goes on from
every piece it holds. Side by side in one process, the grids alternating:

- fixed: ``count_in_turns`` with the former default memo (2**17 slots, 2**22 key
  words, emptied when full);
- grows: ``kn.count(p)`` (the same memo to start, growing).

Grids our solver did not shape: the open grids of ``open_grids.py`` that a count
finishes within the cap, and ``sets/long_counts.jsonl``.

Run: ``.venv/bin/python bench/count_memo.py [--cap S] [--results]`` (``--results``
keeps the table in ``bench/RESULTS.md``).
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import sys
import time

import kakuro_np as kn

solve = importlib.import_module("kakuro_np.solve")
turns = importlib.import_module("kakuro_np.turns")
from kakuro_np.engine.core.jit import NO_DEADLINE, monotonic_ns  # noqa: E402
from kakuro_np.engine.walk.memo import DATA_WORDS, SLOTS_LOG2, new_memo  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import open_grids as og  # noqa: E402
from sections import markers, write_section  # noqa: E402

#: The open grids a count finishes (the others pass 200 s either way).
OPEN = ("open-00", "open-01", "open-05")


def grids():
    """``[(name, puzzle, known count or None)]``."""
    opened = dict(og.open_grids())
    out = [(name, opened[name], None) for name in OPEN]
    with open(os.path.join(HERE, "sets", "long_counts.jsonl")) as f:
        for line in f:
            row = json.loads(line)
            out.append((row["name"], kn.parse(row["grid"]), row["solutions"]))
    return out


def fixed(p, cap):
    """The count with the fixed memo: ``(count or None past the cap, seconds)``."""
    m = solve.model(p)
    t = time.perf_counter()
    n = turns.count_in_turns(m, turns.NO_LIMIT, monotonic_ns() + int(cap * 1e9),
                             memo=new_memo(SLOTS_LOG2, DATA_WORDS))
    return n, time.perf_counter() - t


def grows(p, cap):
    """``kn.count(p)``: ``(count or None past the cap, seconds)``."""
    t = time.perf_counter()
    try:
        n = kn.count(p, timeout=cap)
    except kn.SolveTimeout:
        n = None
    return n, time.perf_counter() - t


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cap", type=float, default=150, help="seconds a count (default 150)")
    parser.add_argument("--results", action="store_true", help="keep the table in RESULTS.md")
    args = parser.parse_args()
    k3 = os.path.join(HERE, "..", "puzzles", "k3.txt")
    kn.count(k3)                                            # compile both sides first
    turns.count_in_turns(solve.model(k3), turns.NO_LIMIT, NO_DEADLINE,
                         memo=new_memo(SLOTS_LOG2, DATA_WORDS))
    rows = []
    for name, p, known in grids():
        a, ta = fixed(p, args.cap)
        b, tb = grows(p, args.cap)
        if a is not None and b is not None and a != b or known is not None and b not in (None, known):
            sys.exit(f"{name}: the counts differ: fixed {a}, grows {b}, known {known}")
        rows.append((name, p.shape, b if b is not None else a, ta if a is not None else None,
                     tb if b is not None else None))
        print(name, a, f"{ta:.1f}s", b, f"{tb:.1f}s", flush=True)
    text = table(rows, args.cap)
    print(text)
    if args.results:
        write_section("count-memo", text)


def table(rows, cap) -> str:
    def s(t):
        return f"> {cap:.0f} s" if t is None else f"{t:.1f} s"
    begin, end = markers("count-memo")
    done = [r for r in rows if r[3] is not None and r[4] is not None]
    lines = [begin, "## Exact counts: the memo that grows (`bench/count_memo.py`)", "",
             f"Measured {datetime.date.today()}, one process, the sides alternating per grid "
             f"(`.venv/bin/python bench/count_memo.py --results`). Fixed: the former memo "
             f"(2**17 slots, 2**22 key words), emptied when full. Grows: `kn.count(p)`, whose "
             f"memo grows 4x when full, up to 2**23 slots and 2**27 key words, and counts on "
             f"from every piece it holds. Cap {cap:.0f} s a count.", "",
             "| grid | size | solutions | fixed | grows | fixed / grows |",
             "|---|---|---:|---:|---:|---:|"]
    for name, shape, n, ta, tb in rows:
        ratio = f"{ta / tb:.2f}x" if ta is not None and tb is not None else (
            f"> {cap / tb:.1f}x" if tb is not None else "")
        lines.append(f"| {name} | {shape[0]}x{shape[1]} | {n:,} | {s(ta)} | {s(tb)} | {ratio} |"
                     if n is not None else f"| {name} | {shape[0]}x{shape[1]} | ? | {s(ta)} | "
                     f"{s(tb)} | |")
    if done:
        ta, tb = sum(r[3] for r in done), sum(r[4] for r in done)
        lines.append(f"| total (both finished) | | | {ta:.1f} s | {tb:.1f} s | {ta / tb:.2f}x |")
    lines.append(end)
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
