"""Layouts: which cells of a grid are blank, with the look of published puzzles.

A layout is an ``(H, W)`` bool array, True on blank cells. A well-formed one
has no blank in its top row or left column (they hold the clues), every run 2
to 9 cells long (1 to 9 with ``min_run=1``), its blank cells in one
4-connected region, and a symmetry.

Glossary
--------
interior : the cells below the top row and right of the left column.
orbit    : the cells a symmetry maps onto each other; a symmetric layout makes
           each orbit all blank or all black, so every change is made orbit-wide.
symmetry : "rotational" (180 degrees about the interior's centre), "mirror"
           (left to right) or "none".
density  : the share of interior cells that are blank.
run length : per blank cell, the length of its across or down run.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np
from numba import types

from .engine.core.jit import NO_DEADLINE, kernel
from .errors import PuzzleError, SolveTimeout

SYMMETRIES = ("rotational", "mirror", "none")
#: The blank share of published grids' interiors: 0.73 at the median, 0.62-0.81 from the
#: 5th to the 95th percentile (999 puzzles of a public collection).
DEFAULT_DENSITY = 0.7


def orbits(H, W, symmetry):
    """``(H, W)`` int: an orbit id per interior cell (-1 on the top row and left column).

    Examples
    --------
    >>> orbits(3, 4, "rotational")
    array([[-1, -1, -1, -1],
           [-1,  0,  1,  2],
           [-1,  2,  1,  0]])
    """
    if symmetry not in SYMMETRIES:
        raise ValueError(f"symmetry must be one of {', '.join(SYMMETRIES)}, got {symmetry!r}")
    ids = np.arange((H - 1) * (W - 1)).reshape(H - 1, W - 1)
    if symmetry == "rotational":
        ids = np.minimum(ids, ids[::-1, ::-1])
    elif symmetry == "mirror":
        ids = np.minimum(ids, ids[:, ::-1])
    out = np.full((H, W), -1, np.int64)
    out[1:, 1:] = np.unique(ids, return_inverse=True)[1].reshape(ids.shape)
    return out


def run_lengths(blank):
    """``(across, down)``: per blank cell, the length of its run each way (0 elsewhere).

    Examples
    --------
    >>> across, down = run_lengths(np.array([[0, 1, 1, 0, 1]], bool))
    >>> across.tolist(), down.tolist()
    ([[0, 2, 2, 0, 1]], [[0, 1, 1, 0, 1]])
    """
    def along_rows(b):
        run, _ = row_runs(b)
        size = np.bincount(run.ravel())
        size[0] = 0
        return size[run]
    blank = np.asarray(blank, bool)
    return along_rows(blank), along_rows(blank.T).T


def row_runs(blank):
    """``(run, starts)``: each blank cell's across run, numbered from 1 in row-major order
    (0 off the blanks), and the cells where runs start.

    Examples
    --------
    >>> run, starts = row_runs(np.array([[0, 1, 1, 0, 1]], bool))
    >>> run.tolist(), starts.nonzero()[1].tolist()
    ([[0, 1, 1, 0, 2]], [1, 4])
    """
    starts = blank & ~np.pad(blank, ((0, 0), (1, 0)))[:, :-1]
    return np.cumsum(starts.ravel()).reshape(blank.shape) * blank, starts


#: The types the layout's checks call ``label_regions`` with (see ``ahead``).
REGIONS_TYPES = (types.boolean[:, ::1],)


@kernel
def label_regions(blank):
    """``(labels, sizes)``: the 4-connected regions of blank cells, numbered from 0 (-1 off
    the blanks), and each region's size."""
    H, W = blank.shape
    labels = np.full((H, W), -1, np.int64)
    sizes = np.zeros(H * W, np.int64)
    stack = np.empty(H * W, np.int64)
    n = 0
    for start in range(H * W):
        if not blank.flat[start] or labels.flat[start] >= 0:
            continue
        labels.flat[start] = n
        top = 1
        stack[0] = start
        while top > 0:
            top -= 1
            c = stack[top]
            sizes[n] += 1
            r, q = c // W, c % W
            for dr, dq in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                rr, qq = r + dr, q + dq
                if 0 <= rr < H and 0 <= qq < W and blank[rr, qq] and labels[rr, qq] < 0:
                    labels[rr, qq] = n
                    stack[top] = rr * W + qq
                    top += 1
        n += 1
    return labels, sizes[:n]


def set_orbit(blank, orbit, cell, value):
    """Make ``cell``'s whole orbit blank (``value`` True) or black."""
    blank[orbit == orbit[cell]] = value


def fix_one(blank, orbit, rng, min_run, grow):
    """Fix one run that is too short or too long; False when every run is well-formed.

    A run shorter than ``min_run`` (a lone cell) is blacked out, or, with
    ``grow`` and a coin's say, made longer into a black neighbour on its line;
    a run over 9 is split by a black cell that leaves both parts long enough.
    """
    across, down = run_lengths(blank)
    for lengths, axis in ((across, 1), (down, 0)):
        short = np.argwhere((lengths > 0) & (lengths < min_run))
        if len(short):
            r, c = short[rng.integers(len(short))]
            step = np.array((0, 1) if axis == 1 else (1, 0))
            ends = [tuple(x) for x in (np.array((r, c)) - step, np.array((r, c)) + step)
                    if 1 <= x[0] < blank.shape[0] and 1 <= x[1] < blank.shape[1]
                    and not blank[tuple(x)]]
            if grow and ends and rng.random() < 0.5:
                set_orbit(blank, orbit, ends[rng.integers(len(ends))], True)
            else:
                set_orbit(blank, orbit, (r, c), False)
            return True
    for lengths, axis in ((across, 1), (down, 0)):
        long = np.argwhere(lengths > 9)
        if len(long):
            r, c = long[rng.integers(len(long))]
            line = blank[r] if axis == 1 else blank[:, c]
            at = c if axis == 1 else r
            first = at
            while first > 0 and line[first - 1]:
                first -= 1
            n = lengths[r, c]
            cut = first + rng.integers(min_run, n - min_run)     # both parts >= min_run
            set_orbit(blank, orbit, (r, cut) if axis == 1 else (cut, c), False)
            return True
    return False


def well_formed(blank, orbit, min_run=2):
    """True when ``blank`` obeys every layout rule: no blank on the top row or left column,
    runs ``min_run`` to 9 long, one connected region, each orbit all blank or all black.

    Examples
    --------
    >>> b = np.zeros((3, 3), bool); b[1:, 1:] = True
    >>> well_formed(b, orbits(3, 3, "rotational")), well_formed(b[:2], orbits(2, 3, "none"))
    (True, False)
    """
    blank = np.asarray(blank, bool)
    if blank[0].any() or blank[:, 0].any() or not blank.any():
        return False
    across, down = run_lengths(blank)
    for lengths in (across, down):
        if ((lengths > 0) & ((lengths < min_run) | (lengths > 9))).any():
            return False
    _, sizes = label_regions(blank)
    if len(sizes) != 1:
        return False
    ids = orbit[1:, 1:].ravel()
    blanks = np.bincount(ids, blank[1:, 1:].ravel(), minlength=ids.max() + 1)
    return bool(np.all((blanks == 0) | (blanks == np.bincount(ids))))


def keep_largest_region(blank, orbit):
    """Black out every region but the largest; False when that breaks the symmetry (the
    largest region's image under it is another region)."""
    labels, sizes = label_regions(blank)
    if len(sizes) == 0:
        return False
    keep = labels == int(np.argmax(sizes))
    ids = orbit[1:, 1:].ravel()
    kept = np.bincount(ids, keep[1:, 1:].ravel(), minlength=ids.max() + 1)
    if not np.all((kept == 0) | (kept == np.bincount(ids))):
        return False
    blank &= keep
    return True


#: The widest all-black square a layout may hold inside the clue row and column, and the
#: largest 4-connected black region there, as a share of those cells: published grids
#: (999, a public collection) have no 3x3 black square, and their largest black region is
#: 3.5% of the grid at the median, 9.1% at the 95th percentile.
WIDEST_BLACK, LARGEST_BLACK = 2, 0.10


class LayoutFigures(NamedTuple):
    """How a layout looks, inside its clue row and column (the interior).

    blank_share  : the share of interior cells that are blank (published: 0.62-0.81).
    black_region : the largest 4-connected region of black interior cells, as a share of
                   the interior (published: 3.5% median, 9.1% at the 95th percentile).
    black_square : the side of the widest all-black square in the interior, 0 when no
                   cell is black (published: 1 at the median, at most 3).
    """
    blank_share: float
    black_region: float
    black_square: int


def layout_figures(blank) -> LayoutFigures:
    """The ``LayoutFigures`` of a layout (or a Puzzle's ``blank``).

    Examples
    --------
    >>> b = np.ones((5, 5), bool); b[0] = b[:, 0] = False; b[3:, 3:] = False
    >>> layout_figures(b)
    LayoutFigures(blank_share=0.75, black_region=0.25, black_square=2)
    """
    black = ~np.asarray(blank, bool)[1:, 1:]
    _, sizes = label_regions(black)
    return LayoutFigures(float(1 - black.mean()), float(sizes.max(initial=0) / black.size),
                         widest_square(black))


def widest_square(cells) -> int:
    """The side of the widest square of True cells in a 2-D bool array.

    >>> widest_square(np.array([[1, 1, 0], [1, 1, 1], [0, 1, 1]], bool))
    2
    """
    corner = np.asarray(cells, bool)       # corner[i, j]: a square of side k starts here
    side = 0
    while corner.any():
        side += 1
        corner = corner[:-1, :-1] & corner[1:, :-1] & corner[:-1, 1:] & corner[1:, 1:]
    return side


def make_layout(H, W, rng, density=DEFAULT_DENSITY, symmetry="rotational", min_run=2,
                tries=50, *, deadline=NO_DEADLINE):
    """A well-formed layout of about ``density``, drawn with ``rng``, that looks published:
    black cells spread out, no all-black square wider than WIDEST_BLACK and no black
    region over LARGEST_BLACK of the interior.

    It starts from a blank interior and blacks out one orbit at a time (``carve``), at
    a cell drawn with a weight that grows with the runs it cuts and falls beside other
    black cells, while the blank share is above ``density`` or a run is over 9 long.
    A cut that would leave a run shorter than ``min_run`` is not made, nor one that would
    split the blank cells or break the two rules above. When a run over 9 is left that
    no such cut shortens, the next cut blacks out the short runs it leaves too
    (``black_out_short_runs``). When no cut is left to make, the layout is
    kept if its runs are at most 9 long (denser than asked: small grids), else drawn
    again. Past ``deadline`` (monotonic ns, looked at before every cut) it stops with
    SolveTimeout; the deadline never changes a cut, so the same ``rng`` gives the same
    layout.

    Examples
    --------
    >>> b = make_layout(12, 12, np.random.default_rng(1))
    >>> well_formed(b, orbits(12, 12, "rotational")), bool(0.62 <= b[1:, 1:].mean() <= 0.81)
    (True, True)
    >>> f = layout_figures(b); f.black_square <= WIDEST_BLACK and f.black_region <= LARGEST_BLACK
    True
    """
    check_layout_args(H, W, density, min_run)
    orbit = orbits(H, W, symmetry)
    inside = (H - 1) * (W - 1)
    for _ in range(tries):
        blank = carve(orbit, rng, density, min_run, deadline)
        if blank is not None:
            return blank
    why = ("a grid this small has few layouts with runs of 2 or more: try a density of 1, "
           "or a larger grid" if inside <= 16 else "try a higher density")
    raise PuzzleError(f"no {H}x{W} layout of density {density} with {symmetry} symmetry "
                      f"found in {tries} tries; {why}")


def carve(orbit, rng, density, min_run, deadline=NO_DEADLINE):
    """One try of ``make_layout``: the layout, or None when the cuts ran out first;
    SolveTimeout once ``deadline`` (monotonic ns) has passed."""
    blank = orbit >= 0
    tried = np.zeros(orbit.max() + 1, bool)         # orbits refused since the last cut
    cascade = False                                 # cuts black out the short runs they leave
    while True:
        on_time(deadline)
        across, down = run_lengths(blank)
        longest = np.maximum(across, down)
        if blank[1:, 1:].mean() <= density and longest.max() <= 9:
            return blank if well_formed(blank, orbit, min_run) else None
        weight = longest.astype(float) ** 2 * ~tried[np.maximum(orbit, 0)] * blank
        if longest.max() > 9:                        # cut the runs over 9 first
            weight *= longest > 9
        black = ~blank
        black[0] = black[:, 0] = False
        beside = np.zeros_like(black)
        beside[1:] |= black[:-1]
        beside[:-1] |= black[1:]
        beside[:, 1:] |= black[:, :-1]
        beside[:, :-1] |= black[:, 1:]
        weight[beside] *= 0.2
        weight[squares_completed(black)] *= 0.1     # a 2x2 black square: rarely
        total = weight.sum()
        if total <= 0 and longest.max() > 9 and not cascade:    # no plain cut left: with
            cascade, tried[:] = True, False                      # short runs blacked out
            continue
        if total <= 0:                               # no cut left: denser than asked
            return blank if longest.max() <= 9 and well_formed(blank, orbit, min_run) else None
        cell = np.unravel_index(rng.choice(blank.size, p=weight.ravel() / total), blank.shape)
        trial = blank.copy()
        set_orbit(trial, orbit, cell, False)
        if cascade:
            black_out_short_runs(trial, orbit, min_run)
        if trial.any() and cut_allowed(trial, min_run):
            blank, tried[:], cascade = trial, False, False
        else:
            tried[orbit[cell]] = True


def on_time(deadline):
    """SolveTimeout once ``deadline`` (monotonic ns; NO_DEADLINE: never) has passed.

    >>> on_time(NO_DEADLINE)
    """
    if deadline != NO_DEADLINE and time.monotonic_ns() > deadline:
        raise SolveTimeout("timed out while drawing a layout")


def black_out_short_runs(blank, orbit, min_run):
    """Black out (orbit-wide) every run shorter than ``min_run``, until none is left: a cut
    in a 3-cell column's middle takes the whole column.

    >>> b = np.zeros((4, 4), bool); b[1:, 1:] = True; b[2, 1] = False
    >>> black_out_short_runs(b, orbits(4, 4, "none"), 2); b.astype(int).tolist()
    [[0, 0, 0, 0], [0, 0, 1, 1], [0, 0, 1, 1], [0, 0, 1, 1]]
    """
    while True:
        short = np.argwhere(short_run_cells(blank, min_run))
        if not len(short):
            return
        for cell in short:
            set_orbit(blank, orbit, tuple(cell), False)


def short_run_cells(blank, min_run):
    """The blank cells of a run (either way) shorter than ``min_run``.

    >>> short_run_cells(np.array([[0, 1, 1, 0, 1]], bool), 2).astype(int).tolist()
    [[0, 1, 1, 0, 1]]
    """
    across, down = run_lengths(blank)
    return ((across > 0) & (across < min_run)) | ((down > 0) & (down < min_run))


def squares_completed(black):
    """The cells whose cut would complete a 2x2 square of ``black`` cells (three of its
    cells black already).

    >>> squares_completed(np.array([[1, 1, 0], [1, 0, 0]], bool)).astype(int).tolist()
    [[0, 0, 0], [0, 1, 0]]
    """
    pad = np.pad(black, 1)
    H, W = black.shape
    out = np.zeros_like(black)
    for dr in (0, 1):                     # the square's top-left is (r - dr, c - dc)
        for dc in (0, 1):
            three = np.ones_like(black)
            for sr in (0, 1):
                for sc in (0, 1):
                    if (sr, sc) != (dr, dc):
                        three &= pad[1 - dr + sr:1 - dr + sr + H, 1 - dc + sc:1 - dc + sc + W]
            out |= three
    return out & ~black


def cut_allowed(blank, min_run) -> bool:
    """Whether a layout after a cut keeps the rules ``carve`` keeps: runs of ``min_run`` or
    more, its blank cells in one region, no black square wider than WIDEST_BLACK, no
    black region over LARGEST_BLACK of the cells inside the clue row and column (one
    cell at least)."""
    if short_run_cells(blank, min_run).any():
        return False
    black = ~blank[1:, 1:]
    if widest_square(black) > WIDEST_BLACK:
        return False
    _, sizes = label_regions(black)
    if sizes.max(initial=0) > max(int(LARGEST_BLACK * black.size), 1):
        return False
    _, sizes = label_regions(blank)
    return len(sizes) == 1


def checked_layout(layout, min_run=2) -> np.ndarray:
    """A writer's layout as an ``(H, W)`` bool array (True: a cell to fill; row 0 and
    column 0 hold the clues), or a PuzzleError naming the first cell that breaks a rule:
    a blank on the clue row or column, a run shorter than ``min_run`` or over 9.

    ``layout`` may be a bool or 0/1 array, nested lists of them, or a Puzzle (its
    pattern; its sums are not read).

    Examples
    --------
    >>> checked_layout([[0, 0, 0], [0, 1, 1], [0, 1, 1]]).sum()
    np.int64(4)
    >>> checked_layout([[0, 0, 0], [0, 1, 1], [0, 1, 0]])
    Traceback (most recent call last):
    ...
    kakuro_np.errors.PuzzleError: cell (2, 1): a run of 1 cell across: runs hold 2 to 9 cells
    """
    from .puzzle import Puzzle, check_size
    blank = layout.blank if isinstance(layout, Puzzle) else np.asarray(layout)
    if blank.ndim != 2 or blank.size == 0 or not (
            blank.dtype == bool or np.issubdtype(blank.dtype, np.integer)
            and np.isin(blank, (0, 1)).all()):
        raise PuzzleError("a layout is a 2-D array of True (a cell to fill) and False, "
                          f"got {np.shape(blank)} of {blank.dtype}")
    blank = blank.astype(bool)
    check_size(*blank.shape)
    if not blank.any():
        raise PuzzleError("the layout has no cell to fill")
    edge = np.argwhere(blank[:1]).tolist() + np.argwhere(blank[:, :1]).tolist()
    if edge:
        raise PuzzleError("a cell to fill on the top row or left column, where the clues go",
                          cell=tuple(min(edge)))
    across, down = run_lengths(blank)
    for lengths, way in ((across, "across"), (down, "down")):
        bad = np.argwhere((lengths > 0) & ((lengths < min_run) | (lengths > 9)))
        if len(bad):
            r, c = bad[0]
            n = int(lengths[r, c])
            raise PuzzleError(f"a run of {n} cell{'s' * (n != 1)} {way}: runs hold "
                              f"{min_run} to 9 cells", cell=(int(r), int(c)))
    return blank


def read_layout(source, format=None) -> np.ndarray:
    """A writer's layout from a file (a path) or its text: any puzzle file (its pattern is
    kept, its sums and digits ignored), or a picture of lines of ``#`` (a black cell)
    and ``.`` (a cell to fill), the clue row and column included (``formats.picture``).
    Either is refused, with a PuzzleError, as soon as it shows a grid larger than
    ``Puzzle.MAX_SIDE``.

    Examples
    --------
    >>> read_layout("####\\n#..#\\n#...\\n").astype(int).tolist()
    [[0, 0, 0, 0], [0, 1, 1, 0], [0, 1, 1, 1]]
    """
    from .formats import MAX_TEXT, decode, parse
    from .formats.picture import read_picture
    name, data = _named(source), source
    if name is not None:
        try:
            with open(source, "rb") as f:
                data = f.read(MAX_TEXT + 1)
        except OSError as e:
            raise PuzzleError(f"cannot read file: {e.strerror}", source=name) from None
    try:
        text = decode(data)                   # refuses over 16 MiB, as every reader does
        blank = read_picture(text) if format is None else None
        return parse(text, format).blank if blank is None else blank
    except PuzzleError as e:
        if "cannot tell the format" in e.message:
            raise PuzzleError("neither a puzzle file nor a picture of # (black) and . (to "
                              "fill) lines", source=name) from None
        raise (e.with_source(name) if name is not None and e.source is None else e) from None


def _named(source):
    """A file's name for an error, None for text."""
    return None if isinstance(source, str) and "\n" in source else str(source)


def check_layout_args(H, W, density, min_run):
    """Raise a clear error for sizes, densities and run lengths no layout can have."""
    if not (isinstance(H, (int, np.integer)) and isinstance(W, (int, np.integer))) or H < 3 or W < 3:
        raise PuzzleError(f"a generated grid needs at least 3 rows and 3 columns, got {H}x{W}")
    if H > 200 or W > 200:
        raise PuzzleError(f"a generated grid has at most 200 rows and columns, got {H}x{W}")
    if not 0.2 <= density <= 1:
        raise PuzzleError(f"density must be between 0.2 and 1, got {density}")
    if min_run not in (1, 2):
        raise PuzzleError(f"min_run must be 1 or 2, got {min_run}")
