"""Pictures of puzzles as text: the essay's box drawing.

Glossary
--------
label : the text of one cell: ``x`` inactive, ``_`` blank, ``v h`` a clue
        (the essay's style, down sum first) or a digit.
"""

from __future__ import annotations

import numpy as np


def labels(puzzle, digits=None) -> list:
    """Each cell's label as nested lists of str; ``digits`` (H, W) fills blanks."""
    digits = puzzle.given if digits is None else np.asarray(digits)
    out = []
    for r in range(puzzle.shape[0]):
        row = []
        for c in range(puzzle.shape[1]):
            if puzzle.blank[r, c]:
                row.append(str(int(digits[r, c])) if digits[r, c] else "_")
            elif puzzle.down[r, c] or puzzle.across[r, c]:
                row.append(f"{puzzle.down[r, c]} {puzzle.across[r, c]}")
            else:
                row.append("x")
        out.append(row)
    return out


def boxed(puzzle, digits=None) -> str:
    """The essay's boxed display of a puzzle, or of a solution given ``digits``.

    Examples
    --------
    >>> from kakuro_np import Puzzle
    >>> print(boxed(Puzzle.from_rows([["x", (3, 0)], [(0, 3), "_"]])))
    ┌───┬───┐
    │x  │3 0│
    ├───┼───┤
    │0 3│_  │
    └───┴───┘
    """
    cells = labels(puzzle, digits)
    widths = [max(len(row[c]) for row in cells) for c in range(len(cells[0]))]

    def rule(left, mid, right):
        return left + mid.join("─" * w for w in widths) + right

    lines = [rule("┌", "┬", "┐")]
    for i, row in enumerate(cells):
        if i:
            lines.append(rule("├", "┼", "┤"))
        lines.append("│" + "│".join(t.ljust(w) for t, w in zip(row, widths)) + "│")
    lines.append(rule("└", "┴", "┘"))
    return "\n".join(lines)
