"""puzz.link URLs: ``https://puzz.link/p?kakuro/W/H/BODY``, as pzprjs writes them.

puzz.link (and its forerunner pzv.jp, both run by pzprjs) is where people
share Kakuro online. A URL holds the clues and the layout, never digits.

Glossary
--------
W, H       : the URL's width and height: the grid without its top clue row and
             left clue column, so the Puzzle is ``(H + 1, W + 1)``.
inner cell : a cell ``(r, c)`` with ``r, c >= 1``; the body walks them row by row.
blank run  : ``k`` to ``z``, 1 to 16 blank cells in a row (row ends do not stop it).
clue cell  : ``.`` for a clue cell with no sums (black), else two characters,
             the down sum and then the across sum.
value      : one character per sum: ``0``-``9``, ``a``-``j`` = 10-19,
             ``A``-``Z`` = 20-45; ``-`` (or ``0``, as older URLs write) = no sum.
border sums: after the body, one value per column whose first inner cell is
             blank (the down sum in row 0 above it), then one per row whose
             first inner cell is blank (the across sum in column 0 left of it).
             Every other border cell, and the corner, is black.

Decisions
---------
- Given digits: the writer refuses a puzzle with given digits (a PuzzleError
  naming the first such cell) rather than dropping them unseen; write
  ``p.with_given(None)`` to leave them out.
- The writer refuses, naming the cell, what a URL cannot hold: a grid smaller
  than 2x2, a blank cell in row 0 or column 0, sums in the corner, an across
  sum in row 0 or a down sum in column 0 (they would sum no cells), and a
  border sum whose neighbour in the grid is not blank. Every inner cell can
  be written, whatever its sums.
- The writer writes ``https://puzz.link/p?kakuro/...`` and a newline, ``-`` for
  no sum and blank runs of at most 16 (``z``), as pzprjs does, so
  ``parse(write(p)) == p`` for every puzzle it writes.
- The reader takes any address before the ``?`` (puzz.link, pzv.jp,
  pzprxs.vercel.app, ...), or none (``kakuro/W/H/BODY``), with blank
  lines and ``#`` comments around it. It takes no pzprjs flag segment before
  W (Kakuro has none). Anything after the border sums is an error, as is a
  blank run that passes the last cell.
- Errors name the line and the 1-based column of the offending character.
- pzprjs also reads Kanpen (pencil box) files and URLs for Kakuro; they are
  not read here: their only description is pzprjs's code.
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import PuzzleError, shown
from ..puzzle import Puzzle, check_run_lengths
from .text import _Lines, _is_digits, _no_puzzle, _number, _shown, decode

#: The sum each value character stands for.
_VALUES = {**{str(d): d for d in range(10)}, **{chr(ord("a") + i): 10 + i for i in range(10)},
           **{chr(ord("A") + i): 20 + i for i in range(26)}, "-": 0}
#: The character the writer uses for each sum 0-45.
_ENCODE = "-123456789abcdefghijABCDEFGHIJKLMNOPQRSTUVWXYZ"
_CELLS_HINT = ("a cell is k-z (1-16 blank cells), '.' (a black cell) or two sums "
               "(0-9, a-j = 10-19, A-Z = 20-45, '-' = none)")
_SUM_HINT = "a sum is 0-9, a-j (10-19), A-Z (20-45) or '-' (none)"
_SHAPE = "kakuro/WIDTH/HEIGHT/BODY"
#: A first line that is a puzz.link address (any puzzle type, so the reader names the wrong one);
#: a host name's labels and their number, and the path, are bounded, so a long line costs little.
_URLISH = re.compile(r"\s*(?:https?://|[\w-]{1,63}(?:\.[\w-]{1,63}){1,126}/[^\s?]{0,255}\?|kakuro/)",
                     re.IGNORECASE)


def looks_like_url(line: str) -> bool:
    """True if ``line`` starts like a puzz.link (pzprjs) address or a bare ``kakuro/...``.

    Examples
    --------
    >>> looks_like_url("https://puzz.link/p?kakuro/1/1/k-"), looks_like_url("x ; 3 0")
    (True, False)
    """
    return bool(_URLISH.match(line))


def parse_puzzlink(text) -> Puzzle:
    """A puzz.link URL ``.../p?kakuro/W/H/BODY`` (or a bare ``kakuro/W/H/BODY``).

    Examples
    --------
    >>> p = parse_puzzlink("https://puzz.link/p?kakuro/2/2/n4334")
    >>> p.shape, p.down[0].tolist(), p.across[:, 0].tolist()
    ((3, 3), [0, 4, 3], [0, 3, 4])
    """
    return _parse_url(decode(text))


def _parse_url(text: str) -> Puzzle:
    """``parse_puzzlink`` for text already decoded."""
    lines = _Lines(text)
    first, second = lines.get(0), lines.get(1)
    if first is None:
        raise _no_puzzle()
    n, line = first
    if second is not None:
        m, extra = second
        raise PuzzleError("a puzz.link puzzle is one URL on one line, but more text follows it",
                          line=m, col=len(extra) - len(extra.lstrip()) + 1)
    start = len(line) - len(line.lstrip())
    return _Url(line.strip(), n, start).puzzle()


class _Url:
    """One URL being read: its text, and the line and column it starts at."""

    def __init__(self, url: str, line: int, start: int):
        self.url, self.line, self.start = url, line, start

    def error(self, message: str, at: int) -> PuzzleError:
        """An error at ``url[at]`` (or just past the end)."""
        return PuzzleError(message, **self.place(at))

    def puzzle(self) -> Puzzle:
        url = self.url
        q = -1 if url.startswith("kakuro/") else url.find("?")
        at = q + 1
        parts = url[at:].split("/", 3)
        pid = parts[0]
        if not pid:
            raise self.error(f"the puzzle type is missing; expected {_SHAPE}", at)
        if pid != "kakuro":
            if q < 0 and ("." in pid or ":" in pid):
                raise self.error(f"no '?' in the address; a puzz.link URL reads "
                                 f"https://puzz.link/p?{_SHAPE}", 0)
            raise self.error(f"this URL is for '{shown(pid)}', not kakuro (expected {_SHAPE})", at)
        names = ("the puzzle type", "the width", "the height")
        if len(parts) < 4:
            raise self.error(f"the URL ends after {names[len(parts) - 1]}; expected {_SHAPE}",
                             len(url))
        w_at = at + len(pid) + 1
        h_at = w_at + len(parts[1]) + 1
        width = self.size(parts[1], w_at, "width")
        height = self.size(parts[2], h_at, "height")
        side = Puzzle.MAX_SIDE
        for value, text, where, what in ((width, parts[1], w_at, "width"),
                                         (height, parts[2], h_at, "height")):
            if value + 1 > side:
                raise self.error(f"the {what} is {_shown(text)}: with its clue row and column the "
                                 f"grid is larger than the {side}x{side} allowed "
                                 f"(set kakuro_np.Puzzle.MAX_SIDE to allow more)", where)
        return self.body(parts[3], h_at + len(parts[2]) + 1, width, height)

    def size(self, text: str, at: int, what: str) -> int:
        if not text:
            raise self.error(f"the {what} is missing; expected {_SHAPE}", at)
        if not _is_digits(text):
            raise self.error(f"the {what} '{shown(text)}' is not a whole number; "
                             f"expected {_SHAPE}", at)
        value = _number(text)
        if value == 0:
            raise self.error(f"the {what} is 0; a Kakuro URL has at least one row and column", at)
        return value

    def body(self, body: str, at: int, width: int, height: int) -> Puzzle:
        cells = width * height
        blank = np.zeros(cells, bool)
        down = np.zeros(cells, np.int16)
        across = np.zeros(cells, np.int16)
        coded = np.zeros(cells, np.int64)          # where in the body each cell is written
        c = i = 0
        while c < cells:
            if i >= len(body):
                raise self.error(f"the URL ends after {c} of its {cells} cells ({width}x{height})",
                                 at + i)
            ch = body[i]
            if "k" <= ch <= "z":
                run = ord(ch) - ord("j")
                if c + run > cells:
                    raise self.error(f"'{shown(ch)}' is {run} blank cells, but only {cells - c} "
                                     f"of the {cells} cells are left", at + i)
                blank[c:c + run] = True
                coded[c:c + run] = i
                c, i = c + run, i + 1
            elif ch == ".":
                coded[c] = i
                c, i = c + 1, i + 1
            elif ch in _VALUES:
                if i + 1 >= len(body):
                    raise self.error("the URL ends inside a clue cell, which takes two characters "
                                     "(down sum, across sum)", at + i + 1)
                down[c] = _VALUES[ch]
                across[c] = self.value(body, i + 1, at)
                coded[c] = i
                c, i = c + 1, i + 2
            else:
                raise self.error(f"unknown character '{shown(ch)}': {_CELLS_HINT}", at + i)
        grid_blank = np.zeros((height + 1, width + 1), bool)
        grid_down = np.zeros((height + 1, width + 1), np.int16)
        grid_across = np.zeros((height + 1, width + 1), np.int16)
        grid_blank[1:, 1:] = blank.reshape(height, width)
        grid_down[1:, 1:] = down.reshape(height, width)
        grid_across[1:, 1:] = across.reshape(height, width)
        border = [(grid_down, (0, x)) for x in range(1, width + 1) if grid_blank[1, x]]
        border += [(grid_across, (y, 0)) for y in range(1, height + 1) if grid_blank[y, 1]]
        border_at = {}                                      # where each border sum is written
        for k, (grid, cell) in enumerate(border):
            if i >= len(body):
                what = "down" if grid is grid_down else "across"
                raise self.error(f"the URL ends before the {what} sum of cell {cell} "
                                 f"(border sum {k + 1} of {len(border)})", at + i)
            grid[cell] = self.value(body, i, at)
            border_at[cell] = i
            i += 1
        if i < len(body):
            raise self.error(f"unexpected '{shown(body[i])}' after the last border sum: the URL "
                             f"holds {cells} cells and {len(border)} border sums", at + i)
        puzzle = Puzzle(grid_blank, grid_down, grid_across)
        check_run_lengths(grid_blank, lambda r, c: self.place(
            at + int(coded[(r - 1) * width + c - 1] if r and c else border_at[r, c])))
        return puzzle

    def place(self, at: int) -> dict:
        """``line=`` and ``col=`` of ``url[at]``, for an error raised elsewhere."""
        return dict(line=self.line, col=self.start + at + 1)

    def value(self, body: str, i: int, at: int) -> int:
        ch = body[i]
        if ch not in _VALUES:
            raise self.error(f"'{shown(ch)}' is not a sum: {_SUM_HINT}", at + i)
        return _VALUES[ch]


def write_puzzlink(puzzle: Puzzle) -> str:
    """``https://puzz.link/p?kakuro/W/H/BODY`` and a newline; a PuzzleError if a URL cannot hold it.

    Examples
    --------
    >>> p = parse_puzzlink("kakuro/2/2/n4334")
    >>> write_puzzlink(p)
    'https://puzz.link/p?kakuro/2/2/n4334\\n'
    """
    _check_holds(puzzle)
    blank, down, across = puzzle.blank, puzzle.down, puzzle.across
    h, w = puzzle.shape
    parts, run = [], 0
    for r in range(1, h):
        for c in range(1, w):
            if blank[r, c]:
                run += 1
                if run == 16:
                    parts.append("z")
                    run = 0
                continue
            if run:
                parts.append(chr(ord("j") + run))
                run = 0
            d, a = int(down[r, c]), int(across[r, c])
            parts.append(_ENCODE[d] + _ENCODE[a] if d or a else ".")
    if run:
        parts.append(chr(ord("j") + run))
    parts += [_ENCODE[int(down[0, c])] for c in range(1, w) if blank[1, c]]
    parts += [_ENCODE[int(across[r, 0])] for r in range(1, h) if blank[r, 1]]
    return f"https://puzz.link/p?kakuro/{w - 1}/{h - 1}/{''.join(parts)}\n"


def _check_holds(puzzle: Puzzle) -> None:
    """Raise PuzzleError, naming the cell, for what a puzz.link URL cannot hold."""
    first = np.argwhere(puzzle.given != 0)
    if first.size:
        r, c = (int(i) for i in first[0])
        raise PuzzleError(f"a puzz.link URL holds no given digits, and this cell holds "
                          f"{int(puzzle.given[r, c])}; write p.with_given(None) to leave them out",
                          cell=(r, c))
    h, w = puzzle.shape
    if h < 2 or w < 2:
        raise PuzzleError(f"a puzz.link URL needs a grid of at least 2x2 (a clue row, a clue "
                          f"column and one cell), not {h}x{w}")
    blank, down, across = puzzle.blank, puzzle.down, puzzle.across
    for r, c in [(0, c) for c in range(w)] + [(r, 0) for r in range(1, h)]:
        if blank[r, c]:
            raise PuzzleError("a puzz.link URL keeps row 0 and column 0 for clues, but this cell "
                              "is blank", cell=(r, c))
        if (r, c) == (0, 0):
            if down[0, 0] or across[0, 0]:
                raise PuzzleError("a puzz.link URL has no sums in the corner cell", cell=(0, 0))
            continue
        if r == 0 and across[r, c]:
            raise PuzzleError(f"a puzz.link URL has no across sum in row 0 (this cell's is "
                              f"{int(across[r, c])}, over no cells)", cell=(r, c))
        if c == 0 and down[r, c]:
            raise PuzzleError(f"a puzz.link URL has no down sum in column 0 (this cell's is "
                              f"{int(down[r, c])}, over no cells)", cell=(r, c))
        if r == 0 and down[r, c] and not blank[1, c]:
            raise PuzzleError(f"a puzz.link URL holds a down sum in row 0 only over a blank cell, "
                              f"and this cell's sum {int(down[r, c])} is over none", cell=(r, c))
        if c == 0 and across[r, c] and not blank[r, 1]:
            raise PuzzleError(f"a puzz.link URL holds an across sum in column 0 only beside a blank "
                              f"cell, and this cell's sum {int(across[r, c])} is beside none",
                              cell=(r, c))
