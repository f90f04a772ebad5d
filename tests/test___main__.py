"""kakuro_np.__main__: ``python -m kakuro_np`` runs the command line and exits with its status."""

import subprocess
import sys

import kakuro_np as kn
from conftest import PUZZLES, ROOT

SUBCOMMANDS = ["solve", "reduce", "check", "explain", "hint", "grade", "stats", "convert",
               "render", "batch", "generate", "book", "play", "compile", "kc"]


def python_m(*args, stdin=None):
    """``python -m kakuro_np ARGS`` in a process of its own, from the repository's root."""
    return subprocess.run([sys.executable, "-m", "kakuro_np", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, input=stdin, timeout=300)


def test_help_exits_0_and_lists_every_subcommand_on_stdout():
    out = python_m("--help")
    assert (out.returncode, out.stderr) == (0, "")
    assert out.stdout.startswith("usage: kakuro-np ")
    listed = out.stdout.split("positional arguments:", 1)[1].split("options:", 1)[0]
    assert [line.split()[0] for line in listed.splitlines()[2:] if line.strip()] == SUBCOMMANDS


def test_no_arguments_prints_the_help_and_is_no_error():
    out = python_m()
    assert (out.returncode, out.stderr) == (0, "")
    assert out.stdout == python_m("--help").stdout


def test_an_unknown_subcommand_exits_2_with_one_line_on_stderr():
    out = python_m("frobnicate")
    assert (out.returncode, out.stdout) == (2, "")
    lines = out.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("kakuro-np: ") and "invalid choice: 'frobnicate'" in lines[0]
    assert "Traceback" not in out.stderr


def test_an_unknown_option_exits_2_with_one_line_on_stderr():
    out = python_m("solve", "--frob", PUZZLES / "k2.txt")
    assert (out.returncode, out.stdout) == (2, "")
    assert len(out.stderr.splitlines()) == 1 and "--frob" in out.stderr


def test_version_is_the_packages():
    out = python_m("--version")
    assert (out.returncode, out.stdout) == (0, f"kakuro-np {kn.__version__}\n")


def test_a_subcommands_output_and_exit_status_come_through():
    out = python_m("kc", "7", "3")
    assert (out.returncode, out.stdout, out.stderr) == (0, "7 in 3: 124\n", "")
    bad = python_m("kc", "46")
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.splitlines()) == 1 and "46" in bad.stderr


def test_the_exit_status_is_the_commands_not_a_fixed_one():
    """``check`` exits 0 for a unique puzzle and 3 for one with several solutions (k3 has
    40): ``python -m`` passes ``main``'s status on, whatever it is."""
    unique = python_m("check", PUZZLES / "k2.txt")
    several = python_m("check", PUZZLES / "k3.txt")
    assert (unique.returncode, unique.stdout) == (0, "k2: unique\n")
    assert several.returncode == 3 and several.stdout.startswith("k3: multiple (40 solutions")


def test_a_puzzle_on_stdin_is_read():
    out = python_m("check", "-", stdin=(PUZZLES / "k2.txt").read_text())
    assert (out.returncode, out.stdout) == (0, "stdin: unique\n"), out.stderr
