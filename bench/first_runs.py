"""First runs on an empty cache, beside busy processes: does the essay answer every
published-size puzzle while the kernels compile?

Each puzzle is solved by a fresh ``kakuro-np solve --count FILE`` with a cache of its own
(a new ``NUMBA_CACHE_DIR``), timed wall-clock, while ``--busy N`` processes spin
(``while :; do :; done``) as other work on a shared machine would. The puzzles: the
published-style set's puzzles whose combinations times orders pass 2 million table rows
(the bound a first run used to give up at), then others of every size from 10x10 to
20x20, then the 30x30s of ``sets/big30.jsonl``; ``--n`` of them in all. The target: each
within ``--target`` seconds (5).

Run: ``.venv/bin/python bench/first_runs.py --busy 2 --n 20``
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CLI = os.path.join(ROOT, ".venv", "bin", "kakuro-np")


def rows_bound(grid: str) -> int:
    """The essay's table rows bounded by combinations times orders, as a first run once
    bounded them."""
    sys.path.insert(0, ROOT)
    from kakuro_np import essay, parse
    x, sums = essay.entries(parse(grid))
    return sum(math.factorial(len(c)) * len(essay.kc(int(s), len(c))) for c, s in zip(x, sums))


def chosen(n: int) -> list:
    """``(name, size, grid)`` of ``n`` puzzles: those past the old bound first, then one of
    each size in turn, then the 30x30s."""
    published = [json.loads(line) for line in open(os.path.join(HERE, "sets", "published.jsonl"))]
    big = [json.loads(line) for line in open(os.path.join(HERE, "sets", "big30.jsonl"))]
    past = [p for p in published if rows_bound(p["grid"]) > 2_000_000]
    by_size = {}
    for p in published:
        if p not in past:
            by_size.setdefault(tuple(p["size"]), []).append(p)
    sizes = sorted(by_size)
    picked = past[:]
    n_big = min(len(big), max(1, n // 4))
    i = 0
    while len(picked) < n - n_big and any(by_size.values()):
        group = by_size[sizes[i % len(sizes)]]
        if group:
            picked.append(group.pop(0))
        i += 1
    picked += big[:n - len(picked)]
    return [(p.get("name", f"big30-{k}"), "x".join(map(str, p["size"])), p["grid"])
            for k, p in enumerate(picked)]


def first_run(grid: str, folder: str) -> tuple:
    """``(seconds, exit status, stdout, stderr)`` of a first ``solve --count`` of ``grid``."""
    path = os.path.join(folder, "puzzle.txt")
    with open(path, "w") as f:
        f.write(grid)
    env = {**os.environ, "NUMBA_CACHE_DIR": tempfile.mkdtemp(dir=folder)}
    started = time.monotonic()
    out = subprocess.run([CLI, "solve", "--count", path], env=env, capture_output=True,
                         text=True, timeout=600)
    return time.monotonic() - started, out.returncode, out.stdout.strip(), out.stderr.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=20, help="puzzles (default 20)")
    ap.add_argument("--busy", type=int, default=2, help="busy processes beside (default 2)")
    ap.add_argument("--target", type=float, default=5.0, help="seconds a run (default 5)")
    args = ap.parse_args()
    busy = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(args.busy)]
    rows, worst = [], 0.0
    try:
        with tempfile.TemporaryDirectory() as folder:
            for name, size, grid in chosen(args.n):
                seconds, code, said, err = first_run(grid, folder)
                worst = max(worst, seconds)
                rows.append((name, size, seconds, code, said.split(": ")[-1],
                             "compiled" if "compiling" in err else "essay"))
                print(f"| {name} | {size} | {seconds:.2f} | {code} | {rows[-1][4]} | "
                      f"{rows[-1][5]} |", flush=True)
    finally:
        for p in busy:
            p.kill()
    within = sum(r[2] <= args.target for r in rows)
    print(f"\n{within} of {len(rows)} within {args.target:g} s beside {args.busy} busy "
          f"processes; slowest {worst:.2f} s")


if __name__ == "__main__":
    main()
