"""A grid's cells as text: the token of each cell, and the essay's boxes around them.

This sits below ``Puzzle`` and the readers: it reads only a puzzle's arrays and
imports nothing of the package, so ``Puzzle.__str__``, the writers in
``formats`` and the pictures in ``render`` all draw on it without a cycle.

Glossary
--------
token : the text of one cell: a digit, or the text a format gives a blank,
        an inactive cell and a clue.
label : a token in the essay's style: ``x`` inactive, ``_`` blank, ``v h``
        a clue (down sum first), or a digit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import numpy as np

if TYPE_CHECKING:                           # for type checkers: this module imports nothing
    from .puzzle import Puzzle              # of the package at run time


def cell_tokens(puzzle, blank: str, inactive: str, clue, digits=None) -> list:
    """Each row's tokens: a digit, ``blank``, ``inactive`` or ``clue(down, across)``.

    ``digits`` (H, W) fills the blanks (default: the given digits).

    Examples
    --------
    >>> from kakuro_np import Puzzle
    >>> cell_tokens(Puzzle.from_rows([["x", (3, 0)], [(0, 3), "_"]]), "_", "x",
    ...             lambda d, a: f"{d} {a}")
    [['x', '3 0'], ['0 3', '_']]
    """
    digits = puzzle.given if digits is None else np.asarray(digits)
    # the arrays as lists first: a numpy scalar read per cell costs ten times a list's
    return [[(str(int(digit)) if digit else blank) if is_blank else
             (clue(down, across) if down or across else inactive)
             for is_blank, down, across, digit in zip(*row)]
            for row in zip(puzzle.blank.tolist(), puzzle.down.tolist(), puzzle.across.tolist(),
                           digits.tolist())]


def backslash_clue(down: int, across: int) -> str:
    """A clue as ``down\\across``, a side empty when 0, as ``render.pencil`` writes it.

    Examples
    --------
    >>> backslash_clue(16, 0), backslash_clue(0, 7), backslash_clue(29, 17)
    ('16\\\\', '\\\\7', '29\\\\17')
    """
    return f"{down or ''}\\{across or ''}"


def labels(puzzle, digits=None, clue=None) -> list:
    """Each cell's label as nested lists of str; ``digits`` (H, W) fills blanks and
    ``clue(down, across)`` writes a clue (default the essay's ``v h``)."""
    return cell_tokens(puzzle, "_", "x", clue or (lambda down, across: f"{down} {across}"),
                       digits)


def boxed(puzzle: Puzzle, digits: np.ndarray | None = None,
          clue: Callable[[int, int], str] | None = None) -> str:
    """The essay's boxed display of a puzzle, or of a solution given ``digits``;
    ``clue`` as in ``labels`` (``backslash_clue`` for the command line's).

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
    cells = labels(puzzle, digits, clue)
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
