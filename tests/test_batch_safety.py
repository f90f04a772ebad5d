"""Batch output is safe (issue 47): ``--out`` is a results file or a new path, refused
before anything loads otherwise; a file of another kind is refused and left unchanged;
the workers die with the batch's process whatever ends it; a full disk and a reader of
stdout gone early are one line, or none, never a traceback."""

import contextlib
import errno
import io
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from kakuro_np import batch
from kakuro_np.batch import write_line
from kakuro_np.cli import main
from kakuro_np.errors import PuzzleError
from conftest import PUZZLES, ROOT
from test_batch import OPEN_BLOCK                      # keeps a worker busy: too many to count

SMALL = str(PUZZLES / "k[0-2].txt")
#: Seconds a refusal may take: the issue's bound (checked before anything is solved).
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
    start = time.monotonic()
    run = kakuro_np(*args, **kw)
    took = time.monotonic() - start
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert took < REFUSAL_SECONDS, f"took {took:.2f} s"
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
