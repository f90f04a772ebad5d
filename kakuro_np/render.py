"""Pictures of puzzles as text: the essay's box drawing and pencil marks.

Glossary
--------
label    : the text of one cell: ``x`` inactive, ``_`` blank, ``v h`` a clue
           (the essay's style, down sum first) or a digit.
kind     : what a cell is: ``INACTIVE``, ``CLUE`` (a down and/or across sum)
           or ``BLANK`` (a cell to fill).
candidates : (H, W, 9) bool, ``candidates[r, c, d - 1]`` while digit ``d`` is
           still possible in cell ``(r, c)`` (as ``reduce`` returns them).
decided  : a blank whose digit is known: given, placed in ``digits`` or the
           only candidate left.
mark     : a pencil mark, one candidate of an undecided blank, drawn in its
           keypad place: 1 2 3 on the top line, 4 5 6 in the middle, 7 8 9 below.
clue text: a clue's sums as ``(down, across)`` strings, ``""`` for a 0 sum.

``boxed`` and ``labels`` live in ``kakuro_np.tokens`` (below ``Puzzle``, which
prints itself with them) and are re-exported here. The helpers ``kinds``,
``clue_text``, ``decided``, ``marks`` and ``keypad`` are shared with ``kakuro_np.drawing``.
"""

from __future__ import annotations

import numpy as np

from .tokens import boxed, labels  # noqa: F401  (re-exported: render is where pictures live)


# -- helpers shared with drawing.py ----------------------------------------------

#: Cell kinds, as ``kinds`` returns them.
INACTIVE, CLUE, BLANK = 0, 1, 2


def kinds(puzzle) -> np.ndarray:
    """(H, W) int8: ``INACTIVE``, ``CLUE`` or ``BLANK`` for each cell.

    Examples
    --------
    >>> from kakuro_np import Puzzle
    >>> kinds(Puzzle.from_rows([["x", (3, 0)], [(0, 3), "_"]])).tolist()
    [[0, 1], [1, 2]]
    """
    out = np.full(puzzle.shape, INACTIVE, np.int8)
    out[(puzzle.down != 0) | (puzzle.across != 0)] = CLUE
    out[puzzle.blank] = BLANK
    return out


def clue_text(puzzle, r, c) -> tuple:
    """``(down, across)`` sums of cell ``(r, c)`` as text, ``""`` where a sum is 0.

    Examples
    --------
    >>> from kakuro_np import Puzzle
    >>> clue_text(Puzzle.from_rows([["x", (3, 0)], [(0, 3), "_"]]), 0, 1)
    ('3', '')
    """
    return tuple(str(int(s)) if s else "" for s in (puzzle.down[r, c], puzzle.across[r, c]))


def _grid_array(puzzle, value, name, depth=()) -> np.ndarray:
    """``value`` as an array of the puzzle's shape (plus ``depth``), or an error."""
    arr = np.asarray(value)
    if arr.shape != puzzle.shape + depth:
        raise ValueError(f"{name} has shape {arr.shape}, expected {puzzle.shape + depth}")
    return arr


def candidate_array(puzzle, candidates) -> np.ndarray:
    """``candidates`` checked to be (H, W, 9) and made bool; ``None`` means none."""
    if candidates is None:
        return np.zeros(puzzle.shape + (9,), bool)
    return _grid_array(puzzle, candidates, "candidates", (9,)).astype(bool)


def decided(puzzle, digits=None, candidates=None) -> np.ndarray:
    """(H, W) int8: the digit of each decided blank, 0 elsewhere.

    A given digit wins, then a nonzero entry of ``digits``, then a lone candidate.

    Examples
    --------
    >>> from kakuro_np import Puzzle
    >>> p = Puzzle.from_rows([["x", (4, 0)], [(0, 3), "_"], [(0, 1), 1]])
    >>> c = np.zeros((3, 2, 9), bool); c[1, 1, 2] = True
    >>> decided(p, candidates=c).tolist()
    [[0, 0], [0, 3], [0, 1]]
    """
    cand = candidate_array(puzzle, candidates)
    lone = cand.sum(axis=2) == 1
    out = np.where(lone, cand.argmax(axis=2) + 1, 0)
    if digits is not None:
        digits = _grid_array(puzzle, digits, "digits")
        out = np.where(digits != 0, digits, out)
    out = np.where(puzzle.given != 0, puzzle.given, out)
    return np.where(puzzle.blank, out, 0).astype(np.int8)


def marks(candidates, r, c) -> list:
    """The digits still possible in cell ``(r, c)``, smallest first.

    Examples
    --------
    >>> c = np.zeros((1, 1, 9), bool); c[0, 0, [0, 5]] = True
    >>> marks(c, 0, 0)
    [1, 6]
    """
    return [int(d) + 1 for d in np.flatnonzero(candidates[r, c])]


def keypad(d) -> tuple:
    """``(row, col)``, each 0-2, of digit ``d`` on a phone keypad (1 top left, 9 bottom right).

    Examples
    --------
    >>> keypad(1), keypad(6), keypad(9)
    ((0, 0), (1, 2), (2, 2))
    """
    return divmod(int(d) - 1, 3)


# -- pencil marks as text ----------------------------------------------------

#: Characters of ``pencil``: an inactive cell's fill and an absent mark.
FILL, ABSENT = "▒", "·"
#: A ``pencil`` cell is CELL_W characters wide and three lines tall.
CELL_W = 5


def _pencil_clue(puzzle, r, c) -> list:
    """Three lines for a clue cell: ``v\\h`` with the ``\\`` in the middle column."""
    down, across = clue_text(puzzle, r, c)
    half = CELL_W // 2
    mid = down.rjust(half) + "\\" + across.ljust(half)
    return [" " * CELL_W, mid, " " * CELL_W]


def _pencil_marks(digits) -> list:
    """Three lines for an undecided blank: its ``digits`` in keypad places."""
    grid = [[ABSENT] * 3 for _ in range(3)]
    for d in digits:
        row, col = keypad(d)
        grid[row][col] = str(d)
    return ["".join(row).center(CELL_W) for row in grid]


def _pencil_digit(d) -> list:
    """Three lines for a decided blank: its digit in the middle."""
    return [" " * CELL_W, str(int(d)).center(CELL_W), " " * CELL_W]


def _pencil_cell(puzzle, kind, known, cand, r, c) -> list:
    """The three lines of cell ``(r, c)``."""
    if kind[r, c] == INACTIVE:
        return [FILL * CELL_W] * 3
    if kind[r, c] == CLUE:
        return _pencil_clue(puzzle, r, c)
    if known[r, c]:
        return _pencil_digit(known[r, c])
    return _pencil_marks(marks(cand, r, c))


def pencil(puzzle, candidates, digits=None) -> str:
    """The grid with pencil marks: three text lines per row of cells.

    A decided blank shows its digit in the middle; an undecided blank shows
    its candidates in keypad places (``·`` where a digit is ruled out, so a
    blank with no candidate left is all dots); a clue shows ``v\\h`` (down sum
    left of the ``\\``, across sum right, either empty when 0); an inactive
    cell is shaded ``▒``. Each cell is five characters wide, so a 10x10 grid
    takes 61 columns.

    Parameters
    ----------
    puzzle : Puzzle
    candidates : array_like of bool, shape (H, W, 9), or None
        ``candidates[r, c, d - 1]`` while ``d`` is possible, e.g.
        ``reduce(puzzle).candidates``; None gives every undecided blank no mark.
    digits : array_like of int, shape (H, W), optional
        Placed digits, 0 = none; given digits are always shown.

    Examples
    --------
    >>> from kakuro_np import Puzzle
    >>> p = Puzzle.from_rows([["x", (4, 0), (13, 0)], [(0, 12), "_", "_"], [(0, 5), "_", "_"]])
    >>> c = np.zeros((3, 3, 9), bool)
    >>> c[1, 1, [2]] = c[1, 2, [8]] = c[2, 1, [0, 3]] = c[2, 2, [3, 4]] = True
    >>> print(pencil(p, c))
    ┌─────┬─────┬─────┐
    │▒▒▒▒▒│     │     │
    │▒▒▒▒▒│ 4\\  │13\\  │
    │▒▒▒▒▒│     │     │
    ├─────┼─────┼─────┤
    │     │     │     │
    │  \\12│  3  │  9  │
    │     │     │     │
    ├─────┼─────┼─────┤
    │     │ 1·· │ ··· │
    │  \\5 │ 4·· │ 45· │
    │     │ ··· │ ··· │
    └─────┴─────┴─────┘
    """
    kind = kinds(puzzle)
    cand = candidate_array(puzzle, candidates)
    known = decided(puzzle, digits, cand)
    rule = "─" * CELL_W
    width = puzzle.shape[1]
    lines = ["┌" + "┬".join([rule] * width) + "┐"]
    for r in range(puzzle.shape[0]):
        if r:
            lines.append("├" + "┼".join([rule] * width) + "┤")
        cells = [_pencil_cell(puzzle, kind, known, cand, r, c) for c in range(width)]
        lines.extend("│" + "│".join(cell[i] for cell in cells) + "│" for i in range(3))
    lines.append("└" + "┴".join([rule] * width) + "┘")
    return "\n".join(lines)
