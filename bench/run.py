"""The benchmark: kakuro_np against OR-Tools CP-SAT and the essay in plain numpy.

Run: ``make bench`` (or ``.venv/bin/python bench/run.py [--quick]``).

It rewrites ``bench/RESULTS.md`` and ``bench/scaling.png``, and keeps the raw
timings in ``bench/out/`` (not committed). It exits 1 if any solver disagrees
with another about a puzzle, after writing the report.

Glossary
--------
set     : a named list of puzzles (``bench/sets/NAME.jsonl``, made by make_sets.py,
          or the samples in ``puzzles/``).
solver  : ``ours`` (``kn.kakuro``, every solution), ``cpsat`` (CP-SAT, one worker,
          stopping at a second solution) or ``numpy`` (the essay in plain numpy,
          ``kakuro_np.essay``).
worker  : a fresh Python process that times one solver on one set and prints
          JSON; each solver runs alone, so peak memory is its own.
record  : one puzzle's result: name, blanks, seconds, solutions found.

The sections run in the order the data flows: load the sets, time them in
workers (ours, CP-SAT, numpy), check that the answers agree, then report.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

from checkouts import fresh_copy

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SETS_DIR = os.environ.get("KAKURO_BENCH_SETS", os.path.join(HERE, "sets"))
OUT_DIR = os.path.join(HERE, "out")

#: The sets in report order: (name, what it is, is it a uniqueness set).
SETS = [
    ("published", "published-style, 10x10 to 20x20, one solution each", True),
    ("big30", "30x30, one solution each", True),
    ("big40", "40x40, one solution each", True),
    ("many", "many solutions each (hundreds to hundreds of thousands)", False),
    ("long", "long runs of 8 and 9 cells, one solution each", True),
    ("samples", "the samples k0-k7 in puzzles/", None),
]
QUICK_N = 50                 # puzzles per set in --quick
#: The smaller sets the numpy reference runs on: set -> how many puzzles (None: all).
NUMPY_SETS = {"samples": None, "published": 100, "long": None, "many": None}
NUMPY_SETS_QUICK = {"samples": None, "published": 10, "long": 10, "many": 10}


# ---------------------------------------------------------------------------
# Loading the sets

def load_set(name, n=None):
    """[(name, Puzzle, expected solutions or None)] of one set, the first ``n`` only."""
    import kakuro_np as kn
    out = []
    if name == "samples":
        expected = json.load(open(os.path.join(ROOT, "puzzles", "expected.json")))
        for k in range(8):
            f = f"k{k}.txt"
            out.append((f"k{k}", kn.read(os.path.join(ROOT, "puzzles", f)),
                        expected[f]["solutions"]))
    else:
        with open(os.path.join(SETS_DIR, f"{name}.jsonl")) as f:
            for line in f:
                r = json.loads(line)
                out.append((r["name"], kn.parse(r["grid"], format="jboxed"), r["solutions"]))
    return out[:n] if n else out


def digits_of(sol, blank):
    """The digits of a solution's blanks in row-major order, as a string."""
    return "".join(map(str, np.asarray(sol)[np.asarray(blank)].tolist()))


def peak_mb():
    """This process's peak resident set so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ---------------------------------------------------------------------------
# Workers: each times one solver on one set, in a process of its own

def work_ours(puzzles, set_name, repeat=1):
    """Time ``kn.kakuro(p)`` (every solution, best of ``repeat``); on the many-solution
    set also ``kn.count(p)``."""
    import kakuro_np as kn
    kn.kakuro(kn.read(os.path.join(ROOT, "puzzles", "k3.txt")))     # compile or load the cache
    kn.count(kn.read(os.path.join(ROOT, "puzzles", "k3.txt")))
    base = peak_mb()
    recs = []
    for name, p, _ in puzzles:
        dt = float("inf")
        for _ in range(repeat):
            sols, fresh = None, fresh_copy(p)     # a new object: no model kept from the last try
            t = time.perf_counter()
            try:
                sols = kn.kakuro(fresh)
            except Exception as e:                   # reported as a mismatch, not a crash
                sols, error = [], f"{type(e).__name__}: {e}"
            else:
                error = None
            dt = min(dt, time.perf_counter() - t)
        rec = {"name": name, "blanks": int(p.blank.sum()), "t": dt, "n": len(sols)}
        if error:
            rec["error"] = error
        if len(sols) == 1:
            rec["digits"] = digits_of(sols[0], p.blank)
        del sols
        rec["forced"] = kn.reduce(p).status == "solved"              # not timed
        if set_name == "many":
            fresh = fresh_copy(p)
            t = time.perf_counter()
            rec["count"] = kn.count(fresh)
            rec["t_count"] = time.perf_counter() - t
        recs.append(rec)
    return {"records": recs, "peak_mb": peak_mb(), "base_mb": base}


def cpsat_solve(cells, sums, blank_cells, stop_after=2, time_cap=None):
    """Build the standard model and enumerate up to ``stop_after`` solutions.

    Returns ``(seconds, solutions found, search complete, first solution digits,
    CP-SAT's own wall time for the solve alone)``.
    The time covers building the model and solving, not finding the runs.
    """
    from ortools.sat.python import cp_model

    class Stop(cp_model.CpSolverSolutionCallback):
        """Count solutions, keep the first, stop at ``stop_after``."""

        def __init__(self, xs):
            super().__init__()
            self.xs, self.n, self.first = xs, 0, None

        def on_solution_callback(self):
            self.n += 1
            if self.first is None:
                self.first = "".join(str(self.value(x)) for x in self.xs)
            if stop_after and self.n >= stop_after:
                self.stop_search()

    t = time.perf_counter()
    model = cp_model.CpModel()
    x = {c: model.new_int_var(1, 9, f"x{c}") for c in blank_cells}
    for k, s in zip(cells, sums):
        if s == 0:                                   # a lone unclued cell: any digit
            continue
        run = [x[c] for c in k.tolist()]
        model.add_all_different(run)
        model.add(sum(run) == int(s))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.enumerate_all_solutions = True
    if time_cap:
        solver.parameters.max_time_in_seconds = time_cap
    cb = Stop([x[c] for c in blank_cells])
    status = solver.solve(model, cb)
    dt = time.perf_counter() - t
    complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) or bool(stop_after and cb.n >= stop_after)
    return dt, cb.n, complete, cb.first, solver.wall_time


def work_cpsat(puzzles, set_name, enum_cap, repeat=1):
    """Time CP-SAT to a second solution (best of ``repeat``); on the many-solution set
    also enumerate every solution (capped)."""
    from kakuro_np import essay
    warm = puzzles[0][1]
    cells, sums = essay.entries(warm)
    cpsat_solve(cells, sums, np.flatnonzero(warm.blank.ravel()).tolist())
    recs = []
    for name, p, _ in puzzles:
        cells, sums = essay.entries(p)                              # parsing: not timed
        blank_cells = np.flatnonzero(p.blank.ravel()).tolist()
        runs = [cpsat_solve(cells, sums, blank_cells) for _ in range(repeat)]
        best = min(runs, key=lambda r: r[0])
        dt, t_solve = best[0], best[4]
        _, n, complete, first, _ = runs[0]
        rec = {"name": name, "blanks": len(blank_cells), "t": dt, "n": n, "complete": complete,
               "t_solve": t_solve}
        if n == 1:
            rec["digits"] = first
        if set_name == "many" and enum_cap:
            dt, n, complete, _, _ = cpsat_solve(cells, sums, blank_cells, stop_after=None,
                                             time_cap=enum_cap)
            rec.update(t_all=dt, n_all=n, complete_all=complete)
        recs.append(rec)
    import ortools
    return {"records": recs, "peak_mb": peak_mb(), "version": ortools.__version__}


def work_numpy(puzzles, set_name, cap):
    """Time the essay in plain numpy, giving up on a puzzle after ``cap`` seconds."""
    from kakuro_np import essay
    essay.kakuro(puzzles[0][1])
    recs = []
    for name, p, _ in puzzles:
        t = time.perf_counter()
        try:
            n = len(essay.kakuro(p, deadline=t + cap))
            skipped = False
        except essay.Timeout:
            n, skipped = None, True
        dt = time.perf_counter() - t
        recs.append({"name": name, "blanks": int(p.blank.sum()), "t": dt, "n": n,
                     "skipped": skipped})
    return {"records": recs, "peak_mb": peak_mb()}


def run_worker(args):
    """Entry point of a worker process: print one JSON object."""
    puzzles = load_set(args.set, args.n)
    if args.worker == "ours":
        out = work_ours(puzzles, args.set, args.repeat)
    elif args.worker == "cpsat":
        out = work_cpsat(puzzles, args.set, args.enum_cap, args.repeat)
    else:
        out = work_numpy(puzzles, args.set, args.cap)
    print(json.dumps(out))


def spawn(worker, set_name, n, **opts):
    """Run a worker in a fresh process and return what it printed."""
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", worker, "--set", set_name]
    if n:
        cmd += ["--n", str(n)]
    for k, v in opts.items():
        cmd += [f"--{k.replace('_', '-')}", str(v)]
    t = time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if res.returncode != 0:
        sys.stderr.write(res.stderr)
        raise SystemExit(f"worker {worker} on {set_name} failed")
    out = json.loads(res.stdout.strip().splitlines()[-1])
    out["wall"] = time.perf_counter() - t
    return out


# ---------------------------------------------------------------------------
# Cold start and the machine

#: Fresh processes timed with a warm cache after the first one; the report gives their median.
WARM_RUNS = 3


def cold_start():
    """Seconds for ``kakuro-np solve puzzles/k3.txt`` as a fresh process.

    Returns ``[empty cache, median of WARM_RUNS with the warm cache, whether a warm run
    wrote to the cache]``.
    """
    exe = os.path.join(os.path.dirname(sys.executable), "kakuro-np")
    if not os.path.exists(exe):
        exe = shutil.which("kakuro-np")
    cache = tempfile.mkdtemp(prefix="kakuro-numba-cache-")
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    times, files = [], []
    try:
        for _ in range(1 + WARM_RUNS):
            t = time.perf_counter()
            res = subprocess.run([exe, "solve", "puzzles/k3.txt"], cwd=ROOT, env=env,
                                 capture_output=True, text=True)
            times.append(time.perf_counter() - t)
            if res.returncode != 0:
                sys.stderr.write(res.stderr)
                raise SystemExit("kakuro-np solve puzzles/k3.txt failed")
            files.append(sorted((os.path.join(d, f), os.path.getmtime(os.path.join(d, f)))
                                for d, _, fs in os.walk(cache) for f in fs))
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    wrote = any(f != files[0] for f in files[1:])  # did a warm run write to the cache?
    return [times[0], float(np.median(times[1:])), wrote]


def machine():
    """A few lines about this machine and the versions in use."""
    import numba
    try:
        import ortools
        ortools_version = ortools.__version__
    except ImportError:
        ortools_version = "not installed"
    cpu = "unknown"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    except (ValueError, OSError):
        mem = float("nan")
    load = os.getloadavg()
    return {
        "cpu": cpu, "cores": os.cpu_count(), "memory_gib": mem,
        "load": " ".join(f"{x:.2f}" for x in load),
        "python": platform.python_version(), "numpy": np.__version__,
        "numba": numba.__version__, "ortools": ortools_version,
        "platform": platform.platform(),
    }


# ---------------------------------------------------------------------------
# Checking the answers

def check(set_name, unique, ours, cpsat, expected, numpy_recs):
    """Every disagreement between the solvers (and the recorded counts), as lines of text."""
    bad = []
    cp = {r["name"]: r for r in cpsat}
    for r in ours:
        c = cp[r["name"]]
        want = expected.get(r["name"])
        if r.get("error"):
            bad.append(f"{set_name}/{r['name']}: ours raised {r['error']}")
        if not c["complete"]:
            bad.append(f"{set_name}/{r['name']}: CP-SAT did not finish")
        if min(r["n"], 2) != min(c["n"], 2):
            bad.append(f"{set_name}/{r['name']}: ours found {r['n']} solutions, "
                       f"CP-SAT {c['n']}{' or more' if c['n'] >= 2 else ''}")
        elif r["n"] == 1 and r.get("digits") != c.get("digits"):
            bad.append(f"{set_name}/{r['name']}: ours and CP-SAT found different solutions")
        if want is not None and r["n"] != want:
            bad.append(f"{set_name}/{r['name']}: ours found {r['n']} solutions, "
                       f"the set says {want}")
        if unique and r["n"] != 1:
            bad.append(f"{set_name}/{r['name']}: a uniqueness set, but ours found {r['n']}")
        if "count" in r and r["count"] != r["n"]:
            bad.append(f"{set_name}/{r['name']}: count() says {r['count']}, kakuro() found {r['n']}")
        if c.get("complete_all") and c["n_all"] != r["n"]:
            bad.append(f"{set_name}/{r['name']}: ours found {r['n']} solutions, "
                       f"CP-SAT enumerated {c['n_all']}")
    by_name = {r["name"]: r for r in ours}
    for r in numpy_recs or []:
        if not r["skipped"] and r["n"] != by_name[r["name"]]["n"]:
            bad.append(f"{set_name}/{r['name']}: numpy reference found {r['n']}, "
                       f"ours {by_name[r['name']]['n']}")
    return bad


# ---------------------------------------------------------------------------
# Reporting

def ms(t):
    """Seconds as a short string in ms or s."""
    return f"{t * 1e3:.2f} ms" if t < 1 else f"{t:.2f} s"


def norvig(recs, solved):
    """'Solved N of N puzzles (avg .., Hz, max ..)'."""
    ts = np.array([r["t"] for r in recs])
    if not len(ts):
        return "Solved 0 of 0 puzzles"
    return (f"Solved {solved} of {len(recs)} puzzles (avg {ms(ts.mean())}, "
            f"{1 / ts.mean():.0f} Hz, max {ms(ts.max())})")


def stats(recs, key="t"):
    """(total, median, max) of one timing over records."""
    ts = np.array([r[key] for r in recs]) if recs else np.zeros(1)
    return ts.sum(), float(np.median(ts)), ts.max()


def plot(results, path):
    """Time against blank cells, log y, for every solver and set."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    fig, ax = plt.subplots(figsize=(10, 5.5), dpi=110)
    style = {"ours": ("tab:blue", "kakuro_np, every solution"),
             "cpsat": ("tab:orange", "CP-SAT, 1 worker, to a 2nd solution"),
             "numpy": ("0.5", "the essay in plain numpy")}
    markers = {"published": "o", "big30": "s", "big40": "P", "many": "^", "long": "D",
               "samples": "*"}
    for solver, (color, label) in style.items():
        for set_name, res in results.items():
            recs = [r for r in res.get(solver, {}).get("records", []) if not r.get("skipped")]
            if recs:
                ax.scatter([r["blanks"] for r in recs], [r["t"] * 1e3 for r in recs], s=18,
                           color=color, marker=markers.get(set_name, "o"), alpha=0.55,
                           linewidths=0)
    handles = [Line2D([], [], ls="", marker="o", color=c, label=l) for c, l in style.values()]
    handles += [Line2D([], [], ls="", marker=m, color="k", label=f"set {s}")
                for s, m in markers.items() if s in results]
    ax.set_yscale("log")
    ax.set_xlabel("blank cells")
    ax.set_ylabel("time per puzzle (ms, log scale)")
    ax.set_title("Kakuro: time against puzzle size")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(handles=handles, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def kept_sections(path) -> str:
    """The sections other scripts wrote into RESULTS.md (``<!-- begin X -->`` to ``<!-- end X -->``)."""
    if not os.path.exists(path):
        return ""
    text = open(path).read()
    return "".join("\n<!-- begin " + part.split("<!-- end ", 1)[0] + "<!-- end "
                   + part.split("<!-- end ", 1)[1].split("-->", 1)[0] + "-->\n"
                   for part in text.split("<!-- begin ")[1:] if "<!-- end " in part)


def report(results, info, cold, bad, args, elapsed):
    """The text of RESULTS.md."""
    L = []
    mode = "quick" if args.quick else "full"
    L.append("# Benchmark results\n")
    L.append(f"Rewritten by `make bench` ({mode} run, `bench/run.py{' --quick' if args.quick else ''}`) "
             f"on {time.strftime('%Y-%m-%d %H:%M %Z')}; the whole run took {elapsed:.0f} s.\n")
    L.append(f"**Machine**: {info['cpu']}, {info['cores']} cores, {info['memory_gib']:.0f} GiB; "
             f"load average at start {info['load']}. Python {info['python']}, numpy {info['numpy']}, "
             f"numba {info['numba']}, ortools {info['ortools']} ({info['platform']}).\n")
    L.append("Each solver runs alone in a fresh process per set, after a warm-up call (numba's "
             "compiled code comes from its cache). Times are wall-clock (`time.perf_counter`) per "
             f"puzzle, the best of {args.repeat} for ours and CP-SAT alike (one on the "
             "many-solution set): ours is `kn.kakuro(p)`, every solution; CP-SAT is building the model (an "
             "IntVar 1..9 per blank, AddAllDifferent and a linear sum per run) and solving it with "
             "one worker, enumerating until a second solution is found or none is left (the same "
             "uniqueness proof). Parsing is not timed for either. The machine may be shared, so "
             "small differences are noise.\n")

    # targets
    def line(ok, text):
        return f"- **{'PASS' if ok else 'FAIL'}** {text}"
    L.append("## Targets\n")
    tgt = []
    for set_name, want, what in (("published", 50, "published-style set"),
                                 ("big30", 20, "30x30 set"), ("big40", 20, "40x40 set")):
        res = results.get(set_name)
        if not res:
            continue
        to, tc = stats(res["ours"]["records"])[0], stats(res["cpsat"]["records"])[0]
        tgt.append(line(tc / to >= want, f"{what}: ours is {tc / to:.1f}x faster than CP-SAT "
                                         f"in total (target >= {want}x)"))
        if set_name == "published":
            ratios = [(c["t"] / o["t"], o["name"]) for o, c in
                      zip(res["ours"]["records"], res["cpsat"]["records"])]
            worst = min(ratios)
            slower = sum(r < 1 for r, _ in ratios)
            tgt.append(line(slower == 0, f"{what}: {slower} puzzles slower than CP-SAT; "
                                         f"worst per-puzzle ratio {worst[0]:.1f}x ({worst[1]})"))
    if cold:
        tgt.append(line(cold[1] <= 1.0, f"warm-cache start: `kakuro-np solve puzzles/k3.txt` "
                                        f"in a fresh process took {cold[1]:.2f} s (median of {WARM_RUNS}; "
                                        f"target <= 1.0 s)"))
        tgt.append(line(cold[0] <= 30, f"first-ever run (empty numba cache) took {cold[0]:.1f} s "
                                       f"(target <= 30 s)"))
    peaks = {s: r["ours"]["peak_mb"] for s, r in results.items()}
    if peaks:
        top = max(peaks, key=peaks.get)
        tgt.append(line(peaks[top] < 300, f"peak memory of our solver below 300 MB on every set "
                                          f"(highest {peaks[top]:.0f} MB, on {top})"))
    L += tgt + [""]

    # correctness
    L.append("## Correctness\n")
    n_all = sum(len(r["ours"]["records"]) for r in results.values())
    if bad:
        L.append(f"**MISMATCH: {len(bad)} disagreements** between the solvers:\n")
        L += [f"- {b}" for b in bad[:50]]
        if len(bad) > 50:
            L.append(f"- ... and {len(bad) - 50} more (see bench/out/results.json)")
        L.append("")
    else:
        L.append(f"All {n_all} puzzles agree: our solution count equals CP-SAT's (1, or 2 and "
                 "more), a unique puzzle's solution is the same digit for digit, the counts "
                 "match the ones recorded in the sets, and the numpy reference finds as many "
                 "solutions wherever it finished.\n")

    # per-set table
    L.append("## Summary\n")
    L.append("| set | puzzles | blanks | ours total | median | max | CP-SAT total | median | max "
             "| CP-SAT / ours (total) | worst puzzle | ours peak RSS |")
    L.append("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for set_name, res in results.items():
        o, c = res["ours"]["records"], res["cpsat"]["records"]
        to, mo, xo = stats(o)
        tc, mc, xc = stats(c)
        b = [r["blanks"] for r in o]
        worst = min(cr["t"] / orr["t"] for orr, cr in zip(o, c))
        star = " †" if set_name == "many" else ""
        L.append(f"| {set_name} | {len(o)} | {min(b)}-{max(b)} | {ms(to)} | {ms(mo)} | {ms(xo)} "
                 f"| {ms(tc)}{star} | {ms(mc)} | {ms(xc)} | {tc / to:.1f}x{star} | {worst:.2f}x "
                 f"| {res['ours']['peak_mb']:.0f} MB |")
    if "many" in results:
        L.append("\n† On the many-solution set ours finds every solution while CP-SAT stops at "
                 "the second, so that ratio compares different work; see the set's section for "
                 "CP-SAT enumerating them all.")
    L.append("\n*worst puzzle*: the smallest per-puzzle ratio CP-SAT time / our time "
             "(below 1 means CP-SAT was faster on that puzzle). *Peak RSS*: the worker's peak "
             "resident set (`getrusage`), including Python, numpy and numba themselves; "
             f"after import and warm-up it was already about "
             f"{np.median([r['ours']['base_mb'] for r in results.values()]):.0f} MB.\n")

    # per-set prose
    for set_name, what, unique in SETS:
        res = results.get(set_name)
        if not res:
            continue
        o, c = res["ours"]["records"], res["cpsat"]["records"]
        L.append(f"## {set_name}: {what}\n")
        expected = res["expected"]
        rl = np.array(res["run_lengths"])
        L.append(f"- {rl.sum()} runs in all, {rl[8] + rl[9]} of them 8 or 9 cells long "
                 f"({rl[8]} of 8, {rl[9]} of 9), the longest {int(np.flatnonzero(rl).max())}")
        ok_o = sum(expected.get(r["name"]) in (None, r["n"]) and (not unique or r["n"] == 1)
                   for r in o)
        ok_c = sum(r["complete"] for r in c)
        to, tc = stats(o)[0], stats(c)[0]
        L.append(f"- ours:   {norvig(o, ok_o)}")
        L.append(f"- CP-SAT: {norvig(c, ok_c)}")
        worst = min((cr["t"] / orr["t"], orr["name"]) for orr, cr in zip(o, c))
        L.append(f"- CP-SAT / ours: {tc / to:.1f}x in total, median per puzzle "
                 f"{np.median([cr['t'] / orr['t'] for orr, cr in zip(o, c)]):.1f}x, "
                 f"worst {worst[0]:.2f}x ({worst[1]})")
        L.append(f"- CP-SAT's own solve time (`solver.wall_time`) is {stats(c, 't_solve')[0] / tc:.0%} "
                 "of its total; the rest is building the model in Python")
        if unique:
            forced = sum(r.get("forced", False) for r in o)
            L.append(f"- forced moves alone (`kn.reduce`) solve {forced} of {len(o)} puzzles; "
                     "the rest need the fan-out search")
        L.append(f"- ours, peak resident memory: {res['ours']['peak_mb']:.0f} MB")
        if set_name == "many":
            ns = [r["n"] for r in o]
            tk, tcnt = stats(o)[0], stats(o, "t_count")[0]
            L.append(f"- solutions per puzzle: {min(ns)} to {max(ns)} (median "
                     f"{int(np.median(ns))}), {sum(ns)} in all; ours materialised them at "
                     f"{sum(ns) / tk:,.0f} solutions/s")
            L.append(f"- `count(p)` against materialising with `kakuro(p)`: {ms(tcnt)} against "
                     f"{ms(tk)} in total, so counting is {tk / tcnt:.1f}x faster")
            done = [r for r in c if r.get("complete_all")]
            if any("t_all" in r for r in c):
                cap = args.enum_cap
                t_ours = sum(r["t"] for r in o if any(d["name"] == r["name"] for d in done))
                t_cp = sum(r["t_all"] for r in done)
                L.append(f"- CP-SAT enumerating every solution (capped at {cap:g} s a puzzle) "
                         f"finished {len(done)} of {len(c)} puzzles"
                         + (f"; on those it took {ms(t_cp)} against our {ms(t_ours)} "
                            f"({t_cp / t_ours:.0f}x), with the same counts"
                            if done and t_ours > 0 else "")
                         + ". CP-SAT's time in the table above is only to a second solution.")
        if "numpy" in res:
            recs = res["numpy"]["records"]
            fin = [r for r in recs if not r["skipped"]]
            skipped = [r["name"] for r in recs if r["skipped"]]
            L.append(f"- essay in plain numpy (first {len(recs)} puzzles, capped at "
                     f"{args.cap:g} s each): {norvig(fin, len(fin))}"
                     + (f"; skipped {len(skipped)} over the cap: {', '.join(skipped)}"
                        if skipped else "; none skipped"))
            if fin:
                by = {r["name"]: r for r in o}
                tn = sum(r["t"] for r in fin)
                tou = sum(by[r["name"]]["t"] for r in fin)
                L.append(f"- what numba buys: on the {len(fin)} puzzles the numpy reference "
                         f"finished, it took {ms(tn)} against our {ms(tou)}, "
                         f"{tn / tou:.0f}x slower (numba and the engine's narrowing and work "
                         f"queue together: the reference is the essay's algorithm as written)")
        L.append("")

    if cold:
        L.append("## Cold start\n")
        L.append(f"`kakuro-np solve puzzles/k3.txt` (all 40 solutions printed) as a fresh "
                 f"process, with `NUMBA_CACHE_DIR` set to a new empty folder: {cold[0]:.2f} s "
                 f"the first time (numba compiles every kernel and fills the cache), "
                 f"{cold[1]:.2f} s with the same folder afterwards (warm cache; the median of "
                 f"{WARM_RUNS} fresh processes).\n")
        if cold[2]:
            L.append("Note: a warm run wrote to the cache again, so it compiled something "
                     "(were the sources changed between the two runs?).\n")
    L.append("## Scaling\n")
    L.append("![time against blank cells](scaling.png)\n")
    L.append("How the sets are made: see the docstring of `bench/make_sets.py`. Raw timings "
             "of this run: `bench/out/results.json` (not committed).\n")
    return "\n".join(L)


# ---------------------------------------------------------------------------
# The run

def main(argv=None):
    ap = argparse.ArgumentParser(description="Benchmark kakuro_np against CP-SAT and numpy.")
    ap.add_argument("--quick", action="store_true", help=f"at most {QUICK_N} puzzles per set")
    ap.add_argument("--sets", default=",".join(s for s, *_ in SETS),
                    help="comma-separated sets to run")
    ap.add_argument("--cap", type=float, default=5.0,
                    help="seconds per puzzle before the numpy reference gives up")
    ap.add_argument("--enum-cap", type=float, default=None,
                    help="seconds per puzzle for CP-SAT enumerating every solution "
                         "on the many-solution set (default 10, quick 2; 0 = skip)")
    ap.add_argument("--repeat", type=int, default=None,
                    help="time ours and CP-SAT this many times per puzzle and keep the best "
                         "(default 3, quick 1; always 1 on the many-solution set)")
    ap.add_argument("--no-numpy", action="store_true", help="skip the numpy reference")
    ap.add_argument("--no-cold", action="store_true", help="skip the cold-start runs")
    ap.add_argument("--output", default=HERE, help="where RESULTS.md and scaling.png go")
    ap.add_argument("--worker", choices=["ours", "cpsat", "numpy"], help=argparse.SUPPRESS)
    ap.add_argument("--set", help=argparse.SUPPRESS)
    ap.add_argument("--n", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.enum_cap is None:
        args.enum_cap = 2.0 if args.quick else 10.0
    if args.repeat is None:
        args.repeat = 1 if args.quick else 3
    if args.worker:
        return run_worker(args)

    start = time.perf_counter()
    os.makedirs(OUT_DIR, exist_ok=True)
    os.makedirs(args.output, exist_ok=True)
    info = machine()
    say = lambda *a: print(*a, flush=True)                                # noqa: E731
    say(f"Machine: {info['cpu']}, {info['cores']} cores; load {info['load']}")
    cold = None
    if not args.no_cold:
        cold = cold_start()
        say(f"Cold start: kakuro-np solve puzzles/k3.txt in {cold[0]:.2f} s with an empty "
            f"numba cache, {cold[1]:.2f} s warm")
    wanted = [s.strip() for s in args.sets.split(",") if s.strip()]
    numpy_sets = NUMPY_SETS_QUICK if args.quick else NUMPY_SETS
    results, bad = {}, []
    for set_name, what, unique in SETS:
        if set_name not in wanted:
            continue
        n = QUICK_N if args.quick else None
        if set_name != "samples" and not os.path.exists(os.path.join(SETS_DIR, f"{set_name}.jsonl")):
            say(f"{set_name}: no bench/sets/{set_name}.jsonl (run bench/make_sets.py); skipped")
            continue
        from kakuro_np import essay
        loaded = load_set(set_name, n)
        expected = {name: e for name, _, e in loaded}
        lengths = np.bincount([len(c) for _, p, _ in loaded
                               for c, s in zip(*essay.entries(p)) if s],
                              minlength=10)
        res = {"expected": expected, "run_lengths": lengths.tolist()}
        rep = 1 if set_name == "many" else args.repeat
        res["ours"] = spawn("ours", set_name, n, repeat=rep)
        ok = sum(expected.get(r["name"]) in (None, r["n"]) for r in res["ours"]["records"])
        say(f"{set_name} ({what})\n  ours:   {norvig(res['ours']['records'], ok)}; "
            f"peak {res['ours']['peak_mb']:.0f} MB")
        res["cpsat"] = spawn("cpsat", set_name, n, repeat=rep,
                             enum_cap=args.enum_cap if set_name == "many" else 0)
        cdone = sum(r["complete"] for r in res["cpsat"]["records"])
        to, tc = stats(res["ours"]["records"])[0], stats(res["cpsat"]["records"])[0]
        say(f"  CP-SAT: {norvig(res['cpsat']['records'], cdone)}; CP-SAT / ours = "
            f"{tc / to:.1f}x in total")
        if set_name in numpy_sets and not args.no_numpy:
            k = numpy_sets[set_name]
            k = min(k, n) if k and n else (k or n)
            res["numpy"] = spawn("numpy", set_name, k, cap=args.cap)
            fin = [r for r in res["numpy"]["records"] if not r["skipped"]]
            say(f"  numpy:  {norvig(fin, len(fin))} of the first "
                f"{len(res['numpy']['records'])}, {len(res['numpy']['records']) - len(fin)} "
                f"skipped over {args.cap:g} s")
        new_bad = check(set_name, unique, res["ours"]["records"], res["cpsat"]["records"],
                        expected, res.get("numpy", {}).get("records"))
        for b in new_bad:
            say(f"  MISMATCH {b}")
        bad += new_bad
        results[set_name] = res
    elapsed = time.perf_counter() - start
    with open(os.path.join(OUT_DIR, "results.json"), "w") as f:
        json.dump({"machine": info, "cold": cold, "results": results, "mismatches": bad}, f)
    if results:
        plot(results, os.path.join(args.output, "scaling.png"))
    path = os.path.join(args.output, "RESULTS.md")
    kept = kept_sections(path)
    with open(path, "w") as f:
        f.write(report(results, info, cold, bad, args, elapsed) + kept)
    say(f"Wrote {os.path.relpath(os.path.join(args.output, 'RESULTS.md'))} and scaling.png "
        f"in {elapsed:.0f} s")
    if bad:
        say(f"MISMATCH: {len(bad)} disagreements between the solvers (see RESULTS.md)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
