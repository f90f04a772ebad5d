"""The comma format: a ``ROWS COLS`` header, then ``-``, ``0``, digits and ``down,across``."""

from __future__ import annotations

from ..errors import PuzzleError
from ..puzzle import Puzzle
from ..tokens import cell_tokens
from .text import (_Lines, _clue, _given, _grid, _header, _no_puzzle, _split_clue, _text,
                   _under_header, _word_fields)


def parse_comma(text: str) -> Puzzle:
    """A ``ROWS COLS`` header, then rows of ``-``, ``0``, digits and ``down,across`` tokens.

    Examples
    --------
    >>> parse_comma("2 3\\n- 16, 3,\\n,23 0 7").given.tolist()
    [[0, 0, 0], [0, 0, 7]]
    """
    lines = _Lines(text)
    first = lines.get(0)
    if first is None:
        raise _no_puzzle()
    header = _header(*first)
    if header is None:
        raise PuzzleError("a comma file starts with a 'ROWS COLS' header line, such as '10 12'",
                          line=first[0], col=1)
    body = _under_header(lines, header[0], free_text_after=False)
    return _grid(body, header[0], _word_fields, _comma_cell, header[1])


def _comma_cell(token: str, n: int, col: int):
    if token == "-":
        return "x"
    if token == "0":
        return "_"
    if "," in token:
        return _clue(token, ",", n, col)
    return _given(token, n, col, "comma")


def write_comma(puzzle: Puzzle) -> str:
    """A ``ROWS COLS`` header, then space-separated ``-``, ``0``, digits and ``down,across``."""
    rows = cell_tokens(puzzle, "0", "-", _split_clue(","))
    return _text([f"{puzzle.shape[0]} {puzzle.shape[1]}"] + [" ".join(row) for row in rows])
