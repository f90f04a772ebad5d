"""Reading and writing puzzles as text, in five formats.

``read`` and ``parse`` detect the format unless one is named; ``format`` writes
any of them, and a solution too. Every writer keeps given digits, and every
reader reads back what every writer writes.

Glossary
--------
jboxed    : the essay's rows: cells split by ``;``; ``x`` inactive, ``_`` blank,
            ``v h`` a clue (down sum, across sum; 0 = none); a digit 1-9 is a
            blank holding a given digit.
backslash : the Kuroro document's format: an optional ``ROWS COLS [TAB]`` header,
            then tokens split by spaces or tabs; ``down\\across`` is a clue
            (either side may be empty), ``\\`` alone is inactive, ``x``, ``_``
            or a run of underscores is blank, a digit 1-9 is a given digit.
pipe      : the thesis format (its Table 2 and section 4.3): one row a line,
            cells split by ``|``; nothing or spaces is a blank ("input cell"),
            ``\\`` is inactive, ``down\\across`` a clue. A blank may hold a digit
            and ``(a,b,...)`` choices.
comma     : a ``ROWS COLS`` header, then one row a line of space-separated
            tokens: ``-`` inactive, ``0`` blank, a digit 1-9 a given (solution
            files put digits in place of every ``0``), ``down,across`` a clue
            with either side possibly empty (``16,`` or ``,23``).
json      : ``{"rows": [...]}`` in the ``Puzzle.from_rows`` shape.
header    : the ``ROWS COLS`` line that starts a comma file and may start a
            backslash one; Kuroro writes a third word, ``TAB``.
comment   : a line whose first non-space character is ``#``; skipped by every
            text format, wherever it is.
token     : the text of one cell as written; a *cell* is a token read, in the
            ``from_rows`` form ``"x"``, ``"_"``, a digit or ``(down, across)``.
place     : the 1-based ``line:col`` of a token, named by every error; a tab
            counts as one column.
black     : an inactive cell, in the words of the error messages.
choices   : the thesis's pencil marks, ``(a,b,...)`` after a blank's digit.

Decisions on the corners the sources leave open
-----------------------------------------------
- Detection looks only at the first line that is not blank or a comment
  (see ``detect``), so free text after a grid never changes the format.
- A first line of two whole numbers, optionally followed by ``TAB`` or
  ``SPACE``, is a header, never a grid row.
- backslash: with a header, its ROWS rows are read (blank and comment lines
  skipped) and the rest of the file is free text, as Kuroro allows. Without a
  header, the grid is the block of lines up to the first blank line; free text
  after the grid needs a blank line (or ``#``) before it. Inside the grid
  every token must be a cell, so a typo is an error rather than an early end.
- pipe: the thesis writes no bar at the ends of a row. If every row starts and
  ends with ``|`` those outer bars are read as borders, since a real puzzle's
  first column never holds a blank. The writer adds borders only when its rows
  would otherwise look bordered, or the grid has one column.
- pipe choices are checked (digits 1-9) and then dropped: a Puzzle has no
  place for pencil marks.
- comma: one row a line; a grid with more or fewer rows than the header says
  is an error.
- jboxed: a row may end with ``;``. The writer ends rows so when the grid has
  one column, which would otherwise show no ``;`` to detect.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import re
from json.decoder import JSONArray
from json.scanner import py_make_scanner
from typing import NamedTuple

import numpy as np

from .errors import PuzzleError
from .puzzle import Puzzle
from .tokens import cell_tokens

FORMATS = ("jboxed", "backslash", "pipe", "comma", "json")
#: The most text (bytes or characters) a puzzle may take.
MAX_TEXT = 16 << 20

_HEADER = re.compile(r"\s*([0-9]+)\s+([0-9]+)(?:\s+((?i:tab|space)))?\s*")
_JBOXED_CLUE = re.compile(r"([0-9]+)\s+([0-9]+)")
_UNDERSCORES = re.compile(r"_+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")

_HINTS = {
    "jboxed": "use x (black), _ (blank), a digit 1-9 or 'down across' (a clue)",
    "backslash": "use \\ (black), x or _ (blank), a digit 1-9 or down\\across (a clue)",
    "pipe": "a blank holds nothing, a digit 1-9 and/or (choices); \\ is black, down\\across a clue",
    "comma": "use - (black), 0 (blank), a digit 1-9 or down,across (a clue)",
}


# -- the public entry points ---------------------------------------------------

def as_puzzle(grid) -> Puzzle:
    """A Puzzle from a Puzzle, a path, text, a JSON dict or rows (see ``Puzzle.from_rows``).

    Examples
    --------
    >>> as_puzzle({"rows": [["x", [3, 0]], [[0, 3], "_"]]}).shape
    (2, 2)
    """
    if isinstance(grid, Puzzle):
        return grid
    if isinstance(grid, (str, bytes, os.PathLike)):
        return read(grid)
    if isinstance(grid, dict):
        return _from_json_obj(grid)
    return Puzzle.from_rows(grid)


def read(source, format=None) -> Puzzle:
    """Read a puzzle from a path or from text; the format is detected unless named.

    Errors found in a file name it: ``k1.txt:3:7: unknown cell 'q' ...``.

    Examples
    --------
    >>> read("x ; 3 0\\n0 3 ; _").blank.tolist()
    [[False, False], [False, True]]
    >>> read("2 2\\n- 3,\\n,3 0").given.tolist()
    [[0, 0], [0, 0]]
    """
    name = None
    if isinstance(source, os.PathLike) or (
            isinstance(source, (str, bytes)) and _looks_like_path(source)):
        name = os.fsdecode(source)
        try:
            with open(name, "rb") as f:
                source = f.read(MAX_TEXT + 1)
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


def parse(text, format=None) -> Puzzle:
    """Parse puzzle text (str or bytes) in a named format, or detect the format.

    Examples
    --------
    >>> parse("x ; 4 0 ; 3 0\\n0 3 ; _ ; _\\n0 4 ; _ ; _", format="jboxed").shape
    (3, 3)
    >>> parse("\\\\|4\\\\|3\\\\\\n\\\\3||\\n\\\\4||") == parse("x ; 4 0 ; 3 0\\n0 3 ; _ ; _\\n0 4 ; _ ; _")
    True
    """
    text = decode(text)
    if not text.strip():
        raise _no_puzzle()
    return _reader(format or detect(text))(text)


def detect(text) -> str:
    """The name of the format ``text`` is in, judged by its first line that is not blank or a comment.

    ``{`` or ``[`` starts json; a ``;`` means jboxed and a ``|`` pipe; a header
    with ``TAB`` means backslash, a bare ``ROWS COLS`` header comma unless the
    next line has backslash cells; a line with ``\\``, ``x`` or ``_`` tokens is
    backslash without a header.

    Examples
    --------
    >>> [detect(t) for t in ("x ; 3 0", "\\\\|3\\\\", "1 2 TAB\\n\\\\ x", "1 2\\n- 0", '{"rows": []}')]
    ['jboxed', 'pipe', 'backslash', 'comma', 'json']
    """
    text = decode(text)
    content = _content(_lines(text))
    if not content:
        raise _no_puzzle()
    n, line = content[0]
    first = line.strip()
    if first[0] in "{[":
        return "json"
    if ";" in first:
        return "jboxed"
    if "|" in first:
        return "pipe"
    header = _HEADER.fullmatch(line)
    if header:
        later = content[1][1] if len(content) > 1 else ""
        return "backslash" if header[3] or _looks_backslash(later) else "comma"
    if _looks_backslash(line):
        return "backslash"
    raise PuzzleError(f"cannot tell the format of '{first[:30]}' (tried {', '.join(FORMATS)}); "
                      "name one with format=", line=n, col=len(line) - len(line.lstrip()) + 1)


def _looks_backslash(line: str) -> bool:
    return any("\\" in t or t in ("x", "X") or _UNDERSCORES.fullmatch(t) for t in line.split())


def taking_text(verb):
    """``verb(puzzle, ...)`` made to take a path, text or rows too, read by ``as_puzzle``.

    The solver's stages take a Puzzle, since below the readers nothing reads
    text; the public verbs (``kakuro_np.entries``) take whatever a reader reads.

    Examples
    --------
    >>> shape = taking_text(lambda puzzle: puzzle.shape)
    >>> shape("x ; 3 0\\n0 3 ; _")
    (2, 2)
    """
    @functools.wraps(verb)
    def verb_taking_text(grid, *args, **kwargs):
        return verb(as_puzzle(grid), *args, **kwargs)
    return verb_taking_text


def format(puzzle, fmt="jboxed", solution=None) -> str:
    """Write a puzzle as text in ``fmt``; given ``solution`` (H, W digits), its solved grid.

    Examples
    --------
    >>> p = parse("x ; 4 0 ; 3 0\\n0 3 ; _ ; _\\n0 4 ; _ ; _")
    >>> print(format(p, "comma"), end="")
    3 3
    - 4, 3,
    ,3 0 0
    ,4 0 0
    >>> print(format(p, "comma", solution=[[0, 0, 0], [0, 1, 2], [0, 3, 1]]), end="")
    3 3
    - 4, 3,
    ,3 1 2
    ,4 3 1
    >>> all(parse(format(p, f)) == p for f in FORMATS)
    True
    """
    puzzle = as_puzzle(puzzle)
    if solution is not None:
        puzzle = _solved(puzzle, solution)
    if fmt not in _WRITERS:
        raise PuzzleError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    return _WRITERS[fmt](puzzle)


def _solved(puzzle: Puzzle, solution) -> Puzzle:
    """The puzzle with the solution's digits as its given digits (blanks only)."""
    digits = np.asarray(solution)
    if digits.shape != puzzle.shape:
        raise PuzzleError(f"the solution has shape {digits.shape}, the puzzle {puzzle.shape}")
    return puzzle.with_given(np.where(puzzle.blank, digits, 0))


def _reader(name):
    if name not in _READERS:
        raise PuzzleError(f"unknown format {name!r}; known: {', '.join(FORMATS)}")
    return _READERS[name]


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
        return Puzzle.from_rows([row.cells for row in rows])
    except PuzzleError as e:
        if e.cell is None:
            raise
        r, c = e.cell
        line, col = rows[r].places[c]
        raise PuzzleError(e.message, line=line, col=col) from None


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


# -- the readers ------------------------------------------------------------------

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
    content = _content(_lines(text))
    bordered = _pipe_bordered([line for _, line in content])
    return _build([_row(n, line, _pipe_fields(line, bordered), _pipe_cell) for n, line in content])


def _pipe_bordered(lines: list) -> bool:
    """Whether every row starts and ends with a ``|`` border."""
    return all(len(s := line.strip()) >= 2 and s[0] == s[-1] == "|" for line in lines)


def _pipe_fields(line: str, bordered: bool) -> list:
    if not bordered:
        return _fields(line, "|")
    start, end = line.index("|") + 1, line.rindex("|")
    return _fields(line[start:end], "|", offset=start)


def _pipe_cell(token: str, n: int, col: int):
    if "\\" in token:
        return _clue(token, "\\", n, col)
    digit, paren, after = token.partition("(")
    if paren:
        _choices(after, n, col + len(digit) + 1)
    digit = digit.strip()
    return _given(digit, n, col, "pipe") if digit else "_"


def parse_comma(text: str) -> Puzzle:
    """A ``ROWS COLS`` header, then rows of ``-``, ``0``, digits and ``down,across`` tokens.

    Examples
    --------
    >>> parse_comma("2 3\\n- 16, 3,\\n,23 0 7").given.tolist()
    [[0, 0, 0], [0, 0, 7]]
    """
    content = _content(_lines(text))
    if not content:
        raise _no_puzzle()
    n, line = content[0]
    header = _header(n, line)
    if header is None:
        raise PuzzleError("a comma file starts with a 'ROWS COLS' header line, such as '10 12'",
                          line=n, col=1)
    body = _under_header(n, line, header[0], content[1:], free_text_after=False)
    return _build([_row(n, line, _tokens(line), _comma_cell) for n, line in body], header[1])


def _comma_cell(token: str, n: int, col: int):
    if token == "-":
        return "x"
    if token == "0":
        return "_"
    if "," in token:
        return _clue(token, ",", n, col)
    return _given(token, n, col, "comma")


def parse_json(text: str) -> Puzzle:
    """``{"rows": [...]}`` with cells as in ``Puzzle.from_rows``; errors name the cell's place.

    Examples
    --------
    >>> parse_json('{"rows": [["x", [3, 0]], [[0, 3], 2]]}').given.tolist()
    [[0, 0], [0, 2]]
    >>> parse_json('{"rows": [["x", [3, 0]],\\n  [[0, 3], "q"]]}')
    Traceback (most recent call last):
    ...
    kakuro_np.errors.PuzzleError: 2:12: unknown cell 'q': use 'x', '_', a digit or (down, across)
    """
    try:
        obj, starts = _json_load(text)
    except json.JSONDecodeError as e:
        raise PuzzleError(f"bad JSON: {e.msg}", line=e.lineno, col=e.colno) from None
    except (ValueError, RecursionError) as e:  # a number too long, lists nested too deep
        raise PuzzleError(f"bad JSON: {e.__class__.__name__}: {str(e)[:60]}", line=1, col=1) from None

    def place(container, i):
        return _place(text, starts[id(container)][i])

    return _from_json_obj(obj, place)


def _json_load(text: str) -> tuple:
    """``json.loads(text)`` and, for each list in it (by ``id``), its elements' text indices."""
    starts = {}
    decoder = json.JSONDecoder()

    def parse_array(s_and_end, scan_once):
        here = []

        def scan(s, i):
            here.append(i)
            return scan_once(s, i)

        value, end = JSONArray(s_and_end, scan)
        starts[id(value)] = here
        return value, end

    decoder.parse_array = parse_array
    decoder.scan_once = py_make_scanner(decoder)
    return decoder.decode(text), starts


def _from_json_obj(obj, place=None) -> Puzzle:
    """The puzzle of a JSON object; ``place(list, i)`` gives ``(line, col)`` of ``list[i]``."""
    rows = obj.get("rows") if isinstance(obj, dict) else None
    if not isinstance(rows, list):
        where = {} if place is None else dict(line=1, col=1)
        raise PuzzleError('a JSON puzzle is {"rows": [[cell, ...], ...]}', **where)
    if place is None:
        return Puzzle.from_rows(rows)
    out = []
    for r, row in enumerate(rows):
        if not isinstance(row, list):
            line, col = place(rows, r)
            raise PuzzleError(f"row {r + 1} is not a list of cells", line=line, col=col)
        start = place(rows, r)
        out.append(_Row(row, [place(row, c) for c in range(len(row))] or [start], start))
    return _build(out)


_READERS = {"jboxed": parse_jboxed, "backslash": parse_backslash, "pipe": parse_pipe,
            "comma": parse_comma, "json": parse_json}


# -- the writers --------------------------------------------------------------------

def _split_clue(sep: str):
    """A clue writer ``down<sep>across`` that leaves a 0 side empty."""
    return lambda down, across: f"{down or ''}{sep}{across or ''}"


def _text(lines) -> str:
    return "".join(line + "\n" for line in lines)


def write_jboxed(puzzle: Puzzle) -> str:
    """The essay's rows, ``" ; "`` between cells (and after a lone column's cell)."""
    end = " ;" if puzzle.shape[1] == 1 else ""
    rows = cell_tokens(puzzle, "_", "x", lambda down, across: f"{down} {across}")
    return _text(" ; ".join(row) + end for row in rows)


def write_backslash(puzzle: Puzzle) -> str:
    """Kuroro's file: a ``ROWS COLS TAB`` header, then tab-separated tokens, ``x`` blank."""
    rows = cell_tokens(puzzle, "x", "\\", _split_clue("\\"))
    return _text([f"{puzzle.shape[0]} {puzzle.shape[1]} TAB"] + ["\t".join(row) for row in rows])


def write_pipe(puzzle: Puzzle) -> str:
    """The thesis's file: cells joined by ``|``, bordered only where it must be."""
    lines = ["|".join(row) for row in cell_tokens(puzzle, "", "\\", _split_clue("\\"))]
    if puzzle.shape[1] == 1 or _pipe_bordered(lines):
        lines = [f"|{line}|" for line in lines]
    return _text(lines)


def write_comma(puzzle: Puzzle) -> str:
    """A ``ROWS COLS`` header, then space-separated ``-``, ``0``, digits and ``down,across``."""
    rows = cell_tokens(puzzle, "0", "-", _split_clue(","))
    return _text([f"{puzzle.shape[0]} {puzzle.shape[1]}"] + [" ".join(row) for row in rows])


def write_json(puzzle: Puzzle) -> str:
    """``{"rows": [...]}``, one row a line."""
    rows = puzzle.to_rows()
    return "{\"rows\": [\n" + ",\n".join("  " + json.dumps(r) for r in rows) + "\n]}\n"


_WRITERS = {"jboxed": write_jboxed, "backslash": write_backslash, "pipe": write_pipe,
            "comma": write_comma, "json": write_json}
