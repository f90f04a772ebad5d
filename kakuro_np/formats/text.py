"""Text, lines, tokens and cells: what every reader of ``kakuro_np.formats`` shares.

Glossary
--------
line  : ``(number, text)``, numbered from 1; comments dropped (``_lines``).
field : ``(col, token)``, a token and the 1-based column it starts at.
row   : a grid row as read (``_Row``): its cells, their places, where it ends.
"""

from __future__ import annotations

import contextvars
import re
from typing import NamedTuple

from ..errors import PuzzleError
from ..puzzle import Puzzle

#: The most text (bytes or characters) a puzzle may take.
MAX_TEXT = 16 << 20

_HEADER = re.compile(r"\s*([0-9]+)\s+([0-9]+)(?:\s+((?i:tab|space)))?\s*")
_UNDERSCORES = re.compile(r"_+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")

_HINTS = {
    "jboxed": "use x (black), _ (blank), a digit 1-9 or 'down across' (a clue)",
    "backslash": "use \\ (black), x or _ (blank), a digit 1-9 or down\\across (a clue)",
    "pipe": "a blank holds nothing, a digit 1-9 and/or (choices); \\ is black, down\\across a clue",
    "comma": "use - (black), 0 (blank), a digit 1-9 or down,across (a clue)",
}


# -- text, lines and tokens (shared by the readers) -----------------------------

def decode(data) -> str:
    """Text from bytes or str: UTF-8 (a BOM is dropped), with ``\\r\\n`` made ``\\n``.

    Bytes that are not UTF-8 and control characters are errors naming their place.

    Examples
    --------
    >>> decode(b"\\xef\\xbb\\xbfx ; _\\r\\n")
    'x ; _\\n'
    >>> decode(b"x ; _\\n\\xff")
    Traceback (most recent call last):
    ...
    kakuro_np.errors.PuzzleError: 2:1: byte 0xff is not UTF-8 text; is this a puzzle file?
    """
    if len(data) > MAX_TEXT:
        raise PuzzleError(f"the input is over {MAX_TEXT:,} bytes, more than any puzzle of "
                          f"{Puzzle.MAX_SIDE}x{Puzzle.MAX_SIDE} cells needs")
    if isinstance(data, (bytes, bytearray)):
        data = bytes(data).removeprefix(b"\xef\xbb\xbf")
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as e:
            before = data[:e.start]
            line = before.count(b"\n") + 1
            col = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
            raise PuzzleError(f"byte 0x{data[e.start]:02x} is not UTF-8 text; is this a puzzle file?",
                              line=line, col=col) from None
    data = data.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    bad = _CONTROL.search(data)
    if bad:
        line, col = _place(data, bad.start())
        raise PuzzleError(f"control character U+{ord(bad.group()):04X} is not puzzle text; "
                          "is this a binary file?", line=line, col=col)
    return data


def _no_puzzle() -> PuzzleError:
    return PuzzleError("there is no puzzle: the input is empty or holds only blank lines and "
                       "comments", line=1, col=1)


def _place(text: str, index: int) -> tuple:
    """The 1-based ``(line, col)`` of ``text[index]``."""
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


def _lines(text: str) -> list:
    """``(number, line)`` for every line but comments; a blank line becomes ``""``."""
    return [(n, line if line.strip() else "") for n, line in enumerate(text.split("\n"), start=1)
            if not line.lstrip().startswith("#")]


def _content(lines: list) -> list:
    """The lines that are not blank."""
    return [(n, line) for n, line in lines if line]


def _fields(line: str, sep: str, offset: int = 0) -> list:
    """``(col, token)`` for each field of ``line`` split by ``sep``, stripped.

    ``col`` is the 1-based column of the token's first character (of the field,
    if the token is empty), counting ``offset`` characters before ``line``.

    Examples
    --------
    >>> _fields(" a | bc ||", "|")
    [(2, 'a'), (6, 'bc'), (10, ''), (11, '')]
    """
    out, start = [], offset
    for field in line.split(sep):
        token = field.strip()
        out.append((start + (len(field) - len(field.lstrip()) if token else 0) + 1, token))
        start += len(field) + 1
    return out


def _tokens(line: str) -> list:
    """``(col, token)`` for each run of non-space characters.

    Examples
    --------
    >>> _tokens(" \\\\\\t6\\\\11  x")
    [(2, '\\\\'), (4, '6\\\\11'), (10, 'x')]
    """
    return [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", line)]


class _Row(NamedTuple):
    """One grid row as read: its cells, each cell's place, and where the row ends."""
    cells: list
    places: list
    end: tuple


def _row(n: int, line: str, fields: list, read_cell) -> _Row:
    """A row from line ``n``'s ``(col, token)`` fields, read by ``read_cell(token, n, col)``."""
    return _Row([read_cell(token, n, col) for col, token in fields],
                [(n, col) for col, _ in fields], (n, len(line.rstrip()) + 1))


#: While ``formats.with_places`` reads, the places of the cells of each puzzle ``_build`` makes.
_PLACES = contextvars.ContextVar("kakuro_np_cell_places", default=None)


def _build(rows: list, width=None) -> Puzzle:
    """The Puzzle from read rows, after checking each has ``width`` cells (default: row 1's)."""
    if not rows:
        raise _no_puzzle()
    said = "as the header says" if width is not None else "as row 1 has"
    width = len(rows[0].cells) if width is None else width
    if width == 0:
        raise PuzzleError("row 1 has no cells", line=rows[0].end[0], col=rows[0].end[1])
    for i, row in enumerate(rows, start=1):
        k = len(row.cells)
        if k != width:
            line, col = row.places[width] if k > width else row.end
            raise PuzzleError(f"row {i} has {k} cell{'s' * (k != 1)}, expected {width} ({said})",
                              line=line, col=col)
    try:
        puzzle = Puzzle.from_rows([row.cells for row in rows])
    except PuzzleError as e:
        if e.cell is None:
            raise
        r, c = e.cell
        line, col = rows[r].places[c]
        raise PuzzleError(e.message, line=line, col=col) from None
    sink = _PLACES.get()
    if sink is not None:
        sink.append([row.places for row in rows])
    return puzzle


# -- cells (shared by the readers) -----------------------------------------------

def _sum(text: str, n: int, col: int) -> int:
    """A clue sum 0-45 (empty text is 0).

    Examples
    --------
    >>> _sum("", 1, 1), _sum("045", 1, 1)
    (0, 45)
    """
    if not text:
        return 0
    if not re.fullmatch(r"[0-9]+", text):
        raise PuzzleError(f"clue sum '{text}' is not a whole number", line=n, col=col)
    value = _number(text)
    if value > 45:
        raise PuzzleError(f"clue {_shown(text)} is more than 45, the most 9 digits make",
                          line=n, col=col)
    return value


def _number(digits: str) -> int:
    """The value of a run of digits; any run too long to matter counts as 10**9."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= 9 else 10 ** 9


def _shown(digits: str) -> str:
    """A run of digits as an error shows it, cut short if long."""
    digits = digits.lstrip("0") or "0"
    return digits if len(digits) <= 12 else digits[:12] + "..."


def _clue(token: str, sep: str, n: int, col: int) -> tuple:
    """``(down, across)`` from ``down<sep>across``; either side may be empty (0).

    Examples
    --------
    >>> _clue("16\\\\", "\\\\", 1, 1), _clue(",23", ",", 1, 1), _clue(" 3 \\\\ 4", "\\\\", 1, 1)
    ((16, 0), (0, 23), (3, 4))
    """
    down, _, across = token.partition(sep)
    at = col + len(down) + 1  # the across side's first column
    if sep in across:
        raise PuzzleError(f"clue '{token}' has more than one '{sep}'", line=n, col=at + across.index(sep))
    return (_sum(down.strip(), n, col + len(down) - len(down.lstrip())),
            _sum(across.strip(), n, at + len(across) - len(across.lstrip())))


def _given(token: str, n: int, col: int, fmt: str) -> int:
    """A given digit 1-9, or an error naming the cells ``fmt`` has."""
    if len(token) == 1 and token in "123456789":
        return int(token)
    raise PuzzleError(f"unknown cell '{token}': {_HINTS[fmt]}", line=n, col=col)


def _choices(text: str, n: int, col: int) -> None:
    """Check pencil marks ``a,b,...)`` (the text after ``(``, which is at ``col - 1``).

    They are not kept: a Puzzle has no place for them.
    """
    close = text.find(")")
    if close < 0:
        raise PuzzleError("choices need a closing ')', as in 5(1,2,3)", line=n, col=col - 1)
    if text[close + 1:].strip():
        raise PuzzleError(f"unexpected '{text[close + 1:].strip()}' after the choices",
                          line=n, col=col + close + 1)
    if not text[:close].strip():
        return
    for c, item in _fields(text[:close], ",", col - 1):
        if not (len(item) == 1 and item in "123456789"):
            raise PuzzleError(f"choice '{item}' is not a digit 1-9", line=n, col=c)


def _header(n: int, line: str):
    """``(rows, cols)`` if line ``n`` is a ``ROWS COLS [TAB]`` header, else None."""
    m = _HEADER.fullmatch(line)
    if m is None:
        return None
    for group, what in ((1, "rows"), (2, "columns")):
        if not 0 < _number(m[group]) < 10 ** 6:
            raise PuzzleError(f"the header says {_shown(m[group])} {what}; a grid has 1 to 999999",
                              line=n, col=m.start(group) + 1)
    return _number(m[1]), _number(m[2])


def _under_header(n: int, line: str, rows: int, content: list, free_text_after: bool) -> list:
    """The ``rows`` content lines after the header on line ``n``; more is an error unless free text."""
    body = content[:rows]
    if len(body) < rows:
        raise PuzzleError(f"the header says {rows} rows, but the grid has {len(body)}",
                          line=n, col=len(line) - len(line.lstrip()) + 1)
    if len(content) > rows and not free_text_after:
        extra, text = content[rows]
        raise PuzzleError(f"the header says {rows} rows, but the grid goes on",
                          line=extra, col=len(text) - len(text.lstrip()) + 1)
    return body


# -- writing

def _split_clue(sep: str):
    """A clue writer ``down<sep>across`` that leaves a 0 side empty."""
    return lambda down, across: f"{down or ''}{sep}{across or ''}"


def _text(lines) -> str:
    return "".join(line + "\n" for line in lines)
