"""Pictures of puzzles as SVG, in the look of printed Kakuro.

Glossary
--------
cell      : the side of one grid cell in SVG user units (``cell=40`` by default).
dark cell : a clue or inactive cell, filled ``DARK``. A clue cell has a white
            diagonal from its top-left to its bottom-right corner; its down sum
            sits in the bottom-left triangle, its across sum in the top-right one.
given     : a digit of ``puzzle.given``, drawn bold in ``INK``.
solved    : any other decided digit (from ``digits`` or a lone candidate),
            drawn in ``SOLVED_INK``.
mark      : a pencil mark, one candidate of an undecided blank, drawn small in
            its keypad place (1 top left, 9 bottom right); one ``<text>`` per mark.
group     : every ``<text>`` sits in one ``<g>`` per sort, told by its ``class``:
            ``sums`` (one text per nonzero clue sum), ``given``, ``solved``
            (one text per digit) and ``marks`` (one text per pencil mark).

The document is built with ``xml.etree.ElementTree``, so every text and
attribute is escaped; ``viewBox`` keeps it sharp at any size and ``width`` and
``height`` give its natural size, ``cell`` units a cell.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np

from .files import write_atomic
from .render import BLANK, CLUE, candidate_array, clue_text, decided, keypad, kinds, marks

SVG_NS = "http://www.w3.org/2000/svg"
#: Colours: dark cells, grid lines and given digits, solved digits, pencil marks.
DARK, LIGHT, INK, SOLVED_INK, MARK_INK = "#333333", "#ffffff", "#000000", "#1f5fbf", "#666666"
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
#: Sizes as fractions of a cell: fonts, line widths, and where a sum's text is centred.
SUM_SIZE, DIGIT_SIZE, MARK_SIZE = 0.3, 0.62, 0.25
GRID_LINE, BORDER_LINE, DIAGONAL_LINE = 0.025, 0.07, 0.035
SUM_NEAR, SUM_FAR = 0.27, 0.73
#: Pencil marks are centred 0.5 - MARK_STEP, 0.5 and 0.5 + MARK_STEP across and down a cell.
MARK_STEP = 0.3
#: A text's baseline sits this many font sizes below the point it is centred on.
BASELINE_DROP = 0.36

ET.register_namespace("", SVG_NS)


def _num(x) -> str:
    """A coordinate as short text: at most two decimals, no trailing zeros."""
    return f"{round(float(x), 2):g}"


def _sub(parent, tag, **attrs):
    """A child element in the SVG namespace; ``font_size`` becomes ``font-size``."""
    return ET.SubElement(parent, f"{{{SVG_NS}}}{tag}",
                         {k.replace("_", "-"): str(v) for k, v in attrs.items()})


def _text(group, x, y, text, size):
    """A ``<text>`` centred on ``(x, y)`` with font size ``size``."""
    el = _sub(group, "text", x=_num(x), y=_num(y + BASELINE_DROP * size))
    el.text = text


def _group(root, cls, size, **attrs):
    """A ``<g class=cls>`` that gives its texts font size ``size`` and ``attrs``."""
    return _sub(root, "g", **{"class": cls}, font_size=_num(size), **attrs)


def _squares(cells, cell) -> str:
    """Path data for a filled square at each ``(r, c)`` of ``cells``."""
    return "".join(f"M{_num(c * cell)} {_num(r * cell)}h{_num(cell)}v{_num(cell)}h{_num(-cell)}z"
                   for r, c in cells)


def _diagonals(cells, cell) -> str:
    """Path data for the top-left to bottom-right diagonal of each ``(r, c)``."""
    return "".join(f"M{_num(c * cell)} {_num(r * cell)}l{_num(cell)} {_num(cell)}" for r, c in cells)


def _grid_lines(shape, cell) -> str:
    """Path data for the inner lines between rows and between columns."""
    h, w = shape
    rows = "".join(f"M0 {_num(r * cell)}h{_num(w * cell)}" for r in range(1, h))
    cols = "".join(f"M{_num(c * cell)} 0v{_num(h * cell)}" for c in range(1, w))
    return rows + cols


def _draw_cells(root, kind, cell):
    """Dark cells, clue diagonals, grid lines and the outer border."""
    h, w = kind.shape
    _sub(root, "rect", x=0, y=0, width=_num(w * cell), height=_num(h * cell), fill=LIGHT)
    dark = np.argwhere(kind != BLANK)
    if len(dark):
        _sub(root, "path", d=_squares(dark, cell), fill=DARK)
    clues = np.argwhere(kind == CLUE)
    if len(clues):
        _sub(root, "path", d=_diagonals(clues, cell), stroke=LIGHT,
             stroke_width=_num(DIAGONAL_LINE * cell), stroke_linecap="square")
    if h > 1 or w > 1:
        _sub(root, "path", d=_grid_lines(kind.shape, cell), stroke=INK,
             stroke_width=_num(GRID_LINE * cell))
    _sub(root, "rect", x=0, y=0, width=_num(w * cell), height=_num(h * cell), fill="none",
         stroke=INK, stroke_width=_num(BORDER_LINE * cell))


def _draw_sums(root, puzzle, kind, cell):
    """One text per nonzero clue sum: down bottom-left, across top-right."""
    size = SUM_SIZE * cell
    group = _group(root, "sums", size, fill=LIGHT)
    for r, c in np.argwhere(kind == CLUE):
        down, across = clue_text(puzzle, r, c)
        x, y = c * cell, r * cell
        if down:
            _text(group, x + SUM_NEAR * cell, y + SUM_FAR * cell, down, size)
        if across:
            _text(group, x + SUM_FAR * cell, y + SUM_NEAR * cell, across, size)


def _draw_digits(root, known, given, cell):
    """One text per decided blank, centred; given digits bold, others ``SOLVED_INK``."""
    size = DIGIT_SIZE * cell
    groups = {True: _group(root, "given", size, fill=INK, font_weight="bold"),
              False: _group(root, "solved", size, fill=SOLVED_INK)}
    for r, c in np.argwhere(known != 0):
        _text(groups[bool(given[r, c])], (c + 0.5) * cell, (r + 0.5) * cell,
              str(int(known[r, c])), size)


def _draw_marks(root, cand, open_cells, cell):
    """One small text per candidate of each undecided blank, in its keypad place."""
    size = MARK_SIZE * cell
    group = _group(root, "marks", size, fill=MARK_INK)
    for r, c in np.argwhere(open_cells):
        for d in marks(cand, r, c):
            row, col = keypad(d)
            _text(group, (c + 0.5 + (col - 1) * MARK_STEP) * cell,
                  (r + 0.5 + (row - 1) * MARK_STEP) * cell, str(d), size)


def svg(puzzle, digits=None, candidates=None, cell=40, *, title=None) -> str:
    """A standalone SVG document picturing ``puzzle``.

    Parameters
    ----------
    puzzle : Puzzle
    digits : array_like of int, shape (H, W), optional
        Digits to show in blanks, 0 = none, e.g. ``kakuro(puzzle)[0]``.
        Given digits are always shown, bold.
    candidates : array_like of bool, shape (H, W, 9), optional
        e.g. ``reduce(puzzle).candidates``: a blank with one candidate shows it
        as a digit; every other undecided blank shows its candidates as pencil
        marks, one ``<text>`` per mark.
    cell : float
        Side of a cell in SVG units (pixels at natural size).
    title : str, optional
        A ``<title>``, escaped as needed.

    Returns
    -------
    str
        The document, starting with an XML declaration.

    Examples
    --------
    >>> import xml.etree.ElementTree as ET
    >>> from kakuro_np import Puzzle
    >>> p = Puzzle.from_rows([["x", (4, 0), (3, 0)], [(0, 3), 2, "_"], [(0, 4), "_", "_"]])
    >>> root = ET.fromstring(svg(p, digits=[[0, 0, 0], [0, 0, 1], [0, 0, 0]], cell=20))
    >>> root.get("width"), root.get("height"), root.get("viewBox")
    ('61.4', '61.4', '-0.7 -0.7 61.4 61.4')
    >>> [[t.text for t in g] for g in root.iter("{http://www.w3.org/2000/svg}g")]
    [['4', '3', '3', '4'], ['2'], ['1']]
    """
    if not cell > 0:
        raise ValueError(f"cell must be positive, got {cell!r}")
    kind = kinds(puzzle)
    cand = candidate_array(puzzle, candidates)
    known = decided(puzzle, digits, cand)
    h, w = puzzle.shape
    pad = BORDER_LINE * cell / 2
    size = (_num(w * cell + 2 * pad), _num(h * cell + 2 * pad))
    root = ET.Element(f"{{{SVG_NS}}}svg", {
        "width": size[0], "height": size[1],
        "viewBox": f"{_num(-pad)} {_num(-pad)} {size[0]} {size[1]}",
        "font-family": FONT, "text-anchor": "middle"})
    if title is not None:
        _sub(root, "title").text = str(title)
    _draw_cells(root, kind, cell)
    _draw_sums(root, puzzle, kind, cell)
    _draw_digits(root, known, puzzle.given, cell)
    if candidates is not None:
        _draw_marks(root, cand, (kind == BLANK) & (known == 0), cell)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_svg(path, svg_text) -> None:
    """Write ``svg_text`` to ``path`` atomically (see ``files.write_atomic``).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "p.svg")
    >>> write_svg(path, "<svg/>")
    >>> open(path, encoding="utf-8").read(), os.listdir(os.path.dirname(path))
    ('<svg/>', ['p.svg'])
    """
    write_atomic(path, svg_text)
