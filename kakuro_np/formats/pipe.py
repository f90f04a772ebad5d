"""The thesis's format (pipe): cells split by ``|``, a blank may hold a digit and choices."""

from __future__ import annotations

import numpy as np

from ..puzzle import Puzzle
from ..tokens import cell_tokens
from .text import (_Lines, _choices, _clue, _fields, _given, _grid, _no_puzzle, _split_clue,
                   _text)


def parse_pipe(text: str) -> Puzzle:
    """The thesis's rows: cells split by ``|``; blank, ``\\``, ``down\\across``, or a digit and choices.

    Choices ``(a,b,...)`` are checked and dropped; a bar at both ends of every
    row is a border.

    Examples
    --------
    >>> p = parse_pipe("\\\\|\\\\4|\\\\3\\n\\\\3|1(1,2)|(1,2)\\n\\\\4| |")
    >>> p.given.tolist(), p == parse_pipe("|\\\\|\\\\4|\\\\3|\\n|\\\\3|1||\\n|\\\\4|||")
    ([[0, 0, 0], [0, 1, 0], [0, 0, 0]], True)
    """
    lines = _Lines(text)
    height = len(lines)
    if not height:
        raise _no_puzzle()
    # A grid of more rows than MAX_SIDE is refused; its width, in the message, is judged
    # by the borders of its first MAX_SIDE + 1 rows.
    rows = [lines[k] for k in range(min(height, Puzzle.MAX_SIDE + 1))]
    bordered = _pipe_bordered([line for _, line in rows])
    return _grid(rows, height, lambda line, limit: _pipe_fields(line, bordered, limit), _pipe_cell)


def _pipe_bordered(lines: list) -> bool:
    """Whether every row starts and ends with a ``|`` border."""
    return all(len(s := line.strip()) >= 2 and s[0] == s[-1] == "|" for line in lines)


def _pipe_fields(line: str, bordered: bool, limit: int = -1) -> tuple:
    """``(count, fields)``: a row's cells, counted, and at most ``limit + 1`` of them split."""
    if not bordered:
        return line.count("|") + 1, _fields(line, "|", limit=limit)
    start, end = line.index("|") + 1, line.rindex("|")
    inner = line[start:end]
    return inner.count("|") + 1, _fields(inner, "|", offset=start, limit=limit)


def _pipe_cell(token: str, n: int, col: int):
    if "\\" in token:
        return _clue(token, "\\", n, col)
    digit, paren, after = token.partition("(")
    if paren:
        _choices(after, n, col + len(digit) + 1)
    digit = digit.strip()
    return _given(digit, n, col, "pipe") if digit else "_"


def pipe_marks(text: str) -> np.ndarray:
    """The pencil marks (choices) of each cell of a pipe file, as (H, W, 9) bool.

    Examples
    --------
    >>> marks = pipe_marks("\\\\|\\\\4|\\\\3\\n\\\\3|1(1,2)|(1,2)\\n\\\\4| |")
    >>> [[d + 1 for d in range(9) if marks[1, c, d]] for c in range(3)]
    [[], [1, 2], [1, 2]]
    """
    puzzle = parse_pipe(text)                       # checks every cell and choice
    lines = _Lines(text)
    rows = [lines[k] for k in range(puzzle.shape[0])]
    bordered = _pipe_bordered([line for _, line in rows])
    marks = np.zeros(puzzle.shape + (9,), bool)
    for r, (_, line) in enumerate(rows):
        for c, (_, token) in enumerate(_pipe_fields(line, bordered)[1]):
            if "\\" not in token and "(" in token:
                inside = token.partition("(")[2].partition(")")[0]
                marks[r, c, [int(d) - 1 for d in inside.split(",") if d.strip()]] = True
    return marks


def write_pipe(puzzle: Puzzle, marks=None) -> str:
    """The thesis's file: cells joined by ``|``, bordered only where it must be.

    ``marks`` ((H, W, 9) bool) adds each blank cell's pencil marks as choices,
    ``digit(a,b,...)``, which ``pipe_marks`` reads back.
    """
    rows = cell_tokens(puzzle, "", "\\", _split_clue("\\"))
    if marks is not None:
        for r, c in np.argwhere(puzzle.blank & np.asarray(marks).any(axis=2)):
            choices = ",".join(str(d + 1) for d in np.flatnonzero(marks[r, c]))
            rows[r][c] += f"({choices})"
    lines = ["|".join(row) for row in rows]
    if puzzle.shape[1] == 1 or _pipe_bordered(lines):
        lines = [f"|{line}|" for line in lines]
    return _text(lines)
