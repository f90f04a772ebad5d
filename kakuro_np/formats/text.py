"""Text, lines, tokens and cells: what every reader of ``kakuro_np.formats`` shares.

Every reader takes time and memory in proportion to its text, and refuses a grid
larger than ``Puzzle.MAX_SIDE`` as soon as the text shows it (a header's numbers,
or the count of the grid's lines and the cells of row 1) and before it reads a
cell. The lines are found by numpy a chunk at a time (``_Lines``), never a string
per line, so 16 MiB of blank lines, comments or rows cost one pass; a row is
counted before it is split, and split no further than its cells allowed.

Glossary
--------
line    : ``(number, text)``, numbered from 1; a *content* line is neither blank
          nor a comment (``_Lines``).
field   : ``(col, token)``, a token and the 1-based column it starts at.
row     : a grid row as read (``_Row``): its cells, their places, where it ends.
chunk   : the whole lines of up to ``CHUNK`` characters that ``_Lines`` scans at once.
"""

from __future__ import annotations

import contextvars
import re
from typing import NamedTuple

import numpy as np

from ..errors import PuzzleError, shown
from ..puzzle import Puzzle, check_run_lengths, check_size

#: The most text (bytes or characters) a puzzle may take.
MAX_TEXT = 16 << 20
#: The most characters ``_Lines`` scans at once; a longer line is scanned alone.
CHUNK = 1 << 20
#: The most choices (pencil marks) a pipe cell may hold: one for each digit.
MAX_CHOICES = 9

_SOLID = re.compile(r"\S")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
#: The bytes of UTF-8 that hold no control character (``_CONTROL``): not those of the
#: ASCII ones, nor 0xC2, which starts U+0080 to U+00BF and so the others.
_PLAIN = bytes(b for b in range(256) if b in b"\t\n\r" or 32 <= b < 127 or b > 127 and b != 0xC2)
#: ``_SPACE[code]``: whether a character is space to ``str.strip`` and ``str.split``
#: (``str.isspace``), the newline aside; no character past the table's end is.
_SPACE = np.array([chr(i).isspace() and i != 10 for i in range(0x3001)] + [False])

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
    data = data.lstrip("\ufeff")
    if "\r" in data:
        data = data.replace("\r\n", "\n").replace("\r", "\n")
    bad = _CONTROL.search(data) if _may_hold_control(data) else None
    if bad:
        line, col = _place(data, bad.start())
        raise PuzzleError(f"control character U+{ord(bad.group()):04X} is not puzzle text; "
                          "is this a binary file?", line=line, col=col)
    return data


def _may_hold_control(text: str) -> bool:
    """False if no byte of ``text`` in UTF-8 may be part of a control character (a quick test,
    in C, before the search that finds one), else True.

    Examples
    --------
    >>> _may_hold_control("x ; é\\n"), _may_hold_control("x\\x07"), _may_hold_control("°")
    (False, True, True)
    """
    return bool(text.encode("utf-8", "surrogatepass").translate(None, _PLAIN))


def _no_puzzle() -> PuzzleError:
    return PuzzleError("there is no puzzle: the input is empty or holds only blank lines and "
                       "comments", line=1, col=1)


def _codes(text: str) -> np.ndarray:
    """The characters of ``text`` as numbers: uint8 for ASCII text, else uint32 code points."""
    if text.isascii():
        return np.frombuffer(text.encode("ascii"), np.uint8)
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)


def _is_space(codes: np.ndarray) -> np.ndarray:
    """Which of ``codes`` are space (``_SPACE``); a newline is not.

    Examples
    --------
    >>> _is_space(_codes("a \\t\\n\\u3000")).tolist()
    [False, True, True, False, True]
    """
    if codes.dtype == np.uint8:
        if not ((codes < 32) & (codes != 9) & (codes != 10)).any():
            return (codes == 32) | (codes == 9)  # the usual ASCII text, quicker than the table
        return _SPACE[codes]
    return _SPACE[np.minimum(codes, len(_SPACE) - 1)]


def _places(text: str, indices) -> list:
    """The 1-based ``(line, col)`` of ``text[i]`` for each ``i`` of ``indices``.

    The newlines of the text up to the last index are found a chunk at a time, and
    each index is looked up (``searchsorted``) among those of its chunk: one pass
    over the text however many places are asked for, in memory for one chunk.

    Examples
    --------
    >>> _places("ab\\ncd\\n\\ne", [0, 4, 6, 7])
    [(1, 1), (2, 2), (3, 1), (4, 1)]
    """
    at = np.asarray(indices, dtype=np.int64)
    lines, starts = np.ones_like(at), np.zeros_like(at)  # each index's line, and where it starts
    before, last = 0, -1  # the newlines in the chunks so far, and where the last of them is
    for k in range(0, int(at.max()) + 1 if at.size else 0, CHUNK):
        newlines = np.flatnonzero(_codes(text[k:k + CHUNK]) == 10) + k
        here = (at >= k) & (at < k + CHUNK)
        i = np.searchsorted(newlines, at[here])         # the chunk's newlines before each index
        lines[here] = before + i + 1
        starts[here] = np.concatenate(([last], newlines))[i] + 1
        before += newlines.size
        last = int(newlines[-1]) if newlines.size else last
    return list(zip(lines.tolist(), (at - starts + 1).tolist()))


def _place(text: str, index: int) -> tuple:
    """The 1-based ``(line, col)`` of ``text[index]`` (see ``_places``)."""
    return _places(text, [index])[0]


class _Lines:
    """The content lines of a text (neither blank nor comments), found a chunk at a time.

    ``lines[k]`` is the ``k``-th content line ``(number, text)`` (``k`` from 0,
    the number from 1), ``lines.get(k)`` the same or None past the last, and
    ``len(lines)`` how many there are. A chunk of whole lines is scanned, with
    numpy and no string per line, only when a line in it is asked for, so the
    first lines of 16 MiB of text take one chunk and their count one pass. Only
    the first ``keep`` content lines (default ``Puzzle.MAX_SIDE + 2``) are kept:
    no reader needs more of them than a header, the largest grid and one more.

    Examples
    --------
    >>> lines = _Lines("# a comment\\n\\n x ; 3 0\\n0 3 ; _\\n  \\n  # and free text\\n")
    >>> lines[0], lines.get(1), lines.get(2), len(lines)
    ((3, ' x ; 3 0'), (4, '0 3 ; _'), None, 2)
    >>> _Lines("x 3\\\\\\n\\\\3 x\\n\\nmore text").block()   # the lines before the first blank one
    2
    """

    def __init__(self, text: str, keep: int = None):
        self.text = text
        self.keep = Puzzle.MAX_SIDE + 2 if keep is None else keep
        self.found = []           # (number, start, end) of the first ``keep`` content lines
        self.count = 0            # content lines scanned
        self.numbered = 0         # lines of any kind scanned
        self.scanned = 0          # where the text not scanned yet starts
        self.gap = None           # the first content line after a blank line (not line 0)
        self.blank_since = False  # whether the last line scanned but comments is blank

    def get(self, k: int):
        """``(number, text)`` of content line ``k``, or None if there are no more."""
        if k >= self.keep:
            raise IndexError(f"content line {k} is past the {self.keep} kept")
        while len(self.found) <= k and self._scan():
            pass
        if k >= len(self.found):
            return None
        number, start, end = self.found[k]
        return number, self.text[start:end]

    def __getitem__(self, k: int) -> tuple:
        line = self.get(k)
        if line is None:
            raise IndexError(k)
        return line

    def __len__(self) -> int:
        while self._scan():
            pass
        return self.count

    def block(self) -> int:
        """How many content lines come before the first blank line that follows one."""
        while self.gap is None and self._scan():
            pass
        return self.count if self.gap is None else self.gap

    def _scan(self) -> bool:
        """Scan the next chunk of whole lines, or one line longer than a chunk; False at the end."""
        text, start = self.text, self.scanned
        if start >= len(text):
            return False
        end = text.rfind("\n", start, start + CHUNK) + 1 if start + CHUNK < len(text) else len(text)
        if end > start:
            chunk = text[start:end]
            codes = _codes(chunk if chunk.endswith("\n") else chunk + "\n")
            marks = codes[~_is_space(codes)]       # the non-space characters and the newlines
            firsts = marks[np.concatenate(([True], marks[:-1] == 10))]  # each line's first

            def spans(lines):
                ends = np.flatnonzero(codes == 10)
                return np.where(lines > 0, ends[lines - 1] + 1, 0) + start, ends[lines] + start
            self._note(firsts, spans)
            self.scanned = end
        else:
            end = text.find("\n", start)
            end = len(text) if end < 0 else end
            first = _SOLID.search(text, start, end)
            self._note(np.array([10 if first is None else ord(first.group())]),
                       lambda lines: (np.array([start]), np.array([end])))
            self.scanned = end + 1
        return True

    def _note(self, firsts: np.ndarray, spans) -> None:
        """Count and keep the content lines of the lines scanned, whose first non-space
        characters are ``firsts`` (a newline if the line is blank); ``spans(lines)`` gives
        the starts and ends of those (by their indices in ``firsts``) that are kept."""
        content = (firsts != 10) & (firsts != ord("#"))
        room = self.keep - len(self.found)
        if room > 0 and content.any():
            lines = np.flatnonzero(content)[:room]
            starts, ends = spans(lines)
            self.found += zip((lines + self.numbered + 1).tolist(), starts.tolist(), ends.tolist())
        if self.gap is None:
            kept = firsts[firsts != ord("#")]  # the lines but comments; a blank one is a newline
            after_blank = np.concatenate(([self.blank_since], kept[:-1] == 10))
            parted = np.flatnonzero((kept != 10) & after_blank)
            if parted.size and self.count == 0 and parted[0] == np.argmax(kept != 10):
                parted = parted[1:]            # the first content line of all parts nothing
            if parted.size:
                self.gap = self.count + int(np.count_nonzero(kept[:parted[0]] != 10))
            if kept.size:
                self.blank_since = bool(kept[-1] == 10)
        self.count += int(np.count_nonzero(content))
        self.numbered += firsts.size


def _fields(line: str, sep: str, offset: int = 0, limit: int = -1) -> list:
    """``(col, token)`` for each field of ``line`` split by ``sep``, stripped.

    ``col`` is the 1-based column of the token's first character (of the field,
    if the token is empty), counting ``offset`` characters before ``line``. With
    ``limit``, at most ``limit + 1`` fields: the last one holds the rest of the line.

    Examples
    --------
    >>> _fields(" a | bc ||", "|")
    [(2, 'a'), (6, 'bc'), (10, ''), (11, '')]
    >>> _fields(" a | bc ||", "|", limit=1)
    [(2, 'a'), (6, 'bc ||')]
    """
    out, start = [], offset
    for field in line.split(sep, limit):
        token = field.strip()
        out.append((start + (len(field) - len(field.lstrip()) if token else 0) + 1, token))
        start += len(field) + 1
    return out


def _tokens(line: str, limit: int = None) -> list:
    """``(col, token)`` for each run of non-space characters (the first ``limit`` of them).

    Examples
    --------
    >>> _tokens(" \\\\\\t6\\\\11  x")
    [(2, '\\\\'), (4, '6\\\\11'), (10, 'x')]
    >>> _tokens(" \\\\\\t6\\\\11  x", 1)
    [(2, '\\\\')]
    """
    out, at = [], 0
    for token in line.split(None, -1 if limit is None else limit)[:limit]:
        at = _SOLID.search(line, at).start()  # the token's first character
        out.append((at + 1, token))
        at += len(token)
    return out


def _words(line: str) -> int:
    """How many runs of non-space characters ``line`` holds, counted a chunk at a time.

    Examples
    --------
    >>> _words(" \\\\\\t6\\\\11  x "), _words("")
    (3, 0)
    """
    count, in_word = 0, False
    for k in range(0, len(line), CHUNK):
        solid = ~_is_space(_codes(line[k:k + CHUNK]))
        count += int(np.count_nonzero(solid[1:] & ~solid[:-1])) + int(solid[0] and not in_word)
        in_word = bool(solid[-1])
    return count


def _word_fields(line: str, limit: int) -> tuple:
    """``(count, fields)``: how many tokens ``line`` holds, and the first ``limit + 1`` of them."""
    found = _tokens(line, limit + 1)
    return (len(found) if len(found) <= limit else _words(line)), found


def _is_digits(text: str) -> bool:
    """Whether ``text`` is a run of digits 0-9 (tested in C, where ``str.isdigit`` looks up
    every character's Unicode category and a regex would backtrack)."""
    return text.isascii() and text.encode("ascii").isdigit()


def _is_underscores(token: str) -> bool:
    """Whether ``token`` is a run of underscores (a blank, in the backslash format)."""
    return bool(token) and token.count("_") == len(token)


class _Row(NamedTuple):
    """One grid row as read: its cells, each cell's place, and where the row ends."""
    cells: list
    places: list
    end: tuple


def _width_error(i: int, count: int, width: int, said: str, place: tuple) -> PuzzleError:
    """Row ``i`` (from 1) has ``count`` cells, not ``width``: ``place`` is its first extra cell,
    or its end."""
    return PuzzleError(f"row {i} has {count} cell{'s' * (count != 1)}, expected {width} ({said})",
                       line=place[0], col=place[1])


def _grid(lines, height: int, fields, read_cell, width: int = None) -> Puzzle:
    """The Puzzle of the lines ``lines[0:height]``, ``(number, text)``, one row each.

    ``fields(line, limit)`` gives ``(count, fields)``: how many cells ``line``
    holds and the ``(col, token)`` of at most ``limit + 1`` of them;
    ``read_cell(token, n, col)`` reads one. A grid larger than ``Puzzle.MAX_SIDE``
    (by ``height`` and row 1's count) is refused before a cell is read, and a row
    of another width than ``width`` (the header's, by default row 1's) once its
    first ``width`` cells are read, so an error in one of them comes first.

    Examples
    --------
    >>> _grid([(1, "x y"), (2, "_ _")], 2, _word_fields, lambda t, n, c: "_" if t == "_" else "x").shape
    (2, 2)
    """
    said = "as the header says" if width is not None else "as row 1 has"
    rows = []
    for i in range(height):
        n, line = lines[i]
        count, found = fields(line, Puzzle.MAX_SIDE if width is None else width)
        if width is None:
            width = count
            check_size(height, width)
        cells = [read_cell(token, n, col) for col, token in found[:width]]
        end = (n, len(line.rstrip()) + 1)
        if count != width:
            extra = (n, found[width][0]) if count > width else end
            raise _width_error(i + 1, count, width, said, extra)
        rows.append(_Row(cells, [(n, col) for col, _ in found], end))
    return _build(rows)


#: While ``formats.with_places`` reads, the places of the cells of each puzzle ``_build`` makes.
_PLACES = contextvars.ContextVar("kakuro_np_cell_places", default=None)


def _build(rows: list) -> Puzzle:
    """The Puzzle from read rows (of one width), an error in a cell named by its place; a
    run longer than 9 is refused (``check_run_lengths``)."""
    if not rows:
        raise _no_puzzle()
    try:
        puzzle = Puzzle.from_rows([row.cells for row in rows])
    except PuzzleError as e:
        if e.cell is None:
            raise
        r, c = e.cell
        line, col = rows[r].places[c]
        raise PuzzleError(e.message, line=line, col=col) from None
    check_run_lengths(puzzle.blank, lambda r, c: dict(zip(("line", "col"), rows[r].places[c])))
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
    if not _is_digits(text):
        raise PuzzleError(f"clue sum '{shown(text)}' is not a whole number", line=n, col=col)
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
    """A run of digits as an error shows it: its leading zeros dropped, then ``shown``."""
    return shown(digits.lstrip("0") or "0")


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
        raise PuzzleError(f"clue '{shown(token)}' has more than one '{sep}'",
                          line=n, col=at + across.index(sep))
    return (_sum(down.strip(), n, col + len(down) - len(down.lstrip())),
            _sum(across.strip(), n, at + len(across) - len(across.lstrip())))


def _given(token: str, n: int, col: int, fmt: str) -> int:
    """A given digit 1-9, or an error naming the cells ``fmt`` has."""
    if len(token) == 1 and token in "123456789":
        return int(token)
    raise PuzzleError(f"unknown cell '{shown(token)}': {_HINTS[fmt]}", line=n, col=col)


def _choices(text: str, n: int, col: int) -> None:
    """Check pencil marks ``a,b,...)`` (the text after ``(``, which is at ``col - 1``): at most
    ``MAX_CHOICES`` of them, counted before they are split, each a digit 1-9.

    They are not kept: a Puzzle has no place for them.
    """
    close = text.find(")")
    if close < 0:
        raise PuzzleError("choices need a closing ')', as in 5(1,2,3)", line=n, col=col - 1)
    if text[close + 1:].strip():
        raise PuzzleError(f"unexpected '{shown(text[close + 1:].strip())}' after the choices",
                          line=n, col=col + close + 1)
    if not text[:close].strip():
        return
    count = text.count(",", 0, close) + 1
    if count > MAX_CHOICES:                # refused before they are split
        raise PuzzleError(f"{count:,} choices in one cell, more than the {MAX_CHOICES} digits 1-9",
                          line=n, col=col - 1)
    for c, item in _fields(text[:close], ",", col - 1):
        if not (len(item) == 1 and item in "123456789"):
            raise PuzzleError(f"choice '{shown(item)}' is not a digit 1-9", line=n, col=c)


def _header(n: int, line: str):
    """``(rows, cols)`` if line ``n`` is a ``ROWS COLS [TAB]`` header, else None.

    A grid larger than ``Puzzle.MAX_SIDE`` is refused here, at the number that says so.

    Examples
    --------
    >>> _header(1, " 12 10 TAB"), _header(1, "x ; 3 0")
    ((12, 10), None)
    >>> _header(1, "2 300")
    Traceback (most recent call last):
    ...
    kakuro_np.errors.PuzzleError: 1:3: the grid is 2x300, larger than the 200x200 allowed (set kakuro_np.Puzzle.MAX_SIDE to allow more)
    """
    fields = _header_fields(line)
    if fields is None:
        return None
    for (col, number), what in zip(fields, ("rows", "columns")):
        if not 0 < _number(number) < 10 ** 6:
            raise PuzzleError(f"the header says {_shown(number)} {what}; a grid has 1 to 999999",
                              line=n, col=col)
    rows, cols = _number(fields[0][1]), _number(fields[1][1])
    check_size(rows, cols, line=n, col=fields[0 if rows > Puzzle.MAX_SIDE else 1][0])
    return rows, cols


def _header_fields(line: str):
    """The ``(col, word)`` fields of a ``ROWS COLS [TAB|SPACE]`` header line, or None if it is not one.

    Examples
    --------
    >>> _header_fields(" 12 10 TAB"), _header_fields("12 10 x"), _header_fields("12")
    ([(2, '12'), (5, '10'), (8, 'TAB')], None, None)
    """
    fields = _tokens(line, 4)
    if 2 <= len(fields) <= 3 and _is_digits(fields[0][1]) and _is_digits(fields[1][1]) and (
            len(fields) == 2 or fields[2][1].lower() in ("tab", "space")):
        return fields
    return None


def _under_header(lines: _Lines, rows: int, free_text_after: bool) -> list:
    """The ``rows`` content lines after the header (``lines[0]``); more is an error unless free text."""
    n, line = lines[0]
    if lines.get(rows) is None:
        raise PuzzleError(f"the header says {rows} rows, but the grid has {len(lines) - 1}",
                          line=n, col=len(line) - len(line.lstrip()) + 1)
    extra = None if free_text_after else lines.get(rows + 1)
    if extra is not None:
        raise PuzzleError(f"the header says {rows} rows, but the grid goes on",
                          line=extra[0], col=len(extra[1]) - len(extra[1].lstrip()) + 1)
    return [lines[k] for k in range(1, rows + 1)]


# -- writing

def _split_clue(sep: str):
    """A clue writer ``down<sep>across`` that leaves a 0 side empty."""
    return lambda down, across: f"{down or ''}{sep}{across or ''}"


def _text(lines) -> str:
    return "".join(line + "\n" for line in lines)
