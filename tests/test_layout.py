"""Layouts like published grids (``layout.make_layout``), and a writer's own layout filled
to a unique puzzle (``generate(layout=...)``, ``generate --layout``)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from kakuro_np import essay
from kakuro_np.layout import (LARGEST_BLACK, SYMMETRIES, WIDEST_BLACK, checked_layout,
                              layout_figures, make_layout, orbits, read_layout, run_lengths,
                              well_formed, widest_square)
from conftest import PUZZLES, SAMPLES, examples


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(8, 30), st.integers(8, 30), st.floats(0.62, 0.81),
       st.sampled_from(SYMMETRIES), st.integers(0, 2**32 - 1))
def test_layouts_keep_every_rule_and_the_look_of_published_grids(rows, cols, density, symmetry,
                                                                   seed):
    blank = make_layout(rows, cols, np.random.default_rng(seed), density, symmetry)
    assert well_formed(blank, orbits(rows, cols, symmetry))        # runs 2-9, one region
    figures = layout_figures(blank)
    assert figures.black_square <= WIDEST_BLACK and figures.black_region <= LARGEST_BLACK
    orbit_cells = np.bincount(orbits(rows, cols, symmetry)[1:, 1:].ravel()).max()
    assert figures.blank_share >= density - orbit_cells / ((rows - 1) * (cols - 1)) - 1e-9
    across, down = run_lengths(blank)
    assert across.max() <= 9 and down.max() <= 9


def test_the_figures_of_a_layout():
    blank = np.ones((6, 6), bool)
    blank[0] = blank[:, 0] = False
    blank[2:5, 2:5] = False                               # a 3x3 black square inside
    figures = layout_figures(blank)
    assert figures == (16 / 25, 9 / 25, 3)
    assert widest_square(np.zeros((3, 3), bool)) == 0


@pytest.mark.parametrize("size", [10, 15, 20])
def test_generated_puzzles_look_published_at_every_size(size):
    for seed in range(3):
        p = kn.generate(size, size, seed=seed)
        figures = layout_figures(p.blank)
        assert 0.62 <= figures.blank_share <= 0.81, figures
        assert figures.black_square <= WIDEST_BLACK and figures.black_region <= LARGEST_BLACK
        assert kn.count(p, limit=2) == 1


@pytest.mark.parametrize("size", [6, 7, 8])
def test_small_generated_puzzles_have_one_solution_by_an_independent_enumeration(size):
    for seed in range(3):
        p = kn.generate(size, size, seed=seed)
        solutions = essay.kakuro(p)                       # plain numpy, the essay's own
        assert len(solutions) == 1 and np.array_equal(solutions[0], kn.kakuro(p)[0])


@pytest.mark.parametrize("name", SAMPLES)
def test_a_writers_layout_is_filled_to_a_unique_puzzle_on_that_pattern(name):
    path = PUZZLES / name
    pattern = kn.read(path).blank
    p = kn.generate(layout=pattern, seed=1)
    assert np.array_equal(p.blank, pattern) and not p.given.any()
    assert kn.count(p, limit=2) == 1
    if pattern.sum() <= 60:                             # an independent count: the essay's
        assert len(essay.kakuro(p)) == 1
    assert kn.generate(layout=kn.read(path), seed=1) == p    # a Puzzle gives its pattern


@pytest.mark.parametrize("rows, cell, words", [
    ([[0, 0, 0], [1, 1, 1], [0, 1, 1]], (1, 0), "top row or left column"),
    ([[0, 0, 0], [0, 1, 1], [0, 1, 0]], (2, 1), "a run of 1 cell across"),
    ([[0] * 12] + [[0] + [1] * 11] * 2, (1, 1), "a run of 11 cells across"),
])
def test_a_bad_layout_is_a_clear_error_naming_the_cell(rows, cell, words):
    with pytest.raises(kn.PuzzleError, match=words) as e:
        kn.generate(layout=np.array(rows, bool))
    assert e.value.cell == cell


@pytest.mark.parametrize("bad, words", [(np.zeros((3, 3), bool), "no cell to fill"),
                                        (np.full((3, 3), 2), "a 2-D array of True"),
                                        (np.zeros(5, bool), "a 2-D array of True")])
def test_a_layout_that_is_not_one_is_a_clear_error(bad, words):
    with pytest.raises(kn.PuzzleError, match=words):
        checked_layout(bad)


def test_a_layout_fixes_the_size():
    blank = kn.read(PUZZLES / "k0.txt").blank
    with pytest.raises(kn.PuzzleError, match="leave rows and cols out"):
        kn.generate(5, 5, layout=blank)


def test_layouts_are_read_from_puzzle_files_and_pictures(tmp_path):
    picture = tmp_path / "mine.txt"
    picture.write_text("####\n#..#\n#...\n#...\n")
    assert read_layout(picture).astype(int).tolist() == [[0, 0, 0, 0], [0, 1, 1, 0],
                                                         [0, 1, 1, 1], [0, 1, 1, 1]]
    assert np.array_equal(read_layout(PUZZLES / "k2.txt"), kn.read(PUZZLES / "k2.txt").blank)
    (tmp_path / "ragged.txt").write_text("####\n#..\n")
    with pytest.raises(kn.PuzzleError, match=r"ragged.txt:2: a picture's lines are all 4 wide"):
        read_layout(tmp_path / "ragged.txt")
    (tmp_path / "junk.txt").write_text("hello\nworld\n")
    with pytest.raises(kn.PuzzleError, match="neither a puzzle file nor a picture"):
        read_layout(tmp_path / "junk.txt")


def test_the_command_line_fills_a_layout(tmp_path):
    from test_cli import one_line, run
    out = run("generate", "--layout", PUZZLES / "k2.txt", "--seed", "4", "--to", "pipe")
    assert out.returncode == 0, out.stderr
    p = kn.parse(out.stdout)
    assert np.array_equal(p.blank, kn.read(PUZZLES / "k2.txt").blank) and kn.count(p, limit=2) == 1
    out = run("generate", "9", "9", "--layout", PUZZLES / "k2.txt")
    assert out.returncode == 2 and one_line(out) and "leave ROWS and COLS out" in out.stderr
    (tmp_path / "bad.txt").write_text("####\n#...\n#.##\n#.##\n")
    out = run("generate", "--layout", tmp_path / "bad.txt")
    assert out.returncode == 2 and one_line(out) and "cell (2, 1): a run of 1 cell across" in out.stderr
    out = run("generate")
    assert out.returncode == 2 and "give ROWS and COLS, or --layout FILE" in out.stderr


@pytest.mark.parametrize("writers", [False, True])
def test_past_its_timeout_the_generator_says_what_it_was_doing(writers):
    kwargs = dict(layout=kn.read(PUZZLES / "k5.txt")) if writers else dict(rows=20, cols=20)
    with pytest.raises(kn.SolveTimeout, match="making a puzzle unique"):
        kn.generate(seed=3, timeout=1e-6, **kwargs)
