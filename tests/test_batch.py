"""Whole collections (``batch``): results in input order, every input kind, errors and
timeouts recorded, worker deaths survived, and a batch killed (SIGKILL, SIGTERM, SIGINT)
resumed to the same file.

Batch output is safe (issue 47): ``--out`` is a results file or a new path, refused
before anything loads otherwise; a file of another kind is refused and left unchanged;
the workers die with the batch's process whatever ends it; a full disk and a reader of
stdout gone early are one line, or none, never a traceback. Its input is what the command
was given: a JSON input's grid is a puzzle's text, never a path; a FIFO or a device is
refused unopened; a folder's walk enters no link to a folder, reads each file once and
leaves out the results file."""

import contextlib
import errno
import importlib
import io
import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from kakuro_np.batch import answered, items, run_batch, solve_many, solve_one, write_line
from kakuro_np.cli import main
from kakuro_np.errors import PuzzleError
from conftest import PUZZLES, ROOT, examples
from strategies import filled_puzzles, satisfies

batch = importlib.import_module("kakuro_np.batch")
EXPECTED = {k[:-4]: v["solutions"] for k, v in
            json.loads((PUZZLES / "expected.json").read_text()).items() if k.endswith(".txt")}
SAMPLES = sorted(str(PUZZLES / f"{name}.txt") for name in EXPECTED)
#: A 9x9 block of runs of 45: a Latin square's count, far too many to finish.
OPEN_BLOCK = "\n".join(["x" + " ; 45 0" * 9] + ["0 45" + " ; _" * 9] * 9)


def same(a, b):
    """Two results alike but for their times."""
    return (a.id, a.count, a.status, a.error) == (b.id, b.count, b.status, b.error) and \
        np.array_equal(a.solutions, b.solutions)


@pytest.mark.parametrize("workers", [1, 2])
def test_the_samples_get_their_counts_and_valid_solutions_in_input_order(workers):
    results = solve_many(SAMPLES, workers=workers, limit=50, keep=3)
    assert [r.id for r in results] == sorted(EXPECTED)
    for r in results:
        want = EXPECTED[r.id]
        assert r.count == min(want, 50) and r.error is None
        assert r.status == {0: "none", 1: "unique"}.get(want, "multiple")
        assert len(r.solutions) == min(want, 3)
        assert all(satisfies(r.puzzle, s) for s in r.solutions)
        assert len({s.tobytes() for s in r.solutions}) == len(r.solutions)
        assert r.seconds >= 0


def test_one_process_and_two_give_the_same_results():
    one = solve_many(SAMPLES, workers=1, limit=2)
    two = solve_many(SAMPLES, workers=2, limit=2)
    assert all(same(a, b) for a, b in zip(one, two, strict=True))


@pytest.mark.parametrize("limit, keep", [(None, None), (1, None), (2, 0), (5, 3), (0, None)])
def test_answered_together_is_each_solved_alone(limit, keep):
    """``answered`` (force's answers in one call, the rest one by one) gives what
    ``solve_one`` of each gives: ids, counts, statuses, errors and solutions, in order."""
    from kakuro_np.engine.core import ahead
    ahead.main(["many"])
    with open(ROOT / "bench" / "sets" / "published.jsonl") as f:
        grids = [json.loads(line)["grid"] for line in f][:40]
    listed = ([(f"p{i}", kn.parse(g)) for i, g in enumerate(grids)] +
              [(p.name, str(p)) for p in sorted(PUZZLES.glob("k*.txt"))] + [("bad", "x ; 3 0")])
    together = list(answered(listed, limit, None, keep))
    alone = [solve_one(item, limit, None, keep) for item in listed]
    assert [(r.id, r.count, r.status, r.error) for r in together] == \
        [(r.id, r.count, r.status, r.error) for r in alone]
    for a, b in zip(together, alone):
        assert a.solutions.shape == b.solutions.shape
        if a.status == "unique":
            assert np.array_equal(a.solutions, b.solutions)


@pytest.mark.parametrize("keep", [None, 0])
def test_answered_lines_are_each_solved_alone_as_lines(keep):
    """The lines of ``answered`` (the plain grids read at once, the lines of those force
    solves written at once) are ``as_line`` of ``solve_one`` of each, but the seconds:
    a malformed run in a plain grid too, named by its line and column."""
    from kakuro_np.engine.core import ahead
    ahead.main(["many"])
    with open(ROOT / "bench" / "sets" / "published.jsonl") as f:
        grids = [json.loads(line)["grid"] for line in f][:30]
    listed = ([(f"p{i}", batch.Text(g)) for i, g in enumerate(grids)] +
              [("spaced", batch.Text(grids[0].replace(";", " ; "))), ("\u00e9 \"q\"", grids[1]),
               ("loose", "x;x;x\nx;_;_"), ("clueless", batch.Text("x;3 0;x\n0 3;_;3 0")),
               ("k3", str(PUZZLES / "k3.txt")), ("rows", [["x", (3, 0)], [(0, 3), "_"]]),
               ("bad", "x ; 3 0"), ("past", "x;3 46\n0 3;_")])
    together = [line.text for line in answered(listed, None, None, keep, lines=True)]
    alone = [batch.as_line(solve_one(item, None, None, keep)).text for item in listed]
    assert [seconds_dropped(t) for t in together] == [seconds_dropped(t) for t in alone]
    assert '"error": "2:3: a run of 2 blank cells has no across clue to its left"' in together[-6]


def seconds_dropped(line: str) -> dict:
    result = json.loads(line)
    assert isinstance(result.pop("seconds"), float)
    return result


@settings(max_examples=examples(60))
@given(st.lists(st.tuples(st.text(), st.floats(0, 1e4), filled_puzzles(max_side=6)),
                max_size=8), st.sampled_from([0, 1]))
def test_forced_lines_are_the_lines_of_their_results(drawn, keep):
    ids = [pid for pid, _, _ in drawn]
    seconds = [took for _, took, _ in drawn]
    puzzles = [p for _, _, (p, _) in drawn]
    fills = [fill for _, _, (_, fill) in drawn]
    lines = batch._forced_lines(ids, puzzles, fills, seconds, keep)
    for pid, took, p, fill, line in zip(ids, seconds, puzzles, fills, lines):
        kept = fill[None] if keep else np.zeros((0,) + p.shape, np.int8)
        assert line == batch.as_line(batch.Result(pid, 1, kept, "unique", None, took, p))


@pytest.mark.parametrize("limit, keep", [(None, None), (None, 0), (2, 1), (3, None), (1, None),
                                         (0, None), (None, -1)])
def test_a_hunt_for_two_first_gives_what_the_count_then_the_hunt_give(limit, keep):
    """Without a timeout, ``solve_one`` hunts for two solutions first (``_two_at_most``):
    the same results as the count then the hunt, which a timeout asks for; the two it
    keeps (by default) the same two."""
    listed = [(p.name, str(p)) for p in sorted(PUZZLES.glob("k*.txt"))] + [
        ("none", "x;3 0;4 0\n0 3;_;_\n0 3;_;_"), ("loose", "x;x;x\nx;_;_"), ("bad", "x ; 3 0")]
    for item in listed:
        hunted, counted = solve_one(item, limit, None, keep), solve_one(item, limit, 1e6, keep)
        assert (hunted.count, hunted.status, hunted.error) == \
            (counted.count, counted.status, counted.error)
        assert hunted.solutions.shape == counted.solutions.shape
        if hunted.count == 1 or len(hunted.solutions) == 2:
            assert np.array_equal(hunted.solutions, counted.solutions)


def test_a_bad_puzzle_records_its_error_and_the_batch_goes_on():
    results = solve_many([("bad", "x ; 3 0\n0 3 ; q"), ("k2", str(PUZZLES / "k2.txt")),
                          ("missing", "no/such/file.txt")], workers=2)
    assert [r.status for r in results] == ["error", "unique", "error"]
    assert results[0].error.startswith("2:7: unknown cell") and results[0].count is None
    assert results[0].puzzle is None and results[2].error


def test_a_puzzle_past_its_timeout_is_a_timeout():
    results = solve_many({"open": OPEN_BLOCK, "k0": PUZZLES / "k0.txt"}, workers=1, timeout=0.3)
    assert [r.status for r in results] == ["timeout", "unique"]
    assert "timed out" in results[0].error


def test_a_worker_that_dies_is_replaced_and_its_puzzle_recorded(monkeypatch):
    solve_one = batch.solve_one

    def dying(item, *args):
        if item[0] == "die":
            os._exit(3)                               # as the kernel's OOM killer would
        return solve_one(item, *args)

    monkeypatch.setattr(batch, "solve_one", dying)    # the forked workers inherit it
    grids = [(name, str(PUZZLES / f"{name}.txt")) for name in ("k0", "k1", "k2")]
    results = solve_many(grids[:2] + [("die", "x")] + grids[2:], workers=2)
    assert [r.id for r in results] == ["k0", "k1", "die", "k2"]
    assert [r.status for r in results] == ["unique", "unique", "error", "unique"]
    assert "died" in results[2].error


def test_every_input_kind_is_read_with_ids(tmp_path):
    (tmp_path / "set" / "deep").mkdir(parents=True)
    for name in ("k0", "k1"):
        (tmp_path / "set" / f"{name}.txt").write_text((PUZZLES / f"{name}.txt").read_text())
    (tmp_path / "set" / "deep" / "k2.txt").write_text((PUZZLES / "k2.txt").read_text())
    (tmp_path / "set" / "k1-solution.txt").write_text("not a puzzle")
    (tmp_path / "set" / "k1.svg").write_text("<svg/>")
    assert [i for i, _ in items(tmp_path / "set")] == ["deep/k2", "k0", "k1"]
    assert [i for i, _ in items(str(tmp_path / "set" / "k*.txt"))] == ["k0", "k1"]
    lines = [json.dumps({"id": "a", "grid": (PUZZLES / "k0.txt").read_text()}), "",
             json.dumps({"name": "a", "puzzle": (PUZZLES / "k1.txt").read_text()}),
             "{not json", json.dumps({"id": "c"}), json.dumps([1, 2])]
    (tmp_path / "set.jsonl").write_text("\n".join(lines) + "\n")
    read = items(tmp_path / "set.jsonl")
    assert [i for i, _ in read] == ["a", "a~2", "line 4", "c", "line 6"]
    results = solve_many(tmp_path / "set.jsonl", workers=1)
    assert [r.status for r in results] == ["unique", "unique", "error", "error", "error"]
    assert "not JSON" in results[2].error and "no grid" in results[3].error
    k0 = kn.format(kn.read(PUZZLES / "k0.txt"), "comma")
    (tmp_path / "collection.json").write_text(json.dumps(
        {"data": {"7": {"problem": k0, "author": "x"}, "8": {"answer": "?"}}}))
    results = solve_many(str(tmp_path / "collection.json"), workers=1)
    assert [(r.id, r.status) for r in results] == [("7", "unique"), ("8", "error")]
    assert [i for i, _ in items(PUZZLES / "k3.txt")] == ["k3"]
    with pytest.raises(kn.PuzzleError, match="no such file"):
        items(tmp_path / "nothing.txt")
    with pytest.raises(kn.PuzzleError, match="no file matches"):
        items(str(tmp_path / "*.nothing"))


def test_results_lines_are_json_with_comma_solutions(tmp_path):
    out = tmp_path / "r.jsonl"
    tally = run_batch(str(PUZZLES / "k[23].txt"), out, workers=1, limit=5)
    assert tally == {"skipped": 0, "unique": 1, "multiple": 1}
    k2, k3 = [json.loads(line) for line in out.read_text().splitlines()]
    assert (k2["id"], k2["size"], k2["count"], k2["status"]) == ("k2", [10, 8], 1, "unique")
    solved = kn.parse(k2["solutions"][0], format="comma")
    assert np.array_equal(solved.given, kn.kakuro(PUZZLES / "k2.txt")[0])
    assert (k3["count"], len(k3["solutions"]), k3["error"]) == (5, 5, None)


def _lines(path):
    """The results file without times, as comparable rows."""
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    return [{k: v for k, v in row.items() if k not in ("seconds", "error")} for row in rows]


#: The kill tests' ``--timeout``: the slow grid's time in each run that reaches its end (the
#: whole run and each resumed one). A sample takes milliseconds, but the first one a worker
#: solves loads the kernels from the cache (0.5 s of processor time; 2.2 s with three busy
#: processes on two cores, past a timeout of 2 s).
KILL_TIMEOUT = 6


def _killable_batch(folder):
    """The input of the kill tests (12 samples with a slow grid in 7th place, which holds
    the run while it is killed) and their command without ``--out``."""
    grids = [{"id": f"s{i}", "grid": (PUZZLES / f"k{i % 8}.txt").read_text()} for i in range(12)]
    grids.insert(6, {"id": "slow", "grid": OPEN_BLOCK})
    (folder / "in.jsonl").write_text("".join(json.dumps(g) + "\n" for g in grids))
    return [sys.executable, "-m", "kakuro_np", "batch", str(folder / "in.jsonl"), "--timeout",
            str(KILL_TIMEOUT)]


def _compile_the_batchs_kernels():
    """The kernels a batch's workers run, in the cache before the kill tests' runs. On an
    empty cache a run's samples time out while helpers compile (the timeout counts the
    compile), or the essay answers them meanwhile (``first_run``), in its own order where
    the engine hunts in any order: either way a run made later answers otherwise."""
    from kakuro_np.engine.core import ahead
    from kakuro_np.solve import kakuro_kernels
    from kakuro_np.turns import count_kernels
    ahead.main(["model", *count_kernels(None), *kakuro_kernels(batch.KEEP, "any")])


@pytest.fixture(scope="module")
def whole_batch(tmp_path_factory):
    """The kill tests' results file, written by a run nobody stops (one for all three)."""
    _compile_the_batchs_kernels()
    folder = tmp_path_factory.mktemp("whole")
    whole = folder / "whole.jsonl"
    subprocess.run(_killable_batch(folder) + ["--workers", "2", "--out", str(whole)], check=True,
                   cwd=ROOT, capture_output=True)
    return whole


@pytest.mark.xdist_group("batch-killed")         # one worker: the whole run is made once
@pytest.mark.parametrize("signum, workers", [(signal.SIGKILL, "1"), (signal.SIGTERM, "2"),
                                             (signal.SIGINT, "2")])
def test_a_batch_killed_and_resumed_writes_the_same_file(tmp_path, whole_batch, signum, workers):
    cmd = _killable_batch(tmp_path) + ["--workers", workers]
    whole = whole_batch
    killed = tmp_path / "killed.jsonl"
    run = subprocess.Popen(cmd + ["--out", str(killed)], cwd=ROOT, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300                          # a wait on a condition
    while (not killed.exists() or killed.read_text().count("\n") < 6) and \
            time.monotonic() < deadline:
        time.sleep(0.05)
    run.send_signal(signum)                                   # on the slow puzzle
    assert run.wait() == {signal.SIGKILL: -signal.SIGKILL, signal.SIGTERM: 143,
                          signal.SIGINT: 130}[signum]
    assert killed.read_text().count("\n") == 6
    with open(killed, "a") as f:
        f.write('{"id": "slow", "sta')                        # a line cut short
    again = subprocess.run(cmd + ["--out", str(killed)], cwd=ROOT, capture_output=True,
                           text=True)
    assert again.returncode == 0 and "6 already there" in again.stderr
    assert _lines(killed) == _lines(whole)
    assert [row["status"] for row in _lines(whole)][6] == "timeout"


def test_a_malformed_run_is_located_by_file_line_and_column(tmp_path):
    """As ``kakuro-np solve`` names it: ``bad.txt:2:5``, not the cell (1, 1)."""
    (tmp_path / "bad.txt").write_text("x ; x ; x\nx ; _ ; _\n")
    r = solve_one(("bad", str(tmp_path / "bad.txt")))
    assert r.status == "error"
    said = "2:5: a run of 2 blank cells has no across clue to its left"
    assert r.error == f"{tmp_path / 'bad.txt'}:{said}"
    r = solve_one(("text", "x ; x ; x\nx ; _ ; _"))
    assert r.error == said


# -- the safety of its output and its workers (issue 47) ------------------------------

SMALL = str(PUZZLES / "k[0-2].txt")
#: Seconds a refusal may take: the issue's bound (checked before anything is solved), in
#: processor time (the interpreter's start and the imports: 0.2 s), which a machine that
#: shares its cores does not stretch; a refusal's wall time may take ten times that.
REFUSAL_SECONDS = 2.0
#: Seconds the workers have to die once the batch's process is gone: the issue's bound.
DEATH_SECONDS = 5.0
#: A generous bound for what depends on the machine: starting workers, and a first compile
#: of the kernels (2.5 min on 2 idle cores, 4 min on 2 busy ones).
PATIENCE = 600


def kakuro_np(*args, **kw):
    """``kakuro-np batch ARGS`` in a subprocess, its output captured as text."""
    if "stdout" not in kw and "stderr" not in kw:
        kw["capture_output"] = True
    else:
        kw.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "kakuro_np", "batch", *args], cwd=ROOT,
                          text=True, timeout=PATIENCE, **kw)


def refused(*args, **kw):
    """A batch expected to be refused at once: its stderr line; exit 2 checked, and time."""
    start, worked = time.monotonic(), _children_seconds()
    err = refusal(*args, **kw)
    took, worked = time.monotonic() - start, _children_seconds() - worked
    assert worked < REFUSAL_SECONDS, f"took {worked:.2f} s of processor time"
    assert took < 10 * REFUSAL_SECONDS, f"took {took:.2f} s"
    return err


def _children_seconds() -> float:
    """The processor seconds spent by this process's children that have ended (and theirs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def refusal(*args, **kw):
    """A batch expected to be refused: its stderr line; exit 2 and one line checked."""
    run = kakuro_np(*args, **kw)
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    return run.stderr


@pytest.mark.parametrize("out", ["/dev/full", "/dev/zero"])
def test_a_device_as_out_is_refused_at_once(out):
    if not os.path.exists(out):
        pytest.skip(f"no {out}")
    assert "is a device, not a regular file" in refused(SMALL, "--out", out)


def test_a_fifo_and_a_directory_as_out_are_refused_at_once(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert "is a pipe (FIFO)" in refused(SMALL, "--out", str(fifo))
    assert "is a directory" in refused(SMALL, "--out", str(tmp_path))


def test_dev_stdout_on_a_pipe_is_refused_saying_to_omit_out():
    err = refused(SMALL, "--out", "/dev/stdout", stdout=subprocess.PIPE)
    assert "omit it to write the results to stdout" in err and "None" not in err


@pytest.mark.parametrize("text", [b"my notes\nabout puzzles\n", b"my notes\nabout puzzles",
                                  b'{"id": "k0", "status": "unique"}\nsomething else',
                                  b'{"id": "k0", "status": "unique"}\n[1, 2]\n', b"\n"])
def test_a_file_that_is_not_a_results_file_is_refused_and_left_unchanged(tmp_path, text):
    out = tmp_path / "notes.txt"
    out.write_bytes(text)
    before = os.stat(out)
    err = kakuro_np(SMALL, "--out", str(out))
    assert err.returncode == 2 and "not a results file, left as it is" in err.stderr
    assert err.stderr.count("\n") == 1
    assert out.read_bytes() == text and os.stat(out).st_mtime_ns == before.st_mtime_ns


def test_an_empty_file_and_dev_null_take_results(tmp_path):
    out = tmp_path / "empty.jsonl"
    out.touch()
    assert kakuro_np(SMALL, "--out", str(out), "--workers", "1").returncode == 0
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["k0", "k1", "k2"]
    assert kakuro_np(SMALL, "--out", os.devnull, "--workers", "1").returncode == 0


def test_without_out_the_results_go_to_stdout():
    run = kakuro_np(SMALL, "--workers", "1")
    assert run.returncode == 0 and "stdout: 3 puzzles solved (" in run.stderr
    assert [json.loads(line)["id"] for line in run.stdout.splitlines()] == ["k0", "k1", "k2"]


def test_a_read_only_results_file_cannot_be_written(tmp_path, monkeypatch, capsys):
    out = tmp_path / "r.jsonl"
    out.touch()
    if os.geteuid() != 0:                              # root writes a 0444 file anyway
        out.chmod(0o444)
    else:
        real = open

        def read_only(path, mode="r", *args, **kw):
            if str(path) == str(out) and "a" in mode:
                raise PermissionError(errno.EACCES, "Permission denied", str(path))
            return real(path, mode, *args, **kw)

        monkeypatch.setattr(batch, "open", read_only, raising=False)
    assert main(["batch", SMALL, "--out", str(out), "--workers", "1"]) == 2
    assert capsys.readouterr().err == \
        f"kakuro-np: {out}: cannot write the results: Permission denied\n"


def test_a_full_disk_is_one_line_and_the_lines_so_far_are_kept(tmp_path, monkeypatch, capsys):
    class Full(io.RawIOBase):
        """A file with room for ``room`` bytes, then ENOSPC (as a disk filling up)."""

        def __init__(self, room):
            self.room, self.taken = room, b""

        def writable(self):
            return True

        def write(self, data):
            if not self.room:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            n = min(len(data), self.room)
            self.taken += bytes(data[:n])
            self.room -= n
            return n

    f = Full(15)
    write_line(f, '{"id": "a"}\n', "r.jsonl")
    with pytest.raises(PuzzleError, match="^r.jsonl: cannot write the results: no space left "
                                          "on device$"):
        write_line(f, '{"id": "b"}\n', "r.jsonl")     # 3 bytes fit: cut, as by a kill
    assert f.taken == b'{"id": "a"}\n{"i'
    out = tmp_path / "r.jsonl"
    real = open
    monkeypatch.setattr(batch, "open", lambda path, mode="r", *a, **kw: Full(0)
                        if str(path) == str(out) else real(path, mode, *a, **kw),
                        raising=False)
    assert main(["batch", SMALL, "--out", str(out), "--workers", "1"]) == 2
    assert capsys.readouterr().err == \
        f"kakuro-np: {out}: cannot write the results: no space left on device\n"


def test_a_full_disk_on_stdout_is_one_line():
    with open("/dev/full", "w") as full:
        run = kakuro_np(SMALL, "--workers", "1", stdout=full, stderr=subprocess.PIPE)
    assert run.returncode == 2
    assert run.stderr == "kakuro-np: stdout: cannot write the results: no space left on device\n"


def test_a_reader_of_stdout_gone_early_ends_the_batch_quietly():
    read, write = os.pipe()
    os.close(read)                                      # the reader left before the first line
    try:
        run = subprocess.Popen([sys.executable, "-m", "kakuro_np", "batch", str(PUZZLES),
                                "--workers", "2"], cwd=ROOT, stdout=write,
                               stderr=subprocess.PIPE)
    finally:
        os.close(write)
    _, err = run.communicate(timeout=PATIENCE)          # the workers, holding stderr, end too
    assert run.returncode == 0 and err == b""


def _children(pid) -> dict:
    """``{pid: start time}`` of the processes whose parent is ``pid`` (from /proc)."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields and int(fields[1]) == pid:
                found[int(entry)] = fields[19]
    return found


def _compiling(pid) -> bool:
    """Whether ``pid`` is a helper compiling kernels ahead (on a cold cache), not a worker."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"kakuro_np.engine.core.ahead" in f.read()
    except OSError:
        return False


def _stat(pid):
    """The fields of /proc/PID/stat after the name (state first), or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _alive(pid, started) -> bool:
    """The process is running still: not gone, not a zombie, and not another with its pid."""
    fields = _stat(pid)
    return fields is not None and fields[0] not in "ZX" and fields[19] == started


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_the_workers_die_with_the_batch_process(tmp_path, signum):
    (tmp_path / "in.jsonl").write_text("".join(json.dumps({"id": f"open{i}", "grid": OPEN_BLOCK})
                                               + "\n" for i in range(4)))
    out = tmp_path / "r.jsonl"
    run = subprocess.Popen([sys.executable, "-m", "kakuro_np", "batch", str(tmp_path / "in.jsonl"),
                            "--out", str(out), "--workers", "2", "--timeout", str(PATIENCE)],
                           cwd=ROOT, stderr=subprocess.PIPE, start_new_session=True)
    workers = {}
    try:
        deadline = time.monotonic() + PATIENCE
        while True:
            workers = _children(run.pid)
            if len([p for p in workers if not _compiling(p)]) >= 2 or \
                    time.monotonic() >= deadline:
                break
            assert run.poll() is None, run.stderr.read()
            time.sleep(0.05)
        assert len([p for p in workers if not _compiling(p)]) == 2    # and any helpers
        time.sleep(0.5)                                 # at work on the open blocks
        os.kill(run.pid, signum)
        code = run.wait(PATIENCE)
        deadline = time.monotonic() + DEATH_SECONDS
        while any(_alive(*w) for w in workers.items()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid, started in workers.items() if _alive(pid, started)]
        assert code == {signal.SIGKILL: -signal.SIGKILL, signal.SIGTERM: 143,
                        signal.SIGINT: 130}[signum]
        if signum != signal.SIGKILL:
            assert run.stderr.read().decode().count("\n") == 1
        assert out.read_bytes() == b""                  # nothing cut: no line was due yet
    finally:                                            # nothing left behind, pass or fail
        if run.poll() is None:
            run.kill()
        for pid, started in workers.items():
            if _alive(pid, started):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


def test_a_worker_whose_parent_died_before_it_started_ends_at_once():
    code = subprocess.run([sys.executable, "-c", "from kakuro_np.batch import _worker_start; "
                           "_worker_start(1); print('alive')"], capture_output=True, text=True,
                          timeout=PATIENCE, cwd=ROOT)
    assert code.returncode == 1 and code.stdout == ""


def test_a_full_disk_on_stdout_is_one_line_for_every_command():
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-m", "kakuro_np", "kc", "20"], cwd=ROOT,
                             stdout=full, stderr=subprocess.PIPE, text=True, timeout=PATIENCE)
    assert run.returncode == 2
    assert run.stderr == "kakuro-np: cannot write the output: no space left on device\n"


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
def test_where_no_signal_comes_a_worker_watches_its_parent():
    script = ("import os, threading, time\n"
              "from kakuro_np.batch import _watch\n"
              "parent = os.getpid()\n"
              "child = os.fork()\n"
              "if child == 0:\n"
              "    null = os.open(os.devnull, os.O_WRONLY)\n"
              "    os.dup2(null, 1), os.dup2(null, 2)\n"        # the run ends with its parent
              "    threading.Thread(target=_watch, args=(parent,), daemon=True).start()\n"
              "    time.sleep(60)\n"
              "    os._exit(0)\n"
              "print(child)\n")
    run = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                         text=True, timeout=PATIENCE)
    child = int(run.stdout)
    fields = _stat(child)                              # None: gone already
    deadline = time.monotonic() + DEATH_SECONDS
    while fields and _alive(child, fields[19]) and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = bool(fields) and _alive(child, fields[19])
    if alive:
        os.kill(child, signal.SIGKILL)
    assert not alive


class FifoWriter:
    """A thread that writes ``text`` into the FIFO ``path`` once a reader opens it: a batch
    that reads the FIFO gets ``text`` rather than hanging. ``close`` lets the thread go when
    nothing read it (the FIFO was left alone, as it should be)."""

    def __init__(self, path, text):
        self.path, self.text = path, text
        self.thread = threading.Thread(target=self._write, daemon=True)
        self.thread.start()

    def _write(self):
        fd = os.open(self.path, os.O_WRONLY)            # blocks until a reader opens it
        try:
            os.write(fd, self.text.encode())
        except BrokenPipeError:
            pass
        finally:
            os.close(fd)

    def close(self):
        reader = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
        try:
            self.thread.join()
        finally:
            os.close(reader)


K0 = (PUZZLES / "k0.txt").read_text()


def test_a_json_lines_grid_is_puzzle_text_never_a_path(tmp_path):
    (tmp_path / "secret.txt").write_text("the secret words of the machine\n")
    (tmp_path / "k0.txt").write_text(K0)
    os.mkfifo(tmp_path / "fifo.txt")
    fifo = FifoWriter(tmp_path / "fifo.txt", K0)
    try:
        grids = [("secret", str(tmp_path / "secret.txt")), ("file", str(tmp_path / "k0.txt")),
                 ("fifo", str(tmp_path / "fifo.txt")), ("text", K0)]
        (tmp_path / "in.jsonl").write_text("".join(json.dumps({"id": i, "grid": g}) + "\n"
                                                   for i, g in grids))
        results = batch.solve_many(str(tmp_path / "in.jsonl"), workers=1)
    finally:
        fifo.close()
    assert [(r.id, r.status) for r in results] == [("secret", "error"), ("file", "error"),
                                                    ("fifo", "error"), ("text", "unique")]
    assert not any("secret words" in r.error for r in results[:3])
    assert "cannot tell the format" in results[0].error
    (tmp_path / "in.json").write_text(json.dumps({"data": {"c": {"problem": grids[1][1]}}}))
    assert [r.status for r in batch.solve_many(str(tmp_path / "in.json"), workers=1)] == \
        ["error"]


@pytest.mark.parametrize("name", ["in.jsonl", "in.json", "in.txt"])
def test_a_fifo_as_input_is_refused_and_never_opened(tmp_path, name):
    os.mkfifo(tmp_path / name)
    fifo = FifoWriter(tmp_path / name, json.dumps({"id": "a", "grid": K0}) + "\n")
    try:
        with pytest.raises(PuzzleError, match=r"is a pipe \(FIFO\), not a puzzle file or a"):
            batch.items(tmp_path / name)
    finally:
        fifo.close()
    err = refusal(str(tmp_path / name), "--out", str(tmp_path / "r.jsonl"))
    assert err.startswith(f"kakuro-np: {tmp_path / name}: is a pipe (FIFO)")
    assert not (tmp_path / "r.jsonl").exists()


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_device_as_input_is_refused():
    with pytest.raises(PuzzleError, match="^/dev/zero: is a device, not a puzzle file"):
        batch.items("/dev/zero")


def _folder_with_links(root, loops):
    """``root/in``: k0, sub/k1, a link to k0 (alias.txt), a FIFO and ``loops``, links to
    folders above (``self -> .``, ``up -> ..``, ``sub/back -> ..``); a puzzle outside it."""
    (root / "in" / "sub").mkdir(parents=True)
    (root / "in" / "k0.txt").write_text(K0)
    (root / "in" / "sub" / "k1.txt").write_text((PUZZLES / "k1.txt").read_text())
    (root / "in" / "alias.txt").symlink_to("k0.txt")
    (root / "outside.txt").write_text(K0)
    os.mkfifo(root / "in" / "pipe.txt")                 # never opened: not a regular file
    for link, target in loops:
        (root / "in" / link).symlink_to(target, target_is_directory=True)
    return root / "in"


@pytest.mark.parametrize("loops", [[("self", ".")],
                                   [("up", ".."), ("sub/back", "..")]],
                         ids=["one-loop", "two-loops"])
def test_a_folder_walk_follows_no_link_to_a_folder_and_reads_each_file_once(tmp_path, loops):
    folder = _folder_with_links(tmp_path, loops)
    assert [i for i, _ in batch.items(folder)] == ["k0", "sub/k1"]
    assert [i for i, _ in batch.items(str(folder / "**" / "*.txt"))] == ["k0", "sub/k1"]


def test_a_folder_given_with_its_results_inside_skips_them(tmp_path):
    folder = tmp_path / "set"
    folder.mkdir()
    for name in ("k0", "k1"):
        (folder / f"{name}.txt").write_text((PUZZLES / f"{name}.txt").read_text())
    out = folder / "results.jsonl"
    assert batch.run_batch(folder, out, workers=1) == {"skipped": 0, "unique": 2}
    assert batch.run_batch(folder, out, workers=1) == {"skipped": 2}
    (folder / "old-results.jsonl").write_bytes(out.read_bytes())   # another batch's results
    assert batch.run_batch(str(folder / "*"), out, workers=1) == {"skipped": 2}
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["k0", "k1"]


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="needs /proc")
def test_a_kernel_file_as_out_is_refused():
    err = refusal(SMALL, "--out", "/proc/self/mem")
    assert err.startswith("kakuro-np: /proc/self/mem: is a file of the kernel")


def test_out_in_a_folder_that_is_not_there_is_refused_before_the_input_is_read(tmp_path):
    out = tmp_path / "no" / "such" / "r.jsonl"
    err = refusal(str(tmp_path / "missing-input"), "--out", str(out))
    assert err == f"kakuro-np: {out}: cannot be made: no folder {tmp_path / 'no' / 'such'}\n"


def test_a_failing_write_is_one_line(tmp_path, monkeypatch, capsys):
    class Broken(io.RawIOBase):
        """A results file whose disk fails: every write is EIO."""

        def writable(self):
            return True

        def write(self, data):
            raise OSError(errno.EIO, os.strerror(errno.EIO))

    out = tmp_path / "r.jsonl"
    real = open
    monkeypatch.setattr(batch, "open", lambda path, mode="r", *a, **kw: Broken()
                        if str(path) == str(out) else real(path, mode, *a, **kw),
                        raising=False)
    assert main(["batch", SMALL, "--out", str(out), "--workers", "1"]) == 2
    assert capsys.readouterr().err == \
        f"kakuro-np: {out}: cannot write the results: {os.strerror(errno.EIO)}\n"
