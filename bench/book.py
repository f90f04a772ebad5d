"""The print-ready book: ``kakuro-np book --count 24 --size 12x12 --grades easy,medium,hard,expert
--seed 7`` timed warm (the kernels cached), and the same bytes on every run.

Each run is the command in a fresh process (``--rounds``, after one run that warms the
cache and is not counted); the PDFs of every run must be identical (exit 1 otherwise).
Then, in this process, where the time goes: making the puzzles (``printing.generated``),
proving them unique and grading them (``printing.prepared``), and drawing the PDF
(``printing.pdf_bytes``).

Run: ``.venv/bin/python bench/book.py [--rounds 2] [--count 24] [--size 12x12] [--seed 7]``
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import time

from kakuro_np import printing

GRADES = "easy,medium,hard,expert"
#: The issue's target: seconds for the 24-puzzle book, warm, on this 2-core machine.
TARGET = 60.0


def run_command(out: str, args) -> float:
    """Seconds of one ``kakuro-np book`` in its own process."""
    argv = [sys.executable, "-m", "kakuro_np", "book", "--out", out, "--count", str(args.count),
            "--size", args.size, "--grades", GRADES, "--seed", str(args.seed)]
    start = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True)
    return time.perf_counter() - start


def phases(args) -> dict:
    """Seconds of each part of the book, in this process."""
    size = printing.size_of(args.size)
    start = time.perf_counter()
    puzzles = printing.generated(args.count, size, printing.grades_of(GRADES), args.seed)
    made = time.perf_counter()
    entries = printing.prepared(puzzles)
    graded = time.perf_counter()
    printing.pdf_bytes(entries)
    drawn = time.perf_counter()
    return {"generate": made - start, "check and grade": graded - made, "draw the PDF": drawn - graded}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--count", type=int, default=24)
    parser.add_argument("--size", default="12x12")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="kakuro-book-")
    run_command(os.path.join(folder, "warm.pdf"), args)            # fills the cache
    times, digests = [], set()
    for i in range(args.rounds):
        out = os.path.join(folder, f"book-{i}.pdf")
        times.append(run_command(out, args))
        with open(out, "rb") as f:
            digests.add(hashlib.sha256(f.read()).hexdigest())
    print(f"kakuro-np book --count {args.count} --size {args.size} --grades {GRADES} "
          f"--seed {args.seed}")
    print(f"  warm runs: {', '.join(f'{t:.1f} s' for t in times)} (target {TARGET:g} s: "
          f"{'met' if max(times) <= TARGET else 'MISSED'})")
    print(f"  identical bytes over {args.rounds} runs: {len(digests) == 1}")
    for name, seconds in phases(args).items():
        print(f"  {name}: {seconds:.1f} s")
    return 0 if len(digests) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
