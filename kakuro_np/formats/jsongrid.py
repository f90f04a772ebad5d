"""The JSON format: ``{"rows": [...]}`` in the ``Puzzle.from_rows`` shape, errors placed by line and column."""

from __future__ import annotations

import json
from json.decoder import JSONArray
from json.scanner import py_make_scanner

from ..errors import PuzzleError
from ..puzzle import Puzzle
from .text import _Row, _build, _place


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


def write_json(puzzle: Puzzle) -> str:
    """``{"rows": [...]}``, one row a line."""
    rows = puzzle.to_rows()
    return "{\"rows\": [\n" + ",\n".join("  " + json.dumps(r) for r in rows) + "\n]}\n"
