"""Errors raised by kakuro_np.

A contradiction in a well-formed puzzle is an answer (zero solutions), never an
exception; only malformed input and exceeded budgets raise.
"""

from __future__ import annotations


class PuzzleError(ValueError):
    """Malformed puzzle input, with the place it was found.

    Parameters
    ----------
    message : str
        What is wrong, in words a puzzle fan understands.
    line, col : int, optional
        1-based position in a text source.
    cell : tuple of int, optional
        0-based ``(row, col)`` of the grid cell concerned.
    source : str, optional
        File name, prefixed to the message.

    Examples
    --------
    >>> str(PuzzleError("unknown token 'q'", line=3, col=7, source="a.txt"))
    "a.txt:3:7: unknown token 'q'"
    >>> str(PuzzleError("clue has no cells after it", cell=(2, 4)))
    'cell (2, 4): clue has no cells after it'
    """

    def __init__(self, message, *, line=None, col=None, cell=None, source=None):
        self.message = message
        self.line, self.col, self.cell, self.source = line, col, cell, source
        super().__init__(self._render())

    def _render(self) -> str:
        where = []
        if self.source is not None:
            where.append(str(self.source))
        if self.line is not None:
            where.append(str(self.line) + ("" if self.col is None else f":{self.col}"))
        place = ":".join(where)
        if self.cell is not None:
            cell = f"cell ({self.cell[0]}, {self.cell[1]})"
            place = f"{place}: {cell}" if place else cell
        return f"{place}: {self.message}" if place else self.message

    def with_source(self, source) -> "PuzzleError":
        """The same error, naming the file it came from."""
        return PuzzleError(self.message, line=self.line, col=self.col,
                           cell=self.cell, source=source)


class TooManySolutions(RuntimeError):
    """The requested output would pass a budget; ask with ``limit=`` or use ``count()``.

    ``count`` is the number of solutions where it was counted (an int), else None;
    ``at_least`` is a number the count is known to reach (``count`` when known).
    """

    def __init__(self, message, *, count=None, at_least=None):
        super().__init__(message)
        self.count = count
        self.at_least = count if at_least is None else at_least


class SolveTimeout(TimeoutError):
    """The work did not finish within ``timeout=`` seconds."""


class BudgetError(RuntimeError):
    """The puzzle's tables would pass the row budget (``max_rows=``)."""
