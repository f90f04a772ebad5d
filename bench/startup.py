"""How fast the command line starts: issue 48's targets, first runs on empty caches and warm runs.

Each run is a fresh process (``.venv/bin/kakuro-np``) in a session of its own, timed
wall-clock (``time.monotonic``) and stopped after 600 s. A "first" run has an empty
cache of its own (a fresh ``NUMBA_CACHE_DIR``; the repository's own cache is left
alone); a "warm" run uses the repository's cache after one warm-up run. Issue 48's
targets (2 cores):

1. first ``kakuro-np solve puzzles/k2.txt`` within 15 s;
2. first ``solve`` of a published-style 30x30 puzzle (the first of
   ``sets/big30.jsonl``) within 15 s;
3. first ``solve --limit 1`` and first ``check`` of the 30x100 open grid
   (``sets/open-30x100.txt``: open-10 of ``open_grids.py``, made here if missing)
   within 45 s each;
4. first ``solve --limit 1 --timeout 5`` of that grid ends within 8 s and leaves no
   process of its session behind;
5. ``kakuro-np compile`` on an empty cache within 90 s;
6. warm ``solve puzzles/k2.txt`` within twice a bare ``python -c "import numba"``
   (median of 3 each, the same interpreter);
7. warm ``solve --limit 1`` of the 30x100 grid within 5 s (median of 3);

and ``make test`` from a fresh clone within 3 minutes (``--make-test``: the install
and the suite, as CI runs it). Also timed, without targets: ``--help``, ``kc 18 4``
(median of 5) and a first ``explain puzzles/k2.txt``. Prints one table and writes it
as a section of ``bench/RESULTS.md``.

Run: ``make bench-startup`` (or ``.venv/bin/python bench/startup.py [--make-test]``;
``--quick``, a smoke test of under a minute, skips the open grid's first ``solve`` and
``check``, its warm ``solve`` and the compile, and only prints).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from typing import NamedTuple

from sections import markers, write_section

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PYTHON = os.path.join(ROOT, ".venv", "bin", "python")
CLI = os.path.join(ROOT, ".venv", "bin", "kakuro-np")
OPEN = os.path.join(HERE, "sets", "open-30x100.txt")
BEGIN, END = markers("startup.py")
#: Seconds after which a run is stopped (and reported as past it).
TIMEOUT = 600.0


class Run(NamedTuple):
    """One run: wall-clock seconds (None past ``TIMEOUT``), exit status, the end of its
    stderr, and the processes of its session still alive after it ended."""
    seconds: float | None
    code: int
    err: str
    left: int


def session(pgid: int) -> list:
    """The live (not zombie) processes of process group ``pgid``, from ``/proc/*/stat``."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()   # after the command's name
        except OSError:                                       # ended meanwhile
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":       # state, ppid, pgrp
            found.append(int(pid))
    return found


def run(args, cache=None, cwd=ROOT) -> Run:
    """Run ``args`` once in a new session, with ``cache`` as ``NUMBA_CACHE_DIR`` (else the
    repository's) and Python's own bytecode cache (as users run it: an environment that
    sets ``PYTHONDONTWRITEBYTECODE`` recompiles the package's sources at every start);
    then count what is left of the session (after up to 1 s) and kill it."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "PYTHONDONTWRITEBYTECODE")}
    if cache:
        env["NUMBA_CACHE_DIR"] = cache
    t = time.monotonic()
    proc = subprocess.Popen(args, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        _, err = proc.communicate(timeout=TIMEOUT)
        seconds = time.monotonic() - t
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
        seconds = None
    for _ in range(10):                      # helpers die with their parent: give them 1 s
        left = session(proc.pid)
        if not left:
            break
        time.sleep(0.1)
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return Run(seconds, proc.returncode, err.strip()[-300:], len(left))


def first(args) -> Run:
    """``args`` on an empty numba cache of its own."""
    with tempfile.TemporaryDirectory() as cache:
        return run(args, cache=cache)


def warm(n, args) -> Run:
    """The median of ``n`` runs of ``args`` on the repository's cache, after one warm-up
    run; the first run that fails instead, if any does."""
    runs = [run(args) for _ in range(n + 1)]
    bad = [r for r in runs if r.seconds is None or r.code != 0]
    return bad[0] if bad else runs[0]._replace(seconds=statistics.median(r.seconds for r in runs[1:]))


def make_test() -> Run:
    """``make test`` in a fresh clone, with ../shared beside it as CI has it."""
    with tempfile.TemporaryDirectory() as top:
        subprocess.run(["git", "clone", "-q", ROOT, os.path.join(top, "main")], check=True)
        shared = os.path.join(os.path.dirname(ROOT), "shared")
        if os.path.isdir(shared):
            os.symlink(shared, os.path.join(top, "shared"))
        return run(["make", "test"], cwd=os.path.join(top, "main"))


def open_grid() -> str:
    """The 30x100 open grid's file: open-10 of ``open_grids.py`` at its default seed,
    in the backslash format; made (and to be committed) if missing."""
    if not os.path.exists(OPEN):
        import kakuro_np as kn
        from open_grids import SEED, open_grids
        with open(OPEN, "w") as f:
            f.write(f"# open-10 of bench/open_grids.py, open_grids(seed={SEED}); "
                    f"written by bench/startup.py\n")
            f.write(kn.format(dict(open_grids())["open-10"], "backslash"))
    return os.path.relpath(OPEN, ROOT)


def big30(folder) -> tuple:
    """``(name, path)``: the first puzzle of ``sets/big30.jsonl``, written to ``folder``."""
    with open(os.path.join(HERE, "sets", "big30.jsonl")) as f:
        row = json.loads(f.readline())
    path = os.path.join(folder, f"{row['name']}.txt")
    with open(path, "w") as f:
        f.write(row["grid"] + "\n")              # jboxed text, as the command line reads it
    return row["name"], path


def checkout() -> str:
    """The commit measured, and whether the package differs from it."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                          capture_output=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "kakuro_np"], cwd=ROOT, text=True,
                           capture_output=True).stdout.strip()
    return f"{head}, with kakuro_np/ changed" if dirty else head


def measured(r: Run, ok=(0,)) -> str:
    """``r``'s seconds, with its exit status when not one of ``ok``."""
    if r.seconds is None:
        return f"> {TIMEOUT:.0f} s"
    shown = f"{r.seconds:.2f} s" if r.seconds < 10 else f"{r.seconds:.1f} s"
    return shown + ("" if r.code in ok else f" (exit {r.code})")


def passed(r: Run, limit, ok=(0,)) -> bool:
    """Whether ``r`` ended with a status of ``ok`` within ``limit`` seconds."""
    return r.seconds is not None and r.code in ok and r.seconds <= limit


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--make-test", action="store_true", help="also time make test in a fresh clone")
    ap.add_argument("--quick", action="store_true",
                    help="skip the open grid's first solve and check, its warm solve and the "
                         "compile; print only (RESULTS.md is left as it is)")
    args = ap.parse_args()
    k2 = os.path.join("puzzles", "k2.txt")
    grid = open_grid()
    rows, errors = [], []

    def row(question, target, r, limit=None, ok=(0,), shown=None, also=True):
        """A row of the table; PASS when ``r`` ended with a status of ``ok`` within ``limit``
        seconds and ``also`` holds."""
        mark = "" if limit is None else "PASS" if passed(r, limit, ok) and also else "FAIL"
        rows.append((question, target or "", shown or measured(r, ok), mark))
        if r.code not in ok and r.err:
            errors.append(f"{question}: exit {r.code}: " + " / ".join(r.err.splitlines()))
        print(f"| {' | '.join(rows[-1])} |", flush=True)

    load, commit = os.getloadavg()[0], checkout()
    with tempfile.TemporaryDirectory() as folder:
        row("1. first `solve puzzles/k2.txt`", "15 s", first([CLI, "solve", k2]), 15)
        name, path = big30(folder)
        row(f"2. first `solve` of a published 30x30 ({name})", "15 s",
            first([CLI, "solve", path]), 15)
    if not args.quick:
        row("3. first `solve --limit 1` of the 30x100 open grid", "45 s",
            first([CLI, "solve", "--limit", "1", grid]), 45)
        row("3. first `check` of that grid (exit 3: several)", "45 s",
            first([CLI, "check", grid]), 45, ok=(3,))
    r = first([CLI, "solve", "--limit", "1", "--timeout", "5", grid])
    row("4. first `solve --limit 1 --timeout 5` of that grid (exit 0 or 124); processes left",
        "8 s; none", r, 8, ok=(0, 124), shown=f"{measured(r, ())}; {r.left or 'none'}",
        also=r.left == 0)
    if not args.quick:
        row("5. `compile` on an empty cache", "90 s", first([CLI, "compile"]), 90)
    numba = warm(3, [PYTHON, "-c", "import numba"])
    solve = warm(3, [CLI, "solve", k2])
    ratio = solve.seconds / numba.seconds if None not in (solve.seconds, numba.seconds) else None
    row("6. warm `solve puzzles/k2.txt` / bare `import numba` (median of 3)",
        "2x", solve, None if ratio is None else 2 * numba.seconds,
        shown=f"{measured(solve)} / {measured(numba)}"
              + ("" if ratio is None else f" = {ratio:.1f}x"))
    if not args.quick:
        row("7. warm `solve --limit 1` of the 30x100 grid (median of 3)", "5 s",
            warm(3, [CLI, "solve", "--limit", "1", grid]), 5)
    row("warm `kakuro-np --help` (median of 5)", None, warm(5, [CLI, "--help"]))
    row("warm `kakuro-np kc 18 4` (median of 5)", None, warm(5, [CLI, "kc", "18", "4"]))
    row("first `explain puzzles/k2.txt`", None, first([CLI, "explain", k2]))
    if args.make_test:
        row("`make test` in a fresh clone (install and suite)", "180 s", make_test(), 180)
    lines = [BEGIN, "", "## Start-up (`bench/startup.py`)", "",
             f"Run on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} at {commit}, "
             f"{os.cpu_count()} cores, load average {load:.2f} at the start. Each run a fresh "
             f"process; \"first\" on an empty numba cache of its own, \"warm\" on the "
             f"repository's after one warm-up run. Targets of issue 48; the open grid is "
             f"`bench/sets/open-30x100.txt`.", "",
             "| question | target | measured | |", "|---|---:|---:|---|"]
    lines += [f"| {' | '.join(r)} |" for r in rows]
    lines += [""] + [f"- {e}" for e in errors] + ([""] if errors else []) + [END]
    text = "\n".join(lines) + "\n"
    print("\n" + text)
    if not args.quick:
        write_section("startup.py", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
