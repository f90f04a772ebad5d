"""Reading and writing puzzles as text.

Glossary
--------
jboxed : the essay's rows: cells split by ``;``; ``x`` inactive, ``_`` blank,
         ``v h`` a clue (down sum, across sum; 0 = none); a digit 1-9 is a
         blank holding a given digit.
json   : ``{"rows": [...]}`` in the ``Puzzle.from_rows`` shape.
"""

from __future__ import annotations

import json
import os
import re

import numpy as np

from .errors import PuzzleError
from .puzzle import Puzzle

FORMATS = ("jboxed", "json")


def as_puzzle(grid) -> Puzzle:
    """A Puzzle from a Puzzle, a path, text, or rows (see ``Puzzle.from_rows``)."""
    if isinstance(grid, Puzzle):
        return grid
    if isinstance(grid, (str, bytes, os.PathLike)):
        return read(grid)
    if isinstance(grid, dict):
        return _from_json_obj(grid)
    return Puzzle.from_rows(grid)


def read(source, format=None) -> Puzzle:
    """Read a puzzle from a path or from text; the format is detected unless named.

    Examples
    --------
    >>> read("x ; 3 0\\n0 3 ; _").blank.tolist()
    [[False, False], [False, True]]
    """
    name = None
    if isinstance(source, os.PathLike) or (
            isinstance(source, (str, bytes)) and _looks_like_path(source)):
        name = os.fsdecode(source)
        try:
            with open(name, "rb") as f:
                source = f.read()
        except OSError as e:
            raise PuzzleError(f"cannot read file: {e.strerror}", source=name) from None
    try:
        return parse(source, format=format)
    except PuzzleError as e:
        raise e.with_source(name) if name is not None else e


def _looks_like_path(source) -> bool:
    if isinstance(source, bytes):
        return b"\n" not in source and len(source) < 4096 and os.path.isfile(source)
    return "\n" not in source and ";" not in source and len(source) < 4096 and (
        os.path.isfile(source) or source.endswith((".txt", ".json", ".kak", ".csv")))


def decode(data) -> str:
    """Text from bytes or str: UTF-8 (a BOM is dropped), with ``\\r\\n`` made ``\\n``."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise PuzzleError(f"the input is not UTF-8 text (byte {e.start})") from None
    data = data.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    bad = re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", data)
    if bad:
        line = data.count("\n", 0, bad.start()) + 1
        col = bad.start() - (data.rfind("\n", 0, bad.start()) + 1) + 1
        raise PuzzleError(f"control character {bad.group()!r} is not text", line=line, col=col)
    return data


def parse(text, format=None) -> Puzzle:
    """Parse puzzle text in a named format, or detect the format.

    Examples
    --------
    >>> parse("x ; 4 0 ; 3 0\\n0 3 ; _ ; _\\n0 4 ; _ ; _", format="jboxed").shape
    (3, 3)
    """
    text = decode(text)
    if not text.strip():
        raise PuzzleError("the input is empty")
    if format is None:
        format = detect(text)
    if format == "jboxed":
        return parse_jboxed(text)
    if format == "json":
        return parse_json(text)
    raise PuzzleError(f"unknown format {format!r}; known: {', '.join(FORMATS)}")


def detect(text: str) -> str:
    """The name of the format ``text`` is in."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return "json"
    if ";" in text:
        return "jboxed"
    raise PuzzleError(f"cannot tell the format (tried {', '.join(FORMATS)})")


_JBOXED_CLUE = re.compile(r"(\d+)\s+(\d+)")


def parse_jboxed(text: str) -> Puzzle:
    """The essay's boxed rows: ``x``, ``_``, ``v h`` or a given digit, split by ``;``."""
    rows = []
    for n, line in enumerate(text.split("\n"), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cells, col = [], 1
        for field in line.split(";"):
            token = field.strip()
            where = dict(line=n, col=col + len(field) - len(field.lstrip()))
            col += len(field) + 1
            if token in ("x", "X"):
                cells.append("x")
            elif token == "_":
                cells.append("_")
            elif len(token) == 1 and token in "123456789":
                cells.append(int(token))
            elif (m := _JBOXED_CLUE.fullmatch(token)):
                down, across = int(m.group(1)), int(m.group(2))
                for value in (down, across):
                    if value > 45:
                        raise PuzzleError(f"clue {value} is more than 45, the most 9 digits make",
                                          **where)
                cells.append((down, across))
            elif not token:
                raise PuzzleError("empty cell between ';'", **where)
            else:
                raise PuzzleError(f"unknown cell {token!r}: use x, _, a digit or 'down across'",
                                  **where)
        if rows and len(cells) != len(rows[0][1]):
            raise PuzzleError(f"row has {len(cells)} cells, the first row has {len(rows[0][1])}",
                              line=n, col=1)
        rows.append((n, cells))
    return Puzzle.from_rows([cells for _, cells in rows])


def parse_json(text: str) -> Puzzle:
    """``{"rows": [...]}`` with cells as in ``Puzzle.from_rows``."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise PuzzleError(f"bad JSON: {e.msg}", line=e.lineno, col=e.colno) from None
    return _from_json_obj(obj)


def _from_json_obj(obj):
    if not isinstance(obj, dict) or not isinstance(obj.get("rows"), list):
        raise PuzzleError('JSON puzzles are {"rows": [[cell, ...], ...]}')
    return Puzzle.from_rows(obj["rows"])


def format(puzzle, fmt="jboxed", solution=None) -> str:
    """Write a puzzle (or, given ``solution``, its solved grid) as text.

    Examples
    --------
    >>> p = parse("x ; 4 0 ; 3 0\\n0 3 ; _ ; _\\n0 4 ; _ ; _")
    >>> parse(format(p, "jboxed")) == p and parse(format(p, "json")) == p
    True
    """
    puzzle = as_puzzle(puzzle)
    digits = puzzle.given if solution is None else np.asarray(solution)
    if fmt == "jboxed":
        lines = []
        for r in range(puzzle.shape[0]):
            cells = []
            for c in range(puzzle.shape[1]):
                if puzzle.blank[r, c]:
                    cells.append(str(int(digits[r, c])) if digits[r, c] else "_")
                elif puzzle.down[r, c] or puzzle.across[r, c]:
                    cells.append(f"{puzzle.down[r, c]} {puzzle.across[r, c]}")
                else:
                    cells.append("x")
            lines.append(" ; ".join(cells))
        return "\n".join(lines) + "\n"
    if fmt == "json":
        rows = puzzle.with_given(digits).to_rows()
        return "{\"rows\": [\n" + ",\n".join("  " + json.dumps(r) for r in rows) + "\n]}\n"
    raise PuzzleError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
