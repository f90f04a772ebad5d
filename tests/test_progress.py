"""count(progress=...) and the command line's progress line on a terminal."""

import os
import pty
import re
import subprocess
import sys
import time

import pytest

import kakuro_np as kn
import strategies
from conftest import ROOT

#: The open block as a Puzzle: a count up to a limit takes as long as the limit says.
OPEN_BLOCK = kn.Puzzle.from_rows(strategies.OPEN_BLOCK)


def test_progress_reports_as_the_count_goes_and_the_count_is_the_same():
    limit, every = 60_000, 0.02
    kn.count(OPEN_BLOCK, limit=10)                       # compile outside the timing
    seen = []
    t = time.monotonic()
    n = kn.count(OPEN_BLOCK, limit=limit, progress=seen.append, every=every)
    took = time.monotonic() - t
    assert n == kn.count(OPEN_BLOCK, limit=limit) == limit
    if took > 5 * every:
        assert seen
    for before, after in zip(seen, seen[1:]):
        assert before.nodes <= after.nodes and before.seconds < after.seconds
        assert before.solutions <= after.solutions <= limit
    assert all(p.rate >= 0 for p in seen)


def test_a_timeout_in_the_counting_thread_reaches_the_caller():
    with pytest.raises(kn.SolveTimeout):
        kn.count(OPEN_BLOCK, limit=10**12, timeout=0.3, progress=lambda p: None, every=0.05)


@pytest.mark.parametrize("progress, every", [(print, 0), (print, -1.0), ("print", 1.0)])
def test_a_bad_progress_or_interval_is_a_value_error(progress, every):
    with pytest.raises(ValueError, match="progress must be callable"):
        kn.count(OPEN_BLOCK, limit=10, progress=progress, every=every)


def test_the_command_line_shows_a_progress_line_on_a_terminal_only(tmp_path):
    path = tmp_path / "block.txt"
    path.write_text(kn.format(OPEN_BLOCK, "backslash"))
    command = [sys.executable, "-m", "kakuro_np", "solve", "--count", "--limit", "300000",
               str(path)]                           # a count of 2-3 s: a line each second
    plain = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert plain.returncode == 0 and "nodes/s" not in plain.stderr
    assert plain.stdout.strip().endswith("at least 300,000 solutions")
    run, seen = on_a_terminal(command)
    assert run.returncode == 0 and run.stdout == plain.stdout
    assert b"nodes/s" in seen and b"solutions so far" in seen


def on_a_terminal(command, cwd=None):
    """``(the run, what it wrote on stderr)``, its stderr a terminal (a pty that gives no
    size, as some do: the bar is 80 wide)."""
    leader, follower = pty.openpty()
    try:
        run = subprocess.run(command, stdout=subprocess.PIPE, stderr=follower, text=True,
                             timeout=300, cwd=cwd)
        os.close(follower)
        seen = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(leader)
    return run, seen


def test_generate_and_batch_show_a_bar_with_rate_and_time_left_on_a_terminal_only(tmp_path):
    generate = [sys.executable, "-m", "kakuro_np", "generate", "6", "6", "--seed", "2",
                "--count", "3"]
    plain = subprocess.run(generate, capture_output=True, text=True, timeout=300)
    assert plain.returncode == 0 and plain.stderr == ""
    run, seen = on_a_terminal(generate)
    assert run.returncode == 0 and run.stdout == plain.stdout
    assert b"3/3 [" in seen and b"puzzles/s]" in seen and b"<00:00" in seen   # tqdm's bar
    batch = [sys.executable, "-m", "kakuro_np", "batch", str(ROOT / "puzzles"),
             "--out", str(tmp_path / "out.jsonl"), "--workers", "1"]
    run, seen = on_a_terminal(batch)
    assert run.returncode == 0 and re.search(rb"\| (\d+)/\1 \[", seen)   # every file, done
    plain = subprocess.run(batch[:-4] + ["--out", str(tmp_path / "plain.jsonl")] + batch[-2:],
                           capture_output=True, text=True, timeout=300)
    assert plain.returncode == 0 and "/s]" not in plain.stderr
