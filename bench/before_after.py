"""Time two checkouts of kakuro_np side by side on the bench sets: a change's before and after.

Each round runs ``bench/run.py --worker ours`` of the BEFORE tree, then of the
AFTER tree, on every set (each worker a fresh process with its own numba cache,
warmed up first, best of ``--repeat`` per puzzle); rounds alternate, so a busy
machine slows both sides alike. It prints, per set, the total of each side in
each round and the ratio after / before of the medians of the rounds.

    git worktree add /tmp/before <commit>
    python bench/before_after.py /tmp/before .            # prints a Markdown table
    python bench/before_after.py /tmp/before . --results bench/RESULTS.md   # and keeps it there

Examples
--------
>>> ratio([1.0, 1.2, 1.1], [1.1, 1.0, 1.3])
1.0
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys

from checkouts import commit_of, run_in
from sections import markers, write_section

HERE = os.path.dirname(os.path.abspath(__file__))
SETS = ("published", "big30", "big40", "many", "long", "samples")


def set_total(tree: str, set_name: str, repeat: int) -> float:
    """Seconds ``kn.kakuro`` takes over a set in ``tree`` (its own worker process, timed by
    this checkout's ``run.py``: both sides alike)."""
    out = run_in(tree, [os.path.join(HERE, "run.py"), "--worker", "ours", "--set",
                        set_name, "--repeat", str(repeat)],
                 {"KAKURO_BENCH_SETS": os.path.join(HERE, "sets")})
    return sum(r["t"] for r in out["records"])


def ratio(before: list, after: list) -> float:
    """After / before, of the medians of the rounds."""
    return round(statistics.median(after) / statistics.median(before), 3)


def keep_in(results: str, table: list, args) -> None:
    """Put the table in RESULTS.md as a section ``bench/run.py`` keeps (``before_after.py``)."""
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    begin, end = markers("before_after.py")
    write_section("before_after.py", "\n".join([
        begin, "", "## Before and after (`bench/before_after.py`)", "",
        f"Run on {when}: {commit_of(args.before)} (before) against {commit_of(args.after)} "
        f"(after), {args.rounds} alternating rounds, best of {args.repeat} per puzzle; "
        "the ratio is of the medians of the rounds (below 1: the change is faster).", "",
        *table, "", end, ""]), results)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before", help="a checkout of kakuro_np before the change")
    ap.add_argument("after", help="a checkout after it")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of both sides (default 3)")
    ap.add_argument("--repeat", type=int, default=3, help="best of this many per puzzle")
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--results", help="also keep the table in this RESULTS.md")
    args = ap.parse_args(argv)
    table = ["| set | before, s per round | after, s per round | after / before |",
             "|---|---|---|---:|"]
    print("\n".join(table))
    for set_name in args.sets.split(","):
        before, after = [], []
        for _ in range(args.rounds):
            before.append(set_total(os.path.abspath(args.before), set_name, args.repeat))
            after.append(set_total(os.path.abspath(args.after), set_name, args.repeat))
        show = lambda ts: " ".join(f"{t:.4f}" for t in ts)   # noqa: E731
        table.append(f"| {set_name} | {show(before)} | {show(after)} | "
                     f"{ratio(before, after):.3f} |")
        print(table[-1], flush=True)
    if args.results:
        keep_in(args.results, table, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
