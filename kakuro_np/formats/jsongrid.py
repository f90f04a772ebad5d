"""The JSON format: ``{"rows": [...]}`` in the ``Puzzle.from_rows`` shape, errors placed by line and column.

The reader walks the lists and objects itself (``_Walk``) and leaves strings,
numbers and literals to ``json``'s own scanner, in C. So it notes where each
row and cell starts as it goes, and it stops as soon as a text passes a bound:
the row or the cell past ``Puzzle.MAX_SIDE``, lists and objects nested deeper
than ``MAX_DEPTH``, a number longer than ``MAX_NUMBER`` characters, or more
values than ``VALUES_PER_CELL`` for each cell of the largest grid (which bounds
what other keys may hold). Its syntax errors are ``json``'s, placed.

Glossary
--------
value : a JSON value: a list, an object, a string, a number, true, false or null.
start : the index in the text where a value starts; ``_places`` makes the starts
        lines and columns, all at once.
"""

from __future__ import annotations

import json
import re
from json.decoder import scanstring
from json.scanner import make_scanner

from ..errors import PuzzleError
from ..puzzle import Puzzle, too_large
from .text import _Row, _build, _no_puzzle, _place, _places, _width_error

#: How deep lists and objects may nest (a puzzle needs 4: the object, rows, a row, a clue).
MAX_DEPTH = 32
#: The most characters a number may take (a puzzle's numbers are 0 to 45).
MAX_NUMBER = 40
#: The values a text may hold, per cell of the largest grid with one more row and column:
#: a clue cell takes three (its list and two sums), which leaves room for other keys.
VALUES_PER_CELL = 3

_SHAPE = 'a JSON puzzle is {"rows": [[cell, ...], ...]}'
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_SPACE = frozenset(" \t\n\r")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
#: A clue ``[down, across]`` of sums below 100, read at once (the list and its two numbers).
_CLUE = re.compile(r"\[[ \t\n\r]*(0|[1-9][0-9]?)[ \t\n\r]*,[ \t\n\r]*(0|[1-9][0-9]?)[ \t\n\r]*\]")


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
    >>> parse_json('{"rows": [' + '["_"],' * 300 + '["_"]]}')
    Traceback (most recent call last):
    ...
    kakuro_np.errors.PuzzleError: 1:1211: the grid has more than 200 rows, larger than the 200x200 allowed (set kakuro_np.Puzzle.MAX_SIDE to allow more)
    """
    walk = _Walk(text)
    obj = walk.document()
    if not isinstance(obj, dict) or not isinstance(obj.get("rows"), list):
        raise PuzzleError(_SHAPE, **walk.where(walk.top))
    rows, starts, cells = walk.rows
    if not rows:
        raise _no_puzzle()
    places = _places(text, starts + [i for row in cells for i in row])
    cell_places = iter(places[len(starts):])
    out = []
    for r, (row, start) in enumerate(zip(rows, places), start=1):
        if not isinstance(row, list):
            raise PuzzleError(f"row {r} is not a list of cells", line=start[0], col=start[1])
        out.append(_Row(row, [next(cell_places) for _ in row], start))
    width = len(rows[0])
    if not width:
        raise PuzzleError("row 1 has no cells", line=out[0].end[0], col=out[0].end[1])
    for r, row in enumerate(out, start=1):
        if len(row.cells) != width:
            raise _width_error(r, len(row.cells), width, "as row 1 has",
                               row.places[width] if len(row.cells) > width else row.end)
    return _build(out)


class _Walk:
    """One JSON text being read: the values so far, and the starts of the rows and cells.

    ``document()`` reads the text's one value; a top-level ``"rows"`` list leaves
    ``rows``: the list, its items' starts, and each row's cells' starts (none for a
    row that is not a list).

    Examples
    --------
    >>> walk = _Walk(' {"rows": [["x", [3, 0]], "no"], "by": null}')
    >>> walk.document()
    {'rows': [['x', [3, 0]], 'no'], 'by': None}
    >>> walk.rows
    ([['x', [3, 0]], 'no'], [11, 26], [[12, 17], []])
    """

    def __init__(self, text: str):
        self.text = text
        self.scan_once = make_scanner(json.JSONDecoder())  # one string, number or literal
        self.budget = VALUES_PER_CELL * (Puzzle.MAX_SIDE + 1) ** 2
        self.left = self.budget
        self.top = 0
        self.rows = self.cells = None

    def where(self, i: int) -> dict:
        line, col = _place(self.text, i)
        return dict(line=line, col=col)

    def error(self, message: str, i: int) -> PuzzleError:
        return PuzzleError(f"bad JSON: {message}", **self.where(i))

    def skip(self, i: int) -> int:
        """The index of the first character at or after ``i`` that is not JSON whitespace."""
        return _WHITESPACE.match(self.text, i).end()

    def count(self, i: int, values: int = 1) -> None:
        """Count the value at ``i`` (and the ``values - 1`` in it) against the budget."""
        self.left -= values
        if self.left < 0:
            side = Puzzle.MAX_SIDE
            raise self.error(f"more than {self.budget:,} values, more than a puzzle of "
                             f"{side}x{side} cells holds", i)

    def document(self):
        """The value of the whole text (json's ``loads``)."""
        self.top = self.skip(0)
        value, end = self.value(self.top, 0)
        end = self.skip(end)
        if end != len(self.text):
            raise self.error("Extra data", end)
        return value

    def value(self, i: int, depth: int) -> tuple:
        """``(value, end)`` of the value at ``text[i]``, inside ``depth`` lists and objects."""
        text = self.text
        ch = text[i:i + 1]
        if ch == "[":
            clue = _CLUE.match(text, i) if depth < MAX_DEPTH else None
            if clue:
                self.count(i, 3)
                return [int(clue[1]), int(clue[2])], clue.end()
            self.count(i)
            items, _, end = self.array(i, depth + 1, self.value)
            return items, end
        self.count(i)
        if ch == "{":
            return self.object(i, depth + 1)
        if ch and ch in "-0123456789":
            number = _NUMBER.match(text, i)
            if number and number.end() - i > MAX_NUMBER:
                line, col = _place(text, i)
                raise self.error(f"the number at {line}:{col} is {number.end() - i:,} characters "
                                 f"long, more than the {MAX_NUMBER} a puzzle may take", self.top)
        try:
            return self.scan_once(text, i)
        except StopIteration:
            raise self.error("Expecting value", i) from None
        except json.JSONDecodeError as e:
            raise self.error(e.msg, e.pos) from None

    def nest(self, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise self.error(f"lists and objects nest more than {MAX_DEPTH} deep", self.top)

    def array(self, i: int, depth: int, item, limit: int = None, too_many=None) -> tuple:
        """``(items, starts, end)`` of the list at ``text[i]``, each item read by ``item(j, depth)``.

        Item ``limit + 1`` raises ``too_many(j)``, ``j`` its start.
        """
        self.nest(depth)
        text, skip = self.text, self.skip
        items, starts = [], []
        j = skip(i + 1)
        if text[j:j + 1] == "]":
            return items, starts, j + 1
        while True:
            if len(items) == limit:
                raise too_many(j)
            starts.append(j)
            value, j = item(j, depth)
            items.append(value)
            ch = text[j:j + 1]
            if ch in _SPACE:
                j = skip(j)
                ch = text[j:j + 1]
            if ch == "]":
                return items, starts, j + 1
            if ch != ",":
                raise self.error("Expecting ',' delimiter", j)
            j += 1
            if text[j:j + 1] in _SPACE:
                j = skip(j)

    def object(self, i: int, depth: int) -> tuple:
        """``(dict, end)`` of the object at ``text[i]``; the top one's ``"rows"`` read as rows."""
        self.nest(depth)
        text = self.text
        out = {}
        j = self.skip(i + 1)
        if text[j:j + 1] == "}":
            return out, j + 1
        while True:
            if text[j:j + 1] != '"':
                raise self.error("Expecting property name enclosed in double quotes", j)
            try:
                key, j = scanstring(text, j + 1)
            except json.JSONDecodeError as e:
                raise self.error(e.msg, e.pos) from None
            j = self.skip(j)
            if text[j:j + 1] != ":":
                raise self.error("Expecting ':' delimiter", j)
            read = self.grid if depth == 1 and key == "rows" else self.value
            out[key], j = read(self.skip(j + 1), depth)
            j = self.skip(j)
            ch = text[j:j + 1]
            if ch == "}":
                return out, j + 1
            if ch != ",":
                raise self.error("Expecting ',' delimiter", j)
            j = self.skip(j + 1)

    def grid(self, i: int, depth: int) -> tuple:
        """``(value, end)`` of the top-level ``"rows"``: a list of at most ``MAX_SIDE`` rows."""
        if self.text[i:i + 1] != "[":
            return self.value(i, depth)
        self.count(i)
        self.cells = []
        side = Puzzle.MAX_SIDE
        rows, starts, end = self.array(i, depth + 1, self.row, side, lambda j: too_large(
            f"the grid has more than {side} rows", **self.where(j)))
        self.rows = rows, starts, self.cells
        return rows, end

    def row(self, i: int, depth: int) -> tuple:
        """``(value, end)`` of a row: a list of at most ``MAX_SIDE`` cells, their starts noted."""
        if self.text[i:i + 1] != "[":
            self.cells.append([])
            return self.value(i, depth)
        self.count(i)
        side, r = Puzzle.MAX_SIDE, len(self.cells) + 1
        cells, starts, end = self.array(i, depth + 1, self.value, side, lambda j: too_large(
            f"row {r} has more than {side} cells", **self.where(j)))
        self.cells.append(starts)
        return cells, end


def _from_json_obj(obj) -> Puzzle:
    """The puzzle of a JSON object already read (a dict): ``Puzzle.from_rows(obj["rows"])``."""
    rows = obj.get("rows") if isinstance(obj, dict) else None
    if not isinstance(rows, list):
        raise PuzzleError(_SHAPE)
    return Puzzle.from_rows(rows)


def write_json(puzzle: Puzzle) -> str:
    """``{"rows": [...]}``, one row a line."""
    rows = puzzle.to_rows()
    return "{\"rows\": [\n" + ",\n".join("  " + json.dumps(r) for r in rows) + "\n]}\n"
