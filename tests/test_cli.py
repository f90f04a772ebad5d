"""The command line, run as a user would, through subprocess."""

import subprocess
import sys

import pytest

from conftest import PUZZLES, ROOT


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "kakuro_np", *map(str, args)],
                          capture_output=True, text=True, input=stdin, cwd=ROOT, timeout=300)


def test_solve_prints_k2_boxed():
    out = run("solve", PUZZLES / "k2.txt")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("┌────┬────┬") and "│0 16│7   │9   │29 0│" in out.stdout


def test_count_several_files():
    out = run("solve", "--count", PUZZLES / "k2.txt", PUZZLES / "k3.txt")
    assert out.returncode == 0
    assert out.stdout.splitlines() == ["k2: 1 solution", "k3: 40 solutions"]


def test_limit_and_stdin():
    out = run("solve", "--limit", "2", "-", stdin=(PUZZLES / "k3.txt").read_text())
    assert out.returncode == 0
    assert out.stdout.count("┌") == 2


def test_reduce_and_kc():
    out = run("reduce", PUZZLES / "k2.txt")
    assert out.returncode == 0 and out.stdout.rstrip().endswith("status: solved")
    out = run("kc", "18", "4")
    assert out.returncode == 0 and out.stdout.strip().startswith("18 in 4: 1269  1278")


@pytest.mark.parametrize("args, text", [
    (["solve", "no/such/file.txt"], "cannot read file"),
    (["solve", "-"], "empty"),
    (["solve", "--limit", "-3", "x.txt"], "must be >= 0"),
])
def test_bad_input_exits_2_with_one_line(args, text):
    out = run(*args, stdin="")
    assert out.returncode == 2
    assert text in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
