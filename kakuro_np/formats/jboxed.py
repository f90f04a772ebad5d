"""The essay's format (jboxed): rows of cells split by ``;``."""

from __future__ import annotations

import re

import numpy as np

from ..errors import PuzzleError
from ..puzzle import Puzzle, check_run_lengths
from ..tokens import cell_tokens
from .text import (_PLACES, _SOLID, _Lines, _fields, _given, _grid, _is_digits, _no_puzzle, _sum,
                   _text)

#: A cell as the plain grids of a collection write it: ``x``, ``_``, a given digit or two sums
#: of one or two digits, spaces or tabs around it.
_PLAIN_CELL = r"[ \t]*(?:\d\d? +\d\d?|[xX_1-9])[ \t]*"
#: A whole text of plain rows: cells split by ``;``, a row a line, no comment, blank line,
#: carriage return or ``;`` at a row's end (``_plain_grid`` reads those; the rest
#: ``_grid``).
_PLAIN_GRID = re.compile(rf"(?:{_PLAIN_CELL}(?:;{_PLAIN_CELL})*\n)*"
                         rf"{_PLAIN_CELL}(?:;{_PLAIN_CELL})*\n?")


def parse_jboxed(text: str) -> Puzzle:
    """The essay's boxed rows: ``x``, ``_``, ``v h`` or a given digit, split by ``;``.

    Examples
    --------
    >>> parse_jboxed("x ; 3 0 ;\\n0 3 ; 2 ;").given.tolist()
    [[0, 0], [0, 2]]
    """
    plain = _plain_grid(text)
    if plain is not None:
        return plain
    lines = _Lines(text)
    height = len(lines)
    if not height:
        raise _no_puzzle()
    return _grid(lines, height, _jboxed_fields, _jboxed_cell)


def _plain_grid(text) -> Puzzle | None:
    """The Puzzle of a text of plain rows (``_PLAIN_GRID``), checked by one regular
    expression and read as a number per cell (``_plain_code``, kept by the cell's text);
    None for any other text, for a grid with anything to refuse
    (a sum past 45, rows of two widths, a run too long, too large), and while
    ``formats.with_places`` asks for the cells' places: ``_grid`` reads those, and names
    what it refuses by line and column.

    Examples
    --------
    >>> _plain_grid("x;4 0;3 0\\n0 3;_;2\\n0 4;_;_").given.tolist()
    [[0, 0, 0], [0, 0, 2], [0, 0, 0]]
    >>> _plain_grid("x;4 0;3 0\\n0 3;_;_\\n# a comment") is None
    True
    """
    if (not isinstance(text, str) or _PLACES.get() is not None
            or len(text) > PLAIN_CHARS_A_CELL * (Puzzle.MAX_SIDE + 1) ** 2
            or text.count("\n", 0, len(text) - 1) >= Puzzle.MAX_SIDE    # too large: refused
            or not _PLAIN_GRID.fullmatch(text)):                      # by ``_grid``
        return None
    lines = text.rstrip("\n").split("\n")
    width = lines[0].count(";") + 1
    if width > Puzzle.MAX_SIDE or any(line.count(";") + 1 != width for line in lines):
        return None
    known = _PLAIN_CODES.get
    codes = np.array([code if (code := known(field)) is not None else _plain_code(field)
                      for field in ";".join(lines).split(";")], np.int64).reshape(len(lines), width)
    blank, clue = codes < 0, codes > 0
    try:                                     # a sum past 45 is refused here, too
        puzzle = Puzzle(blank, np.where(clue, codes >> 6, 0), np.where(clue, codes & 63, 0),
                        np.where(blank, -1 - codes, 0))
        check_run_lengths(puzzle.blank)
    except PuzzleError:
        return None
    return puzzle


#: The most characters a plain cell takes, on average, in a text ``_plain_grid`` reads.
PLAIN_CHARS_A_CELL = 12
#: Plain cells' codes by their text as met (``_plain_code``), up to PLAIN_CODES_KEPT of them.
_PLAIN_CODES: dict = {}
PLAIN_CODES_KEPT = 4096


def _plain_code(field: str) -> int:
    """A plain cell (``_PLAIN_CELL``) as one number: 0 inactive, ``down * 64 + across`` a
    clue, ``-1 - digit`` a blank (digit 0: none given). A sum past 45 is kept as 46, which
    the Puzzle refuses (an across sum of 64 would spill into the down sum).

    >>> _plain_code(" 16 7"), _plain_code("_ "), _plain_code("4"), _plain_code("x")
    (1031, -1, -5, 0)
    >>> _plain_code("3 64") & 63
    46
    """
    token = field.strip()
    if token in ("x", "X"):
        code = 0
    elif token == "_":
        code = -1
    elif len(token) == 1:
        code = -1 - int(token)
    else:
        down, across = token.split()
        code = min(int(down), 46) * 64 + min(int(across), 46)
    if len(_PLAIN_CODES) < PLAIN_CODES_KEPT:
        _PLAIN_CODES[field] = code
    return code


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
