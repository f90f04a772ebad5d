"""kakuro_np.tokens: each cell's token as text, and the essay's boxes drawn around them."""

import numpy as np
from hypothesis import given, settings

import kakuro_np as kn
from conftest import examples
from kakuro_np.tokens import backslash_clue, boxed, cell_tokens, labels
from strategies import filled_puzzles

#: One solution (9 1 / 7 2); the 1 at (1, 2) is given.
SMALL = kn.Puzzle.from_rows([["x", (16, 0), (3, 0)], [(0, 10), "_", 1], [(0, 9), "_", "_"]])
SOLUTION = np.array([[0, 0, 0], [0, 9, 1], [0, 7, 2]])


def test_cell_tokens_uses_the_formats_words_for_each_kind_of_cell():
    tokens = cell_tokens(SMALL, ".", "#", lambda d, a: f"{d},{a}")
    assert tokens == [["#", "16,0", "3,0"], ["0,10", ".", "1"], ["0,9", ".", "."]]


def test_cell_tokens_hands_the_clue_writer_plain_ints_down_first():
    seen = []
    cell_tokens(SMALL, "_", "x", lambda d, a: seen.append((d, a)) or "c")
    assert seen == [(16, 0), (3, 0), (0, 10), (0, 9)]
    assert all(type(v) is int for pair in seen for v in pair)


def test_digits_replace_the_given_ones_in_blank_cells_only():
    tokens = cell_tokens(SMALL, "_", "x", backslash_clue, digits=SOLUTION)
    assert tokens == [["x", "16\\", "3\\"], ["\\10", "9", "1"], ["\\9", "7", "2"]]
    cleared = cell_tokens(SMALL, "_", "x", backslash_clue, digits=np.zeros((3, 3), int))
    assert cleared[1][1:] == ["_", "_"]                   # the given 1 is not drawn either
    noisy = SOLUTION.copy()
    noisy[0, 0] = noisy[1, 0] = 5                         # digits outside the blanks: unread
    assert cell_tokens(SMALL, "_", "x", backslash_clue, digits=noisy) == tokens


def test_digits_may_be_nested_lists():
    assert labels(SMALL, SOLUTION.tolist()) == labels(SMALL, SOLUTION)


def test_backslash_clue_leaves_an_empty_side_empty():
    assert [backslash_clue(16, 0), backslash_clue(0, 7), backslash_clue(29, 17),
            backslash_clue(45, 45)] == ["16\\", "\\7", "29\\17", "45\\45"]


def test_labels_are_the_essays():
    assert labels(SMALL) == [["x", "16 0", "3 0"], ["0 10", "_", "1"], ["0 9", "_", "_"]]
    assert labels(SMALL, clue=lambda d, a: f"{d}/{a}")[0] == ["x", "16/0", "3/0"]


def test_boxed_pads_each_column_to_its_widest_label():
    assert boxed(SMALL) == "\n".join([
        "┌────┬────┬───┐",
        "│x   │16 0│3 0│",
        "├────┼────┼───┤",
        "│0 10│_   │1  │",
        "├────┼────┼───┤",
        "│0 9 │_   │_  │",
        "└────┴────┴───┘"])


def test_boxed_draws_a_solution_with_the_command_lines_clues():
    assert boxed(SMALL, SOLUTION, backslash_clue) == "\n".join([
        "┌───┬───┬──┐",
        "│x  │16\\│3\\│",
        "├───┼───┼──┤",
        "│\\10│9  │1 │",
        "├───┼───┼──┤",
        "│\\9 │7  │2 │",
        "└───┴───┴──┘"])


def test_a_single_cell_grid_is_one_box():
    assert boxed(kn.Puzzle([[False]], [[0]], [[0]])) == "┌─┐\n│x│\n└─┘"


def test_a_puzzle_prints_as_its_boxes():
    assert str(SMALL) == boxed(SMALL)


def read_label(label: str):
    """A label read back: ``("x",)``, ``("_",)``, ``("digit", d)`` or ``("clue", down, across)``."""
    if label in ("x", "_"):
        return (label,)
    if label.isdigit():
        return ("digit", int(label))
    down, across = label.split()
    return ("clue", int(down), int(across))


@settings(max_examples=examples(60))
@given(filled_puzzles())
def test_labels_say_every_cell_as_it_is_and_read_back(case):
    puzzle, fill = case
    for digits in (None, fill):
        shown = puzzle.given if digits is None else fill
        for r, row in enumerate(labels(puzzle, digits)):
            assert len(row) == puzzle.shape[1]
            for c, label in enumerate(row):
                if puzzle.blank[r, c]:
                    want = ("digit", int(shown[r, c])) if shown[r, c] else ("_",)
                elif puzzle.inactive[r, c]:
                    want = ("x",)
                else:
                    want = ("clue", int(puzzle.down[r, c]), int(puzzle.across[r, c]))
                assert read_label(label) == want


@settings(max_examples=examples(60))
@given(filled_puzzles())
def test_boxed_is_a_grid_of_aligned_lines_holding_the_labels(case):
    puzzle, fill = case
    H, W = puzzle.shape
    lines = boxed(puzzle, fill).splitlines()
    assert len(lines) == 2 * H + 1
    assert len({len(line) for line in lines}) == 1
    cells = labels(puzzle, fill)
    for r in range(H):
        assert [t.strip() for t in lines[2 * r + 1].split("│")[1:-1]] == cells[r]
        assert lines[2 * r + 1].count("│") == W + 1
