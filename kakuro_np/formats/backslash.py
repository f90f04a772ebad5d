"""Kuroro's format (backslash): an optional ``ROWS COLS [TAB]`` header, then ``down\\across`` tokens."""

from __future__ import annotations

import itertools

from ..puzzle import Puzzle
from ..tokens import cell_tokens
from .text import (_UNDERSCORES, _build, _clue, _content, _given, _header, _lines, _no_puzzle,
                   _row, _split_clue, _text, _tokens, _under_header)


def parse_backslash(text: str) -> Puzzle:
    """Kuroro's grid: an optional ``ROWS COLS [TAB]`` header, then ``down\\across``, ``\\``, ``x`` tokens.

    With a header, the lines after its ROWS rows are free text; without one,
    the grid ends at the first blank line.

    Examples
    --------
    >>> p = parse_backslash(" 3 3 TAB\\n \\\\\\t4\\\\\\t3\\\\\\n \\\\3\\tx\\tx\\n \\\\4\\t_\\t2\\nsolved by hand")
    >>> p.shape, p.given.tolist()[2], p.down.tolist()[0], p.across.tolist()[1]
    ((3, 3), [0, 0, 2], [0, 4, 3], [3, 0, 0])
    """
    lines = _lines(text)
    start = next((i for i, (_, line) in enumerate(lines) if line), None)
    if start is None:
        raise _no_puzzle()
    n, line = lines[start]
    header = _header(n, line)
    if header is None:
        body = list(itertools.takewhile(lambda n_line: n_line[1], lines[start:]))
    else:
        body = _under_header(n, line, header[0], _content(lines[start + 1:]), free_text_after=True)
    rows = [_row(n, line, _tokens(line), _backslash_cell) for n, line in body]
    return _build(rows, None if header is None else header[1])


def _backslash_cell(token: str, n: int, col: int):
    if "\\" in token:
        return _clue(token, "\\", n, col)
    if token in ("x", "X") or _UNDERSCORES.fullmatch(token):
        return "_"
    return _given(token, n, col, "backslash")


def write_backslash(puzzle: Puzzle) -> str:
    """Kuroro's file: a ``ROWS COLS TAB`` header, then tab-separated tokens, ``x`` blank."""
    rows = cell_tokens(puzzle, "x", "\\", _split_clue("\\"))
    return _text([f"{puzzle.shape[0]} {puzzle.shape[1]} TAB"] + ["\t".join(row) for row in rows])
