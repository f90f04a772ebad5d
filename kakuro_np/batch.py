"""Whole collections at once: every puzzle solved across every core, resumably.

``solve_many`` answers a list of puzzles with one ``Result`` each, in input
order; ``run_batch`` (``kakuro-np batch``) appends one JSON line per puzzle to
a results file, in input order, skipping the ids the file already has, so a
batch killed halfway goes on where it stopped. ``items`` reads what a batch
may be given: a directory, a glob, a JSON-lines file, a collection JSON or a
single puzzle file.

Glossary
--------
item    : ``(id, grid)``, a puzzle to solve as the input names it; ``grid`` is
          text, a path, rows or a Puzzle, read in the worker so that a bad one
          becomes that puzzle's error. In what ``items`` reads, a path is a
          ``File`` (found in the input the command was given) and a JSON
          input's grid is ``Text``: never taken for a path.
walk    : the files of a folder (or a ``**`` glob) and below, hidden ones and
          links to folders left out (``_walk``), each file once (``_files``).
result  : what one puzzle came to (``Result``): its count (capped by ``limit``),
          some of its solutions, a status, the error if any, and the seconds.
status  : "unique", "multiple" or "none" by the count; "timeout" when the
          puzzle's ``timeout`` passed; "error" when it could not be read or solved.
workers : processes solving at once (default: every core); 1 solves in the
          calling process. They die with the process that started them, however
          it ends (``_worker_start``).
results: ``run_batch``'s file, one result a line, each beginning LINE_START;
          a file of any other kind is refused, never cut.
"""

from __future__ import annotations

import errno
import fnmatch
import glob
import json
import os
import signal
import stat
import sys
import threading
import time
import weakref
from contextlib import closing, contextmanager
from typing import NamedTuple

import numpy as np

from .errors import PuzzleError
from .files import KINDS, output_path, why

#: How many solutions a result keeps when neither ``keep`` nor ``limit`` is given.
KEEP = 2
#: Endings of the names in a directory given as input that are not puzzles: pictures,
#: text, and ``generate --out``'s solution files (hidden files are skipped too).
NOT_PUZZLES = ("-solution.txt", ".svg", ".png", ".jpg", ".jpeg", ".gif", ".pdf", ".md")
#: The fields of a JSON-lines input that may hold a puzzle's id, and its grid.
ID_KEYS = ("id", "name")
GRID_KEYS = ("grid", "puzzle", "problem", "text")
#: Characters that make an input a glob rather than a path.
GLOB_CHARS = "*?["
#: Folders whose files the kernel makes up as they are read (procfs, sysfs): no output.
KERNEL_FOLDERS = ("/proc", "/sys")
#: The most of a file's first line looked at to tell a results file in a walk.
HEAD_BYTES = 1 << 20


class Text(str):
    """A grid that is a puzzle's text, never a path: what a JSON input holds."""
    __slots__ = ()


class File(str):
    """A grid that is the path of a file found in the input the batch was given."""
    __slots__ = ()


class Result(NamedTuple):
    """One puzzle's answer in a batch.

    id        : the puzzle's name in the input.
    count     : its solutions, at most ``limit`` (None on an error or timeout).
    solutions : (n, H, W) int8, ``n`` at most ``keep``: any of its solutions.
    status    : "unique", "multiple", "none", "timeout" or "error".
    error     : the message, or None.
    seconds   : the time it took.
    puzzle    : the Puzzle read, or None when it could not be read.
    """
    id: str
    count: object
    solutions: np.ndarray
    status: str
    error: object
    seconds: float
    puzzle: object

    def to_json(self) -> dict:
        """The result as ``batch`` writes it: size, and solutions in the comma format
        (``formats.format``'s text, all written at once: ``formats.bulk.comma_texts``)."""
        from .formats.bulk import comma_texts
        return {"id": self.id,
                "size": None if self.puzzle is None else list(self.puzzle.shape),
                "count": self.count, "status": self.status,
                "solutions": comma_texts([self.puzzle] * len(self.solutions),
                                         list(self.solutions)),
                "seconds": round(self.seconds, 4), "error": self.error}


class Line(NamedTuple):
    """A ``Result`` as ``run_batch`` writes it (``as_line``), made where the puzzle was
    solved: the main process of a batch only orders lines and appends them.

    id     : the puzzle's name in the input.
    status : the Result's status.
    text   : its results line, JSON with its newline.
    """
    id: str
    status: str
    text: str


def as_line(result: Result) -> Line:
    """The ``Line`` of a Result.

    >>> line = as_line(solve_one(("k2", "puzzles/k2.txt")))
    >>> line.id, line.status, line.text[:48]
    ('k2', 'unique', '{"id": "k2", "size": [10, 8], "count": 1, "statu')
    """
    return Line(result.id, result.status, _JSON.encode(result.to_json()) + "\n")


#: ``json.dumps(..., ensure_ascii=False)``, made once.
_JSON = json.JSONEncoder(ensure_ascii=False)


def solve_one(item, limit=None, timeout=None, keep=None) -> Result:
    """The ``Result`` of one ``(id, grid)``; it never raises for a bad or slow puzzle.

    The count is ``count(grid, limit=limit)``; the solutions kept, up to
    ``keep`` (default ``limit``, or KEEP without one), are any the hunt finds
    (``kakuro(order="any")``). ``timeout`` is for both together. Without one, and
    with at most two solutions to keep (as by default), a hunt for two solutions comes
    first: where it finds fewer, they are the count and the solutions kept, in one walk;
    else the two it found are those kept (``_two_at_most``).

    Examples
    --------
    >>> r = solve_one(("k3", "puzzles/k3.txt"), limit=10)
    >>> r.status, r.count, r.solutions.shape
    ('multiple', 10, (10, 11, 11))
    >>> solve_one(("bad", "x ; 3 0\\n0 3 ; x")).status
    'error'
    """
    from .errors import SolveTimeout
    from .solve import count, kakuro
    pid, grid = item
    start = time.perf_counter()
    puzzle, found, kept = None, None, np.zeros((0, 0, 0), np.int8)
    status, error = "error", None
    try:
        if isinstance(grid, Exception):                  # an input entry that is no puzzle
            raise grid
        puzzle = _checked(grid)
        kept = np.zeros((0,) + puzzle.shape, np.int8)
        wanted = keep if keep is not None else (limit or KEEP)   # solutions kept at most
        hunted = (_two_at_most(puzzle) if timeout is None and _at_least(limit, 2)
                  and _at_least(keep, 0) and wanted <= 2 else None)
        exact = hunted is not None and len(hunted) < 2
        found = len(hunted) if exact else count(puzzle, limit=limit, timeout=timeout)
        most = min(found, wanted)
        if exact or (hunted is not None and most == 2):     # what kakuro(limit=most) gives
            kept = hunted[:most]
        elif most:
            left = None if timeout is None else max(timeout - (time.perf_counter() - start),
                                                    1e-3)
            kept = kakuro(puzzle, limit=most, order="any", timeout=left)
        status = "multiple" if found > 1 else ("none", "unique")[found]
    except SolveTimeout as e:
        status, error, found = "timeout", str(e), None
    except (ValueError, OSError, MemoryError) as e:      # PuzzleError is a ValueError
        error, found = str(e) or type(e).__name__, None
    except Exception as e:                               # a bug: still one result
        error, found = f"internal error ({type(e).__name__}: {e})", None
    if status in ("timeout", "error") and puzzle is not None:
        kept = np.zeros((0,) + puzzle.shape, np.int8)
    return Result(str(pid), found, kept, status, error, time.perf_counter() - start, puzzle)


def _two_at_most(puzzle):
    """``kakuro(puzzle, limit=2, order="any")``, or None where it fails (the count then says
    why). Fewer than two are all the solutions (most puzzles that force does not solve
    alone: one hunt finds them, and so counts them, where ``count`` and then ``kakuro``
    would take two walks); two are the two a batch keeps by default."""
    from .solve import kakuro
    try:
        return kakuro(puzzle, limit=2, order="any")
    except Exception:
        return None


#: Puzzles that ``answered`` hands to the engine in one call.
AT_ONCE = 256


def answered(items, limit=None, timeout=None, keep=None, lines=False, start=True):
    """``solve_one`` of each item, in order (its ``Line`` with ``lines``): the puzzles
    that force alone solves, most published ones, are answered together, AT_ONCE in a
    call of the engine (``model.forced_answers``; ``start``: it may start a helper
    compiling that call), the others one by one.

    Examples
    --------
    >>> [(r.id, r.status, r.count) for r in answered(
    ...     [("k2", "puzzles/k2.txt"), ("k3", "puzzles/k3.txt"), ("bad", "x ; 3 0")], limit=2)]
    [('k2', 'unique', 1), ('k3', 'multiple', 2), ('bad', 'error', None)]
    """
    for a in range(0, len(items), AT_ONCE):
        yield from _answered_at_once(items[a:a + AT_ONCE], limit, timeout, keep, lines, start)


def _answered_at_once(items, limit, timeout, keep, lines, start):
    """``answered`` of at most AT_ONCE items: each read (the plain grids all at once,
    ``formats.bulk.read_plain``, the others by ``_checked``), those force solves answered by
    one call (their lines written at once, ``_forced_lines``), the rest (and any that could
    not be read) by ``solve_one``.

    A plain grid's runs are checked only where force does not solve it (it solves none
    with a malformed run): one that fails goes to ``solve_one`` as its text, which
    ``_checked`` reads again, naming the run by its line and column."""
    from .engine.model import forced_answers
    from .formats import check_runs
    from .formats.bulk import read_plain
    read, seconds, plain = {}, {}, set()
    if _at_least(limit, 1) and _at_least(keep, 0):     # else solve_one says what is wrong
        began = time.perf_counter()
        fast = read_plain([grid if isinstance(grid, str) and not isinstance(grid, File)
                           else None for _, grid in items])
        share = (time.perf_counter() - began) / len(items)
        for i, ((_, grid), puzzle) in enumerate(zip(items, fast)):
            if puzzle is not None:
                read[i], seconds[i] = puzzle, share
                plain.add(i)
                continue
            began = time.perf_counter()
            try:
                if not isinstance(grid, Exception):
                    read[i] = _checked(grid)
            except Exception:               # solve_one says what, as ever
                pass
            seconds[i] = share + time.perf_counter() - began
    began = time.perf_counter()
    solutions = dict(zip(read, forced_answers(list(read.values()), start)))
    share = (time.perf_counter() - began) / max(len(read), 1)
    most = min(1, keep if keep is not None else (limit or KEEP))
    solved = [i for i, solution in solutions.items() if solution is not None]
    if lines and solved:
        written = dict(zip(solved, _forced_lines(
            [str(items[i][0]) for i in solved], [read[i] for i in solved],
            [solutions[i][0] for i in solved], [seconds[i] + share for i in solved], most)))
    for i, (pid, grid) in enumerate(items):
        solution = solutions.get(i)
        if solution is None:
            if i in plain:
                try:
                    check_runs(read[i])
                except PuzzleError:
                    del read[i]
            yield _answer(solve_one((pid, read.get(i, grid)), limit, timeout, keep), lines)
        elif lines:
            yield written[i]
        else:
            puzzle = read[i]
            kept = solution if most else np.zeros((0,) + puzzle.shape, np.int8)
            yield Result(str(pid), 1, kept, "unique", None, seconds[i] + share, puzzle)


def _forced_lines(ids, puzzles, solutions, seconds, keep: int) -> list:
    """The ``Line`` of each puzzle force solved, as ``as_line`` writes its Result (count 1,
    "unique", its solution kept unless ``keep`` is 0), the solutions written at once
    (``formats.bulk.comma_texts``)."""
    from .formats.bulk import comma_texts
    texts = comma_texts(puzzles, solutions, json=True) if keep else [None] * len(ids)
    found = []
    for pid, puzzle, text, took in zip(ids, puzzles, texts, seconds):
        h, w = puzzle.shape
        kept = f'"{text}"' if keep else ""
        found.append(Line(pid, "unique", f'{{"id": {_JSON.encode(pid)}, "size": [{h}, {w}], '
                          f'"count": 1, "status": "unique", "solutions": [{kept}], '
                          f'"seconds": {float.__repr__(round(took, 4))}, '      # as JSON
                          '"error": null}\n'))
    return found


def _at_least(value, low: int) -> bool:
    """Whether ``value`` is None or a whole number of at least ``low``."""
    return value is None or (isinstance(value, (int, np.integer)) and value >= low)


def _checked(grid):
    """The puzzle of a batch item, its runs checked: a file's or a text's malformed run is
    named by its line and column (``book.kakuro:9:70: ...``), as ``kakuro-np solve``
    names it, not by its cell. A path (``_path_of``) is read by ``_read_file``; text is
    parsed as text; a Puzzle is itself (checked when it was made)."""
    from .puzzle import Puzzle
    if type(grid) is Puzzle:
        return grid
    from .formats import as_puzzle, check_runs, parse, with_places
    path = _path_of(grid)
    if path is None and not isinstance(grid, (str, bytes)):
        return as_puzzle(grid)
    text = grid if path is None else _read_file(path)
    try:
        puzzle = parse(text)
        try:
            check_runs(puzzle)
        except PuzzleError:                  # read again, for the places that name it
            check_runs(*with_places(parse, text))
            raise
    except PuzzleError as e:
        raise (e.with_source(path) if path is not None and not e.source else e) from None
    return puzzle


def _path_of(grid):
    """The path a grid names, or None: a ``Text`` is never one, a ``File`` or an
    ``os.PathLike`` always is, and other text is one where ``formats.read`` would take it
    for one (the grids of the Python API)."""
    from .formats import _looks_like_path
    if isinstance(grid, Text):
        return None
    if isinstance(grid, (File, os.PathLike)):
        return os.fspath(grid)
    if isinstance(grid, (str, bytes)) and _looks_like_path(grid):
        return os.fsdecode(grid)
    return None


def _read_file(path) -> bytes:
    """A puzzle file's bytes, as ``formats.read`` reads them (at most MAX_TEXT and one more,
    for the readers to refuse), but only from a regular file (``_open_regular``)."""
    from .formats.text import MAX_TEXT
    with _open_regular(path, "cannot read file") as f:
        try:
            return f.read(MAX_TEXT + 1)
        except OSError as e:
            raise PuzzleError(f"cannot read file: {why(e)}", source=path) from None


def _open_regular(path, refusal: str):
    """``path`` opened to read bytes if it is a regular file; anything else (a FIFO, a socket,
    a device, a folder) is a PuzzleError ``refusal: is ...`` naming it, as is a failure to
    open it. It is looked at before it is opened, and opened without blocking, so that a
    FIFO (even one put in its place meanwhile) never waits for a writer."""
    try:
        _regular(os.stat(path).st_mode, path, refusal)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise PuzzleError(f"{refusal}: {why(e)}", source=path) from None
    f = os.fdopen(fd, "rb")
    try:
        _regular(os.fstat(fd).st_mode, path, refusal)
    except BaseException:
        f.close()
        raise
    return f


def _regular(mode, path, refusal: str) -> None:
    """Refuse (a PuzzleError ``refusal: is ...``) a file whose mode is not a regular file's."""
    if not stat.S_ISREG(mode):
        raise PuzzleError(f"{refusal}: is {_kind(mode)}, not a regular file", source=path)


def _kind(mode) -> str:
    """What a file that is not a regular one is, by its mode ("a pipe (FIFO)", ...)."""
    return next((name for test, name in KINDS if test(mode)), "not a regular file")


def items(source, skip=None) -> list:
    """The ``(id, grid)`` of each puzzle a batch input holds, in a fixed order.

    ``source`` is a directory (every file in it and below, by path, less
    NOT_PUZZLES, hidden files and results files, links to folders not
    followed: see ``_walk`` and ``_files``; ids are the paths from it, less
    the suffix), a glob (ids likewise, from the common folder), a JSON-lines
    file (one object a line, its id under ID_KEYS, else its line number, and
    its grid under GRID_KEYS: a puzzle's text or rows, never a path), a
    collection JSON ``{"data": {id: {"problem": TEXT}}}``, or one puzzle
    file. Anything else there (a FIFO, a socket, a device) is refused with a
    PuzzleError, unopened. A line or entry that is not a puzzle stays an item
    whose grid is a PuzzleError, so it gets its result. Ids met twice get
    ``~2``, ``~3``... . ``skip``, a path (the results file), is left out of
    a folder or a glob.

    Examples
    --------
    >>> [i for i, _ in items("puzzles/k[0-2].txt")]
    ['k0', 'k1', 'k2']
    """
    source = os.fspath(source)
    kind = _input_kind(source)
    if kind == "folder":
        found = _files(sorted(_walk(source)), source, skip)
    elif kind == "glob":
        paths = sorted(_glob(source))
        if not paths:
            raise PuzzleError("no file matches", source=source)
        found = _files(paths, os.path.commonpath([os.path.dirname(p) or "." for p in paths]),
                       skip)
    elif source.endswith(".jsonl"):
        found = _json_lines(source)
    elif source.endswith(".json") and _is_collection(source):
        found = _collection(source)
    else:
        found = [(_stem(os.path.basename(source)), File(source))]
    return _unique_ids(found)


def _input_kind(source: str) -> str:
    """"folder", "file" or "glob": what a batch input is, told by ``os.stat`` (nothing is
    opened). Anything else there (a FIFO, a socket, a device: reading it could wait or
    never end) is refused; a name not there is a glob if it has GLOB_CHARS."""
    try:
        mode = os.stat(source).st_mode
    except OSError as e:
        if any(c in source for c in GLOB_CHARS):
            return "glob"
        missing = e.errno in (errno.ENOENT, errno.ENOTDIR)
        raise PuzzleError("no such file or directory" if missing else
                          f"cannot read the input: {why(e)}", source=source) from None
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISREG(mode):
        return "file"
    raise PuzzleError(f"is {_kind(mode)}, not a puzzle file or a folder", source=source)


def _walk(top: str):
    """Every path below the folder ``top`` ("" for the current one) but hidden names. A link
    to a folder is left out, neither listed nor entered: a loop of links (``up -> ..``) is
    never walked, and nothing outside ``top`` is reached through one."""
    try:
        with os.scandir(top or os.curdir) as entries:
            found = sorted((e for e in entries if not e.name.startswith(".")),
                           key=lambda e: e.name)
    except OSError:
        return
    for entry in found:
        try:
            folder = entry.is_dir()                    # where a link leads
            if folder and entry.is_symlink():
                continue
        except OSError:
            continue
        path = os.path.join(top, entry.name)
        yield path
        if folder:
            yield from _walk(path)


def _glob(pattern: str) -> list:
    """The paths ``pattern`` matches, as ``glob.glob(pattern, recursive=True)`` finds them,
    but a ``**`` walks as ``_walk`` does, into no link to a folder."""
    head, parts = _split_magic(pattern)
    if "**" not in parts:
        return glob.glob(pattern)
    paths = [head]
    for n, part in enumerate(parts):
        within = n < len(parts) - 1                    # a folder the next part looks in
        paths = [p for base in paths for p in _glob_part(base, part, within)]
    return paths


def _split_magic(pattern: str) -> tuple:
    """``(head, parts)``: a glob's folder without GLOB_CHARS, and the names after it."""
    head, parts = pattern, []
    while any(c in head for c in GLOB_CHARS):
        head, part = os.path.split(head)
        parts.append(part)
    return head, parts[::-1]


def _glob_part(base: str, part: str, within: bool) -> list:
    """The paths in folder ``base`` that a glob's ``part`` matches; only folders when
    ``within`` (more parts follow)."""
    if part == "**":
        return [base] + [p for p in _walk(base) if not within or os.path.isdir(p)]
    if not part:
        return [base] if os.path.isdir(base or os.curdir) else []
    if not any(c in part for c in GLOB_CHARS):
        path = os.path.join(base, part)
        return [path] if (os.path.isdir(path) if within else os.path.lexists(path)) else []
    try:
        names = os.listdir(base or os.curdir)
    except OSError:
        return []
    if not part.startswith("."):
        names = [n for n in names if not n.startswith(".")]
    paths = [os.path.join(base, n) for n in fnmatch.filter(names, part)]
    return [p for p in paths if os.path.isdir(p)] if within else paths


def _files(paths, root, skip=None) -> list:
    """``(id, File)`` of each puzzle file among ``paths`` (sorted), ids from ``root``: the
    regular files (or links to one) less hidden ones, NOT_PUZZLES, ``skip`` and results
    files (``_is_results``). A file reached by several paths (links) is read once, by a
    path that is no link where there is one."""
    skipped = _identity(skip) if skip is not None else None
    chosen = {}                                        # (dev, ino): (is a link, path)
    for p in paths:
        if os.path.basename(p).startswith(".") or p.endswith(NOT_PUZZLES):
            continue
        try:
            st, link = os.stat(p), os.path.islink(p)
        except OSError:
            continue
        key = (st.st_dev, st.st_ino)
        if not stat.S_ISREG(st.st_mode) or key == skipped:
            continue
        if key not in chosen or (link, p) < chosen[key]:
            chosen[key] = (link, p)
    kept = sorted(p for _, p in chosen.values())
    return [(_stem(os.path.relpath(p, root)), File(p)) for p in kept
            if not (p.endswith(".jsonl") and _is_results(p))]


def _identity(path):
    """``(st_dev, st_ino)`` of the file at ``path``, or None where there is none."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def _is_results(path) -> bool:
    """Whether a file is a results file (``run_batch``'s): its first line is a results line,
    or begins as one where it is too long to look at whole."""
    try:
        with _open_regular(path, "cannot read file") as f:
            head = f.readline(HEAD_BYTES)
    except (PuzzleError, OSError):
        return False
    if not head.startswith(LINE_START):
        return False
    return not head.endswith(b"\n") or _result_id(head) is not None


def _stem(name: str) -> str:
    base, suffix = os.path.splitext(name)
    return base if suffix else name


def _read_text(path) -> str:
    """The text of a JSON input, from a regular file only (``_open_regular``)."""
    with _open_regular(path, "cannot read the input") as f:
        try:
            return f.read().decode("utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise PuzzleError(f"cannot read the input: {getattr(e, 'strerror', None) or e}",
                              source=path) from None


def _json_lines(path) -> list:
    found = []
    for n, line in enumerate(_read_text(path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as e:
            found.append((f"line {n}", PuzzleError(f"{path}:{n}: not JSON ({e.msg})")))
            continue
        if not isinstance(obj, dict):
            found.append((f"line {n}", PuzzleError(f"{path}:{n}: not a JSON object")))
            continue
        pid = _first(obj, ID_KEYS, f"line {n}")
        grid = _first(obj, GRID_KEYS, None)
        if grid is None:
            grid = PuzzleError(f"{path}:{n}: no grid (one of {', '.join(GRID_KEYS)})")
        found.append((str(pid), Text(grid) if isinstance(grid, str) else grid))
    return found


def _first(obj: dict, keys, default):
    """The value of the first of ``keys`` that ``obj`` has, or ``default``."""
    for key in keys:
        if key in obj:
            return obj[key]
    return default


def _is_collection(path) -> bool:
    try:
        obj = json.loads(_read_text(path))
    except ValueError:
        return False
    return isinstance(obj, dict) and isinstance(obj.get("data"), dict)


def _collection(path) -> list:
    data = json.loads(_read_text(path))["data"]
    found = []
    for pid, entry in data.items():
        grid = entry.get("problem") if isinstance(entry, dict) else None
        found.append((str(pid), Text(grid) if isinstance(grid, str) else
                      PuzzleError(f"{path}: {pid}: no \"problem\" text")))
    return found


def _unique_ids(found) -> list:
    seen, out = {}, []
    for pid, grid in found:
        n = seen.get(pid, 0) + 1
        seen[pid] = n
        out.append((pid if n == 1 else f"{pid}~{n}", grid))
    return out


def solve_many(puzzles: object, *, workers: int | None = None, scheduler: object = None,
               limit: int | None = None, timeout: float | None = None,
               keep: int | None = None) -> list[Result]:
    """One ``Result`` per puzzle, in input order, solved by ``workers`` processes at once,
    or on a Dask cluster.

    Parameters
    ----------
    puzzles : a batch input (see ``items``), a mapping ``{id: grid}``, or an
        iterable of grids (Puzzle, text, path or rows; ids are their numbers
        from 0, or a path's file name) or of ``(id, grid)`` pairs.
    workers : int, optional
        Processes (default: every core); 1 solves in this process.
    scheduler : distributed.Client, cluster, "local" or address, optional
        Solve on Dask instead, a task per puzzle (the extra ``dist``; see
        ``dist.connected``); ``workers`` is then the cluster's business.
    limit : int, optional
        The most solutions counted for each puzzle (None: exact counts).
    timeout : float, optional
        Seconds per puzzle; past them its status is "timeout".
    keep : int, optional
        Solutions kept per puzzle (default ``limit``, or KEEP without one).

    Examples
    --------
    >>> rs = solve_many(["puzzles/k2.txt", "puzzles/k3.txt"], workers=1, limit=2)
    >>> [(r.id, r.status, r.count) for r in rs]
    [('k2', 'unique', 1), ('k3', 'multiple', 2)]
    """
    listed = _listed(puzzles)
    results = [None] * len(listed)
    for i, result in solved(listed, workers, limit, timeout, keep, scheduler):
        results[i] = result
    return results


def _listed(puzzles) -> list:
    if isinstance(puzzles, (str, os.PathLike)):
        return items(puzzles)
    if isinstance(puzzles, dict):
        return _unique_ids([(str(k), v) for k, v in puzzles.items()])
    found = []
    for i, grid in enumerate(puzzles):
        if isinstance(grid, tuple) and len(grid) == 2 and isinstance(grid[0], str):
            found.append(grid)
        elif isinstance(grid, (str, os.PathLike)) and os.path.isfile(grid):
            found.append((_stem(os.path.basename(os.fspath(grid))), grid))
        else:
            found.append((str(i), grid))
    return _unique_ids(found)


def solved(listed, workers=None, limit=None, timeout=None, keep=None, scheduler=None,
           lines=False):
    """``(index, Result)`` for each item of ``listed``, as they finish (``solve_many``'s
    work), a chunk of puzzles a task (``chunks``); ``(index, Line)`` with ``lines``,
    each line made in the worker (``run_batch``'s work). A worker process that dies (out
    of memory, a signal) is replaced; the puzzles in flight then are tried again each
    in a process of its own, and one whose process dies again is recorded as an
    error. With a ``scheduler``, on Dask (``solved_on``). Closed early (or left by an
    exception), it kills its workers at once rather than wait for their puzzles."""
    if scheduler is not None:
        from .dist import connected
        with connected(scheduler) as client:
            yield from solved_on(client, listed, limit, timeout, keep, lines)
        return
    workers = _workers(workers)
    if workers == 1 or len(listed) <= 1:
        yield from enumerate(answered(listed, limit, timeout, keep, lines))
        return
    from concurrent.futures import FIRST_COMPLETED, wait
    from concurrent.futures.process import BrokenProcessPool
    _compile_once(limit)
    todo = chunks(len(listed), workers)[::-1]        # popped from the end: input order
    while todo:
        running, broken = {}, False
        with _pooled(workers) as pool:
            while (todo or running) and not broken:
                while todo and len(running) < WINDOW * workers:
                    at = todo.pop()
                    try:
                        future = pool.submit(_solve_chunk, [listed[i] for i in at], limit,
                                             timeout, keep, lines)
                    except BrokenProcessPool:
                        todo.append(at)
                        broken = True
                        break
                    running[future] = at
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    try:
                        results = future.result()
                    except BrokenProcessPool:
                        broken = True
                        continue
                    yield from zip(running.pop(future), results)
        for i in sorted(i for at in running.values() for i in at):   # each alone once more
            yield i, _alone(listed[i], limit, timeout, keep, lines)


#: Tasks a worker (process, or Dask worker thread) is kept busy with at once.
WINDOW = 4
#: Chunks per worker a batch is cut into, at most; and the most puzzles in a chunk.
CHUNKS_PER_WORKER, MOST_IN_CHUNK = 16, 16


def chunks(n, workers) -> list:
    """The items of a batch of ``n`` cut into tasks: ``[range, ...]`` in input order.

    A tiny puzzle takes about as long as sending it to a worker and back, so a
    task takes up to MOST_IN_CHUNK of them, while keeping at least
    CHUNKS_PER_WORKER tasks a worker for the load to even out.

    Examples
    --------
    >>> len(chunks(500, 2)), chunks(500, 2)[0], chunks(500, 2)[-1]
    (34, range(0, 15), range(495, 500))
    >>> chunks(3, 2)
    [range(0, 1), range(1, 2), range(2, 3)]
    """
    size = max(1, min(MOST_IN_CHUNK, n // (CHUNKS_PER_WORKER * workers)))
    return [range(a, min(a + size, n)) for a in range(0, n, size)]


def _solve_chunk(chunk, limit, timeout, keep, lines=False) -> list:
    """``solve_one`` of each item of a chunk, looked up when a worker runs it (its ``Line``
    with ``lines``); each worker takes a core, so its exact counts do not race on a
    second (``turns.one_core``)."""
    from .turns import one_core
    with one_core():                        # the parent starts the helpers (_compile_once)
        return list(answered(chunk, limit, timeout, keep, lines, start=False))


def _answer(result: Result, lines: bool):
    """The result, or its ``Line`` with ``lines``."""
    return as_line(result) if lines else result


def _failed(pid, why: str) -> Result:
    """The error Result of a puzzle whose worker or task failed."""
    return Result(pid, None, np.zeros((0, 0, 0), np.int8), "error", why, 0.0, None)


def _alone(item, limit, timeout, keep, lines=False):
    """``solve_one`` in a pool of its own; an error Result when its worker dies (its
    ``Line`` with ``lines``)."""
    from concurrent.futures.process import BrokenProcessPool
    with _pooled(1) as pool:
        try:
            return pool.submit(_solve_chunk, [item], limit, timeout, keep, lines).result()[0]
        except BrokenProcessPool:
            return _answer(_failed(item[0], "the worker process solving it died (out of "
                                            "memory?)"), lines)


def solved_on(client, listed, limit=None, timeout=None, keep=None, lines=False):
    """``(index, Result)`` for each ``(id, grid)`` of ``listed``, as they finish on the
    cluster (``solved``'s work there), a chunk of puzzles a task (``chunks``).

    Files are read here, so the workers need not see them. A chunk whose task
    fails past Dask's retries (its workers kept dying) is tried again a puzzle a
    task, and a puzzle whose task fails again is an error Result.
    """
    from .dist import distributed_module, threads
    distributed = distributed_module()
    n_threads = threads(client)
    todo = chunks(len(listed), n_threads)[::-1]       # popped from the end: input order
    running = {}
    done = distributed.as_completed()

    def submit(at):
        future = client.submit(_solve_chunk, [(listed[i][0], _read_here(listed[i][1]))
                                              for i in at], limit, timeout, keep, lines,
                               pure=False)
        running[future] = at
        done.add(future)

    for _ in range(WINDOW * n_threads):
        if todo:
            submit(todo.pop())
    for future in done:
        at = running.pop(future)
        try:
            results = future.result()
        except Exception as e:                         # KilledWorker and the like
            if len(at) > 1:
                for i in at:
                    submit(range(i, i + 1))
                continue
            results = [_answer(_failed(listed[at[0]][0], "its task failed on the cluster "
                                       f"({type(e).__name__}: {e})"), lines)]
        yield from zip(at, results)
        if todo:
            submit(todo.pop())


def _read_here(grid):
    """A grid given as a path (``_path_of``), read in this process (a PuzzleError when it
    cannot be): the workers of a cluster may not see its files."""
    if _path_of(grid) is not None:
        try:
            return _checked(grid)               # a bad run named by file, line and column
        except (ValueError, OSError) as e:
            return e
    return grid


def _workers(workers) -> int:
    if workers is None:
        from .dist import cores
        return cores()
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1:
        raise ValueError(f"workers must be a whole number >= 1 or None, got {workers!r}")
    return int(workers)


#: The process pools at work, for ``stop``.
_POOLS = weakref.WeakSet()
#: Held while a results line is written, so that ``stop`` never cuts one.
_WRITING = threading.Lock()
#: Seconds between a worker's looks at its parent where the parent's death cannot signal it.
WATCH_SECONDS = 0.5
#: ``prctl``'s option for the signal a process gets when its parent dies (Linux).
PR_SET_PDEATHSIG = 1


def _compile_once(limit) -> None:
    """On an empty cache, helpers compile the kernels the workers will run, started here
    once: the workers are forked after, find them (``ahead``) and start none of their own,
    answering from the essay meanwhile (``first_run``)."""
    from .engine.core import ahead
    from .solve import kakuro_kernels
    from .turns import count_kernels
    ahead.start("model", *count_kernels(limit), *kakuro_kernels(KEEP, "any"))
    if ahead.all_cached(("model",)):        # a first run solves its puzzles one by one
        ahead.start("many")


def _pool(workers):
    """A process pool whose workers are forks of this process (the compiled kernels come
    along, and a script read from stdin works), or spawned where there is no fork. The
    workers die with this process, whatever ends it (``_worker_start``); on Linux also
    when the thread that started them ends, so a pool is used by the thread that made it."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_worker_start,
                               initargs=(os.getpid(),))
    _POOLS.add(pool)
    return pool


@contextmanager
def _pooled(workers):
    """A pool (``_pool``) for the block, shut down after it. When the block is left by an
    exception (a signal, the reader of the results gone, the caller's ``close``), its
    workers are killed first: nothing waits on puzzles no one will read."""
    pool = _pool(workers)
    try:
        yield pool
    except BaseException:
        _kill(pool)
        raise
    finally:
        pool.shutdown(cancel_futures=True)


def _kill(pool) -> None:
    """Kill a pool's worker processes now; their puzzles are abandoned."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.kill()


def _worker_start(parent: int) -> None:
    """First thing in each worker process: it dies with the batch's process, whatever ends
    that (SIGKILL too). On Linux the kernel kills it then (``PR_SET_PDEATHSIG``); elsewhere
    a thread looks at its parent every WATCH_SECONDS. A parent gone before this ran (the
    worker then has another) ends it at once. Ctrl-C, sent to the terminal's whole process
    group, is left to the batch's process, which ends the workers; SIGTERM kills."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _POOLS.clear()                                   # the parent's, not this process's
    watched = False
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            watched = ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL) == 0
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)
    if not watched:
        threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def stop(grace: float = 2.0) -> None:
    """End the batches under way, for a signal handler before it exits: a results line
    being written is let end (for at most ``grace`` seconds) and no other is begun, and
    the worker processes are killed. The results file then holds whole lines only."""
    _WRITING.acquire(timeout=grace)
    for pool in list(_POOLS):
        _kill(pool)


#: How every line ``run_batch`` writes begins (``Result.to_json``'s first key).
LINE_START = b'{"id": '
#: Said after a refusal of an output that is not a regular file.
STDOUT_HINT = "; out=None writes the results to stdout"


def run_batch(source, out=None, *, workers=None, scheduler=None, limit=None, timeout=None,
              keep=None, step=None) -> dict:
    """Solve a batch input into the JSON-lines file ``out``; returns how many got each
    status (and "skipped": those ``out`` already had).

    One line per puzzle (``Result.to_json``), in input order, appended and
    flushed as soon as every puzzle before it is written; ids the file already
    has are skipped, so a run killed halfway goes on where it stopped (a last
    line cut short is dropped). Each line is made where its puzzle was solved
    (a ``Line``), so this process only orders them and appends those next in
    order in one write.
    ``step(line, written, total)`` is called after each, ``total`` being the
    puzzles this run solves. ``workers`` and ``scheduler`` are ``solve_many``'s.

    ``out`` is a regular file or a new path in a folder that is there;
    ``os.devnull`` takes the lines, and None or "-" writes them to stdout
    (nothing skipped). Refused with a PuzzleError before any puzzle is read
    (``results_of``): a directory, a device, a FIFO, a file of /proc or /sys,
    a path whose folder is not there, and a file whose lines are not results
    lines (it is left as it is). A folder or glob given as ``source`` leaves
    ``out`` out. Any failure to write (a full disk or quota: "no space left on
    device") is a PuzzleError naming ``out``, the lines written so far kept; a
    reader of stdout that left, a BrokenPipeError.
    """
    done, whole = results_of(out)
    listed = items(source, skip=None if out in (None, "-") else out)
    todo = [item for item in listed if item[0] not in done]
    tally = {"skipped": len(listed) - len(todo)}
    waiting, written = {}, 0
    f = _appending(out, whole)
    try:
        with closing(solved(todo, workers, limit, timeout, keep, scheduler,
                            lines=True)) as results:
            for i, line in results:
                waiting[i] = line
                ready = []                             # the lines now next in order
                while written + len(ready) in waiting:
                    ready.append(waiting.pop(written + len(ready)))
                if ready:
                    write_line(f, "".join(line.text for line in ready), out)
                for line in ready:
                    written += 1
                    tally[line.status] = tally.get(line.status, 0) + 1
                    if step:
                        step(line, written, len(todo))
    except BaseException:
        _close(f, out, quiet=True)                     # what is under way is the error
        raise
    _close(f, out)
    return tally


def _close(f, out, quiet=False) -> None:
    """Close the results file (not stdout); a failure is a PuzzleError naming ``out``, or
    nothing when ``quiet``."""
    if out in (None, "-"):
        return
    try:
        f.close()
    except OSError as e:
        if not quiet:
            raise PuzzleError(f"cannot write the results: {why(e)}", source=out) from None


def results_of(out) -> tuple:
    """``(ids, whole)``: the ids of a results file's lines, and the length of its whole
    lines (a last line cut short, by a kill mid-write, lies past it); ``(set(), None)``
    for stdout (None or "-"), ``os.devnull`` or a new path.

    Told before anything is opened (``_out_kind``): a directory, a device, a FIFO, a
    file of /proc or /sys and a new path whose folder is not there are refused. A file
    whose lines are not results lines (JSON objects with an id and a status), or whose
    last line cut short does not begin as one, is refused at the first that is not, read
    no further and left as it is: it is no results file. Each refusal, and a failure to
    read, is a PuzzleError naming ``out``.
    """
    if out is None or out == "-" or _out_kind(out) != "file":
        return set(), None
    try:
        fd = os.open(out, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))   # a FIFO never blocks
    except OSError as e:
        raise PuzzleError(f"cannot read the results: {why(e)}", source=out) from None
    with open(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):   # replaced since it was looked at
            raise PuzzleError("is not a regular file" + STDOUT_HINT, source=out)
        try:
            return _ids_in(f, out)
        except OSError as e:
            raise PuzzleError(f"cannot read the results: {why(e)}", source=out) from None


def _ids_in(f, out) -> tuple:
    """``results_of``'s ``(ids, whole)`` of the open results file ``f``."""
    if not LINE_START.startswith(f.read(len(LINE_START))):
        _not_results(out, 1)                         # another kind of file, at a glance
    f.seek(0)
    ids, whole = set(), 0
    for n, line in enumerate(f, 1):
        if not line.endswith(b"\n"):                # killed mid-line, or not ours
            if not (line.startswith(LINE_START) or LINE_START.startswith(line)):
                _not_results(out, n)
            break
        pid = _result_id(line)
        if pid is None:
            _not_results(out, n)
        ids.add(pid)
        whole += len(line)
    return ids, whole


def _result_id(line: bytes):
    """The id of a results line (a JSON object with an id and a status), else None."""
    try:
        obj = json.loads(line)
    except ValueError:
        return None
    ok = isinstance(obj, dict) and isinstance(obj.get("id"), str) and "status" in obj
    return obj["id"] if ok else None


def _out_kind(out) -> str:
    """``files.output_path``'s word for ``out`` ("new", "file" or "null"), refusing too what
    could keep no lines: a file of /proc or /sys (``_of_the_kernel``), and a new path
    whose folder is not there. Each refusal is a PuzzleError naming ``out``."""
    kind = output_path(out, STDOUT_HINT)
    if kind == "file" and _of_the_kernel(out):
        raise PuzzleError("is a file of the kernel's (/proc or /sys), not a regular file; "
                          "give a results file or a new path", source=out)
    if kind == "new":
        missing = _missing_folder(os.path.dirname(os.path.abspath(out)))
        if missing:
            raise PuzzleError(f"cannot be made: {missing}", source=out)
    return kind


def _missing_folder(folder: str) -> str:
    """Why a new file cannot be made in ``folder`` ("no folder F", "F is not a folder"), or
    "" where it is a folder or cannot be told (opening the file then says why)."""
    try:
        mode = os.stat(folder).st_mode
    except OSError as e:
        return f"no folder {folder}" if e.errno in (errno.ENOENT, errno.ENOTDIR) else ""
    return "" if stat.S_ISDIR(mode) else f"{folder} is not a folder"


def _of_the_kernel(path) -> bool:
    """Whether ``path`` lies on the file system mounted at one of KERNEL_FOLDERS (one of its
    own, not the root's), whose files the kernel makes up as they are read."""
    try:
        dev, root = os.stat(path).st_dev, os.stat(os.sep).st_dev
    except OSError:
        return False
    for folder in KERNEL_FOLDERS:
        try:
            if os.stat(folder).st_dev == dev != root:
                return True
        except OSError:
            pass
    return False


def _not_results(out, n):
    raise PuzzleError(f"line {n} is not a result of kakuro-np batch: not a results file, left "
                      "as it is (give --out a results file or a new path)", source=out)


def _appending(out, whole):
    """The results file opened to append lines to (unbuffered: a line a write), cut back to
    its ``whole`` lines; stdout's binary stream for None or "-"."""
    if out is None or out == "-":
        sys.stdout.flush()
        return sys.stdout.buffer
    try:
        f = open(out, "ab", buffering=0)
    except OSError as e:
        raise PuzzleError(f"cannot write the results: {why(e)}", source=out) from None
    try:
        if whole is not None and whole < os.fstat(f.fileno()).st_size:
            f.truncate(whole)
    except OSError as e:
        f.close()
        raise PuzzleError(f"cannot write the results: {why(e)}", source=out) from None
    return f


def write_line(f, line: str, out=None) -> None:
    """Append whole results lines to the binary file ``f`` and flush them, holding ``_WRITING``.
    A write that fails (a full disk: "no space left on device") is a PuzzleError naming
    ``out`` (stdout for None); a reader of stdout that left, a BrokenPipeError, so that the
    command line ends quietly.

    Examples
    --------
    >>> import errno, io
    >>> class Full(io.RawIOBase):
    ...     def writable(self): return True
    ...     def write(self, b): raise OSError(errno.ENOSPC, "No space left on device")
    >>> write_line(Full(), "{}\\n", "r.jsonl")
    Traceback (most recent call last):
    ...
    kakuro_np.errors.PuzzleError: r.jsonl: cannot write the results: no space left on device
    """
    data = memoryview(line.encode("utf-8"))
    with _WRITING:
        try:
            while data:
                n = f.write(data)                     # a raw file may take part of it
                if not n:                             # took nothing: never spin on it
                    raise OSError(errno.EIO, "the output took none of the line")
                data = data[n:]
            f.flush()
        except BrokenPipeError:
            raise
        except OSError as e:
            raise PuzzleError(f"cannot write the results: {why(e)}",
                              source="stdout" if out in (None, "-") else out) from None
