"""The command line: in this process through ``cli.main`` (``run``), and as a program where
its process matters (``run_process``: the README's examples, Ctrl-C, stdin)."""

import contextlib
import io
import json
import os
import pathlib
import re
import shlex
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import kakuro_np as kn
from kakuro_np import cli
from conftest import PUZZLES, ROOT
from strategies import FOUR_BLOCKS, OPEN_BLOCK, THRASHING_DRAFT

CLI = [sys.executable, "-m", "kakuro_np"]


def run(*args, stdin=None, cwd=ROOT):
    """The command line in this process (``cli.main``, as the program runs it but for the
    exit): a CompletedProcess with its exit status and what it wrote. A process costs
    0.5 s of start-up per call (numba's import and the kernels' load), most of this
    file's time; ``run_process`` runs the program itself where that matters."""
    argv = [str(a) for a in args]
    out, err = io.StringIO(), io.StringIO()
    before = os.getcwd(), sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO((stdin or "").encode()))
    try:
        os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(argv)
            except SystemExit as e:                 # argparse: --help, usage errors
                code = e.code if isinstance(e.code, int) else int(e.code is not None)
                if isinstance(e.code, str):         # as the interpreter does
                    print(e.code, file=sys.stderr)
    finally:
        os.chdir(before[0])
        sys.stdin = before[1]
    return subprocess.CompletedProcess(CLI + argv, code, out.getvalue(), err.getvalue())


def run_process(*args, stdin=None, cwd=ROOT):
    """The command line as a program, in a process of its own."""
    return subprocess.run(CLI + [str(a) for a in args], capture_output=True, text=True,
                          input=stdin, cwd=cwd, timeout=300)


#: More command lines, in the README's form (``# → text shown; exit N``): those the README
#: has no room for.
MORE_EXAMPLES = """
kakuro-np solve --any --limit 2 puzzles/k3.txt        # any two, found fast; → solution 2 of 2
kakuro-np solve --to comma puzzles/k0.txt             # → ,10 3 1 4 2
kakuro-np solve --limit 2 --to jboxed puzzles/k3.txt  # two grids, a --- line between; → # solution 2 of 2
kakuro-np solve --svg /tmp/k2.svg puzzles/k2.txt      # also draw the solution
kakuro-np reduce puzzles/k3.txt                       # → status: stuck
kakuro-np check puzzles/k2.txt                        # → k2: unique
kakuro-np render puzzles/k3.txt --svg /tmp/k3.svg --candidates  # pencil marks as SVG
kakuro-np explain puzzles/k2.txt                      # numbered steps; → status: solved
kakuro-np hint puzzles/k2.txt                         # → unique combination: The across 16 at (1, 0)
kakuro-np stats puzzles/k2.txt                        # → U1 = 9^48
kakuro-np kc 7                                        # → 7 in 3: 124
kakuro-np check puzzles                               # → puzzles: is a directory; exit 2
kakuro-np solve --count --svg /tmp/k0.svg puzzles/k0.txt  # the count, and the solution drawn
kakuro-np reduce puzzles/k0.txt puzzles/k3.txt        # → == k3
kakuro-np kc 46                                       # → must be 1 to 45: 46; exit 2
kakuro-np --version                                   # → kakuro-np 0.1.0
kakuro-np check --json puzzles/k2.txt puzzles/k3.txt # a JSON object a file; → "verdict": "multiple"; exit 3
kakuro-np generate 10 10 --seed 7                     # a new puzzle with one solution, boxed (> file: pipe text)
kakuro-np generate 12 12 --seed 1 --count 3 --out /tmp/new --svg /tmp/new  # files, solutions, pictures
kakuro-np generate --layout puzzles/k7.txt --seed 1   # new digits on k7's pattern, one solution
"""


def examples_of(block: str) -> list:
    """``(command, expected_exit, expected_text)`` for each line of ``block``."""
    out = []
    for line in block.strip().splitlines():
        command, _, comment = line.partition("#")
        code = re.search(r"exit (\d+)", comment)
        shown = re.search(r"→ (.*?)(?:; exit \d+)?$", comment.strip())
        out.append((command.strip(), int(code.group(1)) if code else 0,
                    shown.group(1) if shown else None))
    return out


def readme_examples():
    """``(command, expected_exit, expected_text)`` for each CLI line of the README, and of
    MORE_EXAMPLES."""
    text = (ROOT / "README.md").read_text()
    block = text.split("## The command line", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    return examples_of(block) + examples_of(MORE_EXAMPLES)


@pytest.mark.parametrize("command, code, shown", readme_examples())
def test_readme_example(command, code, shown, tmp_path):
    argv = shlex.split(command.replace("/tmp/", f"{tmp_path}/"))
    assert argv[0] == "kakuro-np"
    import glob
    args = [a for arg in argv[1:] for a in (sorted(glob.glob(str(ROOT / arg)))
                                             if "*" in arg else [arg])]
    out = run_process(*args)
    assert out.returncode == code, out.stderr
    if shown:
        assert shown in out.stdout + out.stderr
    if code == 2:
        assert len(out.stderr.strip().splitlines()) == 1
    for arg in args:
        if arg.endswith(".svg"):
            ET.parse(arg)


def test_every_subcommand_has_help():
    for sub in ["solve", "reduce", "check", "convert", "render", "kc", "explain", "hint", "grade",
                "stats"]:
        out = run(sub, "--help")
        assert out.returncode == 0 and "usage: kakuro-np " + sub in out.stdout


def test_several_files_print_one_section_each():
    out = run("solve", PUZZLES / "k0.txt", PUZZLES / "k2.txt")
    assert out.returncode == 0
    assert "== k0: 1 solution" in out.stdout and "== k2: 1 solution" in out.stdout


def test_limit_and_stdin():
    out = run("solve", "--limit", "2", "-", stdin=(PUZZLES / "k3.txt").read_text())
    assert out.returncode == 0
    assert out.stdout.count("┌") == 2


def test_solutions_in_another_format_read_back_as_givens():
    out = run("solve", "--to", "backslash", PUZZLES / "k2.txt")
    solved = kn.parse(out.stdout)
    assert (solved.given == kn.kakuro(PUZZLES / "k2.txt")[0]).all()


def test_check_exit_codes(tmp_path):
    none = tmp_path / "none.txt"
    none.write_text("x ; 3 0 ; 4 0\n0 2 ; _ ; _\n")
    out = run("check", PUZZLES / "k2.txt", none)
    assert out.returncode == 4 and out.stdout.splitlines() == [
        "k2: unique",
        "none: none (the across 2 at (1, 0) over 2 cells: no 2 different digits add up to 2 "
        "(2 cells make 3 to 17))"]
    out = run("check", "--limit", "5", PUZZLES / "k3.txt")
    assert out.returncode == 3 and "multiple (at least 5 solutions; two differ at (9, 6)" in out.stdout


def test_convert_writes_a_file_atomically(tmp_path):
    target = tmp_path / "k3.json"
    out = run("convert", PUZZLES / "k3.txt", "--to", "json", "-o", target)
    assert out.returncode == 0 and out.stdout == ""
    assert kn.read(target) == kn.read(PUZZLES / "k3.txt")
    assert [p.name for p in tmp_path.iterdir()] == ["k3.json"]


def test_render_solution_svg(tmp_path):
    target = tmp_path / "k2.svg"
    assert run("render", PUZZLES / "k2.txt", "--svg", target, "--solution").returncode == 0
    texts = ET.parse(target).getroot().iter("{http://www.w3.org/2000/svg}text")
    p = kn.read(PUZZLES / "k2.txt")
    n_sums = int((p.down > 0).sum() + (p.across > 0).sum())
    assert len(list(texts)) == n_sums + int(p.blank.sum())


@pytest.mark.parametrize("content, words", [
    ("x ; 3 0\n0 3 ; q\n", ":2:7: unknown cell 'q'"),
    ("x ; 3 0 ; 4 0\n0 3 ; _\n", ":2:"),
    ("", "empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00junk", "not"),
    ("x ; 3 0\n0 3 ; _ ; _\n", ":2:"),
    ("x ; x ; x\nx ; _ ; _\n", "no across clue"),
])
def test_malformed_files_exit_2_with_one_line(tmp_path, content, words):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content if isinstance(content, bytes) else content.encode())
    for sub in (["solve"], ["check"], ["reduce"], ["convert", "--to", "json"]):
        out = run(*sub, bad)
        assert out.returncode == 2, (sub, out.stdout)
        assert out.stderr.startswith("kakuro-np: ") and "bad.txt" in out.stderr
        assert words in out.stderr and "Traceback" not in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args", [
    ["solve", "--limit", "-3", "x.txt"], ["solve"], ["frobnicate"], ["kc", "ten"],
    ["convert", "puzzles/k0.txt", "--to", "yaml"], ["solve", "--timeout", "0", "x.txt"],
])
def test_usage_errors_exit_2_with_one_line(args):
    out = run(*args)
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


def test_timeout_exits_124(tmp_path):
    block = tmp_path / "block.txt"
    block.write_text(kn.format(OPEN_BLOCK))
    out = run("solve", "--count", "--timeout", "0.5", block)
    assert out.returncode == 124 and "timed out" in out.stderr


def test_ctrl_c_stops_at_once_with_exit_130(tmp_path):
    """Ctrl-C during a count that would run for hours: exit 130 at once. The signal comes
    2.5 s after the package is imported (its handler set; ``-X importtime`` reports it),
    however long a loaded machine takes to get there; the work's thread may still import
    then, and its import times are left out."""
    block = tmp_path / "block.txt"
    block.write_text(kn.format(OPEN_BLOCK))
    proc = subprocess.Popen([sys.executable, "-X", "importtime"] + CLI[1:] +
                            ["solve", "--count", str(block)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in proc.stderr:                    # until the package is imported
        if line.rstrip().endswith("| kakuro_np"):
            break
    time.sleep(2.5)
    assert proc.poll() is None, "the count should still be running"
    started = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    said = [line for line in err.splitlines() if not line.startswith("import time:")]
    assert proc.returncode == 130 and said[-1:] == ["kakuro-np: interrupted"], err
    assert time.perf_counter() - started < 20   # not the count's hours (ms when idle)


def test_explain_draws_a_picture_per_step(tmp_path):
    out = run("explain", PUZZLES / "k0.txt", "--svg-steps", tmp_path / "steps")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[-1] == "status: solved" and lines[0].startswith("   1. unique combination: ")
    pictures = sorted((tmp_path / "steps").iterdir())
    assert [p.name for p in pictures] == [f"step-{i:02d}.svg" for i in range(1, len(lines))]
    root = ET.parse(pictures[0]).getroot()
    assert any(g.get("class") == "struck" for g in root.iter("{http://www.w3.org/2000/svg}g"))


def test_grade_prints_one_line_per_file():
    out = run("grade", *(PUZZLES / f"k{i}.txt" for i in range(8)))
    assert out.returncode == 3                  # k3 has 40 solutions
    lines = out.stdout.splitlines()
    assert len(lines) == 8 and lines[3].startswith("k3: expert") and "fan-outs" in lines[3]


def test_hint_says_when_there_is_no_step(tmp_path):
    solved = kn.read(PUZZLES / "k0.txt")
    path = tmp_path / "done.txt"
    path.write_text(kn.format(solved.with_given(kn.kakuro(solved)[0]), "jboxed"))
    assert run("hint", path).stdout.strip() == "solved"
    out = run("hint", "--place", PUZZLES / "k2.txt").stdout.splitlines()
    steps = kn.explain(PUZZLES / "k2.txt")
    upto = next(i for i, step in enumerate(steps) if step.placed)
    assert out == [str(step) for step in steps[:upto + 1]]


def test_stats_lists_the_entries():
    out = run("stats", "--entries", PUZZLES / "k2.txt")
    assert out.returncode == 0 and "U2 = " in out.stdout
    assert "      4       7   41             1          5040" in out.stdout


# -- the command line as a user expects it (issue 12) ------------------------------


def one_line(out):
    """One line on stderr, besides the notice of a first compile (another test's edit)."""
    lines = [line for line in out.stderr.splitlines() if line != cli.COMPILING]
    return len(lines) == 1 and "Traceback" not in out.stderr


def test_stdin_is_capped_like_files():
    with open("/dev/zero", "rb") as zero:
        out = subprocess.run(CLI + ["check", "-"], stdin=zero, capture_output=True, text=True,
                             cwd=ROOT, timeout=60)
    assert out.returncode == 2 and one_line(out)
    assert f"over {kn.formats.MAX_TEXT:,} bytes" in out.stderr and "<stdin>" in out.stderr


@pytest.mark.parametrize("name, content, place", [
    ("a.txt", "x ; x ; x\nx ; _ ; _\n", ":2:5: "),                      # jboxed
    ("b.txt", "\\\t3\\\t4\\\n\\\tx\tx\n", ":2:3: "),                   # backslash
    ("c.json", '{"rows": [["x", "x", "x"],\n  ["x", "_", "_"]]}', ":2:9: "),   # json
    ("-", "2 3\n- - -\n- 0 0\n", ":3:3: "),                           # comma, on stdin
])
def test_a_malformed_run_is_named_by_line_and_column(tmp_path, name, content, place):
    """A run without a clue is found after parsing; the message still names line:col, 1-based."""
    if name == "-":
        out = run("solve", "-", stdin=content)
    else:
        (tmp_path / name).write_text(content)
        out = run("solve", tmp_path / name)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert place in out.stderr and "cell (" not in out.stderr, out.stderr


@pytest.mark.parametrize("path, words", [
    (".", ".: is a directory"), ("/dev/null", "/dev/null: is not a regular file"),
    ("no-such-file", "no-such-file: cannot read file"),
])
def test_a_directory_or_a_device_is_not_a_puzzle(path, words):
    for sub in (["check"], ["solve", "--count"], ["render", "--svg", "-"]):
        out = run(*sub, path)
        assert out.returncode == 2 and one_line(out) and f"kakuro-np: {words}" in out.stderr


def test_urls_reach_the_reader_unchanged():
    for url in ("https://puzz.link/p?kakuro/3/3/x", "http://example.org/k.txt", "kakuro/3/3/x",
                "pzv.jp/p.html?kakuro/3/3/x"):
        assert cli._source(url) == url
    assert cli._source("puzzles/k0.txt") == pathlib.Path("puzzles/k0.txt")
    for url in ("https://puzz.link/p?kakuro/6/5/Dclh4t9fl3-p-gl-alJeC3BgG",
                "pzv.jp/p.html?kakuro/6/5/Dclh4t9fl3-p-gl-alJeC3BgG"):
        out = run("check", url)
        assert out.returncode == 0 and out.stdout.endswith(": unique\n"), out.stderr


@pytest.mark.parametrize("message, limit, said", [
    ("cannot tell the format of 'q' (tried jboxed); name one with format=", None,
     "cannot tell the format of 'q' (tried jboxed); name one with --format"),
    ("this puzzle has more than 9 solutions, more than 99 bytes hold; ask for some with "
     "limit=, or count them with count()", None,
     "this puzzle has more than 9 solutions, more than 99 bytes hold; ask for some with "
     "--limit N, or count them with --count"),
    ("the grid is 201x10, larger than the 200x200 allowed "
     "(set kakuro_np.Puzzle.MAX_SIDE to allow more)", None,
     "the grid is 201x10, larger than the 200x200 allowed"),
    ("timed out after 1.0 s with 3 solutions found; ask for fewer with limit= or count them "
     "with count()", 9,
     "timed out after 1.0 s with 3 solutions found; ask for fewer with --limit or count them "
     "with --count"),
    ("timed out after 1.0 s with 0 solutions found; ask for fewer with limit= or count them "
     "with count()", 1, "timed out after 1.0 s with 0 solutions found; allow a longer --timeout"),
    ("the tables of this puzzle would pass 9 rows (raise max_rows= to allow more)", None,
     "the tables of this puzzle would pass 9 rows"),
])
def test_messages_name_the_options_of_the_command_line(message, limit, said):
    assert cli.cli_words(message, limit) == said


def test_an_unknown_format_names_the_format_option():
    out = run("check", "-", stdin="hello\n")
    assert out.returncode == 2 and one_line(out) and "name one with --format" in out.stderr
    assert "format=" not in out.stderr


def test_too_many_solutions_to_print_exit_5_and_say_how_many(tmp_path):
    path = tmp_path / "blocks.txt"
    path.write_text(kn.format(FOUR_BLOCKS))
    out = run("solve", path)
    assert out.returncode == 5 and one_line(out) and out.stdout == ""
    assert (f"kakuro-np: {path}: the puzzle has 110,075,314,176 solutions, too many to print "
            "(over 100 MB); use --limit N, --count or --force\n") in out.stderr


def test_count_with_svg_draws_the_first_solution(tmp_path):
    target = tmp_path / "k0.svg"
    out = run("solve", "--count", "--svg", target, PUZZLES / "k0.txt")
    assert out.returncode == 0 and out.stdout == "k0: 1 solution\n"
    assert ET.parse(target).getroot().tag.endswith("svg")


@pytest.mark.parametrize("args, words", [
    (["kc", "46"], "1 to 45"), (["kc", "0"], "1 to 45"), (["kc", "-3"], "1 to 45"),
    (["kc", "10", "10"], "1 to 9"), (["kc", "10", "0"], "1 to 9"),
    (["solve", "--limit", "0", "puzzles/k0.txt"], ">= 1"),
    (["check", "--limit", "0", "puzzles/k0.txt"], ">= 1"),
    (["render", "puzzles/k0.txt", "--svg", "-", "--cell", "0"], ">= 1"),
])
def test_out_of_range_values_exit_2(args, words):
    out = run(*args)
    assert out.returncode == 2 and one_line(out) and words in out.stderr and out.stdout == ""


def test_a_bad_file_among_several_is_reported_and_the_rest_done(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("x ; 3 0\n0 3 ; q\n")
    out = run("solve", "--count", PUZZLES / "k0.txt", bad, PUZZLES / "k3.txt")
    assert out.returncode == 2 and out.stdout == "k0: 1 solution\nk3: 40 solutions\n"
    assert one_line(out) and "bad.txt:2:7: unknown cell 'q'" in out.stderr
    out = run("check", PUZZLES / "k3.txt", tmp_path, PUZZLES / "k2.txt")
    assert out.returncode == 3 and one_line(out) and "is a directory" in out.stderr
    assert out.stdout == ("k3: multiple (40 solutions; two differ at (9, 6) (9, 10) (10, 6) "
                          "(10, 10))\nk2: unique\n")


def test_reduce_takes_several_files():
    out = run("reduce", PUZZLES / "k0.txt", PUZZLES / "k3.txt")
    assert out.returncode == 0
    assert "== k0" in out.stdout and "== k3" in out.stdout
    assert "status: solved" in out.stdout and "status: stuck" in out.stdout


# 0.45 s once gave a traceback in a cold suite: the work's thread was importing ``ahead``
# (see the test below, which makes that moment certain).
@pytest.mark.parametrize("delay", [0.0, 0.02, 0.05, 0.1, 0.2, 0.45])
def test_ctrl_c_right_after_start_is_one_line(tmp_path, delay):
    """Ctrl-C ``delay`` seconds after the package's first statement ran, however busy the
    machine: one line. The clock starts when ``-X importtime`` reports the package
    imported (its handler is the first thing it sets), not when the process starts:
    before that the interpreter is still starting, and its own Ctrl-C is its traceback."""
    block = tmp_path / "block.txt"
    block.write_text(kn.format(OPEN_BLOCK))
    proc = subprocess.Popen([sys.executable, "-X", "importtime"] + CLI[1:] +
                            ["solve", "--count", str(block)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    said = []
    for line in proc.stderr:                    # until the package is imported
        if not line.startswith("import time:"):
            said.append(line.rstrip("\n"))
        elif line.rstrip().endswith("| kakuro_np"):
            break
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    said += [line for line in err.splitlines()
             if line != cli.COMPILING and not line.startswith("import time:")]
    assert (proc.returncode, said) == (130, ["kakuro-np: interrupted"])


def test_ctrl_c_while_the_work_still_imports_a_module_with_helpers_is_one_line():
    # Ctrl-C while the work's thread imports ``ahead`` (or ``batch``): the module is in
    # sys.modules before its ``stop_all`` exists, and the handler's AttributeError was a
    # traceback and exit 1 (seen once in a cold suite, 0.45 s after the import).
    code = ("import sys, types, signal, time, kakuro_np.cli as cli\n"
            "for name in ('kakuro_np.batch', 'kakuro_np.engine.core.ahead'):\n"
            "    sys.modules[name] = types.ModuleType(name)     # run as far as its imports\n"
            "signal.signal(signal.SIGINT, cli._interrupted)\n"
            "signal.raise_signal(signal.SIGINT)\n")
    out = python_runs(code)
    assert (out.returncode, out.stderr) == (130, "kakuro-np: interrupted\n")


def test_a_fork_of_the_program_leaves_ctrl_c_to_it():
    # A batch's worker forked with the program's handler printed its own "interrupted"
    # until its initializer ran: Ctrl-C at a batch's start said it three times.
    code = ("import os, signal, kakuro_np.cli as cli\n"
            "cli._as_the_program()\n"
            "pid = os.fork()\n"
            "if pid == 0:\n"
            "    os._exit(0 if signal.getsignal(signal.SIGINT) is signal.SIG_IGN else 1)\n"
            "assert signal.getsignal(signal.SIGINT) is cli._interrupted\n"
            "print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))\n")
    out = python_runs(code)
    assert (out.returncode, out.stdout, out.stderr) == (0, "0\n", "")


def python_runs(code: str) -> subprocess.CompletedProcess:
    """``code`` run by this interpreter in a process of its own, from the repository."""
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_svg_dash_writes_to_standard_output(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))        # this package, from another folder
    out = run("render", ROOT / "puzzles/k0.txt", "--svg", "-", cwd=tmp_path)
    assert out.returncode == 0 and ET.fromstring(out.stdout).tag.endswith("svg")
    out = run("solve", "--svg", "-", ROOT / "puzzles/k0.txt", cwd=tmp_path)
    assert out.returncode == 0 and ET.fromstring(out.stdout).tag.endswith("svg")
    assert list(tmp_path.iterdir()) == []


def test_version():
    out = run("--version")
    assert out.returncode == 0 and out.stdout == f"kakuro-np {kn.__version__}\n"


def test_render_refuses_solution_with_candidates():
    out = run("render", PUZZLES / "k0.txt", "--svg", "-", "--solution", "--candidates")
    assert out.returncode == 2 and one_line(out) and "not allowed with" in out.stderr


def test_drawing_one_of_several_solutions_or_none_says_so(tmp_path):
    target = tmp_path / "k3.svg"
    out = run("render", PUZZLES / "k3.txt", "--svg", target, "--solution")
    assert out.returncode == 0 and one_line(out) and ET.parse(target)
    assert "k3.txt: the puzzle has several solutions; drawing the first" in out.stderr
    none = tmp_path / "none.txt"
    none.write_text("x ; 3 0 ; 4 0\n0 2 ; _ ; _\n")
    for count in ([], ["--count"]):
        out = run("solve", *count, "--svg", tmp_path / "none.svg", none)
        assert out.returncode == 0 and one_line(out) and ET.parse(tmp_path / "none.svg")
        assert "none.txt: no solution; the picture shows the puzzle unsolved" in out.stderr


def test_solve_and_reduce_write_clues_alike():
    solved = run("solve", PUZZLES / "k0.txt").stdout
    reduced = run("reduce", PUZZLES / "k0.txt").stdout
    assert "\\10" in solved and "\\10" in reduced and "0 10" not in solved
    assert "│6\\│3\\│" in solved


def test_several_solutions_are_labelled_and_apart():
    out = run("solve", "--limit", "2", PUZZLES / "k3.txt")
    assert out.returncode == 0 and out.stdout.startswith("solution 1 of 2\n┌")
    assert "┘\n\nsolution 2 of 2\n┌" in out.stdout
    assert not run("solve", PUZZLES / "k0.txt").stdout.startswith("solution")


def test_check_json_prints_one_object_per_file(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("x ; 3 0\n0 3 ; q\n")
    out = run("check", "--json", PUZZLES / "k2.txt", PUZZLES / "k3.txt", bad,
              PUZZLES / "k2-played.pipe")
    assert out.returncode == 4 and one_line(out)
    k2, k3, broken, played = map(json.loads, out.stdout.splitlines())
    assert k2 == {"file": str(PUZZLES / "k2.txt"), "name": "k2", "verdict": "unique",
                  "solutions": 1, "at_least": False, "exit": 0}
    assert (k3["verdict"], k3["solutions"], k3["exit"]) == ("multiple", 40, 3)
    assert broken["exit"] == 2 and "unknown cell 'q'" in broken["error"]
    assert (played["wrong"], played["consistent"], played["exit"]) == ([[2, 3]], 0, 4)


def test_solve_json_prints_one_object_per_file():
    out = run("solve", "--json", "--limit", "2", PUZZLES / "k3.txt", PUZZLES / "k0.txt")
    assert out.returncode == 0
    k3, k0 = map(json.loads, out.stdout.splitlines())
    assert (k3["count"], k3["limit_reached"], k0["count"], k0["limit_reached"]) == (2, True, 1, False)
    assert k0["solutions"] == kn.kakuro(PUZZLES / "k0.txt").tolist()
    out = run("solve", "--json", "--count", PUZZLES / "k3.txt")
    assert json.loads(out.stdout) == {"file": str(PUZZLES / "k3.txt"), "name": "k3",
                                      "count": 40, "at_least": False, "exit": 0}
    assert run("solve", "--json", "--to", "comma", PUZZLES / "k0.txt").returncode == 2


def test_any_gives_a_thrashing_drafts_two_solutions_at_once(tmp_path):
    draft = tmp_path / "draft.txt"
    draft.write_text(THRASHING_DRAFT)              # the essay's order passes 90 s on it
    out = run("solve", "--any", "--limit", "2", "--timeout", "30", "--json", draft)
    assert out.returncode == 0, out.stderr
    sols = np.array(json.loads(out.stdout)["solutions"])
    assert len(sols) == 2 and not np.array_equal(sols[0], sols[1])
    cells, sums = kn.entries(kn.parse(THRASHING_DRAFT))
    for s in sols:
        flat = s.ravel()
        assert all(flat[c].sum() == t and len(set(flat[c])) == len(c) for c, t in zip(cells, sums))


def test_generate_prints_unique_puzzles_the_same_for_a_seed(tmp_path):
    first = run("generate", "9", "9", "--seed", "4", "--count", "2")
    assert first.returncode == 0, first.stderr
    assert first.stdout == run("generate", "9", "9", "--seed", "4", "--count", "2").stdout
    texts = first.stdout.split("\n\n")
    assert len(texts) == 2
    for text in texts:
        p = kn.parse(text)
        assert p.shape == (9, 9) and kn.count(p, limit=2) == 1


def test_generate_writes_puzzles_solutions_and_pictures(tmp_path):
    out = run("generate", "8", "10", "--seed", "1", "--count", "2", "--to", "comma",
              "--out", str(tmp_path / "set"), "--svg", str(tmp_path / "svg"))
    assert out.returncode == 0, out.stderr
    names = sorted(f.name for f in (tmp_path / "set").iterdir())
    assert names == ["kakuro-8x10-1-1-solution.txt", "kakuro-8x10-1-1.txt",
                     "kakuro-8x10-1-2-solution.txt", "kakuro-8x10-1-2.txt"]
    p = kn.read(tmp_path / "set" / "kakuro-8x10-1-1.txt")
    assert kn.detect((tmp_path / "set" / "kakuro-8x10-1-1.txt").read_text()) == "comma"
    solution = (tmp_path / "set" / "kakuro-8x10-1-1-solution.txt").read_text()
    assert all(str(d) in solution for d in kn.kakuro(p)[0][p.blank][:5])
    ET.parse(tmp_path / "svg" / "kakuro-8x10-1-2.svg")


def test_generate_aims_at_a_grade_and_names_it_in_the_pictures(tmp_path):
    out = run("generate", "9", "9", "--seed", "2", "--grade", "hard", "--svg", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert kn.grade(kn.parse(out.stdout)).label == "hard"
    assert "hard (" in (tmp_path / "kakuro-9x9-2-1.svg").read_text()


def test_the_command_lines_grades_are_the_librarys():
    from kakuro_np.cli import GRADE_LABELS
    from kakuro_np.grading import LABELS
    assert GRADE_LABELS == LABELS


def test_check_names_the_cells_where_two_solutions_differ():
    out = run("check", "--json", "puzzles/k3.txt")
    found = json.loads(out.stdout)
    assert out.returncode == 3 and found["differences"]
    sols = kn.kakuro(kn.read("puzzles/k3.txt"))
    cells = np.array(found["differences"])          # exactly where two solutions differ
    assert any(np.array_equal(np.argwhere(s != t), cells) for s in sols for t in sols)
    assert "two differ at" in run("check", "puzzles/k3.txt").stdout
    assert "differ" not in run("check", "puzzles/k2.txt").stdout


def test_render_highlights_the_differences_only_when_there_are_two_solutions(tmp_path):
    for name, highlighted in (("k3", True), ("k2", False)):
        out = run("render", f"puzzles/{name}.txt", "--svg", "-", "--differences")
        assert out.returncode == 0 and ("#fff3b0" in out.stdout) == highlighted


@pytest.mark.parametrize("args, words", [(("2", "9"), "must be 3 to 200"),
                                         (("9", "9", "--density", "0.05"), "density"),
                                         (("9", "9", "--grade", "tricky"), "invalid choice")])
def test_generate_refuses_bad_requests_in_one_line(args, words):
    out = run("generate", *args)
    assert out.returncode != 0 and words in out.stderr and out.stderr.count("\n") <= 2


def test_check_without_a_limit_counts_past_two_for_a_short_while(monkeypatch):
    """Without --limit, ``check`` asks "two or more?" first, by two solutions in any order
    (shown when they differ), then counts towards CHECK_CAP for at most CHECK_MORE_S: a grid
    too big to count that far in time is "at least 2"."""
    asked, found = [], []
    from kakuro_np import solve
    real, k3 = solve.kakuro, kn.read(PUZZLES / "k3.txt")     # 40 solutions

    def counting(puzzle, limit, timeout, scheduler=None):
        asked.append((limit, timeout))
        if limit == cli.CHECK_CAP:
            raise kn.SolveTimeout("too many to count in time")
        return limit

    def kakuro(puzzle, limit=None, order="essay", timeout=None):
        found.append((limit, order, timeout))
        return real(puzzle, limit=limit, order=order, timeout=timeout)

    monkeypatch.setattr(cli, "_counting", counting)
    monkeypatch.setattr(solve, "kakuro", kakuro)
    n, limit, two = cli._check_count(k3, None, None)
    assert (n, limit, len(two)) == (2, 2, 2) and not np.array_equal(two[0], two[1])
    assert found == [(2, "any", None)] and asked == [(cli.CHECK_CAP, cli.CHECK_MORE_S)]
    asked.clear()
    assert cli._check_count(k3, None, 0.5)[:2] == (2, 2) and asked == [(cli.CHECK_CAP, 0.5)]
    assert cli._check_count(k3, 7, None) == (7, 7, None)       # --limit counts as asked
    one = cli._check_count(kn.read(PUZZLES / "k2.txt"), None, None)
    assert one[:2] == (1, 2) and len(one[2]) == 1               # fewer than two: all of them


def test_a_file_of_one_unclued_blank_cell_is_refused_naming_it(tmp_path):
    """``x`` alone reads as one blank cell (the backslash format): no clue covers it."""
    (tmp_path / "x.txt").write_text("x\n")
    out = run("solve", tmp_path / "x.txt")
    assert out.returncode == 2 and one_line(out) and out.stdout == ""
    assert f"{tmp_path / 'x.txt'}:1:1: a blank cell that no clue covers" in out.stderr


BROKEN = "x ; 3 0 ; 4 0\n0 30 ; _ ; _\n"          # the across 30 over two cells


def test_grade_and_hint_of_a_puzzle_with_no_solution_say_so(tmp_path):
    (tmp_path / "broken.txt").write_text(BROKEN)
    out = run("grade", tmp_path / "broken.txt")
    assert (out.returncode, out.stdout) == (4, "broken: no solution, so no grade\n")
    out = run("hint", tmp_path / "broken.txt")
    assert out.returncode == 4
    assert out.stdout.startswith("no solution: The puzzle has no solution: the across 30 at "
                                 "(1, 0) over 2 cells")


def test_grade_of_a_puzzle_with_several_solutions_says_how_many():
    out = run("grade", PUZZLES / "k3.txt", PUZZLES / "k2.txt")
    assert out.returncode == 3                  # the highest of the files'
    assert "46 fan-outs; not unique: 40 solutions\n" in out.stdout
    assert "k2: easy (score 11.2): hardest unique combination\n" in out.stdout


def test_solve_to_puzzlink_is_refused_before_solving():
    """A puzz.link URL holds no digits: refused at once (the open block would take long)."""
    started = time.monotonic()
    out = run("solve", "--to", "puzzlink", PUZZLES / "k3.txt")
    assert out.returncode == 2 and one_line(out) and out.stdout == ""
    assert "--to puzzlink: a puzz.link URL holds no digits" in out.stderr
    assert "convert" in out.stderr and "with_given" not in out.stderr
    assert time.monotonic() - started < 30


def test_no_command_prints_the_help():
    out = run()
    assert out.returncode == 0 and out.stderr == ""
    assert out.stdout.startswith("usage: kakuro-np") and "solve" in out.stdout


def test_svg_of_several_solutions_says_it_draws_the_first(tmp_path):
    out = run("solve", "--svg", tmp_path / "k3.svg", "--limit", "3", PUZZLES / "k3.txt")
    assert out.returncode == 0 and (tmp_path / "k3.svg").exists()
    assert "the picture shows the first of at least 3 solutions" in out.stderr
    out = run("solve", "--count", "--svg", tmp_path / "k3c.svg", PUZZLES / "k3.txt")
    assert "the picture shows the first of 40 solutions" in out.stderr
    out = run("solve", "--svg", tmp_path / "k2.svg", PUZZLES / "k2.txt")
    assert out.returncode == 0 and out.stderr == ""        # one solution: nothing to say


def test_generate_boxes_its_puzzle_on_a_terminal_and_writes_pipe_elsewhere(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    shown = Terminal()
    monkeypatch.setattr(sys, "stdout", shown)
    assert cli.main(["generate", "8", "8", "--seed", "3"]) == 0
    assert shown.getvalue().startswith("┌")
    piped = run("generate", "8", "8", "--seed", "3")
    assert kn.parse(piped.stdout).shape == (8, 8)


def test_a_bad_density_says_so_before_any_seed():
    out = run("generate", "6", "6", "--density", "5")
    assert out.returncode == 2 and one_line(out) and "seed" not in out.stderr


def test_batch_counts_failures_apart_from_puzzles_solved_and_refuses_an_empty_folder(tmp_path):
    (tmp_path / "in").mkdir()
    out = run("batch", tmp_path / "in", "--out", tmp_path / "r.jsonl")
    assert out.returncode == 2 and one_line(out) and "no puzzles in it" in out.stderr
    (tmp_path / "in" / "k2.txt").write_text((PUZZLES / "k2.txt").read_text())
    (tmp_path / "in" / "k3.txt").write_text((PUZZLES / "k3.txt").read_text())
    (tmp_path / "in" / "bad.txt").write_text("x ; 3 0\n0 3 ; q\n")
    out = run("batch", tmp_path / "in", "--out", tmp_path / "r.jsonl", "--workers", "1")
    assert out.returncode == 0
    assert "2 puzzles solved (1 unique, 1 multiple); 1 error" in out.stderr


def test_a_grid_too_small_for_the_density_is_made_denser():
    # a 3x3 grid has one layout, all 4 cells blank: at the default density it said "try a
    # density of 1"; the layout is now kept denser than asked where no cut is left
    out = run("generate", "3", "3", "--seed", "1", "--to", "pipe")
    assert out.returncode == 0 and kn.parse(out.stdout).blank.sum() == 4


#: 21 blocks of 2x2, each filled two ways: 2,097,152 solutions, whose array (750 MB) fits in
#: ``kakuro()``'s memory but whose boxes would print about 2 GB.
TWO_WAY_BLOCKS = [["x", (3, 0), (3, 0)] * 21, [(0, 3), "_", "_"] * 21, [(0, 3), "_", "_"] * 21]


def test_solve_refuses_output_past_its_size_before_printing(tmp_path):
    path = tmp_path / "blocks.txt"
    path.write_text(kn.format(TWO_WAY_BLOCKS))
    out = run("solve", path)
    assert out.returncode == 5 and one_line(out) and out.stdout == ""
    assert "2,097,152 solutions, too many to print (over 100 MB)" in out.stderr


@pytest.mark.parametrize("how, printed", [
    (["--json"], lambda out: len(json.loads(out)["solutions"])),
    (["--to", "comma"], lambda out: out.count("11 11\n")),
    ([], lambda out: out.count("solution ")),
])
def test_solve_prints_past_its_output_size_only_with_force_or_limit(monkeypatch, how, printed):
    monkeypatch.setattr(cli, "MAX_OUTPUT", 2000)             # fewer than k3's 40 solutions
    refused = run("solve", *how, PUZZLES / "k3.txt")
    assert refused.returncode == 5 and one_line(refused)
    assert (json.loads(refused.stdout).keys() == {"file", "name", "error", "exit"}
            if how == ["--json"] else refused.stdout == "")
    assert re.search(r"the puzzle has (40 solutions, )?too many (solutions )?to print "
                     r"\((at least \d+; )?over 0.002 MB\)", refused.stderr)
    for more in (["--force"], ["--limit", "40"]):
        out = run("solve", *how, *more, PUZZLES / "k3.txt")
        assert out.returncode == 0 and printed(out.stdout) == 40


@pytest.mark.parametrize("fmt", ["jboxed", "backslash", "pipe", "comma", "json"])
def test_solve_writes_several_solutions_as_a_stream_read_all_splits(fmt):
    out = run("solve", "--limit", "2", "--to", fmt, PUZZLES / "k3.txt")
    assert out.returncode == 0
    back = kn.parse_all(out.stdout)
    assert [p.given.tolist() for p in back] == kn.kakuro(PUZZLES / "k3.txt", limit=2).tolist()
    if fmt == "json":                           # JSON lines: each line one document
        assert [json.loads(line)["rows"] for line in out.stdout.splitlines()]


def test_explain_of_a_puzzle_with_no_solution_exits_4_as_hint_does(tmp_path):
    path = tmp_path / "none.txt"
    path.write_text("x ; 3 0 ; 3 0\n0 3 ; _ ; _\n0 5 ; _ ; _\n")      # 1+2 across, 5 below
    explained, hinted = run("explain", path), run("hint", path)
    assert explained.returncode == hinted.returncode == 4
    assert "status: contradiction" in explained.stdout


def test_convert_writes_backslash_in_the_underscore_style_it_reads(tmp_path):
    rust = tmp_path / "mini.kakuro"                 # a file in the style of the Rust solver's
    rust.write_text("\\   2\\ 4\\ \\\n\\13 __ __ _\n\\    \\ __ \\\n")
    out = run("convert", rust, "--to", "backslash", "--style", "underscores")
    assert out.returncode == 0 and "TAB" not in out.stdout and "__" in out.stdout
    assert kn.parse(out.stdout) == kn.read(rust)
    assert run("convert", rust, "--to", "backslash").stdout.startswith("3 4 TAB\n")
    wrong = run("convert", rust, "--to", "comma", "--style", "underscores")
    assert wrong.returncode == 2 and one_line(wrong)
