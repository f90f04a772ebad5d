"""Several grids in one text: the solutions ``kakuro-np solve --to FORMAT`` prints, read back.

In a text format (jboxed, backslash, pipe, comma) the grids follow one another,
each after a comment line that names it (``# solution 2 of 40``), with a line
holding ``---`` alone (``SEPARATOR``) between two. JSON grids are JSON lines:
one ``{"rows": [...]}`` object a line. ``parse_all`` and ``read_all`` split
such a stream into its puzzles; a text of one grid is a stream of one.

Examples
--------
>>> import numpy as np
>>> from kakuro_np.puzzle import Puzzle
>>> p = Puzzle.from_rows([["x", (3, 0), (4, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]])
>>> sols = np.array([[[0, 0, 0], [0, 1, 2], [0, 2, 2]], [[0, 0, 0], [0, 2, 1], [0, 1, 3]]])
>>> text = "".join(write_all(p, "jboxed", sols))
>>> print(text, end="")
# solution 1 of 2
x ; 3 0 ; 4 0
0 3 ; 1 ; 2
0 4 ; 2 ; 2
---
# solution 2 of 2
x ; 3 0 ; 4 0
0 3 ; 2 ; 1
0 4 ; 1 ; 3
>>> [q.given.tolist()[1] for q in parse_all(text)]
[[0, 1, 2], [0, 2, 1]]
"""

from __future__ import annotations

import json
import os
from typing import Iterator

from ..errors import PuzzleError
from ..puzzle import Puzzle

#: The line between two grids of a text format.
SEPARATOR = "---"


def write_all(puzzle: Puzzle, fmt: str, solutions) -> Iterator[str]:
    """The text of each of ``solutions`` of ``puzzle`` in format ``fmt``, as a stream
    ``parse_all`` splits: in a text format each grid after a comment naming it and a
    SEPARATOR line before every grid but the first; in JSON one line each."""
    from . import format
    n = len(solutions)
    for k, solution in enumerate(solutions, 1):
        text = format(puzzle, fmt, solution=solution)
        if fmt == "json":
            yield json.dumps(json.loads(text)) + "\n"
        else:
            yield ("" if k == 1 else SEPARATOR + "\n") + f"# solution {k:,} of {n:,}\n" + text


def parse_all(text, format: str | None = None) -> list[Puzzle]:
    """The puzzles of a stream (see the module's docstring), in order; errors name the
    line in the whole text.

    Examples
    --------
    >>> [p.shape for p in parse_all('{"rows": [["x", [3, 0]], [[0, 3], "_"]]}\\n'
    ...                             '{"rows": [["x"]]}\\n')]
    [(2, 2), (1, 1)]
    """
    from . import parse
    from .text import decode
    text = decode(text) if isinstance(text, bytes) else text
    found = []
    for start, chunk in _chunks(text):
        try:
            found.append(parse(chunk, format=format))
        except PuzzleError as e:
            raise PuzzleError(e.message, line=None if e.line is None else e.line + start,
                              col=e.col, cell=e.cell) from None
    return found


def read_all(source: str | os.PathLike[str], format: str | None = None) -> list[Puzzle]:
    """The puzzles of a stream in a file (a path) or a text, as ``read`` reads one.

    Examples
    --------
    >>> [p.shape for p in read_all("x ; 3 0\\n0 3 ; _\\n---\\nx ; 4 0\\n0 4 ; _\\n")]
    [(2, 2), (2, 2)]
    """
    from . import source_text
    text, name = source_text(source)
    try:
        return parse_all(text, format=format)
    except PuzzleError as e:
        raise e.with_source(name) if name is not None else e


def _chunks(text: str) -> list:
    """``(lines before, text)`` of each grid of a stream: JSON lines one a line, else the
    blocks between SEPARATOR lines."""
    lines = text.splitlines(keepends=True)
    first = next((line.strip() for line in lines if line.strip()
                  and not line.lstrip().startswith("#")), "")
    if first.startswith("{") and sum(line.lstrip().startswith("{") for line in lines) > 1:
        return [(n, line) for n, line in enumerate(lines) if line.strip()]
    chunks, start = [], 0
    for n, line in enumerate(lines + [SEPARATOR]):
        if line.strip() == SEPARATOR:
            chunk = "".join(lines[start:n])
            if chunk.strip() or not chunks and n == len(lines):
                chunks.append((start, chunk))   # a text of nothing: parse says so
            start = n + 1
    return chunks
