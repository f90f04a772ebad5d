"""Hypothesis strategies and independent checkers for random Kakuro puzzles.

A random puzzle is made the way a setter makes one: a random layout of blank
cells, a random valid fill, and the clues read off the fill. Its fill is then
a solution by construction.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import kakuro_np as kn


#: Four independent 4x4 blocks of 10s: 576**4 = 110,075,314,176 solutions, counted at once.
_TOP = ["x"] + [(10, 0)] * 4 + ["x"] + [(10, 0)] * 4
_MID = [(0, 10)] + ["_"] * 4 + [(0, 10)] + ["_"] * 4
FOUR_BLOCKS = [_TOP] + [_MID] * 4 + [_TOP] + [_MID] * 4

#: A fully blank 9x9 block, every clue 45: as many solutions as Latin squares of order 9
#: (about 5.5e27), so a count or a search goes on as long as its limit or timeout says.
OPEN_BLOCK = [["x"] + [(45, 0)] * 9] + [[(0, 45)] + ["_"] * 9 for _ in range(9)]

#: A writer's draft (12x12, 82 blanks, random fill, not yet unique) on which fan-out
#: thrashed: count(limit=2) ran past 20 s before the hunt, CP-SAT answers in about 0.1 s.
THRASHING_DRAFT = r"""\|\|\|13\|19\|\|\|20\|5\|41\|\|\
\|\|44\10|||18\|26\11||||\|\
\|11\40|||||||||40\|\
\10|||37\22|||||\17|||\
\34||||||||\6|||12\
\|11\25||||||\|\20|||
\13||||\|\|25\|19\|22\16|||
\11||||\|19\24||||||6\
\|\8|||\34|||||||
\|\9|||9\26|||||10\3||
\|\|\41|||||||||\
\|\|\16||||\|\11|||\|\
"""


def runs(blank):
    """Every maximal run of blank cells: ``(direction, clue_cell, [cells])``, direction 'a' or 'd'."""
    H, W = blank.shape
    out = []
    for direction, grid in (("a", blank), ("d", blank.T)):
        for i in range(grid.shape[0]):
            j = 0
            while j < grid.shape[1]:
                if not grid[i, j]:
                    j += 1
                    continue
                start = j
                while j < grid.shape[1] and grid[i, j]:
                    j += 1
                cells = [(i, k) if direction == "a" else (k, i) for k in range(start, j)]
                clue = (i, start - 1) if direction == "a" else (start - 1, i)
                out.append((direction, clue, cells))
    return out


def random_fill(blank, rnd):
    """Digits for every blank cell with no repeat in any run, or None if the search gave up."""
    H, W = blank.shape
    cells = list(zip(*np.nonzero(blank)))
    peers = {c: set() for c in cells}
    for _, _, run in runs(blank):
        for a in run:
            peers[a].update(b for b in run if b != a)
    fill = {}
    steps = [0]

    def place(i):
        if i == len(cells):
            return True
        steps[0] += 1
        if steps[0] > 20000:
            return False
        c = cells[i]
        used = {fill[p] for p in peers[c] if p in fill}
        digits = [d for d in range(1, 10) if d not in used]
        rnd.shuffle(digits)
        for d in digits:
            fill[c] = d
            if place(i + 1):
                return True
            del fill[c]
        return False

    if not place(0):
        return None
    out = np.zeros((H, W), np.int8)
    for c, d in fill.items():
        out[c] = d
    return out


def open_grid(side, seed):
    """``(puzzle, fill)``: a ``side`` x ``side`` grid blank inside its clue row and column,
    clued from a random fill: runs of ``side - 1`` cells, big tables, many solutions."""
    blank = np.zeros((side, side), bool)
    blank[1:, 1:] = True
    fill = random_fill(blank, random.Random(seed))
    down, across = np.zeros((side, side), np.int64), np.zeros((side, side), np.int64)
    for direction, clue, cells in runs(blank):
        (across if direction == "a" else down)[clue] = sum(int(fill[c]) for c in cells)
    return kn.Puzzle(blank, down, across, np.zeros((side, side), np.int64)), fill


def independent_blocks(n, given=None):
    """n separate 2x2 blocks whose clues are all 3 (2 solutions each), the first cell of
    block ``given`` holding a 1."""
    rows = [["x"] * (3 * n + 1) for _ in range(3)]
    for b in range(n):
        c = 1 + 3 * b
        rows[0][c] = rows[0][c + 1] = (3, 0)
        rows[1][c - 1] = rows[2][c - 1] = (0, 3)
        rows[1][c] = rows[1][c + 1] = rows[2][c] = rows[2][c + 1] = "_"
    if given is not None:
        rows[1][1 + 3 * given] = 1
    return kn.Puzzle.from_rows(rows)


#: Any cell ``Puzzle.from_rows`` reads; grids of at most 8 a side hold no run longer than 9.
CELLS = st.one_of(st.just("x"), st.just("_"), st.integers(1, 9),
                  st.tuples(st.integers(0, 45), st.integers(0, 45)))
ANY_GRID = st.integers(1, 8).flatmap(lambda w: st.lists(
    st.lists(CELLS, min_size=w, max_size=w), min_size=1, max_size=8)).map(kn.Puzzle.from_rows)


@st.composite
def filled_puzzles(draw, max_side=9, max_blank_share=0.9):
    """``(puzzle, fill)``: a random layout, a random fill and the clues it implies.

    Row 0 and column 0 hold no blanks. Unclued single-cell runs and given digits
    appear at random; every blank keeps a clue one way or the other (a cell no
    clue covers is a PuzzleError).
    """
    H = draw(st.integers(2, max_side))
    W = draw(st.integers(2, max_side))
    share = draw(st.floats(0.3, max_blank_share))
    flags = draw(st.lists(st.floats(0, 1), min_size=(H - 1) * (W - 1),
                          max_size=(H - 1) * (W - 1)))
    blank = np.zeros((H, W), bool)
    blank[1:, 1:] = (np.array(flags) < share).reshape(H - 1, W - 1)
    rnd = draw(st.randoms(use_true_random=False))
    fill = random_fill(blank, rnd)
    if fill is None:
        blank[:] = False
        blank[1, 1] = True
        fill = np.zeros((H, W), np.int8)
        fill[1, 1] = 5
    down = np.zeros((H, W), np.int64)
    across = np.zeros((H, W), np.int64)
    unclued = set()                     # cells whose single-cell run has no clue
    for direction, clue, cells in runs(blank):
        if len(cells) == 1 and cells[0] not in unclued and draw(st.booleans()):
            unclued.add(cells[0])
            continue  # an unclued single-cell run
        total = int(sum(fill[c] for c in cells))
        (across if direction == "a" else down)[clue] = total
    given = np.where(blank & (np.array([draw(st.integers(0, 9)) == 0
                                        for _ in range(H * W)]).reshape(H, W)), fill, 0)
    return kn.Puzzle(blank, down, across, given), fill


def satisfies(puzzle, digits):
    """True if ``digits`` fills every blank with 1-9, keeps the givens and meets every run."""
    digits = np.asarray(digits)
    if not np.all((digits[puzzle.blank] >= 1) & (digits[puzzle.blank] <= 9)):
        return False
    if np.any(digits[~puzzle.blank] != 0):
        return False
    if np.any((puzzle.given != 0) & (digits != puzzle.given)):
        return False
    for direction, clue, cells in runs(puzzle.blank):
        values = [int(digits[c]) for c in cells]
        if len(set(values)) != len(values):
            return False
        total = (puzzle.across if direction == "a" else puzzle.down)[clue] if min(clue) >= 0 else 0
        if total and sum(values) != total:
            return False
    return True


def brute_force_count(puzzle, cap=10**6):
    """Solutions by plain backtracking over cells (an independent count, small puzzles only)."""
    blank = puzzle.blank
    cells = list(zip(*np.nonzero(blank)))
    groups = []
    for direction, clue, run in runs(blank):
        total = (puzzle.across if direction == "a" else puzzle.down)[clue] if min(clue) >= 0 else 0
        groups.append((run, int(total)))
    member = {c: [g for g in groups if c in g[0]] for c in cells}
    fill = {}
    found = [0]

    def ok(c):
        for run, total in member[c]:
            values = [fill[x] for x in run if x in fill]
            if len(set(values)) != len(values):
                return False
            if total and (sum(values) > total or (len(values) == len(run) and sum(values) != total)):
                return False
        return True

    def place(i):
        if found[0] >= cap:
            return
        if i == len(cells):
            found[0] += 1
            return
        c = cells[i]
        choices = [int(puzzle.given[c])] if puzzle.given[c] else range(1, 10)
        for d in choices:
            fill[c] = d
            if ok(c):
                place(i + 1)
            del fill[c]

    place(0)
    return found[0]


def all_combinations(total, length):
    """kc by itertools: every ascending combination of distinct digits with that sum."""
    return [c for c in itertools.combinations(range(1, 10), length) if sum(c) == total]


@st.composite
def grids(draw):
    """``(blank, down, across, given)``: random arrays a Puzzle accepts (clues and digits in
    range, clues off the blanks, digits on them), of any integer dtype that holds them."""
    shape = draw(st.tuples(st.integers(1, 12), st.integers(1, 12)))
    blank = draw(hnp.arrays(bool, shape))
    dtype = draw(st.sampled_from([np.int8, np.int16, np.int32, np.int64, np.uint8]))
    down = np.where(blank, 0, draw(hnp.arrays(dtype, shape, elements=st.integers(0, 45))))
    across = np.where(blank, 0, draw(hnp.arrays(dtype, shape, elements=st.integers(0, 45))))
    digits = np.where(blank, draw(hnp.arrays(dtype, shape, elements=st.integers(0, 9))), 0)
    return blank, down.astype(dtype), across.astype(dtype), digits.astype(dtype)
