"""Print-ready books: the PDF read back (pypdf: pages, headings, clues, fonts, line widths,
no bitmaps), a page rendered by pdftoppm checked against the SVG (dark cells, grid
lines, where each sum is), the same book byte for byte, and refusals that leave nothing."""

import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import kakuro_np as kn
from kakuro_np import printing as bk
from kakuro_np.drawing import BASELINE_DROP, SUM_SIZE, SVG_NS
from kakuro_np.render import BLANK, kinds
from conftest import PUZZLES

pypdf = pytest.importorskip("pypdf")
pytest.importorskip("fpdf", reason="the extra print (fpdf2) is not installed")
try:
    bk.font_files()
except ImportError as e:                             # pragma: no cover (make installs one)
    pytest.skip(str(e), allow_module_level=True)

NEEDS_PDFTOPPM = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                    reason="no pdftoppm (Debian's poppler-utils)")
#: The test book's puzzles: k7 (medium) is given first, and goes last.
FILES = [str(PUZZLES / name) for name in ("k7.txt", "k2.txt", "k0.txt")]
#: Dots an inch of the rendered page.
DPI = 100


@pytest.fixture(scope="module")
def entries():
    return bk.prepared(FILES)


@pytest.fixture(scope="module")
def pdf(entries):
    return bk.pdf_bytes(entries, title="Test book", subtitle="three samples", per_page=1)


def reader(data):
    import io
    return pypdf.PdfReader(io.BytesIO(data))


def test_entries_are_numbered_in_order_of_grade_and_solved(entries):
    assert [(e.number, os.path.basename(e.name), e.label) for e in entries] == [
        (1, "k2.txt", "easy"), (2, "k0.txt", "easy"), (3, "k7.txt", "medium")]
    for e in entries:
        assert (e.solution == kn.kakuro(e.puzzle)[0]).all()


def test_the_pdf_has_a_title_page_the_puzzles_and_the_solutions(pdf, entries):
    pages = [p.extract_text() for p in reader(pdf).pages]
    assert len(pages) == 1 + 3 + 1                   # 1 a page; the solutions on one page
    assert "Test book" in pages[0] and "three samples" in pages[0]
    assert "3 puzzles: 2 easy, 1 medium" in pages[0] and "Solutions from page 5" in pages[0]
    for number, (page, e) in enumerate(zip(pages[1:4], entries), 2):
        assert bk.heading(e) in page and page.split()[0] == str(number)   # the folio
        clues = sorted(int(s) for s in np.concatenate([e.puzzle.down.ravel(),
                                                       e.puzzle.across.ravel()]) if s)
        words = page.split("\n", 2)[2].split()     # past the folio and the heading
        assert sorted(map(int, words)) == clues      # every sum, as text
    assert "Puzzle 1 · easy · 10×8" in pages[1]
    solutions = pages[4].split()
    assert solutions[0] == "5" and solutions.count("1") >= 1


def test_the_pdf_is_vector_with_embedded_fonts_and_lines_a_printer_keeps(pdf):
    assert b"/Subtype /Image" not in pdf              # no bitmaps
    fonts = reader(pdf).pages[1]["/Resources"]["/Font"]
    for font in fonts.values():
        font = font.get_object()
        descendant = font["/DescendantFonts"][0].get_object()
        assert "/FontFile2" in descendant["/FontDescriptor"]   # the TrueType file, embedded
    widths = [float(w) for page in reader(pdf).pages
              for w in re.findall(rb"([\d.]+) w\b", page.get_contents().get_data())]
    assert widths and min(widths) >= bk.MIN_LINE / bk.PT - 0.01   # points


def test_the_same_puzzles_give_the_same_bytes(tmp_path, entries, pdf):
    assert bk.pdf_bytes(entries, title="Test book", subtitle="three samples",
                        per_page=1) == pdf
    one, two = tmp_path / "one.pdf", tmp_path / "two.pdf"
    assert kn.book(FILES, one, per_page=4) == kn.book(FILES, two, per_page=4) == 3
    assert one.read_bytes() == two.read_bytes()
    assert b"CreationDate (D:19700101000000Z)" in one.read_bytes()   # fixed, not today


def render(data, page, tmp_path):
    """Page ``page`` (from 1) as a grey (H, W) uint8 array, DPI dots an inch (pdftoppm)."""
    path = tmp_path / "book.pdf"
    path.write_bytes(data)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "-f", str(page), "-l", str(page),
                    str(path), str(tmp_path / "page")], check=True, timeout=60)
    pgm = next(tmp_path.glob("page*.pgm")).read_bytes()
    magic, w, h, top, pixels = pgm.split(maxsplit=4)
    assert magic == b"P5" and top == b"255"
    return np.frombuffer(pixels, np.uint8)[:int(w) * int(h)].reshape(int(h), int(w))


def svg_cells_and_sums(puzzle, cell=40):
    """From the SVG: the dark cells ``(r, c)`` and each sum's ``(x, y, text)`` centre, in cells."""
    root = ET.fromstring(kn.svg(puzzle, cell=cell).encode())
    paths = [p for p in root.iter(f"{{{SVG_NS}}}path") if p.get("fill") == "#333333"]
    dark = {(int(y) // cell, int(x) // cell)
            for x, y in re.findall(r"M(\d+) (\d+)h", paths[0].get("d"))}
    size = SUM_SIZE * cell
    group = next(g for g in root.iter(f"{{{SVG_NS}}}g") if g.get("class") == "sums")
    sums = [(float(t.get("x")) / cell, (float(t.get("y")) - BASELINE_DROP * size) / cell, t.text)
            for t in group]
    return dark, sums


@NEEDS_PDFTOPPM
def test_a_rendered_page_has_the_svgs_cells_grid_lines_and_sums(tmp_path, entries, pdf):
    e = entries[0]                                   # k2, alone on page 2
    page = render(pdf, 2, tmp_path)
    sx, sy, sw, sh = bk.slots("A4", 1, 1)[0]
    cell = bk.cell_size(e.puzzle.shape, (sx, sy, sw, sh))
    h, w = e.puzzle.shape
    gx, gy = sx + (sw - w * cell) / 2, sy

    def px(x, y):                                    # cells from the grid's corner -> pixels
        return (round((gy + y * cell) * DPI / 25.4), round((gx + x * cell) * DPI / 25.4))

    def box(x, y, half):
        (r0, c0), (r1, c1) = px(x - half, y - half), px(x + half, y + half)
        return page[r0:r1 + 1, c0:c1 + 1]

    dark, sums = svg_cells_and_sums(e.puzzle)
    assert dark == {tuple(rc) for rc in np.argwhere(kinds(e.puzzle) != BLANK)}
    for r in range(h):
        for c in range(w):
            if (r, c) in dark:                       # away from the sums and the diagonal
                assert page[px(c + 0.08, r + 0.92)] < 100 and page[px(c + 0.92, r + 0.08)] < 100
            else:
                assert page[px(c + 0.5, r + 0.5)] > 200
                assert box(c + 0.5, r, 0.02).min() < 100      # the line above it
                assert box(c, r + 0.5, 0.02).min() < 100      # and the one to its left
    told = {(round(x, 2), round(y, 2)) for x, y, _ in sums}
    for r, c in dark:
        for x, y in ((c + 0.27, r + 0.73), (c + 0.73, r + 0.27)):   # both triangles' centres
            white = box(x, y, 0.1).max() > 180       # white digits on the dark cell
            assert white == ((round(x, 2), round(y, 2)) in told), (r, c, x, y)


def test_a_grid_too_large_is_refused_naming_the_largest_that_fits():
    rows, cols = bk.largest("A4", 1)
    assert rows >= 30 and cols >= 30                 # a 30x30 fits a page of its own
    bk.fits((30, 30), "A4", 1)
    bk.fits((30, 30), "Letter", 1)
    said = f"the largest that fits is {rows}x{cols} \\({rows} rows, {cols} columns\\)$"
    with pytest.raises(kn.PuzzleError, match=said):
        bk.fits((40, 40), "A4", 1)
    with pytest.raises(kn.PuzzleError, match=r"^big: a 30x30 grid does not fit 6 a page on "
                                             r"Letter.*; or fewer a page"):
        bk.fits((30, 30), "Letter", 6, "big")
    assert bk.per_page_for([(12, 12)] * 3, "A4") == 4
    assert bk.per_page_for([(12, 12), (20, 20)], "A4") == 2
    assert bk.per_page_for([(12, 12), (30, 30)], "A4") == 1


def test_refusals_leave_nothing_at_the_path(tmp_path):
    out = tmp_path / "book.pdf"
    with pytest.raises(kn.PuzzleError, match=r"k3.txt: not unique \(several solutions\)"):
        kn.book([FILES[0], str(PUZZLES / "k3.txt")], out)
    with pytest.raises(kn.PuzzleError, match="paper must be one of A4, Letter, got 'A5'"):
        kn.book(FILES, out, paper="A5")
    with pytest.raises(kn.PuzzleError, match="per_page must be one of 1, 2, 4, 6, got 3"):
        kn.book(FILES, out, per_page=3)
    with pytest.raises(kn.PuzzleError, match="cannot write file"):
        kn.book(FILES, tmp_path / "no-such-folder" / "book.pdf")
    with pytest.raises(kn.PuzzleError, match="is a directory"):
        kn.book(FILES, tmp_path)
    assert os.listdir(tmp_path) == []
    assert kn.book(FILES, os.devnull, paper="letter") == 3          # nothing written


def test_what_printing_needs_is_named_when_missing(monkeypatch, entries):
    monkeypatch.setitem(__import__("sys").modules, "fpdf", None)
    with pytest.raises(ImportError, match=r"pip install 'kakuro_np\[print\]'"):
        bk.pdf_bytes(entries)
    monkeypatch.undo()
    monkeypatch.setenv("KAKURO_NP_FONT", "/no/such/font.ttf")
    with pytest.raises(ImportError, match="KAKURO_NP_FONT names no file"):
        bk.pdf_bytes(entries)


# -- the command line: kakuro-np book ------------------------------------------------

def run(*args):
    """``kakuro-np ARGS`` in this process: ``(exit status, stdout, stderr)``."""
    import contextlib
    import io

    from kakuro_np import cli
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main([str(a) for a in args])
        except SystemExit as e:                      # argparse's usage errors
            code = e.code
    return code, out.getvalue(), err.getvalue()


def test_book_prints_files_in_order_of_grade(tmp_path):
    out = tmp_path / "book.pdf"
    code, said, err = run("book", FILES[0], FILES[1], "--out", out, "--per-page", "2",
                          "--title", "Samples", "--paper", "letter")
    assert (code, err) == (0, "")
    assert said == f"{out}: 2 puzzles (1 easy, 1 medium), 3 pages\n"
    pages = [p.extract_text() for p in reader(out.read_bytes()).pages]
    assert "Samples" in pages[0]
    assert pages[1].index("Puzzle 1 · easy · 10×8") < pages[1].index("Puzzle 2 · medium · 12×10")
    assert reader(out.read_bytes()).pages[0].mediabox.width == pytest.approx(612)  # Letter


def test_book_reads_folders_and_batch_results_and_refuses_one_not_unique(tmp_path):
    from kakuro_np.batch import as_line, solve_one
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("k0.txt", "k2.txt"):
        (folder / name).write_text((PUZZLES / name).read_text())
    results = tmp_path / "results.jsonl"
    results.write_text("".join(as_line(solve_one((name, str(PUZZLES / f"{name}.txt")))).text
                               for name in ("k6", "k3")))
    out = tmp_path / "book.pdf"
    code, _, err = run("book", folder, results, "--out", out)
    assert code == 2 and err == (f"kakuro-np: {results}: k3: not unique (multiple): a book "
                                 "holds puzzles with one solution\n")
    assert not out.exists()
    results.write_text(results.read_text().splitlines(keepends=True)[0])
    code, said, err = run("book", folder, results, "--out", out)
    assert (code, err) == (0, "") and said.startswith(f"{out}: 3 puzzles")
    text = "".join(p.extract_text() for p in reader(out.read_bytes()).pages)
    assert "4×5" in text and "10×8" in text and "8×6" in text     # k0, k2, k6


def test_book_makes_new_puzzles_the_same_for_the_same_seed(tmp_path):
    one, two = tmp_path / "one.pdf", tmp_path / "two.pdf"
    for out in (one, two):
        code, said, err = run("book", "--out", out, "--size", "8x8", "--count", "2",
                              "--grades", "medium,easy", "--seed", "3")
        assert (code, err) == (0, "")
    assert said == f"{two}: 2 puzzles (1 easy, 1 medium), 3 pages\n"
    assert one.read_bytes() == two.read_bytes()
    pages = [p.extract_text() for p in reader(one.read_bytes()).pages]
    assert "Puzzle 1 · easy · 8×8" in pages[1] and "Puzzle 2 · medium · 8×8" in pages[1]


@pytest.mark.parametrize("args, said", [
    ([str(PUZZLES / "k3.txt")], "k3.txt: not unique (several solutions)"),
    (["--size", "8x8", "--grades", "easy,tough"],
     "unknown grade 'tough': the grades are easy, medium, hard, expert"),
    (["--size", "40x40"], "a 40x40 grid does not fit 1 a page on A4 with readable clues"),
    (["--size", "30x30", "--per-page", "4"], "the largest that fits is 22x16 (22 rows, 16 columns); or fewer a page"),
    (["--size", "2x2"], "a 2x2 grid is too small: a size is at least 3x3"),
    (["--size", "twelve"], "a size is ROWSxCOLS, like 12x12: 'twelve'"),
    ([], "give FILES, or --size ROWSxCOLS"),
    ([FILES[0], "--size", "8x8"], "give FILES or --size"),
    (["--size", "8x8", "--paper", "A5"], "argument --paper: one of A4, Letter: 'A5'"),
])
def test_book_refuses_bad_input_in_one_line_leaving_nothing(tmp_path, args, said):
    out = tmp_path / "book.pdf"
    code, _, err = run("book", "--out", out, *args)
    assert code == 2 and said in err and len(err.strip().splitlines()) == 1
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("out, said", [("no-such-folder/book.pdf", "cannot write file"),
                                       (".", "is a directory")])
def test_book_refuses_an_unwritable_out_before_any_work(tmp_path, out, said):
    code, _, err = run("book", FILES[0], "--out", tmp_path / out)
    assert code == 2 and said in err and os.listdir(tmp_path) == []


def test_book_without_fpdf2_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "fpdf", None)
    code, _, err = run("book", FILES[1], "--out", tmp_path / "book.pdf")
    assert code == 2 and "pip install 'kakuro_np[print]'" in err
    assert os.listdir(tmp_path) == []


# -- the play page's Add to book -------------------------------------------------------

def test_add_to_book_keeps_the_puzzles_beside_the_pdf_and_refuses_one_not_unique(tmp_path):
    out = tmp_path / "mine.pdf"
    assert bk.add_to_book(FILES[2], out) == 1
    assert bk.add_to_book(kn.read(FILES[1]).with_given(kn.kakuro(FILES[1])[0]), out) == 2
    before = out.read_bytes(), (tmp_path / "mine.jsonl").read_text()
    with pytest.raises(kn.PuzzleError, match="not unique"):
        bk.add_to_book(str(PUZZLES / "k3.txt"), out)
    assert (out.read_bytes(), (tmp_path / "mine.jsonl").read_text()) == before
    code, said, _ = run("book", tmp_path / "mine.jsonl", "--out", tmp_path / "again.pdf")
    assert code == 0 and "2 puzzles (2 easy)" in said           # given digits not kept
    assert (tmp_path / "again.pdf").read_bytes() == out.read_bytes()


def test_the_play_page_adds_the_board_to_the_book(tmp_path):
    from kakuro_np.play.game import Game, MoveError
    game = Game()
    with pytest.raises(MoveError, match="start kakuro-np play --book BOOK.pdf"):
        game.add_to_book({})
    game.book = str(tmp_path / "book.pdf")
    with pytest.raises(MoveError, match="not added to the book: .* has no across clue"):
        game.add_to_book({})
    game = Game(kn.read(FILES[2]))
    game.book = str(tmp_path / "book.pdf")
    assert game.add_to_book({})["message"] == "added to book.pdf: 1 puzzle"
    assert len(reader((tmp_path / "book.pdf").read_bytes()).pages) == 3


def test_a_books_grades_are_the_graders_labels_in_order():
    """``printing`` keeps its own copy (the grader is imported only to make a book)."""
    from kakuro_np import grading
    assert bk.GRADES == grading.LABELS
