"""How fast the command line starts: first run on an empty cache, warm runs, --help and kc.

Each run is a fresh process (``.venv/bin/kakuro-np``), timed wall-clock. The empty
cache is a fresh ``NUMBA_CACHE_DIR`` (the repository's own cache is left alone);
warm runs use the repository's cache. With ``--make-test`` it also clones the
repository into a temporary folder and times ``make test`` there (the install and
the suite, as CI runs it). Writes a section of ``bench/RESULTS.md``.

Run: ``make bench-startup`` (or ``.venv/bin/python bench/startup.py [--make-test]``).
Targets (issue 11): first run within 10 s, warm ``solve`` within 0.5 s, ``make test``
from a fresh clone within 3 minutes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from sections import markers, write_section

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CLI = os.path.join(ROOT, ".venv", "bin", "kakuro-np")
BEGIN, END = markers("startup.py")
TARGETS = {"first": 10.0, "warm": 0.5, "make_test": 180.0}


def timed(args, env=None, cwd=ROOT) -> float:
    """Wall-clock seconds of one run of ``args`` (which must succeed)."""
    t = time.perf_counter()
    subprocess.run(args, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def median_of(n, args) -> float:
    return statistics.median(timed(args) for _ in range(n))


def first_run(command) -> float:
    """``command`` on an empty numba cache (a fresh NUMBA_CACHE_DIR)."""
    with tempfile.TemporaryDirectory() as cache:
        return timed(command, env=dict(os.environ, NUMBA_CACHE_DIR=cache))


def make_test() -> float:
    """``make test`` in a fresh clone, with ../shared beside it as CI has it."""
    with tempfile.TemporaryDirectory() as top:
        subprocess.run(["git", "clone", "-q", ROOT, os.path.join(top, "main")], check=True)
        shared = os.path.join(os.path.dirname(ROOT), "shared")
        if os.path.isdir(shared):
            os.symlink(shared, os.path.join(top, "shared"))
        return timed(["make", "test"], cwd=os.path.join(top, "main"))


def verdict(name, seconds) -> str:
    return "PASS" if seconds <= TARGETS[name] else "FAIL"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--make-test", action="store_true", help="also time make test in a fresh clone")
    args = ap.parse_args()
    k2 = os.path.join("puzzles", "k2.txt")
    solve = [CLI, "solve", k2]
    timed(solve)                                        # the repository's cache, warm
    first = first_run(solve)
    warm = median_of(5, solve)
    help_ = median_of(5, [CLI, "--help"])
    kc = median_of(5, [CLI, "kc", "18", "4"])
    explain_first = first_run([CLI, "explain", k2])
    lines = [BEGIN, "", "## Start-up (`bench/startup.py`)", "",
             f"Run on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; each a fresh "
             f"process; warm times are the median of 5.", "",
             f"- **{verdict('first', first)}** first `kakuro-np solve puzzles/k2.txt` on an empty "
             f"cache: {first:.1f} s (target <= {TARGETS['first']:.0f} s)",
             f"- **{verdict('warm', warm)}** warm `kakuro-np solve puzzles/k2.txt`: "
             f"{warm * 1000:.0f} ms (target <= {TARGETS['warm']} s)",
             f"- `kakuro-np --help`: {help_ * 1000:.0f} ms; `kakuro-np kc 18 4`: {kc * 1000:.0f} ms "
             f"(neither imports numba)",
             f"- first `kakuro-np explain puzzles/k2.txt` on an empty cache: {explain_first:.1f} s"]
    if args.make_test:
        seconds = make_test()
        lines.append(f"- **{verdict('make_test', seconds)}** `make test` in a fresh clone "
                     f"(install and suite): {seconds:.0f} s (target <= {TARGETS['make_test']:.0f} s)")
    lines += ["", END]
    text = "\n".join(lines) + "\n"
    print(text)
    write_section("startup.py", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
