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

import numpy as np

from .engine.core.jit import kernel
from .errors import PuzzleError

SYMMETRIES = ("rotational", "mirror", "none")
#: The density of published grids (about 0.55-0.6 of the interior blank, 10x10 to 20x20).
DEFAULT_DENSITY = 0.6
#: Repairs one layout draw may take before it is drawn again.
MAX_REPAIRS_PER_CELL = 4


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


#: How far a layout's density may be from the one asked for.
DENSITY_SLACK = 0.15


def make_layout(H, W, rng, density=DEFAULT_DENSITY, symmetry="rotational", min_run=2,
                tries=200):
    """A well-formed layout of about ``density``, drawn with ``rng``.

    Each try draws every orbit blank with probability ``density``, fixes the
    runs one at a time (``fix_one``), keeps the largest region, and accepts
    the layout when its density is within 0.15 of the asked one (or above it).

    Examples
    --------
    >>> b = make_layout(9, 9, np.random.default_rng(1))
    >>> well_formed(b, orbits(9, 9, "rotational")), b.shape
    (True, (9, 9))
    """
    check_layout_args(H, W, density, min_run)
    orbit = orbits(H, W, symmetry)
    n_orbits = orbit.max() + 1
    inside = (H - 1) * (W - 1)
    for _ in range(tries):
        blank = np.zeros((H, W), bool)
        blank[1:, 1:] = (rng.random(n_orbits) < density)[orbit[1:, 1:]]
        for _ in range(MAX_REPAIRS_PER_CELL * inside):
            if not fix_one(blank, orbit, rng, min_run, True):
                break
        else:
            continue
        if not keep_largest_region(blank, orbit):
            continue
        if abs(blank[1:, 1:].mean() - density) <= DENSITY_SLACK and well_formed(blank, orbit,
                                                                               min_run):
            return blank
    why = ("a grid this small has few layouts with runs of 2 or more: try a density of 1, "
           "or a larger grid" if inside <= 16 else "try a higher density")
    raise PuzzleError(f"no {H}x{W} layout of density {density} with {symmetry} symmetry "
                      f"found in {tries} tries; {why}")


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
