"""The generator and the writer's tools: new puzzles, each proved to have one solution.

``generate`` draws a layout that looks published (``layout.make_layout``), or takes
a writer's (``layout=``), fills it with random digits that never repeat in a run
(``fill_layout``), reads the clues off the fill (``clues_of``), and then makes the
puzzle unique (``make_unique``): it changes the fill's digits while that lowers the
ambiguity the combinations leave, and where that stalls and two solutions remain, it
changes a digit where they differ (``kick``), and climbs again. Only after many kicks
in a row, and never on a writer's layout, does it black out a cell where they differ
(a block), within the layout's rules; on a writer's layout the fill is annealed
instead of climbed, and each kick is the change, of a few, that leaves the fewest
solutions. For a grade, it then steers the digits until
the solve by logic (``techniques``' ladder) needs the grade's techniques (``steer``);
an expert puzzle then gets single changes until one leaves it unique but needs more than
the ladder: region sums, x-wings or chains (``beyond_the_ladder``).
The same seed gives the same puzzle: every draw comes from one
``numpy.random.Generator``, and every
answer the solver gives it is exact and found without a clock: counts up to
2, and two solutions found by the hunt within a number of nodes (from random entry
weights on a writer's layout, drawn from the same Generator). A deadline
(``timeout=``) only ever ends a run, with SolveTimeout: every long loop looks at the
clock (the layout's carving, the kernels' climbs and steers, the kicks, the blocks, the
solve by logic), and a kernel that stops early on it is never taken at its word.

Glossary
--------
fill       : (H, W) int8, a digit on every blank cell (0 elsewhere), no digit twice
             in a run: a solution the clues are read from.
ambiguity  : the candidates the combinations leave beyond one per cell, summed.
differences: the cells where two of a puzzle's solutions differ.
kick       : a change where two solutions differ: the digit that leaves the least
             ambiguity, or, on a writer's layout, of a few changes (a digit, or a shift
             of k between two cells of a run) the one that leaves the fewest solutions.
block      : the last resort: a cell blacked out (with its symmetric twins) where two
             solutions differ, the runs around it fixed by blacking out only.
band       : the scores of a grade's label, ``grade.BANDS``; a draft's cost is how far
             its score is from the band (``grade_cost``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import types

from .combos import ALL_DIGITS, LOWEST_DIGIT, POPCOUNT
from .engine.core import ahead
from .engine.core.codes import SOLVED
from .engine.build.entries import entry_variables, packed_entries
from .engine.core.jit import INT, INTS, NO_DEADLINE, kernel, monotonic_ns
from .engine.build.jposs import narrow_masks
from .errors import PuzzleError, SolveTimeout
from .grading import BANDS, LABEL_TOP, LABELS, TECHNIQUE_LEVEL, TECHNIQUE_WEIGHT, logic_score
from .layout import (DEFAULT_DENSITY, checked_layout, cut_allowed, fix_one, keep_largest_region,
                     make_layout, orbits, row_runs, set_orbit)
from .puzzle import Puzzle, PuzzleLike
from .techniques import climb

#: Steps a fill may backtrack, per blank cell, before its layout is drawn again.
FILL_STEPS_PER_CELL = 50
#: Steps a climb takes in a row without the ambiguity falling before it stops; after a
#: kick, which changes the ambiguity near one cell, KICK_STALL.
CLIMB_STALL = 256
KICK_STALL = 32
#: Steps a steer toward a grade takes in a row without coming closer before it stops.
STEER_STALL = 64
#: What a draft the ladder (up to the grade's techniques) does not solve costs, plus
#: the candidates it leaves beyond one per cell: more than any distance of scores.
UNSOLVED_COST = 1000.0
#: Nodes the hunt for two solutions may visit; past them a block goes to a cell the
#: combinations leave open instead (most drafts need far fewer; on a dense draft the hunt
#: can thrash).
HUNT_NODES = 2_000
#: On a writer's layout (no block may help): the annealing of a fresh fill, steps per
#: blank cell, its temperatures in candidates and the share of its steps that are shifts
#: (``anneal_ambiguity``) ...
ANNEAL_STEPS_PER_CELL = 100
ANNEAL_HOT, ANNEAL_COLD = 3.0, 0.05
ANNEAL_SHIFT = 0.5
#: ... then kicks, each the best of KICK_LOOKAHEAD random changes, by the solutions each
#: leaves, counted up to KICK_COUNT_CAP (``kick``) ...
KICK_LOOKAHEAD = 12
KICK_COUNT_CAP = 100_000
#: ... and a new fill after KICKS_WITHOUT_GAIN kicks in a row that found no fewer
#: solutions than before.
KICKS_WITHOUT_GAIN = 30
#: ... or after its first KICKS_AT_CAP kicks each left KICK_COUNT_CAP solutions or more.
KICKS_AT_CAP = 4
#: How far below the density asked for blocks may take a layout (the layouts are drawn
#: at it or a little below: a 0.7 asked for stays within published grids' 0.62-0.81).
BLOCK_SLACK = 0.05
#: Kicks (a digit changed where two solutions differ) a fill takes in a row before a block,
#: the last resort, may go there.
KICKS_BEFORE_BLOCK = 20
#: With grade "expert": single changes of an expert fill tried for one that needs more
#: than the ladder (most dense grids get one well within them).
BEYOND_TRIES = 300
#: Rounds (a climb, then a kick or a block) one fill may take, per blank cell.
ROUNDS_PER_CELL = 1.0
#: What a generator past its ``timeout=`` was doing (``SolveTimeout``'s message).
DOING = "making a puzzle unique"


@kernel
def fill_layout(blank, prefs, max_steps):
    """``(fill, ok)``: digits for the blank cells, none twice in a run, in row-major
    order with backtracking; cell ``c`` tries its digits in the order
    ``prefs[c]`` (a permutation of 1-9). ``ok`` is False after ``max_steps``
    steps without a fill.
    """
    H, W = blank.shape
    cells = np.flatnonzero(blank.ravel())
    n = cells.shape[0]
    fill = np.zeros((H, W), np.int8)
    tried = np.zeros(n, np.int64)
    i = 0
    steps = 0
    while 0 <= i < n:
        steps += 1
        if steps > max_steps:
            return fill, False
        r, q = cells[i] // W, cells[i] % W
        used = 0
        k = q - 1
        while k >= 0 and blank[r, k]:
            used |= 1 << fill[r, k]
            k -= 1
        k = r - 1
        while k >= 0 and blank[k, q]:
            used |= 1 << fill[k, q]
            k -= 1
        fill[r, q] = 0
        while tried[i] < 9:
            d = prefs[cells[i], tried[i]]
            tried[i] += 1
            if not used >> d & 1:
                fill[r, q] = d
                break
        if fill[r, q] > 0:
            i += 1
        else:
            tried[i] = 0
            i -= 1
    return fill, i == n


def random_fill(blank, rng):
    """A random fill of ``blank`` (see ``fill_layout``), or None when the backtracking ran
    out of steps."""
    prefs = rng.permuted(np.tile(np.arange(1, 10, dtype=np.int8), (blank.size, 1)), axis=1)
    fill, ok = fill_layout(blank, prefs, FILL_STEPS_PER_CELL * max(int(blank.sum()), 1))
    return fill if ok else None


def clues_of(blank, fill):
    """The puzzle whose clues are the sums of ``fill``'s runs (no given digits).

    Examples
    --------
    >>> blank = np.array([[0, 0, 0], [0, 1, 1], [0, 1, 1]], bool)
    >>> p = clues_of(blank, np.array([[0, 0, 0], [0, 1, 3], [0, 2, 1]]))
    >>> p.down[0, 1:].tolist(), p.across[1:, 0].tolist()
    ([3, 4], [4, 3])
    """
    blank = np.asarray(blank, bool)
    fill = np.where(blank, fill, 0).astype(np.int64)

    def along_rows(b, f):
        run, starts = row_runs(b)
        total = np.bincount(run.ravel(), f.ravel())
        clue = np.zeros(b.shape, np.int64)
        r, c = np.nonzero(starts)
        clue[r, c - 1] = total[run[r, c]]
        return clue
    across = along_rows(blank, fill)
    down = along_rows(blank.T, fill.T).T
    return Puzzle(blank, down, across)


def differences(grid: PuzzleLike, solutions: np.ndarray | None = None) -> np.ndarray:
    """``(n, 2)`` int: the (row, column) of each cell where the puzzle's first two
    solutions (in the essay's order) differ; empty when it has one solution or none.

    ``solutions``, when given, are used in place of solving again.

    Examples
    --------
    >>> import kakuro_np as kn
    >>> differences(kn.parse("x ; 4 0 ; 6 0\\n0 5 ; _ ; _\\n0 5 ; _ ; _")).tolist()
    [[1, 1], [1, 2], [2, 1], [2, 2]]
    >>> differences(kn.read("puzzles/k2.txt")).shape
    (0, 2)
    """
    from .solve import kakuro
    if solutions is None:
        solutions = kakuro(grid, limit=2)
    if len(solutions) < 2:
        return np.zeros((0, 2), np.int64)
    return np.argwhere(solutions[0] != solutions[1]).astype(np.int64)


def cells_to_block(puzzle, draft, deadline=NO_DEADLINE, rng=None):
    """``(n, 2)`` cells where two of the puzzle's solutions differ, or, when the hunt
    finds no two within HUNT_NODES nodes, the cells the combinations leave open
    (``ambiguity``); the puzzle has two solutions or more. The hunt counts nodes, not
    time, so the same draft (and ``rng``) gets the same cells; past ``deadline`` it stops
    with SolveTimeout, and its kernels are compiled by helpers within it (``ahead.ready``).

    With ``rng``, the hunt starts from random weights (1-2 per entry), so that calls on
    a puzzle whose ambiguity lies in several separate places find pairs of solutions
    that differ in any of them, not always in the same one."""
    from .checking import _left
    from .engine.walk.anyorder import any_solutions
    from .solve import model
    ahead.ready(("model", "hunt"), deadline)
    m = model(puzzle, deadline=deadline)
    n_entries = len(m.tab_off) - 1
    weight = np.ones(n_entries) if rng is None else 1.0 + rng.random(n_entries)
    two = np.zeros((2, len(m.var_cell)), np.int64)
    found = any_solutions(m.root(), two, np.int64(2), np.int64(HUNT_NODES), np.int64(deadline),
                          weight).found
    two = two[:found]
    if len(two) < 2:
        _left(deadline, DOING)              # fewer within the nodes, or the deadline passed
    if len(two) == 2:
        cells = m.var_cell[two[0] != two[1]]
    else:
        mask = np.empty(len(draft.digit), np.int64)
        ambiguity(draft, mask)
        cells = draft.var_cell[POPCOUNT[mask] > 1]
    return np.stack(np.unravel_index(cells, puzzle.shape), axis=1).astype(np.int64)


def block(blank, orbit, cell, rng, min_run, density):
    """``blank`` with ``cell``'s orbit blacked out and the runs fixed by blacking out only
    (so the fill stays valid), or None when that leaves no well-formed layout dense
    enough, or one with a black square or region larger than published grids have
    (``layout.cut_allowed``)."""
    out = blank.copy()
    set_orbit(out, orbit, tuple(cell), False)
    while fix_one(out, orbit, rng, min_run, False):
        pass
    if not out.any() or not keep_largest_region(out, orbit):
        return None
    if out[1:, 1:].mean() < density - BLOCK_SLACK:
        return None
    return out if cut_allowed(out, min_run) else None


class Draft(NamedTuple):
    """A layout and fill packed for the climb: the runs (``ent_off``, ``ent_var``) and each
    variable's runs (``var_eoff``, ``var_ent``), variables being the blank cells in
    row-major order (``var_cell``); ``ent_sum`` and ``digit`` (per variable) change
    together as the climb changes digits."""
    var_cell: np.ndarray
    ent_off: np.ndarray
    ent_var: np.ndarray
    ent_sum: np.ndarray
    var_eoff: np.ndarray
    var_ent: np.ndarray
    digit: np.ndarray


#: The types the generator calls its kernels with (``ahead``'s "generate" and, for a grade,
#: "steer"): a draft, a (H, W) layout and digits, variables, seeds and counts,
#: temperatures and scores.
DRAFT = types.NamedUniTuple(INTS, 7, Draft)
FILL_TYPES = (types.boolean[:, ::1], types.int8[:, ::1], INT)
AMBIGUITY_TYPES = (DRAFT, INTS)
VARIABLE_TYPES = (DRAFT, INT)
SET_DIGIT_TYPES = (DRAFT, INT, INT)
LOWER_TYPES = (DRAFT, INT, INT, INT)
ANNEAL_TYPES = (DRAFT, INT, INT, types.float64, types.float64, types.float64, INT)
GRADE_COST_TYPES = (DRAFT, INTS, INT, types.float64, types.float64, INT)
STEER_TYPES = (DRAFT, INT, INT, INT, types.float64, types.float64, INT)


def draft_of(blank, fill):
    """The ``Draft`` of a layout and its fill."""
    puzzle = clues_of(blank, fill)
    packed = packed_entries(puzzle)
    var_cell, ent_var, var_eoff, var_ent = entry_variables(puzzle, packed)
    return Draft(var_cell, packed.ent_off, ent_var, packed.ent_sum.astype(np.int64).copy(),
                 var_eoff, var_ent, np.asarray(fill).ravel()[var_cell].astype(np.int64))


@kernel
def ambiguity(draft, mask):
    """The candidates the combinations leave beyond one per cell, summed over the cells
    (``mask`` gets them): 0 proves the draft's clues have one solution.

    The candidates are the fixpoint of narrowing each run to the digits of
    its combinations (``jposs.narrow_masks``): far cheaper than the tables, of
    which a run of 9 alone may hold 9! rows.
    """
    mask[:] = ALL_DIGITS
    if narrow_masks(draft.ent_off, draft.ent_var, draft.ent_sum, mask, draft.var_eoff,
                    draft.var_ent) >= 0:
        return -1                       # not met: a fill's clues always have that fill
    score = 0
    for v in range(mask.shape[0]):
        score += POPCOUNT[mask[v]] - 1
    return score


@kernel
def free_digits(draft, v):
    """The digits variable ``v`` may take instead of its own: no other cell of its runs
    holds them."""
    used = 1 << (draft.digit[v] - 1)
    for q in range(draft.var_eoff[v], draft.var_eoff[v + 1]):
        j = draft.var_ent[q]
        for i in range(draft.ent_off[j], draft.ent_off[j + 1]):
            used |= 1 << (draft.digit[draft.ent_var[i]] - 1)
    return ALL_DIGITS & ~used


@kernel
def set_fill_digit(draft, v, d):
    """Give variable ``v`` digit ``d``, its runs' sums following."""
    for q in range(draft.var_eoff[v], draft.var_eoff[v + 1]):
        draft.ent_sum[draft.var_ent[q]] += d - draft.digit[v]
    draft.digit[v] = d


@kernel
def open_cell(mask, extra):
    """A random variable ``mask`` leaves open, each weighed by its candidates beyond one
    (``extra``, their sum, is above 0)."""
    pick = np.random.randint(extra)
    v = 0
    while pick >= POPCOUNT[mask[v]] - 1:
        pick -= POPCOUNT[mask[v]] - 1
        v += 1
    return v


@kernel
def lower_ambiguity(draft, seed, max_stall, deadline):
    """Lower the draft's ambiguity by changing digits; returns the ambiguity reached.

    Each step takes a random cell the combinations leave open and gives it
    the digit that lowers the ambiguity most, if it does not raise it; the
    climb stops at 0 or after ``max_stall`` steps in a row that did not lower
    it. ``seed`` seeds the random choices (the same seed, the same climb).
    Past ``deadline`` (monotonic ns) it stops before its next step: the caller then
    raises SolveTimeout.
    """
    np.random.seed(seed)
    V = draft.digit.shape[0]
    mask = np.empty(V, np.int64)
    trial_mask = np.empty(V, np.int64)
    score = ambiguity(draft, mask)
    stalled = 0
    while score > 0 and stalled < max_stall:
        if deadline != NO_DEADLINE and monotonic_ns() > deadline:
            break
        stalled += 1
        v = open_cell(mask, score)
        own = draft.digit[v]
        best, best_score = 0, score + 1
        digits = free_digits(draft, v)
        while digits:
            bit = digits & -digits
            digits ^= bit
            d = LOWEST_DIGIT[bit]
            set_fill_digit(draft, v, d)
            s = ambiguity(draft, trial_mask)
            if 0 <= s < best_score:
                best, best_score = d, s
        set_fill_digit(draft, v, own)
        if best > 0 and best_score <= score:
            set_fill_digit(draft, v, best)
            if best_score < score:
                stalled = 0
            score = ambiguity(draft, mask)
    return score


@kernel
def anneal_ambiguity(draft, seed, steps, hot, cold, shift, deadline):
    """Lower the draft's ambiguity by simulated annealing; the draft ends at the least
    ambiguity met, which is returned. Past ``deadline`` (monotonic ns) it ends early, at the
    least met so far.

    Each of ``steps`` steps takes a cell (mostly an open one, by its
    candidates beyond one, else any) and gives it a random digit its runs allow,
    or, with probability ``shift``, makes a random one of its shifts (its digit
    up by k and another's of one of its runs down by k: ``shifts``), which is
    the only change a cell of a run of 9 has. The change is kept
    when the ambiguity does not rise, or rises by ``x`` with probability
    ``exp(-x / t)``, the temperature ``t`` falling geometrically from ``hot``
    to ``cold``. Where the greedy climb (``lower_ambiguity``) stalls on a
    writer's layout far from one solution, this ends much nearer (see
    bench/HISTORY.md).
    """
    np.random.seed(seed)
    V = draft.digit.shape[0]
    mask = np.empty(V, np.int64)
    trial_mask = np.empty(V, np.int64)
    score = ambiguity(draft, mask)
    least, least_digits = score, draft.digit.copy()
    for i in range(steps):
        if score == 0 or i % 64 == 0 and monotonic_ns() > deadline:
            break
        t = hot * (cold / hot) ** (i / steps)
        v = open_cell(mask, score) if np.random.random() < 0.8 else np.random.randint(V)
        if np.random.random() < shift:
            found = shifts(draft, v)
            if found.shape[0] == 0:
                continue
            k = np.random.randint(found.shape[0])
            dv, u, du = found[k, 1], found[k, 2], found[k, 3]
        else:
            digits = free_digits(draft, v)
            if digits == 0:
                continue
            for _ in range(np.random.randint(POPCOUNT[digits])):
                digits &= digits - 1                # a random one of the free digits
            dv = LOWEST_DIGIT[digits & -digits]
            u, du = v, dv                           # a single change: u is v itself
        own, own_u = draft.digit[v], draft.digit[u]
        set_fill_digit(draft, v, dv)
        set_fill_digit(draft, u, du)
        s = ambiguity(draft, trial_mask)
        if s < 0 or (s > score and np.random.random() >= np.exp((score - s) / t)):
            set_fill_digit(draft, u, own_u)         # the mask stays the draft's
            set_fill_digit(draft, v, own)
        else:
            score = s
            mask[:] = trial_mask
            if s < least:
                least = s
                least_digits[:] = draft.digit
    for v in range(V):
        if draft.digit[v] != least_digits[v]:
            set_fill_digit(draft, v, least_digits[v])
    return least


@kernel
def grade_cost(draft, mask, top, low, high, deadline):
    """How far the draft's grade is from the band ``[low, high)`` of scores.

    The ladder's techniques ``0..top-1`` solve the draft by logic (``mask``
    gets the candidates they leave). Solved, the cost is the distance of its
    score (``grading.logic_score`` of its steps' hardest level and their effort, as
    ``grade`` scores them) from the band, 0 inside it. Not solved, it
    is ``UNSOLVED_COST`` plus the candidates left beyond one per cell (also when
    the climb stopped past ``deadline``, monotonic ns: a cost its caller never uses).
    """
    mask[:] = ALL_DIGITS
    climbed = climb((draft.ent_off, draft.ent_var, draft.ent_sum, draft.var_eoff,
                     draft.var_ent), mask, -1, top, -1, deadline)
    if climbed[0] != SOLVED:
        extra = 0
        for v in range(mask.shape[0]):
            extra += POPCOUNT[mask[v]] - 1
        return UNSOLVED_COST + extra
    level = 0                               # the steps' hardest level and their effort
    effort = 0.0
    for t in climbed[1]:
        level = max(level, TECHNIQUE_LEVEL[t])
        effort += TECHNIQUE_WEIGHT[t]
    score = logic_score(level, effort)
    if score < low:
        return low - score
    if score >= high:
        return score - high + 0.1
    return 0.0


@kernel
def steer(draft, seed, max_stall, top, low, high, deadline):
    """Steer the draft's digits toward the band of grades ``[low, high)``; returns the
    ``grade_cost`` reached (0: in the band).

    Each step takes a cell (while the ladder leaves some open, an open one,
    by its extra candidates; else any) and gives it the digit of least cost,
    if that is no more than the cost now; it stops at 0 or after
    ``max_stall`` steps in a row that did not lower it. Past ``deadline``
    (monotonic ns) it stops within a step: the caller then raises SolveTimeout.
    """
    np.random.seed(seed)
    V = draft.digit.shape[0]
    mask = np.empty(V, np.int64)
    trial_mask = np.empty(V, np.int64)
    cost = grade_cost(draft, mask, top, low, high, deadline)
    stalled = 0
    while cost > 0 and stalled < max_stall:
        if deadline != NO_DEADLINE and monotonic_ns() > deadline:
            break
        stalled += 1
        v = np.random.randint(V)
        if cost >= UNSOLVED_COST:
            v = open_cell(mask, int(cost - UNSOLVED_COST))
        own = draft.digit[v]
        best, best_cost = 0, cost + 1.0
        digits = free_digits(draft, v)
        while digits:
            bit = digits & -digits
            digits ^= bit
            d = LOWEST_DIGIT[bit]
            set_fill_digit(draft, v, d)
            c = grade_cost(draft, trial_mask, top, low, high, deadline)
            if c < best_cost:
                best, best_cost = d, c
        set_fill_digit(draft, v, own)
        if best > 0 and best_cost <= cost:
            set_fill_digit(draft, v, best)
            if best_cost < cost:
                stalled = 0
            cost = grade_cost(draft, mask, top, low, high, deadline)
    return cost


def fill_of(draft, shape):
    """The (H, W) fill of a draft."""
    fill = np.zeros(shape, np.int8)
    fill.ravel()[draft.var_cell] = draft.digit
    return fill


def make_unique(blank, fill, orbit, rng, min_run, density, *, climb_stall=CLIMB_STALL,
                label=None, may_block=True, deadline=NO_DEADLINE):
    """``(blank, fill)`` whose clues have exactly one solution, by repairs, or None.

    The fill's digits climb down the ambiguity (``lower_ambiguity``). Where
    the climb stalls above 0, the solver counts up to two (``count(limit=2)``)
    and, if there are two, a cell where two solutions differ gets the digit that
    leaves the least ambiguity (``kick``), and the climb goes on. Once the ambiguity
    is 0, or the count is 1, the puzzle is unique. After KICKS_BEFORE_BLOCK kicks in
    a row, and only with ``may_block``, a cell where two solutions differ is blacked out
    instead (``block``, at cells from ``cells_to_block``), where that keeps the layout
    within published grids' figures. A writer's layout is never changed: there the fill
    is annealed first (``anneal_ambiguity``), each kick is chosen by counting solutions
    at cells where two solutions differ that a hunt from random weights found (so kicks
    reach every separate ambiguous place), and is not followed by a climb, and after
    KICKS_WITHOUT_GAIN kicks in a row that found no fewer solutions than before, or
    KICKS_AT_CAP kicks that each left KICK_COUNT_CAP solutions or more, the fill is
    given up (None) for a new one.

    With a grade ``label``, a unique fill is then steered toward the label's
    band of scores (``steer``): solved by the ladder's logic within the band,
    it is done (logic alone proves it unique). A draft the label's techniques
    cannot solve gets a kick (or a block) where two solutions differ, or, when it is
    unique, at a cell they leave open, and the climb goes on. A draft they
    solve too easily is given up (None).

    None when no kick can be made, or after ROUNDS_PER_CELL rounds per blank cell.
    SolveTimeout past ``deadline`` (monotonic ns). ``climb_stall`` 0 leaves the digits
    as drawn (kicks and blocks alone; see ``bench/generate.py``).
    """
    kicks, fewest, no_gain = 0, KICK_COUNT_CAP + 1, 0
    from .checking import _left
    for _ in range(max(int(ROUNDS_PER_CELL * blank.sum()), 2)):
        _left(deadline, DOING)                      # SolveTimeout once past the deadline
        draft = draft_of(blank, fill)
        if may_block or label is not None and kicks:
            score = lower_ambiguity(draft, rng.integers(1 << 31),
                                    climb_stall if not kicks else min(climb_stall, KICK_STALL),
                                    deadline)
        elif not kicks:
            score = anneal_ambiguity(draft, rng.integers(1 << 31),
                                     ANNEAL_STEPS_PER_CELL * len(draft.digit), ANNEAL_HOT,
                                     ANNEAL_COLD, ANNEAL_SHIFT, deadline)
        else:                                       # a kick counted its way here: no climb
            score = ambiguity(draft, np.empty(len(draft.digit), np.int64))
        _left(deadline, DOING)                      # a climb past the deadline stopped early
        fill = fill_of(draft, blank.shape)
        puzzle = clues_of(blank, fill)
        several = score > 0 and counted(puzzle, 2, deadline) > 1
        if not several:
            if label is None:
                return blank, fill
            cost, open_cells = steer_to(label, draft, rng, blank.shape, deadline)
            fill = fill_of(draft, blank.shape)
            if cost == 0:
                if label == LABELS[-1]:
                    beyond = beyond_the_ladder(blank, fill, rng, deadline)
                    fill = fill if beyond is None else beyond
                return blank, fill
            if cost < UNSOLVED_COST:
                return None                 # logic solves it, but too easily
            puzzle = clues_of(blank, fill)
            several = counted(puzzle, 2, deadline) > 1
        cells = cells_to_block(puzzle, draft, deadline, None if may_block else rng) \
            if several else open_cells
        trial = None
        if may_block and kicks >= KICKS_BEFORE_BLOCK:
            for cell in cells[rng.permutation(len(cells))]:     # the first that keeps a layout
                _left(deadline, DOING)
                trial = block(blank, orbit, cell, rng, min_run, density)
                if trial is not None:
                    break
        if trial is None:
            left = kick(draft, cells, blank.shape, rng, None if may_block else blank, deadline)
            if not left:
                return None
            kicks, no_gain = kicks + 1, no_gain + 1
            if left < fewest:
                fewest, no_gain = left, 0
            if not may_block and (no_gain >= KICKS_WITHOUT_GAIN or
                                  fewest >= KICK_COUNT_CAP and kicks >= KICKS_AT_CAP):
                return None                         # a new fill does better than wandering
            fill = fill_of(draft, blank.shape)
            continue
        kicks = 0
        blank, fill = trial, np.where(trial, fill, 0).astype(np.int8)
    return None


def beyond_the_ladder(blank, fill, rng, deadline=NO_DEADLINE) -> np.ndarray | None:
    """A fill one change (a digit, or a shift of k along a run: ``shifts``) away from
    ``fill`` whose clues still have one solution, which the ladder leaves stuck and
    ``explain`` finishes with region sums, x-wings or chains; None after BEYOND_TRIES
    random changes. SolveTimeout past ``deadline``."""
    from .checking import _left
    from .techniques import N_TECHNIQUES
    draft = draft_of(blank, fill)
    for _ in range(BEYOND_TRIES):
        _left(deadline, DOING)
        v = int(rng.integers(len(draft.digit)))
        changes = [((v, d),) for d in other_digits(draft, v)]
        changes += [((a, da), (b, db)) for a, da, b, db in shifts(draft, v).tolist()]
        if not changes:
            continue
        undo = made(draft, changes[int(rng.integers(len(changes)))])
        puzzle = clues_of(blank, fill_of(draft, blank.shape))
        if counted(puzzle, 2, deadline) == 1 and \
                logic_status(puzzle, N_TECHNIQUES, deadline) == "stuck" and \
                logic_status(puzzle, None, deadline) == "solved":
            return fill_of(draft, blank.shape)
        made(draft, undo)
    return None


def logic_status(puzzle, top, deadline) -> str:
    """Where the solve by logic with the first ``top`` techniques leads (``logic_summary``);
    past ``deadline``, SolveTimeout saying the generator was making a puzzle unique."""
    from .explanation import logic_summary
    try:
        return logic_summary(puzzle, top=top, deadline=deadline)[0]
    except SolveTimeout:
        raise SolveTimeout(f"timed out while {DOING}") from None


def other_digits(draft, v) -> np.ndarray:
    """The digits other than its own that variable ``v``'s runs allow it, ascending."""
    return np.flatnonzero(free_digits(draft, v) >> np.arange(9) & 1) + 1


def made(draft, change) -> tuple:
    """Make ``change`` (``(variable, digit)`` pairs) in the draft; return the change that
    undoes it."""
    undo = tuple((v, int(draft.digit[v])) for v, _ in change)
    for v, d in change:
        set_fill_digit(draft, v, d)
    return undo


def kick(draft, cells, shape, rng, blank=None, deadline=NO_DEADLINE):
    """Give one of ``cells`` ((n, 2), rows and columns in a grid of ``shape``) another digit
    its runs allow; 0 when no cell has another digit, else how many solutions it left
    (KICK_COUNT_CAP + 1: not counted).

    Without ``blank``, the change that leaves the least ambiguity is made (ties go to a
    random one). With the layout ``blank`` (a writer's, which no block may change), a
    change may also be a shift: the cell's digit up by k and another cell's of one of
    its runs down by k, which keeps that run's sum (``shifts``). KICK_LOOKAHEAD random
    changes are counted, each up to KICK_COUNT_CAP solutions and no further than one past
    the fewest yet, and the one that leaves the fewest (the first of the changes on a tie)
    is made, even where that is more than now: the combinations cannot see
    a swap such as a 2x2 of cells whose four runs hold them all (a + k, b - k, c - k,
    d + k keeps every sum), and the changes they like best often leave as many
    solutions as before. On published-style layouts where kicks by ambiguity do not reach
    a unique filling, these do (see bench/HISTORY.md)."""
    flat = np.ravel_multi_index((cells[:, 0], cells[:, 1]), shape) if len(cells) else cells[:, 0]
    changes = []
    for cell in rng.permutation(flat):
        v = np.searchsorted(draft.var_cell, cell)      # variables are in row-major order
        for d in rng.permutation(other_digits(draft, v)):
            changes.append(((v, d),))
        if blank is not None:
            changes.extend(((v, dv), (u, du)) for v, dv, u, du in shifts(draft, v))
    if not changes:
        return 0
    from .checking import _left
    if blank is None:
        mask = np.empty(len(draft.digit), np.int64)
        weighed = []
        for i, change in enumerate(changes):
            _left(deadline, DOING)
            undo = made(draft, change)
            weighed.append((ambiguity(draft, mask), i))
            made(draft, undo)
        made(draft, changes[min(weighed)[1]])
        return KICK_COUNT_CAP + 1
    best = (KICK_COUNT_CAP + 1, len(changes))       # (solutions left, change): the least yet
    for i in rng.permutation(len(changes))[:KICK_LOOKAHEAD]:
        undo = made(draft, changes[i])
        # counted only up to one past the least yet: past it, a change cannot be the least
        best = min(best, (solutions_up_to(blank, draft, min(best[0] + 1, KICK_COUNT_CAP),
                                          deadline), i))
        made(draft, undo)
        if best[0] == 1:
            break
    left, i = best
    made(draft, changes[i])
    return left


@kernel
def shifts(draft, v):
    """``(n, 4)`` rows ``v, dv, u, du``: variable ``v``'s digit up by some k (to ``dv``)
    and the digit of another cell ``u`` of one of its runs down by k (to ``du``), that
    run's sum kept, both 1-9 with no digit twice in any of their runs."""
    found = np.empty((2 * 8 * 8, 4), np.int64)       # 2 runs of 8 other cells, 8 ks each
    n = 0
    digit = draft.digit
    for q in range(draft.var_eoff[v], draft.var_eoff[v + 1]):
        j = draft.var_ent[q]
        for i in range(draft.ent_off[j], draft.ent_off[j + 1]):
            u = draft.ent_var[i]
            own_v, own_u = digit[v], digit[u]
            for k in range(1 - own_v, 10 - own_v):
                if u == v or k == 0 or not (1 <= own_v + k <= 9 and 1 <= own_u - k <= 9):
                    continue
                digit[v], digit[u] = own_v + k, own_u - k   # the shift, for a moment
                allowed = True                  # no run of v or u then holds a digit twice
                for w in (v, u):
                    for p in range(draft.var_eoff[w], draft.var_eoff[w + 1]):
                        e = draft.var_ent[p]
                        for x in range(draft.ent_off[e], draft.ent_off[e + 1]):
                            if draft.ent_var[x] != w and digit[draft.ent_var[x]] == digit[w]:
                                allowed = False
                                break
                        if not allowed:
                            break
                    if not allowed:
                        break
                digit[v], digit[u] = own_v, own_u
                if allowed:
                    found[n, 0], found[n, 1] = v, own_v + k
                    found[n, 2], found[n, 3] = u, own_u - k
                    n += 1
    return found[:n]


def solutions_up_to(blank, draft, cap, deadline=NO_DEADLINE) -> int:
    """How many solutions the draft's clues have, counted up to ``cap`` (``counted``)."""
    return counted(clues_of(blank, fill_of(draft, blank.shape)), cap, deadline)


def counted(puzzle, cap, deadline) -> int:
    """``count(puzzle, limit=cap)``; past ``deadline``, SolveTimeout saying the generator
    was making a puzzle unique (the count's own message speaks of its own work)."""
    from .checking import _left
    from .solve import count
    try:
        return count(puzzle, limit=cap, timeout=_left(deadline, DOING))
    except SolveTimeout:
        raise SolveTimeout(f"timed out while {DOING}") from None


def steer_to(label, draft, rng, shape, deadline=NO_DEADLINE):
    """``(cost, open cells)``: ``steer`` the draft toward the grade ``label``, and the
    ``(n, 2)`` cells the label's techniques leave open after it; SolveTimeout past
    ``deadline`` (monotonic ns)."""
    from .checking import _left
    top, (low, high) = LABEL_TOP[label], BANDS[label]
    cost = steer(draft, rng.integers(1 << 31), STEER_STALL, top, low, high, deadline)
    _left(deadline, DOING)                          # a steer past the deadline stopped early
    mask = np.empty(len(draft.digit), np.int64)
    grade_cost(draft, mask, top, low, high, deadline)
    _left(deadline, DOING)
    cells = draft.var_cell[POPCOUNT[mask] > 1]
    return cost, np.stack(np.unravel_index(cells, shape), axis=1).astype(np.int64)


def generate(rows: int | None = None, cols: int | None = None, *, layout=None,
             density: float | None = None, grade: str | None = None,
             symmetry: str = "rotational", min_run: int = 2, seed: int | None = None,
             tries: int = 100, timeout: float | None = None) -> Puzzle:
    """A new puzzle with exactly one solution, its layout like a published grid's, or on
    a writer's own layout.

    Parameters
    ----------
    rows, cols : int
        The grid's size, clue row and column included (at least 3 each); taken from
        ``layout`` when it is given.
    layout : (H, W) array of bool, or a Puzzle, optional
        A writer's pattern: True on the cells to fill, row 0 and column 0 holding the
        clues (a Puzzle gives its pattern; its sums are not read). The puzzle has
        exactly that pattern: only the digits are chosen. PuzzleError names the first
        cell that breaks a rule (a blank on row 0 or column 0, a run shorter than
        ``min_run`` or over 9), and says so when no filling tried is unique.
    density : float, optional
        The share of blank cells inside the clue row and column (default 0.7, as
        published grids: 0.62-0.81). Blocks, the last resort of making a puzzle
        unique, lower it by at most BLOCK_SLACK.
    grade : {"easy", "medium", "hard", "expert"}, optional
        The label ``kn.grade`` gives the puzzle (see ``make_unique``).
    symmetry : {"rotational", "mirror", "none"}
        The layout's symmetry (not with ``layout``).
    min_run : {2, 1}
        The shortest run; 1 allows single-cell runs.
    seed : int, optional
        The same seed gives the same puzzle.
    tries : int
        Layouts (with ``layout``: fillings) drawn before giving up (PuzzleError).
    timeout : float, optional
        Seconds; past them SolveTimeout is raised. They count the first run's compile:
        helpers compile the kernels (``ahead``) while this waits, at most until then.

    Examples
    --------
    >>> import kakuro_np as kn
    >>> p = generate(8, 8, seed=1)
    >>> p.shape, kn.count(p, limit=2), generate(8, 8, seed=1) == p
    ((8, 8), 1, True)
    >>> kn.grade(generate(9, 9, grade="hard", seed=1)).label
    'hard'
    >>> mine = generate(layout=p.blank, seed=2)
    >>> bool((mine.blank == p.blank).all()), kn.count(mine, limit=2)
    (True, 1)
    """
    from .engine.core.jit import deadline_ns
    if grade is not None and grade not in LABELS:
        raise PuzzleError(f"grade must be one of {', '.join(LABELS)}, got {grade!r}")
    rng, deadline = np.random.default_rng(seed), deadline_ns(timeout)
    if layout is not None:
        blank = checked_layout(layout, min_run)
        if (rows, cols) not in ((None, None), blank.shape):
            raise PuzzleError(f"the layout is {blank.shape[0]}x{blank.shape[1]}, not "
                              f"{rows}x{cols}: leave rows and cols out")
        return layout_puzzle(rng, blank, min_run, tries, grade, deadline)
    if rows is None or cols is None:
        raise PuzzleError("give the grid's rows and cols, or a layout")
    density = DEFAULT_DENSITY if density is None else float(density)
    return unique_puzzle(rng, rows, cols, density, symmetry, min_run, tries, label=grade,
                         deadline=deadline)[0]


def _compiled(label, deadline) -> None:
    """The generator's kernels (and the grade's, with a ``label``) compiled by helpers
    within ``deadline`` (``ahead.ready``), else SolveTimeout saying so."""
    try:
        ahead.ready(("model", "generate") + (("steer",) if label else ()), deadline)
    except SolveTimeout:
        raise SolveTimeout(f"timed out while {DOING} (compiling its kernels: a first run "
                           "compiles them once; `kakuro-np compile` does it ahead)") from None


def layout_puzzle(rng, blank, min_run, tries, label=None, deadline=NO_DEADLINE) -> Puzzle:
    """``generate``'s work on a writer's layout ``blank``: up to ``tries`` random fillings,
    each made unique by kicks alone (``make_unique`` without blocks)."""
    _compiled(label, deadline)
    orbit = orbits(*blank.shape, "none")
    for _ in range(tries):
        fill = random_fill(blank, rng)
        if fill is None:
            continue
        made = make_unique(blank, fill, orbit, rng, min_run, 1.0, label=label, may_block=False,
                           deadline=deadline)
        if made is not None:
            return clues_of(*made)
    graded = f" {label}" if label else ""
    raise PuzzleError(f"no filling of this {blank.shape[0]}x{blank.shape[1]} layout found in "
                      f"{tries} tries made a unique{graded} puzzle")


def unique_puzzle(rng, rows, cols, density, symmetry, min_run, tries, *,
                  climb_stall=CLIMB_STALL, label=None, deadline=NO_DEADLINE):
    """``(puzzle, layouts drawn)``: ``generate``'s work, drawing from ``rng``, with the
    climb's ``climb_stall`` and the grade ``label`` (see ``make_unique``)."""
    from .checking import _left
    _compiled(label, deadline)
    orbit = orbits(rows, cols, symmetry)
    for drawn in range(1, tries + 1):
        _left(deadline, DOING)
        blank = make_layout(rows, cols, rng, density, symmetry, min_run, deadline=deadline)
        fill = random_fill(blank, rng)
        if fill is None:
            continue
        made = make_unique(blank, fill, orbit, rng, min_run, density, climb_stall=climb_stall,
                           label=label, deadline=deadline)
        if made is not None:
            return clues_of(*made), drawn
    graded = f" {label}" if label else ""
    raise PuzzleError(f"no unique{graded} {rows}x{cols} puzzle found in {tries} layouts")


# the generator's kernels, compiled ahead by helpers (``ahead``): a draft's, then the grade's
ahead.declare("generate", __name__, (
    (__name__, "fill_layout", "FILL_TYPES"),
    ("kakuro_np.layout", "label_regions", "REGIONS_TYPES"),
    ("kakuro_np.engine.build.jposs", "var_entries", "VAR_ENTRIES_TYPES"),
    (__name__, "ambiguity", "AMBIGUITY_TYPES"),
    (__name__, "free_digits", "VARIABLE_TYPES"),
    (__name__, "set_fill_digit", "SET_DIGIT_TYPES"),
    (__name__, "shifts", "VARIABLE_TYPES"),
    (__name__, "lower_ambiguity", "LOWER_TYPES"),
    (__name__, "anneal_ambiguity", "ANNEAL_TYPES")))
ahead.declare("steer", __name__, ((__name__, "grade_cost", "GRADE_COST_TYPES"),
                                  (__name__, "steer", "STEER_TYPES")))
