"""The command line, run as a user would, through subprocess."""

import re
import shlex
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest

import kakuro_np as kn
from conftest import PUZZLES, ROOT

CLI = [sys.executable, "-m", "kakuro_np"]


def run(*args, stdin=None, cwd=ROOT):
    return subprocess.run(CLI + [str(a) for a in args], capture_output=True, text=True,
                          input=stdin, cwd=cwd, timeout=300)


def readme_examples():
    """``(command, expected_exit, expected_text)`` for each CLI line of the README."""
    text = (ROOT / "README.md").read_text()
    block = text.split("## The command line", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    out = []
    for line in block.strip().splitlines():
        command, _, comment = line.partition("#")
        code = re.search(r"exit (\d+)", comment)
        shown = re.search(r"→ (.*?)(?:; exit \d+)?$", comment.strip())
        out.append((command.strip(), int(code.group(1)) if code else 0,
                    shown.group(1) if shown else None))
    return out


@pytest.mark.parametrize("command, code, shown", readme_examples())
def test_readme_example(command, code, shown, tmp_path):
    argv = shlex.split(command.replace("/tmp/", f"{tmp_path}/"))
    assert argv[0] == "kakuro-np"
    import glob
    args = [a for arg in argv[1:] for a in (sorted(glob.glob(str(ROOT / arg)))
                                             if "*" in arg else [arg])]
    out = run(*args)
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
    assert out.returncode == 3 and "multiple (at least 5 solutions)" in out.stdout


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
    block.write_text(kn.format([["x"] + [(45, 0)] * 9] + [[(0, 45)] + ["_"] * 9] * 9))
    out = run("solve", "--count", "--timeout", "0.5", block)
    assert out.returncode == 124 and "timed out" in out.stderr


def test_ctrl_c_stops_at_once_with_exit_130(tmp_path):
    block = tmp_path / "block.txt"
    block.write_text(kn.format([["x"] + [(45, 0)] * 9] + [[(0, 45)] + ["_"] * 9] * 9))
    proc = subprocess.Popen(CLI + ["solve", "--count", str(block)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2.5)
    assert proc.poll() is None, "the count should still be running"
    started = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and err.endswith("kakuro-np: interrupted\n")
    assert time.perf_counter() - started < 2


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
    assert out.returncode == 0
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
