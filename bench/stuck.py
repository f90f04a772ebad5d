"""Logic without guessing (issue 50): how far the solve by logic goes, before and after
reasoning across runs.

For every puzzle of the sets: ``kn.explain(p, top=N_TECHNIQUES)`` (before: the ladder of
one-run techniques, where ``reduce`` stops) and ``kn.explain(p)`` (after: with region sums,
x-wings and chains), each timed wall-clock in this process after a warm-up; then
``kn.grade``. Prints, per set, how many are explained to the end before and after, which
steps across runs each puzzle the ladder leaves stuck needs (region sums, x-wings, chains
and their links), the grade spread, and the times of ``explain``; and the puzzles still
stuck, with why.

Run: ``.venv/bin/python bench/stuck.py [--sets samples published]``
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics

import kakuro_np as kn
from kakuro_np.grading import LABELS
from kakuro_np.techniques import N_TECHNIQUES
from explain import best_of, load

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def one_set(name):
    """The rows of the stuck puzzles, and the summary line, of one set."""
    items = load(name)
    before_solved = after_solved = 0
    times, labels, rows, still = [], collections.Counter(), [], []
    for pname, p in items:
        before = kn.explain(p, top=N_TECHNIQUES)
        dt, after = best_of(1, kn.explain, p)
        times.append(dt)
        g = kn.grade(p)
        labels[g.label] += 1
        before_solved += before.status == "solved"
        after_solved += after.status == "solved"
        if before.status == "solved":
            continue
        uses = collections.Counter(s.technique for s in after)
        links = [len(s.links) for s in after if s.technique == "chain"]
        rows.append(f"| {name} | {pname} | {p.shape[0]}x{p.shape[1]} | {uses['region sum']} | "
                    f"{uses['x-wing']} | {uses['chain']} | {', '.join(map(str, links)) or '-'} | {after.status} | "
                    f"{g.label} {g.score:.1f} | {dt:.2f} |")
        print(rows[-1], flush=True)
        if after.status != "solved":
            still.append(f"{pname}: {after.status}; {g}")
    summary = (f"| {name} | {len(items)} | {before_solved} | {after_solved} | "
               f"{', '.join(f'{lab} {labels[lab]}' for lab in LABELS)} | "
               f"{statistics.median(times) * 1000:.1f} ms | {max(times):.2f} s |")
    return rows, summary, still


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", nargs="+", default=["samples", "published"])
    args = ap.parse_args()
    kn.explain(os.path.join(ROOT, "puzzles", "k3.txt"))          # compile first
    kn.grade(os.path.join(ROOT, "puzzles", "k3.txt"))
    rows = ["| set | puzzle | size | region sums | x-wings | chains | links of each chain | "
            "status | grade | explain |", "|---|---|---|---:|---:|---:|---|---|---|---:|"]
    summary = ["| set | puzzles | explained to the end before | after | grades after | "
               "explain median | slowest |", "|---|---:|---:|---:|---|---:|---:|"]
    still = []
    for name in args.sets:
        r, s, left = one_set(name)
        rows += r
        summary.append(s)
        still += left
        print(s, flush=True)
    print("\n".join(summary + [""] + rows + [""] + (still or ["none still stuck"])))


if __name__ == "__main__":
    main()
