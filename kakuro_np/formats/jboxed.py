"""The essay's format (jboxed): rows of cells split by ``;``."""

from __future__ import annotations

from ..errors import PuzzleError
from ..puzzle import Puzzle
from ..tokens import cell_tokens
from .text import _SOLID, _Lines, _fields, _given, _grid, _is_digits, _no_puzzle, _sum, _text


def parse_jboxed(text: str) -> Puzzle:
    """The essay's boxed rows: ``x``, ``_``, ``v h`` or a given digit, split by ``;``.

    Examples
    --------
    >>> parse_jboxed("x ; 3 0 ;\\n0 3 ; 2 ;").given.tolist()
    [[0, 0], [0, 2]]
    """
    lines = _Lines(text)
    height = len(lines)
    if not height:
        raise _no_puzzle()
    return _grid(lines, height, _jboxed_fields, _jboxed_cell)


def _jboxed_fields(line: str, limit: int) -> tuple:
    """``(count, fields)``: a row's cells, counted, and at most ``limit + 1`` of them split.

    Examples
    --------
    >>> _jboxed_fields("x ; 3 0 ;", 5), _jboxed_fields("x ; 3 0 ; _", 1)
    ((2, [(1, 'x'), (5, '3 0')]), (3, [(1, 'x'), (5, '3 0 ; _')]))
    """
    count = line.count(";") + 1
    fields = _fields(line, ";", limit=limit)
    if count > 1 and not line[line.rindex(";") + 1:].strip():
        count -= 1  # a row may end with ';'
        if len(fields) > count:
            fields.pop()
    return count, fields


def _jboxed_cell(token: str, n: int, col: int):
    if token in ("x", "X"):
        return "x"
    if token == "_":
        return "_"
    sums = token.split(None, 2)
    if len(sums) == 2 and _is_digits(sums[0]) and _is_digits(sums[1]):   # "v h": down, across
        across = _SOLID.search(token, len(sums[0])).start()
        return _sum(sums[0], n, col), _sum(sums[1], n, col + across)
    if not token:
        raise PuzzleError("empty cell between ';'", line=n, col=col)
    return _given(token, n, col, "jboxed")


def write_jboxed(puzzle: Puzzle) -> str:
    """The essay's rows, ``" ; "`` between cells (and after a lone column's cell)."""
    end = " ;" if puzzle.shape[1] == 1 else ""
    rows = cell_tokens(puzzle, "_", "x", lambda down, across: f"{down} {across}")
    return _text(" ; ".join(row) + end for row in rows)
