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
            (one text per digit), ``marks`` (one text per pencil mark), and for
            a step's picture ``struck`` and ``placed`` (below).
highlight : cells given a pale ``HIGHLIGHT`` fill under everything else, one
            square each in a single ``<path class="highlight">``.
struck    : a pencil mark being removed, e.g. by a step of ``explain``: drawn in
            ``STRUCK_INK`` and crossed out by a short diagonal; the ``struck``
            group holds one text per such mark and one ``<path>`` of all their
            strokes.
placed    : a digit a step places, drawn as a bold pencil mark in ``PLACED_INK``
            in its keypad place, in the ``placed`` group.
step cell : a blank, not given, with a placed digit or a struck candidate. It
            always shows pencil marks, never a big digit (not even a lone
            candidate's), so a picture shows every candidate a step removes.
caption   : text under the grid, wrapped to its width, in the ``caption`` group:
            a step's technique and reason, so that a PNG or a printout says it too.

The document is built with ``xml.etree.ElementTree``, so every text and
attribute is escaped; ``viewBox`` keeps it sharp at any size and ``width`` and
``height`` give its natural size, ``cell`` units a cell.
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET

import numpy as np

from .files import write_atomic
from .render import (BLANK, CLUE, _grid_array, candidate_array, clue_text, decided, keypad,
                     kinds, marks)

SVG_NS = "http://www.w3.org/2000/svg"
#: Colours: dark cells, grid lines and given digits, solved digits, pencil marks.
DARK, LIGHT, INK, SOLVED_INK, MARK_INK = "#333333", "#ffffff", "#000000", "#1f5fbf", "#666666"
#: Colours of a step's picture: highlighted cells, struck marks and placed digits.
HIGHLIGHT, STRUCK_INK, PLACED_INK = "#fff3b0", "#d62728", "#2ca02c"
#: A region's outline and a chain's link numbers; the outline is OUTLINE_LINE cells wide,
#: the numbers LABEL_SIZE cells high in a cell's top left corner, on a halo LABEL_HALO wide.
OUTLINE_INK, OUTLINE_LINE, LABEL_SIZE, LABEL_HALO = "#7b3fbf", 0.08, 0.22, 0.06
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
#: Sizes as fractions of a cell: fonts, line widths, and where a sum's text is centred.
SUM_SIZE, DIGIT_SIZE, MARK_SIZE = 0.3, 0.62, 0.25
GRID_LINE, BORDER_LINE, DIAGONAL_LINE = 0.025, 0.07, 0.035
SUM_NEAR, SUM_FAR = 0.27, 0.73
#: Pencil marks are centred 0.5 - MARK_STEP, 0.5 and 0.5 + MARK_STEP across and down a cell.
MARK_STEP = 0.3
#: A struck mark's stroke runs this many font sizes either side of its centre, across
#: and down; it is STRIKE_LINE cells wide.
STRIKE_HALF, STRIKE_LINE = 0.42, 0.03
#: A text's baseline sits this many font sizes below the point it is centred on.
BASELINE_DROP = 0.36
#: A caption's font size and line height, in cells; its characters a cell of width, and the
#: fewest a line holds (a narrow grid's picture widens to hold them).
CAPTION_SIZE, CAPTION_LINE, CAPTION_CHARS, CAPTION_FEWEST = 0.3, 0.42, 5, 40

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


def _cell_mask(puzzle, cells) -> np.ndarray:
    """(H, W) bool from ``highlight``: a bool array as it is, else an iterable of ``(r, c)``."""
    if cells is None:
        return np.zeros(puzzle.shape, bool)
    arr = np.asarray(cells if isinstance(cells, np.ndarray) else list(cells))
    if arr.dtype == bool:
        return _grid_array(puzzle, arr, "highlight").copy()
    out = np.zeros(puzzle.shape, bool)
    if arr.size == 0:
        return out
    if arr.ndim != 2 or arr.shape[1] != 2 or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError("highlight must be (row, col) pairs of ints or an (H, W) bool array, "
                         f"got an array of shape {arr.shape} and dtype {arr.dtype}")
    inside = (arr >= 0).all(axis=1) & (arr < puzzle.shape).all(axis=1)
    if not inside.all():
        r, c = arr[~inside][0].tolist()
        raise ValueError(f"highlight cell ({r}, {c}) is outside the {puzzle.shape} grid")
    out[arr[:, 0], arr[:, 1]] = True
    return out


def _draw_cells(root, kind, cell, highlight=None):
    """The background, ``highlight`` squares, dark cells, clue diagonals, grid lines and border."""
    h, w = kind.shape
    _sub(root, "rect", x=0, y=0, width=_num(w * cell), height=_num(h * cell), fill=LIGHT)
    if highlight is not None and highlight.any():
        _sub(root, "path", **{"class": "highlight"}, d=_squares(np.argwhere(highlight), cell),
             fill=HIGHLIGHT)
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


def _mark_centre(r, c, d, cell) -> tuple:
    """``(x, y)`` of the centre of digit ``d``'s pencil mark in cell ``(r, c)``."""
    row, col = keypad(d)
    return (c + 0.5 + (col - 1) * MARK_STEP) * cell, (r + 0.5 + (row - 1) * MARK_STEP) * cell


def _draw_marks(root, cand, open_cells, cell, struck=None, placed=None):
    """One small text per candidate of each undecided blank, in its keypad place.

    The ``marks`` group is made whenever ``cand`` ((H, W, 9) bool) is given. With
    ``struck`` ((H, W, 9) bool) a struck candidate goes to a ``struck`` group,
    crossed out; with ``placed`` ((H, W) int) the placed digit goes to a
    ``placed`` group, a candidate or not. Those two groups are made only if used.
    """
    size = MARK_SIZE * cell
    found = {"marks": [], "struck": [], "placed": []}
    for r, c in np.argwhere(open_cells):
        lay = int(placed[r, c]) if placed is not None else 0
        digits = marks(cand, r, c) if cand is not None else []
        for d in sorted(set(digits) | ({lay} if lay else set())):
            struck_here = struck is not None and bool(struck[r, c, d - 1])
            cls = "placed" if d == lay else "struck" if struck_here else "marks"
            found[cls].append((*_mark_centre(r, c, d, cell), d))
    styles = {"marks": {"fill": MARK_INK}, "struck": {"fill": STRUCK_INK},
              "placed": {"fill": PLACED_INK, "font_weight": "bold"}}
    groups = {}
    for cls, style in styles.items():
        if found[cls] or (cls == "marks" and cand is not None):
            groups[cls] = _group(root, cls, size, **style)
            for x, y, d in found[cls]:
                _text(groups[cls], x, y, str(d), size)
    if found["struck"]:
        half = STRIKE_HALF * size
        strokes = "".join(f"M{_num(x - half)} {_num(y + half)}l{_num(2 * half)} {_num(-2 * half)}"
                          for x, y, _ in found["struck"])
        _sub(groups["struck"], "path", d=strokes, fill="none", stroke=STRUCK_INK,
             stroke_width=_num(STRIKE_LINE * cell), stroke_linecap="round")


class Picture(str):
    """An SVG document: a str, which a notebook (Jupyter, IPython) shows as the picture.

    >>> p = Picture('<?xml version="1.0"?><svg/>')
    >>> p.startswith("<?xml"), p._repr_svg_()
    (True, '<svg/>')
    """

    def _repr_svg_(self) -> str:
        """The ``<svg>`` element, without the XML declaration, to go inline in a page."""
        return self[self.find("<svg"):]


def svg(puzzle, digits=None, candidates=None, cell=40, *, title=None, highlight=None,
        struck=None, placed=None, outline=None, labels=None, caption=None) -> Picture:
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
    highlight : iterable of (row, col), or array_like of bool, shape (H, W), optional
        Cells to fill with ``HIGHLIGHT``, under the grid lines, digits and marks
        (a dark cell's fill still covers it), e.g. a step's ``cells``.
    struck : array_like of bool, shape (H, W, 9), optional
        Candidates to show crossed out in ``STRUCK_INK``, e.g. the digits a step
        removes, with ``candidates`` those before the step. Only a struck digit
        that is a candidate of a blank shows.
    placed : array_like of int, shape (H, W), optional
        Digits a step places, 0 = none: each is drawn as a bold pencil mark in
        ``PLACED_INK`` in its keypad place, a candidate or not.

        The rule for both: a blank that is not given and has a placed digit or
        a struck candidate always shows pencil marks, never a big digit (not
        even from ``digits`` or a lone candidate): its placed digit in
        ``PLACED_INK``, its struck candidates red and crossed out, its other
        candidates as usual. With none of the three, the picture is as without.
    outline : iterable of (row, col), or array_like of bool, shape (H, W), optional
        Cells to draw the outline of in ``OUTLINE_INK``, e.g. a region sum's region.
    labels : dict, optional
        ``{(row, col): text}`` written small in the cells' top left corners in
        ``OUTLINE_INK``, e.g. the numbers of a chain's links.
    caption : str, optional
        Text written under the grid, wrapped to its width (the picture grows to
        hold it), e.g. a step's reason.

    Returns
    -------
    Picture
        The document (a str), starting with an XML declaration; a notebook shows it.

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

    A step on the across 3 at (1, 0): beside the given 2, (1, 2) keeps only 1.

    >>> cand = np.zeros((3, 3, 9), bool)
    >>> cand[1, 2, :3] = cand[2, 1, [0, 2]] = cand[2, 2, :2] = True
    >>> gone = np.zeros((3, 3, 9), bool); gone[1, 2, 1:3] = True
    >>> root = ET.fromstring(svg(p, candidates=cand, highlight=[(1, 1), (1, 2)], struck=gone,
    ...                          placed=[[0, 0, 0], [0, 0, 1], [0, 0, 0]], cell=20))
    >>> for g in root.iter("{http://www.w3.org/2000/svg}g"):
    ...     print(g.get("class"), [t.text for t in g.iter("{http://www.w3.org/2000/svg}text")])
    sums ['4', '3', '3', '4']
    given ['2']
    solved []
    marks ['1', '3', '1', '2']
    struck ['2', '3']
    placed ['1']
    >>> root.find("{http://www.w3.org/2000/svg}path[@class='highlight']").get("d")
    'M20 20h20v20h-20zM40 20h20v20h-20z'
    """
    if not cell > 0:
        raise ValueError(f"cell must be positive, got {cell!r}")
    kind = kinds(puzzle)
    cand = candidate_array(puzzle, candidates)
    known = decided(puzzle, digits, cand)
    lit = _cell_mask(puzzle, highlight)
    if struck is not None:
        struck = _grid_array(puzzle, struck, "struck", (9,)).astype(bool)
    if placed is not None:
        placed = _grid_array(puzzle, placed, "placed")
        if not np.isin(placed, np.arange(10)).all():
            raise ValueError("placed must hold digits 0 to 9")
        placed = placed.astype(np.int8)
    step = np.zeros(puzzle.shape, bool)  # blanks drawn as marks whatever ``known`` says
    if struck is not None:
        step |= (cand & struck).any(axis=2)
    if placed is not None:
        step |= placed != 0
    step &= (kind == BLANK) & (puzzle.given == 0)
    known = np.where(step, 0, known)
    h, w = puzzle.shape
    pad = BORDER_LINE * cell / 2
    lines = textwrap.wrap(caption, max(CAPTION_FEWEST, CAPTION_CHARS * w)) if caption else []
    below = (len(lines) + 0.5) * CAPTION_LINE * cell if lines else 0
    wide = max(w, CAPTION_FEWEST / CAPTION_CHARS) if lines else w
    size = (_num(wide * cell + 2 * pad), _num(h * cell + 2 * pad + below))
    root = ET.Element(f"{{{SVG_NS}}}svg", {
        "width": size[0], "height": size[1],
        "viewBox": f"{_num(-pad)} {_num(-pad)} {size[0]} {size[1]}",
        "font-family": FONT, "text-anchor": "middle"})
    if title is not None:
        _sub(root, "title").text = str(title)
    _draw_cells(root, kind, cell, lit)
    if outline is not None:
        _draw_outline(root, _cell_mask(puzzle, outline), cell)
    _draw_sums(root, puzzle, kind, cell)
    _draw_digits(root, known, puzzle.given, cell)
    if candidates is not None or step.any():
        _draw_marks(root, cand if candidates is not None else None,
                    (kind == BLANK) & (known == 0), cell, struck, placed)
    if labels:
        group = _group(root, "labels", LABEL_SIZE * cell, fill=OUTLINE_INK, text_anchor="start",
                       stroke=LIGHT, stroke_width=_num(LABEL_HALO * cell), paint_order="stroke",
                       stroke_linejoin="round")     # a halo: legible over the "1" mark
        for (r, c), text in labels.items():
            _text(group, (c + 0.03) * cell, (r + 0.14) * cell, str(text), LABEL_SIZE * cell)
    if lines:
        group = _group(root, "caption", CAPTION_SIZE * cell, fill=INK, text_anchor="start")
        for i, line in enumerate(lines, 1):
            _text(group, 0, (h + i * CAPTION_LINE) * cell, line, CAPTION_SIZE * cell)
    return Picture('<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")
                   + "\n")


def _draw_outline(root, inside, cell):
    """A ``<path class="outline">`` along every edge between a cell of ``inside`` and
    one outside it."""
    padded = np.pad(inside, 1)
    edges = []
    for r, c in np.argwhere(inside).tolist():
        x, y = c * cell, r * cell
        if not padded[r, c + 1]:                    # the cell above
            edges.append(f"M{_num(x)} {_num(y)}h{_num(cell)}")
        if not padded[r + 2, c + 1]:                # below
            edges.append(f"M{_num(x)} {_num(y + cell)}h{_num(cell)}")
        if not padded[r + 1, c]:                    # left
            edges.append(f"M{_num(x)} {_num(y)}v{_num(cell)}")
        if not padded[r + 1, c + 2]:                # right
            edges.append(f"M{_num(x + cell)} {_num(y)}v{_num(cell)}")
    if edges:
        _sub(root, "path", **{"class": "outline"}, d="".join(edges), fill="none",
             stroke=OUTLINE_INK, stroke_width=_num(OUTLINE_LINE * cell), stroke_linecap="square")


def step_svg(puzzle, step, before=None, *, title=None) -> Picture:
    """The picture of a step of ``explain`` or ``hint``: the candidates ``before`` it
    ((H, W, 9) bool, or None: the puzzle's digits alone), its cells highlighted, the
    candidates it removes struck out, the digits it places in green; a region sum's
    region outlined, and a chain's supposition marked "?" and each cell a link changes
    numbered with that link. ``title`` (else the step's text) is its ``<title>`` and
    its caption under the grid.

    >>> from kakuro_np import explain
    >>> steps = explain([["x", (4, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]])
    >>> picture = step_svg(steps.puzzle, steps[0], steps.start)
    >>> picture.count('class="struck"'), ET.fromstring(picture).get("height")
    (1, '198.4')
    >>> [g for g in ET.fromstring(picture) if g.get("class") == "caption"][0][0].text
    'unique combination: The across 3 at (1,'
    """
    title = str(step) if title is None else title
    struck = np.zeros(puzzle.shape + (9,), bool)
    placed = np.zeros(puzzle.shape, np.int8)
    for (r, c), digits in step.removed.items():
        struck[r, c, [d - 1 for d in digits]] = True
    for (r, c), d in step.placed.items():
        placed[r, c] = d
    labels = {}
    if step.links:
        (cell, _), = step.removed.items()
        labels[cell] = "?"
        for i, link in enumerate(step.links, 1):
            for changed in link.removed:
                labels[changed] = f"{labels[changed]},{i}" if changed in labels else str(i)
    return svg(puzzle, None, before, title=title, highlight=step.cells, struck=struck,
               placed=placed, outline=step.region or None, labels=labels, caption=title)


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
