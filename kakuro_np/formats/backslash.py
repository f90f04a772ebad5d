"""Kuroro's format (backslash): an optional ``ROWS COLS [TAB]`` header, then ``down\\across`` tokens."""

from __future__ import annotations

from ..puzzle import Puzzle

#: The looks ``write_backslash`` writes: Kuroro's, and aligned with ``_`` blanks.
BACKSLASH_STYLES = ("kuroro", "underscores")
from ..tokens import cell_tokens
from .text import (_Lines, _clue, _given, _grid, _header, _is_underscores, _no_puzzle, _split_clue,
                   _text, _under_header, _word_fields)


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
    lines = _Lines(text)
    first = lines.get(0)
    if first is None:
        raise _no_puzzle()
    header = _header(*first)
    if header is None:
        return _grid(lines, lines.block(), _word_fields, _backslash_cell)
    body = _under_header(lines, header[0], free_text_after=True)
    return _grid(body, header[0], _word_fields, _backslash_cell, header[1])


def _backslash_cell(token: str, n: int, col: int):
    if "\\" in token:
        return _clue(token, "\\", n, col)
    if token in ("x", "X") or _is_underscores(token):
        return "_"
    return _given(token, n, col, "backslash")


def write_backslash(puzzle: Puzzle, style: str = "kuroro") -> str:
    """Kuroro's file (``style="kuroro"``): a ``ROWS COLS TAB`` header, then tab-separated
    tokens, ``x`` blank; or (``style="underscores"``) the style of other solvers' files:
    no header, columns aligned with spaces, a blank a run of ``_`` as wide as its column.

    Examples
    --------
    >>> from kakuro_np import Puzzle
    >>> p = Puzzle.from_rows([["x", (4, 0), (13, 0)], [(0, 12), "_", "_"], [(0, 5), 1, "_"]])
    >>> print(write_backslash(p, "underscores"), end="")
    \\   4\\ 13\\
    \\12 __ ___
    \\5  1  ___
    >>> parse_backslash(write_backslash(p, "underscores")) == p
    True
    """
    if style not in BACKSLASH_STYLES:
        raise ValueError(f"style must be one of {', '.join(BACKSLASH_STYLES)}, got {style!r}")
    if style == "kuroro":
        rows = cell_tokens(puzzle, "x", "\\", _split_clue("\\"))
        return _text([f"{puzzle.shape[0]} {puzzle.shape[1]} TAB"]
                      + ["\t".join(row) for row in rows])
    rows = cell_tokens(puzzle, "_", "\\", _split_clue("\\"))
    widths = [max(len(row[c]) for row in rows) for c in range(puzzle.shape[1])]
    return _text([" ".join((("_" * w) if t == "_" else t.ljust(w)) for t, w in zip(row, widths))
                  .rstrip() for row in rows])
