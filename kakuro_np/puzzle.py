"""The puzzle: three ``(H, W)`` arrays and, optionally, given digits.

Glossary
--------
blank  : (H, W) bool, cells to fill with 1-9.
down   : (H, W) int16, the sum of the run below a clue cell (0 = no clue).
across : (H, W) int16, the sum of the run right of a clue cell (0 = no clue).
given  : (H, W) int8, digits already placed in blank cells (0 = empty).
A cell that is neither blank nor carries a sum is inactive.
"""

from __future__ import annotations

import os
from typing import Sequence, Union

import numpy as np

from .errors import PuzzleError, shown
from .tokens import boxed

#: Tokens ``Puzzle.from_rows`` accepts for an inactive cell and for a blank cell.
INACTIVE_TOKENS = ("x", "X", "\\", None)
BLANK_TOKENS = ("_", "", " ", 0)


class Puzzle:
    """A Kakuro grid as arrays.

    Parameters
    ----------
    blank : array_like of bool, shape (H, W)
    down, across : array_like of int, shape (H, W)
        Clue sums, 0 where there is none. Clue cells must not be blank.
    given : array_like of int, shape (H, W), optional
        Digits placed in blank cells, 0 = empty.

    Examples
    --------
    >>> p = Puzzle.from_rows([["x", (4, 0), (3, 0)],
    ...                       [(0, 3), "_", "_"],
    ...                       [(0, 4), "_", "_"]])
    >>> p.shape, int(p.blank.sum())
    ((3, 3), 4)
    >>> p == Puzzle(p.blank, p.down, p.across)
    True
    """

    __slots__ = ("blank", "down", "across", "given")
    #: The most rows or columns a grid may have; set it higher to allow bigger grids.
    MAX_SIDE = 200

    def __init__(self, blank, down, across, given=None):
        blank = np.asarray(blank, dtype=bool)
        if blank.ndim != 2 or blank.shape[0] == 0 or blank.shape[1] == 0:
            raise PuzzleError(f"a grid must be a non-empty 2-d array, got shape {blank.shape}")
        check_size(*blank.shape)
        arrays = {}
        for name, value in (("down", down), ("across", across), ("given", given)):
            value = np.zeros(blank.shape, np.int64) if value is None else np.asarray(value)
            if value.shape != blank.shape:
                raise PuzzleError(f"{name} has shape {value.shape}, blank has {blank.shape}")
            if value.dtype == bool or not np.issubdtype(value.dtype, np.integer):
                raise PuzzleError(f"{name} must hold whole numbers, not {value.dtype}")
            arrays[name] = value
        for name in ("down", "across"):
            out = (arrays[name] < 0) | (arrays[name] > 45)
            if out.any():                   # (``any`` first: the usual puzzle is quick)
                r, c = (int(i) for i in np.argwhere(out)[0])
                raise PuzzleError(f"{name} sum {shown(arrays[name][r, c])} is outside 1-45",
                                  cell=(r, c))
        down = arrays["down"].astype(np.int16)
        across = arrays["across"].astype(np.int16)
        given_arr = arrays["given"]
        bad = blank & ((down != 0) | (across != 0))
        if bad.any():
            raise PuzzleError("a blank cell cannot hold a clue",
                              cell=tuple(int(i) for i in np.argwhere(bad)[0]))
        if given is not None:               # none given: nothing to check
            _check_given(blank, given_arr)
        for name, value in (("blank", blank), ("down", down), ("across", across),
                            ("given", given_arr.astype(np.int8))):
            object.__setattr__(self, name, _frozen(value))

    def __setattr__(self, name, value):
        raise AttributeError("Puzzle is immutable; build a new one")

    def __delattr__(self, name):
        raise AttributeError("Puzzle is immutable; build a new one")

    def __reduce__(self):
        """Pickled as its four arrays, built again (for process pools)."""
        return Puzzle, (self.blank, self.down, self.across, self.given)

    # -- construction ------------------------------------------------------
    @classmethod
    def from_rows(cls, rows) -> "Puzzle":
        """Build a puzzle from nested rows of cells.

        A cell is ``"x"`` (inactive), ``"_"`` (blank), a digit 1-9 (a blank
        holding a given digit) or a pair ``(down, across)`` of sums, 0 = none.

        Examples
        --------
        >>> Puzzle.from_rows([["x", (3, 0)], [(0, 2), 2]]).given.tolist()
        [[0, 0], [0, 2]]
        """
        try:
            rows = [list(row) for row in rows]
        except TypeError:
            raise PuzzleError("rows must be a list of lists of cells") from None
        if not rows or not rows[0]:
            raise PuzzleError("a grid needs at least one row and one column")
        width = len(rows[0])
        shape = (len(rows), width)
        check_size(*shape)
        blank = np.zeros(shape, bool)
        down = np.zeros(shape, np.int16)
        across = np.zeros(shape, np.int16)
        given = np.zeros(shape, np.int8)
        for r, row in enumerate(rows):
            if len(row) != width:
                raise PuzzleError(f"row {r} has {len(row)} cell{'' if len(row) == 1 else 's'}, "
                                  f"row 0 has {width}", cell=(r, 0))
            for c, cell in enumerate(row):
                kind, value = _classify(cell, (r, c))
                if kind == "blank":
                    blank[r, c] = True
                    given[r, c] = value
                elif kind == "clue":
                    down[r, c], across[r, c] = value
        return cls(blank, down, across, given)

    def to_rows(self) -> list:
        """The inverse of ``from_rows``: ``"x"``, ``"_"``, given digits and ``[down, across]``."""
        out = []
        for r in range(self.shape[0]):
            row = []
            for c in range(self.shape[1]):
                if self.blank[r, c]:
                    row.append(int(self.given[r, c]) or "_")
                elif self.down[r, c] or self.across[r, c]:
                    row.append([int(self.down[r, c]), int(self.across[r, c])])
                else:
                    row.append("x")
            out.append(row)
        return out

    # -- views --------------------------------------------------------------
    @property
    def shape(self) -> tuple:
        """``(H, W)``."""
        return self.blank.shape

    @property
    def inactive(self) -> np.ndarray:
        """(H, W) bool: cells that are neither blank nor clues."""
        return ~self.blank & (self.down == 0) & (self.across == 0)

    def with_given(self, given) -> "Puzzle":
        """The same grid with other given digits (its arrays shared: a Puzzle is immutable).

        >>> p = Puzzle.from_rows([["x", (3, 0)], [(0, 3), "_"]])
        >>> p.with_given([[0, 0], [0, 3]]).given.tolist(), p.with_given(p.given) == p
        ([[0, 0], [0, 3]], True)
        """
        given = np.zeros(self.shape, np.int8) if given is None else np.asarray(given)
        if given.shape != self.shape or not np.issubdtype(given.dtype, np.integer):
            return Puzzle(self.blank, self.down, self.across, given)   # it says what is wrong
        _check_given(self.blank, given)
        new = object.__new__(Puzzle)
        for name in ("blank", "down", "across"):
            object.__setattr__(new, name, getattr(self, name))
        object.__setattr__(new, "given", _frozen(given.astype(np.int8)))
        return new

    def __eq__(self, other):
        if not isinstance(other, Puzzle):
            return NotImplemented
        return (self.shape == other.shape and bool(np.array_equal(self.blank, other.blank))
                and bool(np.array_equal(self.down, other.down))
                and bool(np.array_equal(self.across, other.across))
                and bool(np.array_equal(self.given, other.given)))

    __hash__ = None

    def __repr__(self):
        h, w = self.shape
        extra = f", {int((self.given > 0).sum())} given" if self.given.any() else ""
        return f"<Puzzle {h}x{w}, {int(self.blank.sum())} blanks{extra}>"

    def _repr_svg_(self) -> str:
        """A notebook's view: the puzzle drawn (``svg.svg``), its given digits bold."""
        from .drawing import svg
        return svg(self)._repr_svg_()

    def __str__(self):
        return boxed(self)


def check_size(height: int, width: int, **where) -> None:
    """Raise PuzzleError for a grid with more rows or columns than ``Puzzle.MAX_SIDE``.

    ``where`` (``line=``, ``col=``) places the error in a text, as a header's numbers.
    The readers call it as soon as a text shows the grid's size, before they read a cell.

    Examples
    --------
    >>> check_size(201, 10)
    Traceback (most recent call last):
    ...
    kakuro_np.errors.PuzzleError: the grid is 201x10, larger than the 200x200 allowed (set kakuro_np.Puzzle.MAX_SIDE to allow more)
    """
    if height > Puzzle.MAX_SIDE or width > Puzzle.MAX_SIDE:
        raise too_large(f"the grid is {height}x{width}", **where)


#: The most blank cells a run may hold: its digits differ, and there are nine.
MAX_RUN = 9


def check_run_lengths(blank, place=None) -> None:
    """Raise PuzzleError for a run of more than ``MAX_RUN`` blank cells (``blank``, (H, W)
    bool), the first across run row by row, else the first down run column by column.

    The error names the run's length and its clue cell, left of or above the run (the
    run's first cell where it starts at the grid's edge); ``place(r, c)`` gives that
    cell's place in a text (``line=``, ``col=``). The readers check every grid so;
    a Puzzle may hold longer runs, which the solver refuses.

    Examples
    --------
    >>> check_run_lengths(np.ones((3, 9), bool))
    >>> check_run_lengths(np.ones((2, 12), bool) & (np.arange(12) > 0))
    Traceback (most recent call last):
    ...
    kakuro_np.errors.PuzzleError: cell (0, 0): the across run right of this cell is 11 cells long, longer than 9, so it cannot hold distinct digits
    """
    blank = np.asarray(blank, bool)
    for way, grid in (("across", blank), ("down", blank.T)):
        first, length = _first_long_run(grid)
        if first is None:
            continue
        r, c = first if way == "across" else first[::-1]
        if first[1] == 0:
            cell, said = (r, c), f"the {way} run that starts here"
        else:
            cell = (r, c - 1) if way == "across" else (r - 1, c)
            said = f"the {way} run {'right of' if way == 'across' else 'below'} this cell"
        raise PuzzleError(f"{said} is {length} cells long, longer than {MAX_RUN}, so it "
                          "cannot hold distinct digits", cell=cell,
                          **(place(*cell) if place else {}))


def cells_fine(blank, down, across, given) -> bool:
    """Whether cells of these values (arrays of one shape: ``blank`` bool, the others whole
    numbers) pass every check ``Puzzle`` makes of its cells' values: sums 0-45, no sum on
    a blank cell, given digits 1-9 in blank cells only. ``Puzzle`` names the first cell
    that fails; a reader of many grids asks it of all their cells at once
    (``formats.bulk.from_cells``).

    Examples
    --------
    >>> blank = np.array([False, True])
    >>> cells_fine(blank, np.array([3, 0]), np.array([0, 0]), np.array([0, 3]))
    True
    >>> cells_fine(blank, np.array([3, 0]), np.array([0, 0]), np.array([3, 0]))
    False
    """
    return not (((down < 0) | (down > 45) | (across < 0) | (across > 45)).any()
                or (blank & ((down != 0) | (across != 0))).any()
                or given.any() and (((given != 0) & ~blank).any()
                                    or ((given < 0) | (given > 9)).any()))


def _check_given(blank, given) -> None:
    """A PuzzleError naming the first cell of ``given`` (whole numbers, ``blank``'s shape)
    whose digit is off a blank cell or not 1-9 (``Puzzle`` and ``with_given`` check so)."""
    bad = (given != 0) & ~blank
    if bad.any():                           # (``any`` first: the usual puzzle is quick)
        raise PuzzleError("a given digit must sit in a blank cell",
                          cell=tuple(int(i) for i in np.argwhere(bad)[0]))
    bad = (given < 0) | (given > 9)
    if bad.any():
        r, c = (int(i) for i in np.argwhere(bad)[0])
        raise PuzzleError(f"given digit {shown(given[r, c])} is not 1-9", cell=(r, c))


def _frozen(value) -> np.ndarray:
    """A Puzzle's own copy of ``value``: C-ordered (as the kernels take it), read only."""
    value = np.array(value, order="C")
    value.flags.writeable = False
    return value


def _first_long_run(grid) -> tuple:
    """``((i, j), n)``: the first run of ``grid``'s rows (row-major) longer than ``MAX_RUN``,
    its first cell and length, or ``(None, 0)``."""
    rows, width = grid.shape
    if width <= MAX_RUN:
        return None, 0
    ends = np.zeros((rows, width + 1), np.uint8)      # a 0 after each row: runs end there
    ends[:, :width] = grid
    if b"\x01" * (MAX_RUN + 1) not in ends.tobytes():   # the usual case, found at C speed
        return None, 0
    edges = np.diff(np.pad(grid, ((0, 0), (1, 1))).view(np.int8), axis=1)
    starts = np.argwhere(edges == 1)                   # row-major, as the ends are
    lengths = np.flatnonzero((edges == -1).ravel()) % edges.shape[1] - starts[:, 1]
    over = np.flatnonzero(lengths > MAX_RUN)
    if not over.size:
        return None, 0
    k = int(over[0])
    return (int(starts[k, 0]), int(starts[k, 1])), int(lengths[k])


def too_large(what: str, **where) -> PuzzleError:
    """The error for ``what`` (a grid or a row) that passes ``Puzzle.MAX_SIDE``, for a reader
    to raise when it stops before it knows the grid's size.

    Examples
    --------
    >>> str(too_large("row 1 has more than 200 cells", line=1, col=809))
    '1:809: row 1 has more than 200 cells, larger than the 200x200 allowed (set kakuro_np.Puzzle.MAX_SIDE to allow more)'
    """
    side = Puzzle.MAX_SIDE
    return PuzzleError(f"{what}, larger than the {side}x{side} allowed "
                       f"(set kakuro_np.Puzzle.MAX_SIDE to allow more)", **where)


def _classify(cell, where):
    """``("inactive"|"blank"|"clue", value)`` for one ``from_rows`` cell (shown in errors by
    ``shown``, cut short however large it is)."""
    if isinstance(cell, (str, type(None))):
        text = cell.strip() if isinstance(cell, str) else cell
        if text in INACTIVE_TOKENS:
            return "inactive", None
        if text in BLANK_TOKENS:
            return "blank", 0
        if isinstance(text, str) and len(text) == 1 and text in "123456789":
            return "blank", int(text)
        raise PuzzleError(f"unknown cell '{shown(cell)}': use 'x', '_', a digit or "
                          "(down, across)", cell=where)
    if isinstance(cell, (bool, np.bool_)):
        raise PuzzleError(f"unknown cell {shown(cell)}", cell=where)
    if isinstance(cell, (int, np.integer)):
        if 0 <= cell <= 9:
            return "blank", int(cell)
        raise PuzzleError(f"a digit must be 1-9, got {shown(cell)}", cell=where)
    if isinstance(cell, (tuple, list, np.ndarray)) and len(cell) == 2:
        sums = []
        for value in cell:
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
                raise PuzzleError(f"clue sums must be whole numbers, got {shown(cell)}",
                                  cell=where)
            sums.append(int(value))
        if any(s < 0 or s > 45 for s in sums):
            raise PuzzleError(f"clue sums must be 0-45, got {shown(tuple(sums))}", cell=where)
        return ("clue", tuple(sums)) if any(sums) else ("inactive", None)
    raise PuzzleError(f"unknown cell {shown(cell)}: use 'x', '_', a digit or (down, across)",
                      cell=where)


#: What the public verbs take as a puzzle: a ``Puzzle``, the text of a file in any of the
#: formats, a path to one, or rows of cells as ``Puzzle.from_rows`` reads them.
PuzzleLike = Union[Puzzle, str, "os.PathLike[str]", Sequence[Sequence[object]]]
