"""Several grids in one text: the solutions ``kakuro-np solve --to FORMAT`` prints, read back.

In a text format (jboxed, backslash, pipe, comma) the grids follow one another,
each after a comment line that names it (``# solution 2 of 40``), with a line
holding ``---`` alone (``SEPARATOR``) between two. JSON grids are JSON lines:
one ``{"rows": [...]}`` object a line. ``formats.parse_all`` and ``read_all``
split such a stream (``chunks``) into its puzzles; a text of one grid is a stream
of one. ``formats.write_all`` writes one (``joined``).

Examples
--------
>>> print("".join(joined(["x ; 3 0\\n0 3 ; 1\\n", "x ; 3 0\\n0 3 ; 2\\n"], "jboxed")), end="")
# solution 1 of 2
x ; 3 0
0 3 ; 1
---
# solution 2 of 2
x ; 3 0
0 3 ; 2
>>> [n for n, _ in chunks("x ; 3 0\\n0 3 ; 1\\n---\\nx ; 3 0\\n0 3 ; 2\\n")]
[0, 3]
"""

from __future__ import annotations

import json
from typing import Iterator

#: The line between two grids of a text format.
SEPARATOR = "---"


def joined(texts, fmt: str, n: int | None = None) -> Iterator[str]:
    """The texts of ``n`` grids (``len(texts)`` by default) in format ``fmt``, each as
    ``format`` writes it, as a stream ``chunks`` splits: in a text format each after a
    comment naming it and a SEPARATOR line before every one but the first; in JSON one
    compact line each."""
    n = len(texts) if n is None else n
    for k, text in enumerate(texts, 1):
        if fmt == "json":
            yield json.dumps(json.loads(text)) + "\n"
        else:
            yield ("" if k == 1 else SEPARATOR + "\n") + f"# solution {k:,} of {n:,}\n" + text


def chunks(text: str) -> list:
    """``(lines before, text)`` of each grid of a stream: JSON lines one a line (but one
    JSON document over several lines is one grid), else the blocks between SEPARATOR
    lines."""
    lines = text.splitlines(keepends=True)
    first = next((line.strip() for line in lines if line.strip()
                  and not line.lstrip().startswith("#")), "")
    if first.startswith("{") and sum(line.lstrip().startswith("{") for line in lines) > 1:
        try:
            json.loads(text)
        except ValueError:
            return [(n, line) for n, line in enumerate(lines) if line.strip()]
        return [(0, text)]
    found, start = [], 0
    for n, line in enumerate(lines + [SEPARATOR]):
        if line.strip() == SEPARATOR:
            chunk = "".join(lines[start:n])
            if chunk.strip() or not found and n == len(lines):
                found.append((start, chunk))    # a text of nothing: parse says so
            start = n + 1
    return found
