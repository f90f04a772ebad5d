"""Print-ready puzzle books: a PDF of puzzles in order of grade, the solutions at the back.

A book is a title page, the puzzles (``per_page`` a page, each under its heading:
number, grade, size), then the solutions, smaller and several a page, and page
numbers. Everything is drawn as vectors with fpdf2 (the extra ``print``): dark cells,
the clue diagonal and both sums as printed Kakuro has them, in a TrueType font
embedded in the file, with lines no thinner than two dots of a 300 dpi printer.
The same puzzles give the same bytes: the file has no date of writing and no
random identifier.

Glossary
--------
paper    : the page, "A4" (210 x 297 mm) or "Letter" (8.5 x 11 in): ``PAPERS``.
slot     : the part of a page one puzzle fills, its heading above its grid: a page
           holds ``LAYOUTS[per_page]`` of them (columns, rows).
cell     : a grid cell's side in mm: the most the slot allows, at most MAX_CELL. A
           grid whose cells would be under MIN_CELL (clues under MIN_CLUE_PT) is
           refused, naming the largest grid that fits (``fits``).
entry    : one puzzle of the book: its number, name, puzzle, solution and grade
           label (``Entry``), made by ``prepared`` once the puzzle is proved unique.
heading  : the line above a puzzle: ``Puzzle 3 · medium · 12×12``.
folio    : a page's number, at its foot (the title page has none).
font     : the TrueType font embedded: DejaVu Sans, from Debian's fonts-dejavu-core
           (``make`` installs it), another system's copy or matplotlib's, or the file
           KAKURO_NP_FONT names (``font_files``). fpdf2's core fonts are not
           embedded, so they are never used.
"""

from __future__ import annotations

import importlib.util
import math
import os
from datetime import datetime, timezone
from typing import NamedTuple

import numpy as np

from .drawing import BASELINE_DROP, BORDER_LINE, DIAGONAL_LINE, DIGIT_SIZE, GRID_LINE, \
    SUM_FAR, SUM_NEAR
from .errors import PuzzleError
from .files import output_path, write_atomic, write_bytes_atomic
from .render import BLANK, CLUE, clue_text, kinds

#: Page sizes in mm, (width, height).
PAPERS = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
#: Puzzles a page and their slots, (columns, rows).
LAYOUTS = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3)}
#: Solutions a page, the most first: the first whose cells are at least
#: MIN_SOLUTION_CELL for every grid is used.
SOLUTION_LAYOUTS = ((3, 4), (2, 3), (2, 2), (1, 2), (1, 1))
#: Without ``per_page``: the most a page, of these, at which every grid fits.
DEFAULT_PER_PAGE = (4, 2, 1)
#: mm: the page's margin, the folio's band at the foot, a heading's band, the gap between slots.
MARGIN, FOOTER, HEADING, GAP = 12.0, 10.0, 8.0, 6.0
#: A point in mm.
PT = 25.4 / 72
#: The clue sums' font size in cells (larger than the SVG's: print is small), the least
#: size in points a clue may be printed at, and so the least cell; the largest cell.
CLUE_SIZE, MIN_CLUE_PT = 0.36, 5.5
MIN_CELL = MIN_CLUE_PT * PT / CLUE_SIZE
MAX_CELL = 12.0
#: The least cell of a solution (its digits DIGIT_SIZE of it, about 6 pt) and the largest;
#: solutions show dark cells and digits, not the sums.
MIN_SOLUTION_CELL, MAX_SOLUTION_CELL = 3.5, 6.0
#: The thinnest line drawn: two dots of a 300 dpi printer, in mm.
MIN_LINE = 2 * 25.4 / 300
#: Font sizes in points: the title, the subtitle, the title page's lines, a heading, a folio.
TITLE_PT, SUBTITLE_PT, NOTE_PT, HEADING_PT, FOLIO_PT = 30, 16, 11, 10, 9
#: Colours (RGB): dark cells, ink, the clue diagonal and sums.
DARK, INK, LIGHT = (51, 51, 51), (0, 0, 0), (255, 255, 255)
#: The date the file says it was made: always this one, so the same book is the same bytes.
FIXED_DATE = datetime(1970, 1, 1, tzinfo=timezone.utc)
#: The grades' order in a book: ``grading.LABELS`` (a test holds them equal; the grader,
#: and the engine with it, is imported only when a book is made).
GRADES = ("easy", "medium", "hard", "expert")
#: Where a TrueType font may be, (regular, bold), in the order tried: Debian's
#: fonts-dejavu-core, other systems' DejaVu, then common fonts of macOS and Windows.
FONT_PLACES = (
    ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
     "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
    ("/usr/share/fonts/dejavu/DejaVuSans.ttf", "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf"),
    ("/usr/share/fonts/TTF/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf"),
    ("/usr/local/share/fonts/dejavu/DejaVuSans.ttf",
     "/usr/local/share/fonts/dejavu/DejaVuSans-Bold.ttf"),
    ("/Library/Fonts/Arial.ttf", "/Library/Fonts/Arial Bold.ttf"),
    ("/System/Library/Fonts/Supplemental/Arial.ttf",
     "/System/Library/Fonts/Supplemental/Arial Bold.ttf"),
    ("C:\\Windows\\Fonts\\arial.ttf", "C:\\Windows\\Fonts\\arialbd.ttf"),
)
#: How to get what printing needs, said when it is missing.
INSTALL_FPDF = ("printing a book needs fpdf2, the extra print: pip install 'kakuro_np[print]' "
                "(make installs it)")
INSTALL_FONT = ("printing a book needs a TrueType font to embed, and none was found: install "
                "DejaVu Sans (Debian: apt-get install fonts-dejavu-core; make does) or set "
                "KAKURO_NP_FONT to a .ttf file")


class Entry(NamedTuple):
    """One puzzle of a book.

    number   : its number in the book, from 1, in order of grade.
    name     : what errors call it: its file's name, or ``puzzle N``.
    puzzle   : the Puzzle.
    solution : (H, W) int8, its one solution.
    label    : its grade, "easy" to "expert".
    """
    number: int
    name: str
    puzzle: object
    solution: np.ndarray
    label: str


# -- what goes in: unique puzzles, graded, in order -----------------------------

def prepared(puzzles, names=None, timeout=None, step=None) -> list:
    """The ``Entry`` of each puzzle, in order of grade (a stable sort), numbered from 1.

    Each is read (``as_puzzle``), proved to have one solution and graded; one that
    has none or several is refused with a PuzzleError naming it. ``timeout`` is each
    puzzle's (SolveTimeout past it); ``step()`` is called as each is done.
    """
    from .checking import _left
    from .engine.core.jit import deadline_ns
    from .formats import as_puzzle
    from .grading import grade
    from .solve import count, kakuro
    puzzles = list(puzzles)
    names = list(names) if names is not None else [_name_of(p, i) for i, p in enumerate(puzzles)]
    found = []
    for puzzle, name in zip(puzzles, names):
        deadline = deadline_ns(timeout)
        try:
            puzzle = as_puzzle(puzzle)
        except PuzzleError as e:
            raise (e if e.source else e.with_source(name)) from None
        n = count(puzzle, limit=2, timeout=timeout)
        if n != 1:
            raise PuzzleError(f"not unique ({'no solution' if n == 0 else 'several solutions'}): "
                              "a book holds puzzles with one solution", source=name)
        label = grade(puzzle, timeout=_left(deadline, "grading")).label
        solution = kakuro(puzzle, limit=1, timeout=_left(deadline, "solving"))[0]
        found.append((puzzle, name, solution, label))
        if step is not None:
            step()
    found.sort(key=lambda f: GRADES.index(f[3]))
    return [Entry(i, name, p, s, label) for i, (p, name, s, label) in enumerate(found, 1)]


def _name_of(puzzle, i: int) -> str:
    """A puzzle's name in errors: its path, or ``puzzle N`` (from 1)."""
    if isinstance(puzzle, os.PathLike) or (isinstance(puzzle, str) and "\n" not in puzzle
                                           and os.path.exists(puzzle)):
        return os.fspath(puzzle)
    return f"puzzle {i + 1}"


def collection(source) -> list | None:
    """``(name, puzzle)`` of each puzzle a collection holds, or None for a file of one
    puzzle. A collection is a folder, a glob, a JSON-lines or collection JSON file (as
    ``kakuro-np batch`` reads them, ``batch.items``) or a batch results file, whose
    puzzles are taken from their first solution (a line not unique is refused by name).
    A name is the puzzle's file, or ``SOURCE: ID``."""
    from .batch import GLOB_CHARS, File, _checked, _is_results, items
    source = os.fspath(source)
    many = os.path.isdir(source) or (not os.path.exists(source)
                                     and any(c in source for c in GLOB_CHARS))
    if not many and os.path.isfile(source) and _is_results(source):
        return _results(source)
    if not many and not (os.path.isfile(source) and source.endswith((".jsonl", ".json"))):
        return None
    found = []
    for pid, grid in items(source):
        name = str(grid) if isinstance(grid, File) else f"{source}: {pid}"
        if isinstance(grid, Exception):
            raise grid
        found.append((name, _checked(grid)))
    return found


def _results(path) -> list:
    """``(name, puzzle)`` of each line of a batch results file: the puzzle of its first
    solution (comma text), the digits taken out; a line whose status is not unique is
    refused, naming it."""
    import json

    from .formats import parse
    from .puzzle import Puzzle
    found = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                result = json.loads(line)
            except ValueError:
                raise PuzzleError("not a results line", source=f"{path}:{n}") from None
            name = f"{path}: {result.get('id', f'line {n}')}"
            if result.get("status") != "unique" or not result.get("solutions"):
                raise PuzzleError(f"not unique ({result.get('status')}): a book holds "
                                  "puzzles with one solution", source=name)
            solved = parse(result["solutions"][0], format="comma")
            found.append((name, Puzzle(solved.blank, solved.down, solved.across)))
    return found


def grades_of(text: str) -> list:
    """The grades a comma-separated list names, checked.

    Examples
    --------
    >>> grades_of("easy,hard")
    ['easy', 'hard']
    >>> grades_of("easy,tough")
    Traceback (most recent call last):
    ...
    kakuro_np.errors.PuzzleError: unknown grade 'tough': the grades are easy, medium, hard, expert
    """
    found = [g.strip() for g in text.split(",") if g.strip()]
    for g in found or [text]:
        if g not in GRADES:
            raise PuzzleError(f"unknown grade {g!r}: the grades are {', '.join(GRADES)}")
    return found


def size_of(text: str) -> tuple:
    """``(rows, cols)`` from ``12x12`` (or ``12``), each at least 3, the clue row and
    column included.

    Examples
    --------
    >>> size_of("12x10"), size_of("9")
    ((12, 10), (9, 9))
    """
    parts = text.lower().replace("×", "x").split("x")
    if len(parts) == 1:
        parts = parts * 2
    try:
        rows, cols = (int(p) for p in parts)
    except ValueError:
        raise PuzzleError(f"a size is ROWSxCOLS, like 12x12: {text!r}") from None
    if min(rows, cols) < 3:
        raise PuzzleError(f"a {rows}x{cols} grid is too small: a size is at least 3x3, the "
                          "clue row and column included")
    return rows, cols


def generated(count: int, size, grades=None, seed=None, timeout=None, step=None) -> list:
    """``count`` new puzzles of ``size`` (``generate``), in blocks of the ``grades`` in
    order (the first ``count % len(grades)`` blocks one longer); puzzle ``i`` has the seed
    ``[seed, i]``, so the same seed gives the same puzzles. ``step()`` as each is made."""
    from .generator import generate
    blocks = [None] if not grades else grades
    each, extra = divmod(count, len(blocks))
    labels = [g for k, g in enumerate(blocks) for _ in range(each + (k < extra))]
    found = []
    for i, label in enumerate(labels):
        found.append(generate(*size, grade=label, seed=[seed, i], timeout=timeout))
        if step is not None:
            step()
    return found


# -- pages: what fits --------------------------------------------------------------

def _area(paper: str) -> tuple:
    """``(x, y, width, height)`` in mm of the part of a page puzzles go in."""
    w, h = PAPERS[paper]
    return MARGIN, MARGIN, w - 2 * MARGIN, h - 2 * MARGIN - FOOTER


def slots(paper: str, cols: int, rows: int, heading: float = HEADING) -> list:
    """``(x, y, width, height)`` in mm of the grid's part of each slot of a page, row by
    row, ``heading`` mm above each left for its heading.

    Examples
    --------
    >>> [tuple(round(v, 1) for v in s) for s in slots("A4", 2, 1)]
    [(12.0, 20.0, 90.0, 255.0), (108.0, 20.0, 90.0, 255.0)]
    """
    x0, y0, w, h = _area(paper)
    sw, sh = (w - (cols - 1) * GAP) / cols, (h - (rows - 1) * GAP) / rows
    return [(x0 + c * (sw + GAP), y0 + r * (sh + GAP) + heading, sw, sh - heading)
            for r in range(rows) for c in range(cols)]


def cell_size(shape, slot, most: float = MAX_CELL) -> float:
    """The side in mm of a cell of a grid of ``shape`` in a ``slot``: as large as fits,
    at most ``most``."""
    return min(most, slot[2] / shape[1], slot[3] / shape[0])


def largest(paper: str, per_page: int) -> tuple:
    """``(rows, cols)``: the largest grid whose cells are at least MIN_CELL at
    ``per_page`` a page.

    Examples
    --------
    >>> largest("A4", 1), largest("A4", 6)
    ((47, 34), (14, 16))
    """
    slot = slots(paper, *LAYOUTS[per_page])[0]
    return int(slot[3] / MIN_CELL + 1e-9), int(slot[2] / MIN_CELL + 1e-9)


def fits(shape, paper: str, per_page: int, name: str | None = None) -> None:
    """Refuse (PuzzleError) a grid of ``shape`` that does not fit ``per_page`` a page on
    ``paper`` with readable clues, naming the largest that does.

    Examples
    --------
    >>> fits((12, 12), "A4", 6)
    >>> fits((40, 40), "A4", 1)
    Traceback (most recent call last):
    ...
    kakuro_np.errors.PuzzleError: a 40x40 grid does not fit 1 a page on A4 with readable clues (cells of 5.4 mm or more, clues of 5.5 pt); the largest that fits is 47x34 (47 rows, 34 columns)
    """
    rows, cols = largest(paper, per_page)
    if shape[0] <= rows and shape[1] <= cols:
        return
    more = "; or fewer a page" if per_page > 1 else ""
    raise PuzzleError(f"a {shape[0]}x{shape[1]} grid does not fit {per_page} a page on "
                      f"{paper} with readable clues (cells of {MIN_CELL:.1f} mm or more, "
                      f"clues of {MIN_CLUE_PT:g} pt); the largest that fits is "
                      f"{rows}x{cols} ({rows} rows, {cols} columns){more}", source=name)


def per_page_for(shapes, paper: str) -> int:
    """The most puzzles a page, of DEFAULT_PER_PAGE, at which every grid of ``shapes``
    fits (``fits`` refuses the largest one at 1 a page otherwise).

    Examples
    --------
    >>> per_page_for([(12, 12)], "A4"), per_page_for([(12, 12), (30, 30)], "Letter")
    (4, 1)
    """
    shapes = list(shapes)
    for per in DEFAULT_PER_PAGE:
        if all(s[0] <= largest(paper, per)[0] and s[1] <= largest(paper, per)[1]
               for s in shapes):
            return per
    for s in shapes:
        fits(s, paper, 1)
    return 1


def solution_layout(shapes, paper: str) -> tuple:
    """``(cols, rows)`` of the solutions' pages: the first of SOLUTION_LAYOUTS whose cells
    are at least MIN_SOLUTION_CELL for every grid (the last, else)."""
    for layout in SOLUTION_LAYOUTS:
        slot = slots(paper, *layout, heading=HEADING)[0]
        if all(cell_size(s, slot) >= MIN_SOLUTION_CELL for s in shapes):
            return layout
    return SOLUTION_LAYOUTS[-1]


# -- fonts and the document ----------------------------------------------------------

def font_files() -> tuple:
    """``(regular, bold)``: the TrueType files to embed (bold may be the regular one).
    KAKURO_NP_FONT names one file for both; else the first of FONT_PLACES found, else
    matplotlib's own DejaVu Sans (found without importing it). ImportError (INSTALL_FONT)
    when there is none."""
    named = os.environ.get("KAKURO_NP_FONT")
    if named:
        if not os.path.isfile(named):
            raise ImportError(f"KAKURO_NP_FONT names no file: {named}")
        return named, named
    places = list(FONT_PLACES)
    spec = importlib.util.find_spec("matplotlib")
    if spec is not None and spec.submodule_search_locations:
        ttf = os.path.join(list(spec.submodule_search_locations)[0], "mpl-data", "fonts", "ttf")
        places.append((os.path.join(ttf, "DejaVuSans.ttf"),
                       os.path.join(ttf, "DejaVuSans-Bold.ttf")))
    for regular, bold in places:
        if os.path.isfile(regular):
            return regular, bold if os.path.isfile(bold) else regular
    raise ImportError(INSTALL_FONT)


def _document(paper: str):
    """An empty fpdf2 document in mm with the font embedded as ``book`` (and ``book`` bold),
    dated FIXED_DATE and without a file identifier: the same pages give the same bytes."""
    try:
        from fpdf import FPDF
    except ImportError:
        raise ImportError(INSTALL_FPDF) from None

    class Document(FPDF):
        def file_id(self):                           # no /ID: it would hash the date
            return None

    regular, bold = font_files()
    pdf = Document(unit="mm", format=PAPERS[paper])
    pdf.set_auto_page_break(False)
    pdf.set_creation_date(FIXED_DATE)
    pdf.set_producer("kakuro_np")
    pdf.set_creator("kakuro_np")
    pdf.add_font("book", "", regular)
    pdf.add_font("book", "B", bold)
    return pdf


def _centred(pdf, x, y, text, pt, style="") -> None:
    """``text`` centred on ``(x, y)`` in mm, ``pt`` points high, as the SVG centres it."""
    pdf.set_font("book", style, pt)
    pdf.text(x - pdf.get_string_width(text) / 2, y + BASELINE_DROP * pt * PT, text)


def _line_width(pdf, width) -> None:
    pdf.set_line_width(max(MIN_LINE, width))


# -- drawing -------------------------------------------------------------------

def draw_grid(pdf, puzzle, x, y, cell, digits=None, sums=True) -> None:
    """A puzzle at ``(x, y)`` (its top left corner, mm), ``cell`` mm a cell, as the SVG
    draws it: dark cells, each clue's white diagonal, the sums (down bottom left, across
    top right), given digits bold, ``digits`` ((H, W), 0 = none) in ink, the grid lines
    and a heavier border."""
    kind = kinds(puzzle)
    pdf.set_fill_color(*DARK)
    for r, c in np.argwhere(kind != BLANK):
        pdf.rect(x + c * cell, y + r * cell, cell, cell, style="F")
    pdf.set_draw_color(*LIGHT)
    _line_width(pdf, DIAGONAL_LINE * cell)
    clues = np.argwhere(kind == CLUE)
    for r, c in clues:
        pdf.line(x + c * cell, y + r * cell, x + (c + 1) * cell, y + (r + 1) * cell)
    if sums:
        _draw_sums(pdf, puzzle, clues, x, y, cell)
    _draw_digits(pdf, puzzle, digits, x, y, cell)
    h, w = kind.shape
    pdf.set_draw_color(*INK)
    _line_width(pdf, GRID_LINE * cell)
    for r in range(1, h):
        pdf.line(x, y + r * cell, x + w * cell, y + r * cell)
    for c in range(1, w):
        pdf.line(x + c * cell, y, x + c * cell, y + h * cell)
    _line_width(pdf, BORDER_LINE * cell)
    pdf.rect(x, y, w * cell, h * cell)


def _draw_sums(pdf, puzzle, clues, x, y, cell) -> None:
    """Each nonzero sum in white: the down one in the bottom-left triangle, the across one
    in the top-right, centred where the SVG centres them."""
    pdf.set_text_color(*LIGHT)
    pt = CLUE_SIZE * cell / PT
    for r, c in clues:
        down, across = clue_text(puzzle, r, c)
        left, top = x + c * cell, y + r * cell
        if down:
            _centred(pdf, left + SUM_NEAR * cell, top + SUM_FAR * cell, down, pt)
        if across:
            _centred(pdf, left + SUM_FAR * cell, top + SUM_NEAR * cell, across, pt)


def _draw_digits(pdf, puzzle, digits, x, y, cell) -> None:
    """Given digits bold and ``digits`` regular, in ink, centred in their cells."""
    pdf.set_text_color(*INK)
    pt = DIGIT_SIZE * cell / PT
    shown = np.where(puzzle.given != 0, puzzle.given,
                     0 if digits is None else np.asarray(digits)) * puzzle.blank
    for r, c in np.argwhere(shown != 0):
        _centred(pdf, x + (c + 0.5) * cell, y + (r + 0.5) * cell, str(int(shown[r, c])), pt,
                 "B" if puzzle.given[r, c] else "")


def heading(entry: Entry) -> str:
    """The line above a puzzle.

    Examples
    --------
    >>> import kakuro_np as kn
    >>> p = kn.read("puzzles/k2.txt")
    >>> heading(Entry(3, "k2", p, None, "medium"))
    'Puzzle 3 · medium · 10×8'
    """
    h, w = entry.puzzle.shape
    return f"Puzzle {entry.number} · {entry.label} · {h}×{w}"


def _new_page(pdf, paper: str, folio: bool = True) -> None:
    """A page, its number at its foot."""
    pdf.add_page()
    if folio:
        w, h = PAPERS[paper]
        pdf.set_text_color(*INK)
        _centred(pdf, w / 2, h - MARGIN - FOOTER / 3, str(pdf.page), FOLIO_PT)


def _title_page(pdf, paper, title, subtitle, entries, solutions_at) -> None:
    """The title, the subtitle, and what the book holds."""
    w, h = PAPERS[paper]
    _new_page(pdf, paper, folio=False)
    pdf.set_text_color(*INK)
    _centred(pdf, w / 2, h * 0.36, title, TITLE_PT, "B")
    if subtitle:
        _centred(pdf, w / 2, h * 0.36 + 16, subtitle, SUBTITLE_PT)
    said = f"{len(entries)} puzzle{'s' if len(entries) != 1 else ''}: {grade_counts(entries)}"
    _centred(pdf, w / 2, h * 0.62, said, NOTE_PT)
    _centred(pdf, w / 2, h * 0.62 + 7, f"Solutions from page {solutions_at}", NOTE_PT)


def grade_counts(entries) -> str:
    """How many ``entries`` of each grade, in GRADES' order (the title page, the command
    line's summary).

    >>> grade_counts([Entry(1, "a", None, None, "hard"), Entry(2, "b", None, None, "hard")])
    '2 hard'
    """
    labels = [e.label for e in entries]
    return ", ".join(f"{labels.count(g)} {g}" for g in GRADES if g in labels)


def _pages(pdf, paper, entries, layout, small=False) -> None:
    """The entries ``layout`` (cols, rows) a page: each grid centred in its slot under its
    heading; the puzzles with their sums, or (``small``) the solutions, digits and no sums."""
    places = slots(paper, *layout)
    for i, entry in enumerate(entries):
        if i % len(places) == 0:
            _new_page(pdf, paper)
        sx, sy, sw, sh = places[i % len(places)]
        cell = cell_size(entry.puzzle.shape, (sx, sy, sw, sh),
                         MAX_SOLUTION_CELL if small else MAX_CELL)
        h, w = entry.puzzle.shape
        gx = sx + (sw - w * cell) / 2
        pdf.set_text_color(*INK)
        pdf.set_font("book", "B", HEADING_PT)
        label = str(entry.number) if small else heading(entry)
        pdf.text(gx, sy - HEADING / 3, label)
        draw_grid(pdf, entry.puzzle, gx, sy, cell, entry.solution if small else None,
                  sums=not small)


def pdf_bytes(entries, *, title="Kakuro", subtitle="", paper="A4", per_page=None) -> bytes:
    """The book of ``entries`` (``prepared``) as PDF bytes: a title page, the puzzles
    ``per_page`` a page (default: ``per_page_for``), the solutions; each grid checked to
    fit first (``fits``)."""
    paper, per_page = _checked_paper(paper, per_page)
    shapes = [e.puzzle.shape for e in entries]
    if per_page is None:
        per_page = per_page_for(shapes, paper)
    for e in entries:
        fits(e.puzzle.shape, paper, per_page, e.name)
    pdf = _document(paper)
    pdf.set_title(title)
    solutions_at = 2 + math.ceil(len(entries) / per_page)
    _title_page(pdf, paper, title, subtitle, entries, solutions_at)
    _pages(pdf, paper, entries, LAYOUTS[per_page])
    _pages(pdf, paper, entries, solution_layout(shapes, paper), small=True)
    return bytes(pdf.output())


def _checked_paper(paper, per_page) -> tuple:
    """``(paper, per_page)`` checked: a PuzzleError names the choices. The paper's name
    may be in any case."""
    names = {name.lower(): name for name in PAPERS}
    if str(paper).lower() not in names:
        raise PuzzleError(f"paper must be one of {', '.join(PAPERS)}, got {paper!r}")
    if per_page is not None and per_page not in LAYOUTS:
        raise PuzzleError(f"per_page must be one of {', '.join(map(str, LAYOUTS))}, "
                          f"got {per_page!r}")
    return names[str(paper).lower()], per_page


def writable(path) -> str:
    """Refuse (PuzzleError) an output path that cannot be written, before any work: a
    folder, a device, a missing folder, one without the right to write. A file is made
    beside it and removed. "null" for ``os.devnull`` (nothing to write), else "file"."""
    import tempfile
    kind = output_path(path)
    if kind == "null":
        return kind
    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".tmp-")
    except OSError as e:
        raise PuzzleError(f"cannot write file: {e.strerror}", source=os.fspath(path)) from None
    os.close(fd)
    os.unlink(tmp)
    return "file"


def write_pdf(path, data: bytes) -> None:
    """Write a book's bytes to ``path`` whole or not at all (``files.write_bytes_atomic``);
    PuzzleError naming the file when it cannot be written."""
    if writable(path) == "null":
        return
    try:
        write_bytes_atomic(path, data)
    except OSError as e:
        raise PuzzleError(f"cannot write file: {e.strerror}", source=os.fspath(path)) from None


def book(puzzles, path, *, title: str = "Kakuro", subtitle: str = "", paper: str = "A4",
         per_page: int | None = None, names=None, timeout: float | None = None) -> int:
    """Write a print-ready PDF book of ``puzzles``: a title page, the puzzles in order of
    grade under a heading each (number, grade, size), the solutions at the back, page
    numbers. Needs fpdf2 (the extra ``print``) and a TrueType font (``font_files``).

    Parameters
    ----------
    puzzles : iterable of Puzzle, text, path or rows
        Each must have exactly one solution: one that has none or several is refused
        (PuzzleError, naming it) before anything is written.
    path : str or os.PathLike
        The PDF to write, whole or not at all; an unwritable one is refused first.
    title, subtitle : str
        The title page's lines.
    paper : {"A4", "Letter"}
    per_page : {1, 2, 4, 6}, optional
        Puzzles a page; by default the most of 4, 2, 1 at which every grid fits. A grid
        whose clues would print under MIN_CLUE_PT is refused, naming the largest that fits.
    names : list of str, optional
        What errors call each puzzle (default: its path, or ``puzzle N``).
    timeout : float, optional
        Seconds each puzzle may take to prove unique, grade and solve (SolveTimeout).

    Returns
    -------
    int
        The book's pages.

    Examples
    --------
    >>> import os, tempfile
    >>> import kakuro_np as kn
    >>> out = os.path.join(tempfile.mkdtemp(), "book.pdf")
    >>> kn.book(["puzzles/k2.txt", "puzzles/k7.txt"], out, title="Two puzzles")
    3
    >>> open(out, "rb").read(5)
    b'%PDF-'
    >>> kn.book(["puzzles/k3.txt"], out)
    Traceback (most recent call last):
    ...
    kakuro_np.errors.PuzzleError: puzzles/k3.txt: not unique (several solutions): a book holds puzzles with one solution
    """
    paper, per_page = _checked_paper(paper, per_page)
    writable(path)
    entries = prepared(puzzles, names, timeout)
    data = pdf_bytes(entries, title=title, subtitle=subtitle, paper=paper, per_page=per_page)
    write_pdf(path, data)
    return page_count(entries, paper, per_page)


def add_to_book(puzzle, path, *, timeout: float | None = None, **options) -> int:
    """Add a puzzle (its clues, without given digits) to the book at ``path`` and write the
    book again: its puzzles are kept beside it in a JSON-lines collection (``book.pdf``:
    ``book.jsonl``, one ``{"id", "grid"}`` a line, as ``kakuro-np book`` and ``batch``
    read it). The puzzle is proved unique first (a PuzzleError otherwise, nothing
    changed); the PDF is written before the collection, each whole. ``options`` go to
    ``pdf_bytes``. The puzzles now in the book.

    Examples
    --------
    >>> import os, tempfile
    >>> out = os.path.join(tempfile.mkdtemp(), "mine.pdf")
    >>> add_to_book("puzzles/k0.txt", out), add_to_book("puzzles/k2.txt", out)
    (1, 2)
    >>> sorted(os.listdir(os.path.dirname(out)))
    ['mine.jsonl', 'mine.pdf']
    """
    import json

    from .formats import as_puzzle, format
    writable(path)
    kept = os.path.splitext(os.fspath(path))[0] + ".jsonl"
    found = collection(kept) if os.path.exists(kept) else []
    puzzle = as_puzzle(puzzle).with_given(None)                  # its clues: a puzzle to do
    prepared([puzzle], [f"puzzle {len(found) + 1}"], timeout)       # unique, or refused
    found.append((f"{kept}: puzzle {len(found) + 1}", puzzle))
    entries = prepared([p for _, p in found], [n for n, _ in found], timeout)
    write_pdf(path, pdf_bytes(entries, **options))
    lines = [json.dumps({"id": f"puzzle {i}", "grid": format(p.with_given(None), "jboxed")})
             for i, (_, p) in enumerate(found, 1)]
    write_atomic(kept, "\n".join(lines) + "\n")
    return len(found)


def page_count(entries, paper, per_page) -> int:
    """The pages of a book of ``entries``: the title page, the puzzles', the solutions'."""
    shapes = [e.puzzle.shape for e in entries]
    per = per_page or per_page_for(shapes, paper)
    cols, rows = solution_layout(shapes, paper)
    return 1 + math.ceil(len(entries) / per) + math.ceil(len(entries) / (cols * rows))
