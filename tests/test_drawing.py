"""SVG pictures: valid XML, one <text> per clue sum and per digit, pencil marks, sizes,
and pictures of one step of ``explain``: highlighted cells, struck marks, placed digits."""

import os
import pathlib
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import kakuro_np as kn
from kakuro_np.explanation import explain, replay
from kakuro_np.drawing import HIGHLIGHT, PLACED_INK, STRUCK_INK, SVG_NS, svg, write_svg

SAMPLES = sorted((pathlib.Path(__file__).resolve().parent.parent / "puzzles").glob("k[0-9].txt"))
TEXT, G, PATH = f"{{{SVG_NS}}}text", f"{{{SVG_NS}}}g", f"{{{SVG_NS}}}path"
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


# -- pictures of one step ------------------------------------------------------


def group(root, cls):
    found = [g for g in root.iter(G) if g.get("class") == cls]
    assert len(found) <= 1
    return found[0] if found else None


def squares(d, cell):
    """The (row, col) of each ``M x y h.. v.. h.. z`` square of path data ``d``."""
    assert d.startswith("M") and d.count("M") == d.count("z")
    out = []
    for part in d.split("M")[1:]:
        x, y = part.split("h")[0].split()
        out.append((round(float(y) / cell), round(float(x) / cell)))
    return out


def placed_marks(root, cls, cell):
    """``{((row, col), digit)}`` of the texts in group ``cls``, from where they sit."""
    return {((int(float(t.get("y")) // cell), int(float(t.get("x")) // cell)), int(t.text))
            for t in texts(root, cls)}


def strokes(root, cell):
    """The centre of each ``M x y l dx dy`` stroke of the struck group's path."""
    paths = list(group(root, "struck").iter(PATH))
    assert len(paths) == 1 and paths[0].get("stroke") == STRUCK_INK
    out = []
    for part in paths[0].get("d").split("M")[1:]:
        start, step = part.split("l")
        (x, y), (dx, dy) = map(float, start.split()), map(float, step.split())
        assert dx > 0 > dy  # bottom left to top right
        out.append((x + dx / 2, y + dy / 2))
    return out


def test_highlight_draws_one_square_per_cell_under_the_dark_cells():
    cells = [(1, 1), (2, 2), (1, 2)]
    text = svg(TWIN, highlight=cells, cell=30)
    mask = np.zeros((3, 3), bool)
    mask[1, 1] = mask[2, 2] = mask[1, 2] = True
    assert svg(TWIN, highlight=mask, cell=30) == text
    assert svg(TWIN, highlight=iter(cells), cell=30) == text
    root = parse(text)
    lit = [el for el in root if el.get("class") == "highlight"]
    assert len(lit) == 1 and lit[0].tag == PATH and lit[0].get("fill") == HIGHLIGHT
    assert sorted(squares(lit[0].get("d"), 30)) == sorted(cells)
    order = list(root)
    dark = next(el for el in order if el.tag == PATH and el.get("fill") == "#333333")
    assert order.index(lit[0]) < order.index(dark)  # drawn first, so under everything else
    assert order.index(lit[0]) == 1  # right on the white background
    assert [g.get("class") for g in root.iter(G)] == ["sums", "given", "solved"]


def test_struck_marks_go_to_the_struck_group_each_with_a_stroke():
    cand = np.zeros((3, 3, 9), bool)
    cand[1, 1] = True
    cand[1, 2, [0, 1, 2]] = cand[2, 1, [0, 1]] = cand[2, 2, [0, 1]] = True
    struck = np.zeros((3, 3, 9), bool)
    struck[1, 1, [2, 4, 8]] = struck[1, 2, 2] = True
    struck[2, 1, 5] = True  # not a candidate: nothing to strike
    root = parse(svg(TWIN, candidates=cand, struck=struck, cell=60))
    assert placed_marks(root, "struck", 60) == {((1, 1), 3), ((1, 1), 5), ((1, 1), 9), ((1, 2), 3)}
    assert len(texts(root, "marks")) == 9 + 3 + 2 + 2 - 4
    assert not placed_marks(root, "marks", 60) & placed_marks(root, "struck", 60)
    assert group(root, "struck").get("fill") == STRUCK_INK
    centres = strokes(root, 60)
    assert len(centres) == 4
    size = 0.25 * 60
    for t, (x, y) in zip(texts(root, "struck"), centres):  # each stroke crosses its mark
        assert x == pytest.approx(float(t.get("x")), abs=0.02)
        assert y == pytest.approx(float(t.get("y")) - 0.36 * size, abs=0.02)
    assert [g.get("class") for g in root.iter(G)] == ["sums", "given", "solved", "marks", "struck"]


def test_a_cell_with_struck_candidates_shows_marks_not_a_digit():
    cand = np.zeros((3, 3, 9), bool)
    cand[1, 1, [0, 1]] = True  # keeps 1, loses 2: about to be placed
    cand[1, 2, 2] = True  # loses its lone candidate: a contradiction
    cand[2, 1, 3] = cand[2, 2, 4] = True  # lone candidates, not struck: digits as before
    struck = np.zeros((3, 3, 9), bool)
    struck[1, 1, 1] = struck[1, 2, 2] = True
    root = parse(svg(TWIN, candidates=cand, struck=struck))
    assert placed_marks(root, "marks", 40) == {((1, 1), 1)}
    assert placed_marks(root, "struck", 40) == {((1, 1), 2), ((1, 2), 3)}
    assert sorted(t.text for t in texts(root, "solved")) == ["4", "5"]
    # without the struck marks both cells would be lone candidates, drawn as digits
    root = parse(svg(TWIN, candidates=cand & ~struck))
    assert sorted(t.text for t in texts(root, "solved")) == ["1", "4", "5"]
    # a digit from ``digits`` gives way too, but a given digit never does
    given = TWIN.with_given([[0, 0, 0], [0, 0, 0], [0, 0, 6]])
    cand[2, 2] = False
    cand[2, 2, [5, 6]] = True
    struck[2, 2, 6] = True
    root = parse(svg(given, [[0, 0, 0], [0, 1, 0], [0, 0, 0]], cand, struck=struck))
    assert placed_marks(root, "struck", 40) == {((1, 1), 2), ((1, 2), 3)}
    assert [t.text for t in texts(root, "given")] == ["6"]
    assert sorted(t.text for t in texts(root, "solved")) == ["4"]


def test_placed_digits_are_bold_marks_in_their_own_colour():
    cand = np.zeros((3, 3, 9), bool)
    cand[1:, 1:, [0, 1]] = True
    struck = np.zeros((3, 3, 9), bool)
    struck[1, 1, 1] = struck[2, 1, 0] = True
    placed = np.zeros((3, 3), int)
    placed[1, 1], placed[2, 1] = 1, 2
    root = parse(svg(TWIN, [[0, 0, 0], [0, 1, 0], [0, 0, 0]], cand, struck=struck, placed=placed))
    g = group(root, "placed")
    assert g.get("fill") == PLACED_INK != group(root, "marks").get("fill")
    assert g.get("font-weight") == "bold"
    assert g.get("font-size") == group(root, "marks").get("font-size")
    assert placed_marks(root, "placed", 40) == {((1, 1), 1), ((2, 1), 2)}
    assert placed_marks(root, "struck", 40) == {((1, 1), 2), ((2, 1), 1)}
    assert placed_marks(root, "marks", 40) == {((r, 2), d) for r in (1, 2) for d in (1, 2)}
    assert texts(root, "solved") == []  # (1, 1) shows marks, not the digit 1
    assert [g.get("class") for g in root.iter(G)] == [
        "sums", "given", "solved", "marks", "struck", "placed"]
    # without candidates a placed digit still shows, alone, and there is no marks group
    root = parse(svg(TWIN, placed=placed))
    assert [g.get("class") for g in root.iter(G)] == ["sums", "given", "solved", "placed"]
    assert placed_marks(root, "placed", 40) == {((1, 1), 1), ((2, 1), 2)}
    # placed digits are ignored on given and on dark cells
    everywhere = np.where(placed == 0, 4, placed)
    root = parse(svg(TWIN.with_given([[0, 0, 0], [0, 3, 0], [0, 0, 0]]), placed=everywhere))
    assert [t.text for t in texts(root, "given")] == ["3"]
    assert placed_marks(root, "placed", 40) == {((1, 2), 4), ((2, 1), 2), ((2, 2), 4)}


def test_bad_highlight_struck_and_placed_are_refused():
    with pytest.raises(ValueError, match=r"highlight has shape \(2, 3\), expected \(3, 3\)"):
        svg(TWIN, highlight=np.ones((2, 3), bool))
    with pytest.raises(ValueError, match=r"highlight cell \(1, 3\) is outside"):
        svg(TWIN, highlight=[(1, 1), (1, 3)])
    with pytest.raises(ValueError, match="outside"):
        svg(TWIN, highlight=[(-1, 0)])
    with pytest.raises(ValueError, match=r"highlight must be \(row, col\) pairs"):
        svg(TWIN, highlight=[(1, 1, 1)])
    with pytest.raises(ValueError, match=r"highlight must be \(row, col\) pairs"):
        svg(TWIN, highlight=[(1.5, 1)])
    with pytest.raises(ValueError, match=r"struck has shape \(3, 3, 8\), expected \(3, 3, 9\)"):
        svg(TWIN, candidates=np.ones((3, 3, 9), bool), struck=np.ones((3, 3, 8), bool))
    with pytest.raises(ValueError, match=r"placed has shape \(3, 2\), expected \(3, 3\)"):
        svg(TWIN, placed=np.ones((3, 2), int))
    with pytest.raises(ValueError, match="placed must hold digits 0 to 9"):
        svg(TWIN, placed=np.full((3, 3), 10))


def test_without_a_step_the_picture_is_as_before():
    r = kn.reduce(kn.read(SAMPLES[3]))
    p, cand = r.puzzle, r.candidates
    before = svg(p, candidates=cand)
    assert svg(p, candidates=cand, highlight=None, struck=None, placed=None) == before
    nothing = svg(p, candidates=cand, highlight=[], struck=np.zeros(cand.shape, bool),
                  placed=np.zeros(p.shape, int))
    assert nothing == before
    root = parse(before)
    assert [g.get("class") for g in root.iter(G)] == ["sums", "given", "solved", "marks"]
    assert not any(el.get("class") == "highlight" for el in root.iter())
    # struck digits that are not candidates change nothing either
    assert svg(p, candidates=cand, struck=~cand) == before


def step_picture(steps, i, cell=40):
    """Step ``i`` of ``steps`` drawn on the candidates before it."""
    step = steps[i]
    before = replay(steps.start, steps[:i])
    struck = np.zeros(before.shape, bool)
    for (r, c), digits in step.removed.items():
        struck[r, c, [d - 1 for d in digits]] = True
    placed = np.zeros(before.shape[:2], int)
    for (r, c), d in step.placed.items():
        placed[r, c] = d
    return svg(steps.puzzle, candidates=before, cell=cell, highlight=step.cells, struck=struck,
               placed=placed, title=str(step))


def test_every_step_of_a_real_explanation_draws_its_removals_and_placements(tmp_path):
    steps = explain(SAMPLES[2])
    assert SAMPLES[2].name == "k2.txt" and steps.status == "solved"
    before = steps.start
    for i, step in enumerate(steps):
        text = step_picture(steps, i)
        root = parse(text)
        removed = {(cell, d) for cell, digits in step.removed.items() for d in digits}
        placed = set(step.placed.items())
        assert placed_marks(root, "struck", 40) == removed - placed
        if removed - placed:
            assert len(strokes(root, 40)) == len(removed - placed)
        else:
            assert group(root, "struck") is None
        assert placed_marks(root, "placed", 40) == placed
        lit = [el for el in root.iter(PATH) if el.get("class") == "highlight"]
        assert sorted(squares(lit[0].get("d"), 40)) == sorted(step.cells)
        # every cell the step touches shows its candidates before it, as marks
        touched = set(step.removed) | set(step.placed)
        shown = {m for cls in ("marks", "struck", "placed") for m in placed_marks(root, cls, 40)
                 if m[0] in touched}
        assert shown == {((r, c), d) for r, c in touched for d in range(1, 10)
                         if before[r, c, d - 1]}
        assert not {cell for cell, _ in placed_marks(root, "solved", 40)} & touched
        before = replay(before, [step])
    assert np.array_equal(before, steps.candidates)
    i = next(i for i, s in enumerate(steps) if s.placed and len(s.removed) > 1)
    write_svg(tmp_path / "step.svg", step_picture(steps, i))
    assert parse((tmp_path / "step.svg").read_text(encoding="utf-8")).find(
        f"{{{SVG_NS}}}title").text.startswith(steps[i].technique)


# -- notebooks --------------------------------------------------------------------

def inline(svg_text):
    """The root of a notebook's inline SVG (no XML declaration)."""
    assert svg_text.startswith("<svg ")
    root = ET.fromstring(svg_text)
    assert root.tag == f"{{{SVG_NS}}}svg"
    return root


def test_a_notebook_shows_puzzles_solutions_reductions_and_steps_as_pictures():
    k2 = kn.read(SAMPLES[2])
    assert texts(inline(k2._repr_svg_()), "given") == []
    solved = kn.svg(k2, kn.kakuro(k2)[0])                 # a solved grid: kn.svg
    assert isinstance(solved, str) and texts(parse(solved), "solved")
    assert inline(solved._repr_svg_()).get("width") == parse(solved).get("width")
    r = kn.reduce(SAMPLES[3])
    assert len(texts(inline(r._repr_svg_()), "marks")) > 0
    steps = explain(SAMPLES[2])
    for i in (0, 1, len(steps) - 1):                      # the picture --svg-steps draws
        before = replay(steps.start, steps[:i])
        assert steps[i]._repr_svg_() == svg(k2, None, before, title=str(steps[i]),
                                             highlight=steps[i].cells,
                                             struck=struck_of(k2, steps[i]),
                                             placed=placed_of(k2, steps[i]),
                                             caption=str(steps[i]))._repr_svg_()
    tip = kn.hint(kn.read(pathlib.Path(SAMPLES[2]).parent / "k2-played.pipe"))
    assert tip.technique == "mistake" and texts(inline(tip._repr_svg_()), "given")
    page = ET.fromstring(f"<div>{steps._repr_html_()}</div>")   # HTML a page can hold
    assert len(page.findall("ol/li")) == len(steps) and page.find(f"{{{SVG_NS}}}svg") is not None
    assert steps[0]._replace(reason="")._repr_svg_() is None    # a step made anew: text only


def struck_of(puzzle, step):
    struck = np.zeros(puzzle.shape + (9,), bool)
    for (r, c), digits in step.removed.items():
        struck[r, c, [d - 1 for d in digits]] = True
    return struck


def placed_of(puzzle, step):
    placed = np.zeros(puzzle.shape, np.int8)
    for (r, c), d in step.placed.items():
        placed[r, c] = d
    return placed


def test_steps_that_draw_themselves_still_pickle_and_compare_as_steps():
    import pickle
    steps = explain(SAMPLES[0])
    again = pickle.loads(pickle.dumps(steps))
    assert again == steps and again[3] == tuple(steps[3]) and again.status == steps.status
    assert again[3]._repr_svg_() == steps[3]._repr_svg_()


def test_a_region_sum_is_outlined_and_a_chains_links_are_numbered():
    from test_chains import CHAIN
    from test_regions import REGION
    from kakuro_np.drawing import OUTLINE_INK, step_svg
    steps = explain(kn.parse(REGION))
    i = next(i for i, s in enumerate(steps) if s.technique == "region sum")
    root = parse(step_svg(steps.puzzle, steps[i], replay(steps.start, steps[:i])))
    outline, = [el for el in root.iter(PATH) if el.get("class") == "outline"]
    assert outline.get("stroke") == OUTLINE_INK
    assert outline.get("d") == ("M40 120h40M40 160h40M40 120v40M80 120h40M80 160h40"
                                "M120 120h40M120 160h40M160 120v40")    # the across 12's cells
    steps = explain(kn.parse(CHAIN))
    i = next(i for i, s in enumerate(steps) if s.technique == "chain")
    root = parse(step_svg(steps.puzzle, steps[i], replay(steps.start, steps[:i])))
    labels = [t.text for t in group(root, "labels").iter(TEXT)]
    assert labels[0] == "?" and "6" in ",".join(labels) and len(labels) >= 6
    assert not [el for el in root.iter(PATH) if el.get("class") == "outline"]


def test_a_steps_picture_says_its_reason_under_the_grid_not_only_in_its_title():
    steps = explain(SAMPLES[2])
    root = inline(steps[0]._repr_svg_())
    lines = texts(root, "caption")
    assert " ".join(t.text for t in lines) == str(steps[0])
    assert str(steps[0]).startswith("unique combination: ")
    ys = [float(t.get("y")) for t in lines]
    assert min(ys) > 10 * 40 and float(root.get("height")) > max(ys)    # k2: 10 rows of 40
