"""A writer's layout drawn as text: lines of ``#`` (a black cell) and ``.`` (a cell to fill).

The picture is told and read with numpy over the text's characters, never a string per
line nor an object per cell, and its size is checked against ``Puzzle.MAX_SIDE`` from
its count of lines and its first line's width before a cell is read, so 16 MiB of
text costs a few passes and memory in proportion to it.

Glossary
--------
picture : the clue row and column included, one line a grid row; blank lines and
          spaces after a line are ignored, a line starting with a space is no picture.
mark    : a ``#`` or a ``.``.
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import PuzzleError
from ..puzzle import check_size
from .text import _codes

#: A character a picture cannot hold: not a mark, nor space.
_NOT_PICTURE = re.compile(r"[^#.\s]")
_BLACK, _FILL, _NEWLINE = ord("#"), ord("."), ord("\n")


def read_picture(text: str):
    """The ``(H, W)`` bool layout (True: a cell to fill) that ``text`` pictures, or None if
    ``text`` is no picture; a picture of lines of other widths, or of a grid larger than
    ``Puzzle.MAX_SIDE``, is a PuzzleError.

    Examples
    --------
    >>> read_picture("####\\n#..#\\n\\n#...  \\n").astype(int).tolist()
    [[0, 0, 0, 0], [0, 1, 1, 0], [0, 1, 1, 1]]
    >>> read_picture("x ; 3 0\\n"), read_picture(" ##\\n"), read_picture("\\n"), read_picture("")
    (None, None, None, None)
    >>> read_picture("####\\n#..\\n")
    Traceback (most recent call last):
    ...
    kakuro_np.errors.PuzzleError: 2: a picture's lines are all 4 wide; this one is 3
    """
    if not text or _NOT_PICTURE.search(text):
        return None
    codes = _codes(text)
    mark = codes == _BLACK
    mark |= codes == _FILL
    firsts = np.empty_like(mark)               # whether a character starts its line
    firsts[0] = True
    np.equal(codes[:-1], _NEWLINE, out=firsts[1:])
    if _after_space(mark, firsts):
        return None
    firsts &= mark                             # each line's first mark
    height = int(np.count_nonzero(firsts))
    if not height:
        return None
    lasts = mark                               # each line's last mark, made in place
    lasts[:-1] &= ~mark[1:]
    start = int(np.argmax(firsts))
    check_size(height, int(np.argmax(lasts)) + 1 - start)
    return _rows(codes, np.flatnonzero(firsts), np.flatnonzero(lasts) + 1)


def _after_space(mark: np.ndarray, starts: np.ndarray) -> bool:
    """Whether a mark follows a space on its line (``starts``: the characters that start
    one), so that the text is no picture."""
    bad = np.logical_or(mark[:-1], starts[1:])
    np.logical_not(bad, out=bad)
    bad &= mark[1:]
    return bool(bad.any())


def _rows(codes: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The picture's cells, its lines ``codes[starts[i]:ends[i]]`` (at most ``MAX_SIDE`` of
    them) checked to be of one width."""
    widths = ends - starts
    other = np.flatnonzero(widths != widths[0])
    if other.size:
        at = int(starts[other[0]])
        line = int(np.count_nonzero(codes[:at] == _NEWLINE)) + 1
        raise PuzzleError(f"a picture's lines are all {int(widths[0])} wide; this one is "
                          f"{int(widths[other[0]])}", line=line)
    check_size(len(starts), int(widths[0]))
    return np.stack([codes[s:e] == _FILL for s, e in zip(starts.tolist(), ends.tolist())])
