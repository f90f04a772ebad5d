"""What each first run compiles, and for how long: the compile audit of issue 48.

Each question runs in a fresh process on an empty numba cache (a new
``NUMBA_CACHE_DIR``), with numba's compile events recorded. For each kernel
compiled at the top level (called from Python, not from another kernel) it
reports the seconds its compile took, callees included, and how many kernels
were compiled under it; then the question's wall time.

Run: ``.venv/bin/python bench/compile_times.py [--questions k2 count ...]``.
Prints a markdown table per question, and a summary line each.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PYTHON = os.path.join(ROOT, ".venv", "bin", "python")

#: name -> Python code run as the question (``kn`` is kakuro_np, ``P`` the puzzles folder).
QUESTIONS = {
    "k2": "kn.kakuro(P + '/k2.txt')",
    "count": "kn.count(P + '/k3.txt')",
    "limit1": "kn.kakuro(P + '/k3.txt', limit=1)",
    "any": "kn.kakuro(P + '/k3.txt', limit=2, order='any')",
    "reduce": "kn.reduce(P + '/k2.txt')",
    "check": "kn.check(P + '/k2-played.pipe')",
    "explain": "kn.explain(P + '/k2.txt')",
    "grade": "kn.grade(P + '/k3.txt')",
    "generate": "kn.generate(8, 8, seed=1)",
}

CHILD = r'''
import json, sys, time
t0 = time.perf_counter()
from numba.core import event
import kakuro_np as kn
P = sys.argv[2]
with event.install_recorder("numba:compile") as rec:
    t1 = time.perf_counter()
    exec(sys.argv[1])
    t2 = time.perf_counter()
stack, top = [], []                   # a kernel's compile holds its callees' compiles
for at, ev in rec.buffer:
    func = getattr(ev.data.get("dispatcher"), "py_func", None)
    if ev.is_start:
        stack.append((f"{func.__module__}.{func.__qualname__}" if func else "?", at))
    else:
        name, start = stack.pop()
        if not stack:
            top.append([name, at - start])
kernels = sum(1 for _, ev in rec.buffer if ev.is_start)
print(json.dumps({"import": t1 - t0, "run": t2 - t1, "kernels": kernels, "top": top}))
'''


def measure(code: str) -> dict:
    """One question in a fresh process on an empty cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        started = time.perf_counter()
        out = subprocess.run([PYTHON, "-c", CHILD, code, os.path.join(ROOT, "puzzles")],
                             env=env, capture_output=True, text=True, check=True, cwd=ROOT)
        found = json.loads(out.stdout.strip().splitlines()[-1])
        found["wall"] = time.perf_counter() - started
        return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", nargs="*", default=list(QUESTIONS), choices=QUESTIONS)
    args = parser.parse_args(argv)
    print("| question | wall s | import s | run s | kernels compiled | top-level compiles (s) |")
    print("|---|---:|---:|---:|---:|---|")
    for name in args.questions:
        m = measure(QUESTIONS[name])
        tops = ", ".join(f"{n.replace('kakuro_np.', '')} {s:.1f}"
                         for n, s in sorted(m["top"], key=lambda t: -t[1]))
        print(f"| {name} | {m['wall']:.1f} | {m['import']:.1f} | {m['run']:.1f} | "
              f"{m['kernels']} | {tops} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
