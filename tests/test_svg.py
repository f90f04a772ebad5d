"""SVG pictures: valid XML, one <text> per clue sum and per digit, pencil marks, sizes."""

import os
import pathlib
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import kakuro_np as kn
from kakuro_np.svg import SVG_NS, svg, write_svg

SAMPLES = sorted((pathlib.Path(__file__).resolve().parent.parent / "puzzles").glob("k[0-9].txt"))
TEXT, G = f"{{{SVG_NS}}}text", f"{{{SVG_NS}}}g"
TWIN = kn.Puzzle.from_rows([["x", (3, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 3), "_", "_"]])


def parse(text):
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg ')
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == f"{{{SVG_NS}}}svg"
    return root


def texts(root, cls=None):
    """The <text> elements, or those of the group of class ``cls``."""
    if cls is None:
        return list(root.iter(TEXT))
    return [t for g in root.iter(G) if g.get("class") == cls for t in g.iter(TEXT)]


def nonzero_sums(p):
    return int((p.down != 0).sum() + (p.across != 0).sum())


def random_puzzle(n, seed=0):
    """An n x n grid of random runs whose sums are those of random digits (capped at 45)."""
    rng = np.random.default_rng(seed)
    blank = rng.random((n, n)) < 0.7
    blank[0, :] = blank[:, 0] = False
    digits = np.where(blank, rng.integers(1, 10, (n, n)), 0)
    down = np.zeros((n, n), int)
    across = np.zeros((n, n), int)
    for r, c in np.argwhere(~blank):
        down[r, c] = min(_run_total(digits[r + 1:, c]), 45)
        across[r, c] = min(_run_total(digits[r, c + 1:]), 45)
    return kn.Puzzle(blank, down, across), digits


def _run_total(values):
    stop = np.flatnonzero(values == 0)
    return int(values[:stop[0] if stop.size else len(values)].sum())


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_every_sample_parses_with_one_text_per_sum_and_digit(path):
    p = kn.read(path)
    root = parse(svg(p))
    assert len(texts(root)) == len(texts(root, "sums")) == nonzero_sums(p) + int((p.given != 0).sum())
    solution = kn.kakuro(p)[0]
    root = parse(svg(p, solution))
    assert len(texts(root)) == nonzero_sums(p) + int(p.blank.sum())
    assert sorted(t.text for t in texts(root, "solved")) == sorted(str(d) for d in solution[p.blank])


def test_a_clue_with_both_sums_has_two_texts_in_white():
    p = kn.Puzzle.from_rows([["x", (4, 0), "x"], [(0, 3), "_", (11, 0)], [(7, 12), "_", "_"],
                             ["x", "x", "_"]])
    root = parse(svg(p))
    assert sorted(t.text for t in texts(root, "sums")) == ["11", "12", "3", "4", "7"]
    group = next(g for g in root.iter(G) if g.get("class") == "sums")
    assert group.get("fill") == "#ffffff"


def test_down_sum_sits_bottom_left_and_across_top_right_of_the_diagonal():
    p = kn.Puzzle.from_rows([[(10, 20), "x"], ["_", "x"]])
    root = parse(svg(p, cell=40))
    where = {t.text: (float(t.get("x")), float(t.get("y"))) for t in texts(root, "sums")}
    size = 0.3 * 40
    (dx, dy), (ax, ay) = where["10"], where["20"]
    assert dy - 0.36 * size - dx > size  # centre well below the diagonal y = x
    assert ax - (ay - 0.36 * size) > size  # centre well right of it
    assert all(0 < v < 40 for v in (dx, dy, ax, ay))


def test_given_digits_are_bold_and_solved_digits_another_colour():
    p = TWIN.with_given([[0, 0, 0], [0, 1, 0], [0, 0, 0]])
    root = parse(svg(p, [[0, 0, 0], [0, 0, 2], [0, 2, 1]]))
    given = next(g for g in root.iter(G) if g.get("class") == "given")
    solved = next(g for g in root.iter(G) if g.get("class") == "solved")
    assert [t.text for t in given] == ["1"]
    assert [t.text for t in solved] == ["2", "2", "1"]
    assert given.get("font-weight") == "bold"
    assert given.get("fill") != solved.get("fill")


def test_candidates_add_one_text_per_pencil_mark():
    r = kn.reduce(kn.read(SAMPLES[3]))
    p = r.puzzle
    assert r.status == "stuck"
    root = parse(svg(p, candidates=r.candidates))
    open_cells = p.blank & (r.candidates.sum(axis=2) > 1)
    n_marks = int(r.candidates[open_cells].sum())
    n_lone = int((p.blank & (r.candidates.sum(axis=2) == 1)).sum())
    assert len(texts(root, "marks")) == n_marks > 0
    assert len(texts(root, "solved")) == n_lone > 0
    assert len(texts(root)) == nonzero_sums(p) + n_lone + n_marks


def test_marks_sit_in_keypad_places_inside_their_cell():
    cand = np.zeros((3, 3, 9), bool)
    cand[1, 1] = True  # all nine
    cand[1, 2, [0, 8]] = cand[2, 1, [0, 1]] = cand[2, 2, [0, 1]] = True
    root = parse(svg(TWIN, candidates=cand, cell=90))
    marks = texts(root, "marks")
    assert len(marks) == 9 + 2 + 2 + 2
    nine = [(int(t.text), float(t.get("x")), float(t.get("y"))) for t in marks[:9]]
    assert [d for d, _, _ in nine] == list(range(1, 10))
    xs = sorted({x for _, x, _ in nine})
    ys = sorted({y for _, _, y in nine})
    assert len(xs) == len(ys) == 3
    assert all(90 < v < 180 for v in xs + ys)
    for d, x, y in nine:
        assert (xs.index(x), ys.index(y)) == ((d - 1) % 3, (d - 1) // 3)


def test_decided_cells_get_no_marks():
    cand = np.zeros((3, 3, 9), bool)
    cand[1:, 1:, :2] = True
    digits = np.zeros((3, 3), int)
    digits[1, 1] = 1
    root = parse(svg(TWIN, digits, cand))
    assert [t.text for t in texts(root, "solved")] == ["1"]
    assert len(texts(root, "marks")) == 6


def test_without_candidates_there_is_no_marks_group():
    root = parse(svg(TWIN))
    assert [g.get("class") for g in root.iter(G)] == ["sums", "given", "solved"]


def test_a_30x30_random_puzzle_renders():
    p, digits = random_puzzle(30)
    root = parse(svg(p, digits))
    assert len(texts(root)) == nonzero_sums(p) + int(p.blank.sum())
    root = parse(svg(p, candidates=np.ones((30, 30, 9), bool), cell=24))
    assert len(texts(root, "marks")) == 9 * int(p.blank.sum())
    assert root.get("viewBox").split()[2:] == [root.get("width"), root.get("height")]


def test_size_attributes_follow_the_grid_and_the_cell():
    p, _ = random_puzzle(40, seed=1)
    p = kn.Puzzle(p.blank[:, :35], p.down[:, :35], p.across[:, :35])
    for cell in (10, 40, 12.5):
        root = parse(svg(p, cell=cell))
        width, height = float(root.get("width")), float(root.get("height"))
        x0, y0, vw, vh = (float(v) for v in root.get("viewBox").split())
        assert (vw, vh) == (width, height)
        assert width == pytest.approx(35 * cell, rel=0.01) and width > 35 * cell
        assert height == pytest.approx(40 * cell, rel=0.01) and height > 40 * cell
        assert x0 == y0 == pytest.approx(-(width - 35 * cell) / 2)


def test_bad_cell_sizes_and_shapes_are_refused():
    with pytest.raises(ValueError, match="cell"):
        svg(TWIN, cell=0)
    with pytest.raises(ValueError, match="candidates"):
        svg(TWIN, candidates=np.ones((3, 3, 8), bool))
    with pytest.raises(ValueError, match="digits"):
        svg(TWIN, digits=np.ones((3, 2), int))


def test_title_is_escaped():
    title = 'Tom & Jerry\'s <"puzzle"> ]]>'
    text = svg(TWIN, title=title)
    assert "<\"puzzle\">" not in text and "&amp;" in text and "&lt;" in text
    assert parse(text).find(f"{{{SVG_NS}}}title").text == title


def test_write_svg_is_atomic_and_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "p.svg"
    write_svg(target, svg(TWIN))
    assert parse(target.read_text(encoding="utf-8")) is not None
    os.chmod(target, 0o600)
    write_svg(str(target), "<svg/>")
    assert target.read_text(encoding="utf-8") == "<svg/>"
    assert os.stat(target).st_mode & 0o777 == 0o600
    with pytest.raises(TypeError):
        write_svg(target, b"bytes are not text")
    assert target.read_text(encoding="utf-8") == "<svg/>"
    assert os.listdir(tmp_path) == ["p.svg"]
