"""Reading and writing puzzles as text, in five formats and as puzz.link URLs.

``read`` and ``parse`` detect the format unless one is named; ``format`` writes
any of them, and a solution too. Every writer but puzzlink keeps given digits
and holds any grid, and every reader reads back what every writer writes.

Modules
-------
__init__  : the public verbs (``read``, ``parse``, ``detect``, ``format``,
            ``as_puzzle``) and the tables of readers and writers.
text      : what the readers share: decoding, lines, tokens, rows, clue sums.
jboxed, backslash, pipe, comma, jsongrid, puzzlink : one module per format,
            its reader (``parse_<name>``) and its writer (``write_<name>``).
bulk      : many grids at once, for a batch: plain jboxed grids read
            (``read_plain``, what ``parse`` reads or None) and comma texts written
            (``comma_texts``, what ``format`` writes), each a few numpy passes,
            the Puzzles made at once from their cells (``from_cells``).

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
puzzlink  : a puzz.link (pzprjs) URL, ``https://puzz.link/p?kakuro/W/H/BODY``:
            the grid below the top clue row and right of the left clue column,
            W wide and H high, then the border sums. It holds no given digits,
            and row 0 and column 0 hold only clues (see ``puzzlink``).
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
- A URL (``https://``, ``pzv.jp/p.html?``, a bare ``kakuro/``) is never read
  as a file name. The puzzlink writer refuses, with a PuzzleError naming the
  cell, a puzzle a URL cannot hold (given digits, blanks or stray sums on the
  border); ``puzzlink`` lists its own decisions.
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
- pipe choices are checked (digits 1-9, at most 9 of them, counted before
  they are split) and then dropped: a Puzzle has no place for pencil marks.
- comma: one row a line; a grid with more or fewer rows than the header says
  is an error.
- jboxed: a row may end with ``;``. The writer ends rows so when the grid has
  one column, which would otherwise show no ``;`` to detect.
- Runs: every reader refuses a run of more than 9 blank cells, naming its
  clue cell (row, column), its place in the text and its length; a Puzzle
  built from arrays or rows may hold one, which the solver refuses
  (``check_runs`` also names a run without its clue).
- Errors quote the input through ``errors.shown``: on one line, characters
  that are not printable (controls, bidirectional and zero-width ones)
  escaped as ``\\uXXXX``, long tokens and numbers cut short.
- Size: a text holds at most ``MAX_TEXT`` bytes (16 MiB). Every reader takes time
  and memory in proportion to it, and refuses a grid larger than
  ``Puzzle.MAX_SIDE`` as soon as the text shows one, before it reads a cell: at
  a header's numbers, at the count of the lines and of row 1's cells, at the
  JSON row or cell past the limit, at a URL's width and height. The error says
  the grid's size where the text shows it whole ("the grid is 201x10"), else
  names the row or cell the reader stopped at.
- json: lists and objects nested deeper than ``jsongrid.MAX_DEPTH`` (32), a
  number longer than ``MAX_NUMBER`` (40) characters, and more values than three
  for each cell of the largest grid are bad JSON; the first two are named at
  the document's start (with the place of the number), the last at the value.
"""

from __future__ import annotations

import functools
import os
import re
from typing import Iterator

import numpy as np

from ..errors import PuzzleError, shown
from ..puzzle import Puzzle, PuzzleLike
from .backslash import parse_backslash, write_backslash
from .comma import parse_comma, write_comma
from .jboxed import parse_jboxed, write_jboxed
from .jsongrid import _from_json_obj, parse_json, write_json
from .pipe import parse_pipe, write_pipe
from .puzzlink import _parse_url, looks_like_url, parse_puzzlink, write_puzzlink  # noqa: F401
from .stream import chunks, joined
from .text import (_PLACES, MAX_TEXT, _Lines, _header_fields, _is_underscores, _no_puzzle, _tokens,
                   decode)

FORMATS = ("jboxed", "backslash", "pipe", "comma", "json", "puzzlink")
_READERS = {"jboxed": parse_jboxed, "backslash": parse_backslash, "pipe": parse_pipe,
            "comma": parse_comma, "json": parse_json, "puzzlink": _parse_url}
_WRITERS = {"jboxed": write_jboxed, "backslash": write_backslash, "pipe": write_pipe,
            "comma": write_comma, "json": write_json, "puzzlink": write_puzzlink}


def as_puzzle(grid: PuzzleLike) -> Puzzle:
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


def read(source: str | os.PathLike[str], format: str | None = None) -> Puzzle:
    """Read a puzzle from a path or from text; the format is detected unless named.

    Errors found in a file name it: ``k1.txt:3:7: unknown cell 'q' ...``.

    Examples
    --------
    >>> read("x ; 3 0\\n0 3 ; _").blank.tolist()
    [[False, False], [False, True]]
    >>> read("2 2\\n- 3,\\n,3 0").given.tolist()
    [[0, 0], [0, 0]]
    """
    text, name = source_text(source)
    try:
        return parse(text, format=format)
    except PuzzleError as e:
        raise e.with_source(name) if name is not None else e


def read_all(source: str | os.PathLike[str], format: str | None = None) -> list:
    """The puzzles of a stream (several grids, as ``solve --to`` writes them; see
    ``stream``) in a file (a path) or a text, as ``read`` reads one.

    Examples
    --------
    >>> [p.shape for p in read_all("x ; 3 0\\n0 3 ; _\\n---\\nx ; 4 0\\n0 4 ; _\\n")]
    [(2, 2), (2, 2)]
    """
    text, name = source_text(source)
    try:
        return parse_all(text, format=format)
    except PuzzleError as e:
        raise e.with_source(name) if name is not None else e


def parse_all(text, format: str | None = None) -> list:
    """The puzzles of a stream's text, in order; errors name the line in the whole text.

    Examples
    --------
    >>> [p.shape for p in parse_all('{"rows": [["x", [3, 0]], [[0, 3], "_"]]}\\n'
    ...                             '{"rows": [["x"]]}\\n')]
    [(2, 2), (1, 1)]
    """
    found = []
    for start, chunk in chunks(decode(text)):
        try:
            found.append(parse(chunk, format=format))
        except PuzzleError as e:
            raise PuzzleError(e.message, line=None if e.line is None else e.line + start,
                              col=e.col, cell=e.cell) from None
    return found


def write_all(puzzle: PuzzleLike, fmt: str, solutions) -> Iterator[str]:
    """Each of ``solutions`` of ``puzzle`` in format ``fmt``, as a stream ``read_all`` splits
    (``stream.joined``)."""
    return joined((format(puzzle, fmt, solution=s) for s in solutions), fmt, len(solutions))


def source_text(source) -> tuple:
    """``(text, name)``: what ``read`` parses, and the file's name, or None for text (a
    path's first MAX_TEXT + 1 bytes, for the readers to refuse a larger file)."""
    if not (isinstance(source, os.PathLike) or (
            isinstance(source, (str, bytes)) and _looks_like_path(source))):
        return source, None
    name = os.fsdecode(source)
    try:
        with open(name, "rb") as f:
            return f.read(MAX_TEXT + 1), name
    except OSError as e:
        raise PuzzleError(f"cannot read file: {e.strerror}", source=name) from None


def _looks_like_path(source) -> bool:
    """Whether ``read`` takes ``source`` for a path: one line naming a file or folder that
    exists, or one that looks like a path (a name with an extension, or ending in a
    folder separator), so that a missing one is "cannot read file", not a format
    unknown. A puzzle's one-line text has no extension (``x ; 3 0``, a URL, JSON)."""
    if isinstance(source, bytes):
        return b"\n" not in source and len(source) < 4096 and os.path.exists(source)
    return "\n" not in source and ";" not in source and len(source) < 4096 and (
        os.path.exists(source) or (not looks_like_url(source)  # a URL is text, not a file name
                                   and (source.endswith(("/", os.sep)) or
                                        re.search(r"\.[A-Za-z][A-Za-z0-9]{0,9}$", source) is not None)))


def with_places(verb, *args, **kwargs) -> tuple:
    """``(verb(*args, **kwargs), places)`` for ``read`` or ``parse``: the puzzle, and where each
    cell stands in the text, ``places[r][c] == (line, col)`` (1-based), or None when the
    format has no lines and columns to name (puzz.link, a JSON object).

    The command line names a cell of a malformed run, which only the solver's
    first stage finds, by its line and column.

    Examples
    --------
    >>> p, places = with_places(parse, "x ; 3 0\\n0 3 ; _")
    >>> places[1][1]
    (2, 7)
    """
    sink = []
    token = _PLACES.set(sink)
    try:
        puzzle = verb(*args, **kwargs)
    finally:
        _PLACES.reset(token)
    return puzzle, (sink[-1] if sink else None)


def check_runs(puzzle, places=None) -> None:
    """Raise the solver's first stage's PuzzleError for a malformed run of ``puzzle`` (a run
    without its clue, too long, a cell no clue covers), named by its line and column
    in the text where ``places`` (``with_places``) has them, else by its cell.

    Examples
    --------
    >>> check_runs(*with_places(parse, "x ; 3 0\\n0 3 ; _"))
    >>> check_runs(*with_places(parse, "x ; x ; x\\nx ; _ ; _"))
    Traceback (most recent call last):
    ...
    kakuro_np.errors.PuzzleError: 2:5: a run of 2 blank cells has no across clue to its left
    """
    from ..engine.build.entries import packed_entries
    try:
        packed_entries(puzzle)
    except PuzzleError as e:
        if e.cell is None or places is None:
            raise
        line, col = places[e.cell[0]][e.cell[1]]     # the cell's place in the text
        raise PuzzleError(e.message, line=line, col=col) from None


def parse(text: str, format: str | None = None) -> Puzzle:
    """Parse puzzle text (str or bytes) in a named format, or detect the format.

    Examples
    --------
    >>> parse("x ; 4 0 ; 3 0\\n0 3 ; _ ; _\\n0 4 ; _ ; _", format="jboxed").shape
    (3, 3)
    >>> parse("\\\\|4\\\\|3\\\\\\n\\\\3||\\n\\\\4||") == parse("x ; 4 0 ; 3 0\\n0 3 ; _ ; _\\n0 4 ; _ ; _")
    True
    """
    text = decode(text)
    if not text or text.isspace():
        raise _no_puzzle()
    fmt = format or _detect(text)
    _one_grid(text, fmt)
    return _reader(fmt)(text)


#: A line between two grids of a stream (``stream.SEPARATOR``), and two JSON objects a line each.
_SEPARATOR_LINE = re.compile(r"^[ \t]*---[ \t]*\r?$", re.M)
_JSON_LINES = re.compile(r"\}[ \t]*\r?\n[ \t\r\n]*\{")


def _one_grid(text: str, fmt: str) -> None:
    """Refuse a stream of several grids (``stream``): ``read_all`` reads those."""
    found = _SEPARATOR_LINE.search(text) if fmt != "json" else _JSON_LINES.search(text)
    if found:
        line = text.count("\n", 0, found.start()) + 1 + (fmt == "json")
        raise PuzzleError("this text holds several grids (a stream, as solve --to writes "
                          "them); read them with read_all", line=line)


def detect(text: str) -> str:
    """The name of the format ``text`` is in, judged by its first line that is not blank or a comment.

    A URL (``https://``, ``host/path?``, ``kakuro/``) is puzzlink;
    ``{`` or ``[`` starts json; a ``;`` means jboxed and a ``|`` pipe; a header
    with ``TAB`` means backslash, a bare ``ROWS COLS`` header comma unless the
    next line has backslash cells; a line with ``\\``, ``x`` or ``_`` tokens is
    backslash without a header.

    Examples
    --------
    >>> [detect(t) for t in ("x ; 3 0", "\\\\|3\\\\", "1 2 TAB\\n\\\\ x", "1 2\\n- 0", '{"rows": []}')]
    ['jboxed', 'pipe', 'backslash', 'comma', 'json']
    >>> detect("  https://puzz.link/p?kakuro/2/2/n4334\\n")
    'puzzlink'
    """
    return _detect(decode(text))


def _detect(text: str) -> str:
    """``detect`` for text already decoded."""
    lines = None
    if text[:1].isascii() and text[:1].isprintable() and text[:1] not in " #":
        end = text.find("\n")                   # the first line is the first content line:
        n, line = 1, text if end < 0 else text[:end]  # no need to scan the text for it
    else:
        lines = _Lines(text)
        if (top := lines.get(0)) is None:
            raise _no_puzzle()
        n, line = top
    first = line.strip()
    if looks_like_url(first):
        return "puzzlink"
    if first[0] in "{[":
        return "json"
    if ";" in first:
        return "jboxed"
    if "|" in first:
        return "pipe"
    header = _header_fields(line)
    if header:
        later = ((lines or _Lines(text)).get(1) or (0, ""))[1]
        return "backslash" if len(header) == 3 or _looks_backslash(later) else "comma"
    if _looks_backslash(line):
        return "backslash"
    raise PuzzleError(f"cannot tell the format of '{shown(first, 30)}' "
                      f"(tried {', '.join(FORMATS)}); name one with format=",
                      line=n, col=len(line) - len(line.lstrip()) + 1)


def _looks_backslash(line: str) -> bool:
    """Whether a token of ``line`` is a backslash cell (only so many as a row may hold are read)."""
    return any("\\" in t or t in ("x", "X") or _is_underscores(t)
               for _, t in _tokens(line, Puzzle.MAX_SIDE + 1))


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


def format(puzzle: PuzzleLike, fmt: str = "jboxed", solution: np.ndarray | None = None, *,
           style: str | None = None) -> str:
    """Write a puzzle as text in ``fmt``; given ``solution`` (H, W digits), its solved grid.
    ``style`` picks a look of the backslash format (``backslash.BACKSLASH_STYLES``:
    "kuroro", the default, or "underscores").

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
    >>> format(p, "puzzlink")
    'https://puzz.link/p?kakuro/2/2/n4334\\n'
    """
    puzzle = as_puzzle(puzzle)
    if solution is not None:
        puzzle = _solved(puzzle, solution)
    if fmt not in _WRITERS:
        raise _unknown_format(fmt)
    if style is not None:
        if fmt != "backslash":
            raise ValueError(f"style= is a look of the backslash format, not of {fmt}")
        return write_backslash(puzzle, style)
    return _WRITERS[fmt](puzzle)


def _solved(puzzle: Puzzle, solution) -> Puzzle:
    """The puzzle with the solution's digits as its given digits (blanks only)."""
    digits = np.asarray(solution)
    if digits.shape != puzzle.shape:
        raise PuzzleError(f"the solution has shape {digits.shape}, the puzzle {puzzle.shape}")
    return puzzle.with_given(np.where(puzzle.blank, digits, 0))


def _reader(name):
    if name not in _READERS:
        raise _unknown_format(name)
    return _READERS[name]


def _unknown_format(name) -> PuzzleError:
    """The error for a format ``name`` that is none of ``FORMATS``."""
    said = f"'{shown(name)}'" if isinstance(name, str) else shown(name)
    return PuzzleError(f"unknown format {said}; known: {', '.join(FORMATS)}")
