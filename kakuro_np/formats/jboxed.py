"""The essay's format (jboxed): rows of cells split by ``;``."""

from __future__ import annotations

import re

from ..errors import PuzzleError
from ..puzzle import Puzzle
from ..tokens import cell_tokens
from .text import _build, _content, _fields, _given, _lines, _row, _sum, _text


_JBOXED_CLUE = re.compile(r"([0-9]+)\s+([0-9]+)")


def parse_jboxed(text: str) -> Puzzle:
    """The essay's boxed rows: ``x``, ``_``, ``v h`` or a given digit, split by ``;``.

    Examples
    --------
    >>> parse_jboxed("x ; 3 0 ;\\n0 3 ; 2 ;").given.tolist()
    [[0, 0], [0, 2]]
    """
    rows = []
    for n, line in _content(_lines(text)):
        fields = _fields(line, ";")
        if len(fields) > 1 and not fields[-1][1]:
            fields.pop()  # a row may end with ';'
        rows.append(_row(n, line, fields, _jboxed_cell))
    return _build(rows)


def _jboxed_cell(token: str, n: int, col: int):
    if token in ("x", "X"):
        return "x"
    if token == "_":
        return "_"
    m = _JBOXED_CLUE.fullmatch(token)
    if m:
        return _sum(m[1], n, col), _sum(m[2], n, col + m.start(2))
    if not token:
        raise PuzzleError("empty cell between ';'", line=n, col=col)
    return _given(token, n, col, "jboxed")


def write_jboxed(puzzle: Puzzle) -> str:
    """The essay's rows, ``" ; "`` between cells (and after a lone column's cell)."""
    end = " ;" if puzzle.shape[1] == 1 else ""
    rows = cell_tokens(puzzle, "_", "x", lambda down, across: f"{down} {across}")
    return _text(" ; ".join(row) + end for row in rows)
