"""Region sums ("innies and outies"): arithmetic over a closed set of whole runs.

Every solution fills each run to its clue, so over any set of whole across runs ``A``
and whole down runs ``B`` (or the other way round), the cells of ``A`` add up to the
clues of ``A`` and the cells of ``B`` to the clues of ``B``. The cells they share cancel:
the cells of ``A`` that ``B`` leaves out (the plus side) less the cells of ``B`` outside
``A`` (the minus side) make the difference of the two clue totals. The regions taken are
the runs of one direction in a band of neighbouring rows (or columns), one connected
piece at a time; ``B`` is either the crossing runs that meet the piece (its "outies"
stick out of it) or those that lie inside it (its "innies" are the cells they miss).

A region sum then bounds each open cell of the two sides by what the others can make,
and with few open cells tries every way to fill them (digits distinct within a run).

Glossary
--------
region     : ``Region``: the runs, the crossing runs, the plus and minus variables and
             ``difference``, with sum(plus) - sum(minus) == difference in every solution.
piece      : a connected set of runs of one direction within a band of lines: two runs
             join when a crossing run meets both.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .combos import LOWEST_DIGIT, POPCOUNT
from .engine.core.jit import NO_DEADLINE
from .techniques import HIGHEST_DIGIT

#: The most fillings of a region's open cells tried one by one (more: bounds alone).
MAX_FILLINGS = 4096
#: The most open cells a region sum reasons about (more would not make a step to follow).
MAX_OPEN = 8


class Region(NamedTuple):
    """One region sum: ``sum(plus) - sum(minus) == difference`` over variables.

    runs     : the region's runs (entries of one direction), ascending.
    cross    : the crossing runs taken, ascending.
    kind     : "outies" (cross = the runs meeting the region: minus sticks out) or
               "innies" (cross = the runs inside it: plus is what they miss).
    plus, minus : int64 arrays of variables.
    difference  : the clues of ``runs`` less the clues of ``cross``.
    """
    runs: tuple
    cross: tuple
    kind: str
    plus: np.ndarray
    minus: np.ndarray
    difference: int


class RegionStep(NamedTuple):
    """What one region sum removes: the region, the open cells' digit sets before
    (``old``) and after (``new``) for the variables ``var`` that change, and the sum the
    open cells must make with the decided ones taken out (``rest``)."""
    region: Region
    var: np.ndarray
    old: np.ndarray
    new: np.ndarray
    rest: int


def regions(ent_off, ent_var, ent_sum, n_across, var_cell, width, *,
            deadline=NO_DEADLINE) -> list:
    """Every region sum of a grid's runs whose two sides are not both empty, each once;
    SolveTimeout once ``deadline`` (monotonic ns) has passed (looked at for each band).

    Examples
    --------
    >>> from kakuro_np import Puzzle
    >>> from kakuro_np.explanation import _board
    >>> b = _board(Puzzle.from_rows([["x", (4, 0), (3, 0)], [(0, 3), "_", "_"],
    ...                              [(0, 4), "_", "_"]]))
    >>> r = regions(b.packed.ent_off, b.ent_var, b.packed.ent_sum, b.packed.n_across,
    ...             b.var_cell, 3)[0]
    >>> r.runs, r.cross, r.kind, r.plus.tolist(), r.minus.tolist(), r.difference
    ((0,), (2, 3), 'outies', [], [2, 3], -4)

    The down runs crossing the across 3 make 4 + 3, so their cells below it make 7 - 3.
    """
    from .checking import _left
    E = len(ent_sum)
    row, col = np.divmod(var_cell, width)
    runs_of = [ent_var[ent_off[k]:ent_off[k + 1]] for k in range(E)]
    var_run = runs_of_variables(ent_off, ent_var, n_across, len(var_cell))
    line = np.array([row[vs[0]] if k < n_across else col[vs[0]] for k, vs in enumerate(runs_of)],
                    np.int64)
    found, seen, pieces_seen = [], set(), set()
    for d in (0, 1):
        cross_of = var_run[1 - d]
        mine = np.arange(E)[(np.arange(E) >= n_across) == bool(d)]
        lines = np.unique(line[mine])
        for a in range(len(lines)):
            parent, first = {}, {}                  # a union-find of the band's runs
            for hi in lines[a:]:
                _left(deadline, "solving by logic")
                for k in mine[line[mine] == hi].tolist():
                    parent[k] = k
                    for c in cross_of[runs_of[k]].tolist():
                        if c < 0:
                            continue
                        if c in first:
                            parent[_root(parent, k)] = _root(parent, first[c])
                        else:
                            first[c] = k
                pieces = {}
                for k in parent:
                    pieces.setdefault(_root(parent, k), []).append(k)
                for piece in pieces.values():
                    key = tuple(sorted(piece))
                    if key in pieces_seen:          # the same piece in a wider band
                        continue
                    pieces_seen.add(key)
                    for region in _sums(list(key), runs_of, cross_of, ent_sum):
                        sides = (tuple(region.plus.tolist()), tuple(region.minus.tolist()))
                        if sides not in seen:
                            seen.add(sides)
                            found.append(region)
    return found


def runs_of_variables(ent_off, ent_var, n_across, n_vars) -> np.ndarray:
    """``(2, n_vars)``: each variable's across run and down run (-1: none).

    >>> runs_of_variables(np.array([0, 2, 3]), np.array([0, 1, 1]), 1, 2).tolist()
    [[0, 0], [-1, 1]]
    """
    var_run = np.full((2, n_vars), -1, np.int64)
    k = np.repeat(np.arange(len(ent_off) - 1), np.diff(ent_off))
    var_run[(k >= n_across).astype(np.int64), ent_var] = k
    return var_run


def _root(parent, k):
    """The root of ``k`` in the union-find ``parent``, its path halved on the way."""
    while parent[k] != k:
        parent[k] = parent[parent[k]]
        k = parent[k]
    return k


def _sums(piece, runs_of, cross_of, ent_sum) -> list:
    """The outies and innies region sums of one piece."""
    cells = np.concatenate([runs_of[k] for k in piece])
    inside = set(cells.tolist())
    meeting = sorted({c for c in cross_of[cells].tolist() if c >= 0})
    within = [c for c in meeting if inside.issuperset(runs_of[c].tolist())]
    total = int(sum(int(ent_sum[k]) for k in piece))
    out = []
    for kind, cross in (("outies", meeting), ("innies", within)):
        covered = set(np.concatenate([runs_of[c] for c in cross]).tolist()) if cross else set()
        plus = np.array(sorted(inside - covered), np.int64)
        minus = np.array(sorted(covered - inside), np.int64)
        if len(plus) + len(minus):
            out.append(Region(tuple(piece), tuple(cross), kind, plus, minus,
                              total - int(sum(int(ent_sum[c]) for c in cross))))
    return out


class Regions(NamedTuple):
    """Region sums indexed for ``region_step``: ``found`` (``Region``), and the variables
    of region ``i`` (plus, then minus) at ``var[off[i]:off[i + 1]]``."""
    found: list
    var: np.ndarray
    off: np.ndarray


def indexed(found) -> Regions:
    """``found`` with its variables packed (``Regions``)."""
    var = [np.concatenate([r.plus, r.minus]) for r in found]
    off = np.zeros(len(var) + 1, np.int64)
    off[1:] = np.cumsum([len(v) for v in var])
    return Regions(list(found), np.concatenate(var) if var else np.zeros(0, np.int64), off)


def region_step(regions, mask, var_run, memo=None, deadline=NO_DEADLINE) -> RegionStep | None:
    """The region sum that removes candidates with the fewest open cells (ties: the
    fewest cells in all, then the first found), or None.

    ``regions`` is ``indexed(regions(...))``; ``var_run`` is ``(2, V)``: each variable's
    across and down run (-1: none), for the digits that must differ within a run.
    ``memo`` (a dict kept between calls) remembers the regions that removed nothing, so
    each is not tried again until one of its cells changes. SolveTimeout once ``deadline``
    (monotonic ns) has passed (looked at for each region tried).
    """
    from .checking import _left
    memo = {} if memo is None else memo
    n = len(regions.found)
    if not n:
        return None
    starts = regions.off[:-1]
    n_open = np.add.reduceat((POPCOUNT[mask[regions.var]] > 1).astype(np.int64), starts)
    stale = memo.get("stale", np.zeros(n, bool))
    if "mask" in memo:                      # a region whose cells changed is tried again
        changed = (mask != memo["mask"])[regions.var].astype(np.int64)
        stale &= np.add.reduceat(changed, starts) == 0
    size = np.diff(regions.off)
    ready = np.flatnonzero((n_open > 0) & (n_open <= MAX_OPEN) & ~stale)
    made = None
    for i in ready[np.lexsort((ready, size[ready], n_open[ready]))].tolist():
        _left(deadline, "solving by logic")
        made = _narrowed(regions.found[i], mask, var_run)
        if made is not None:
            break
        stale[i] = True
    memo["mask"], memo["stale"] = mask.copy(), stale
    return made


def _narrowed(region, mask, var_run) -> RegionStep | None:
    """What ``region`` removes from ``mask`` (bounds, then every filling where few)."""
    sign = np.concatenate([np.ones(len(region.plus), np.int64),
                           -np.ones(len(region.minus), np.int64)])
    both = np.concatenate([region.plus, region.minus])
    m = mask[both]
    decided = POPCOUNT[m] == 1
    rest = region.difference - int((sign[decided] * LOWEST_DIGIT[m[decided]]).sum())
    var, sign, m = both[~decided], sign[~decided], m[~decided]
    new = _bounded(m, sign, rest)
    if np.prod(POPCOUNT[new].astype(np.float64)) <= MAX_FILLINGS:
        new = _filled(new, sign, rest, var_run[:, var])
    changed = new != m
    if not changed.any():
        return None
    return RegionStep(region, var[changed], m[changed], new[changed], rest)


def _bounded(m, sign, rest) -> np.ndarray:
    """Each cell's digits within what ``sum(sign * x) == rest`` leaves it, the others
    anywhere from their lowest to their highest candidate."""
    low, high = LOWEST_DIGIT[m], HIGHEST_DIGIT[m]
    least = np.where(sign > 0, low, -high)          # sign * x at its smallest
    most = np.where(sign > 0, high, -low)
    others_least, others_most = least.sum() - least, most.sum() - most
    # sign * x = rest - (the others), so x lies between these
    a, b = sign * (rest - others_most), sign * (rest - others_least)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    digits = np.arange(1, 10)
    keep = ((digits >= lo[:, None]) & (digits <= hi[:, None])) << np.arange(9)
    return m & keep.sum(axis=1)


def _filled(m, sign, rest, runs) -> np.ndarray:
    """Each cell's digits that some filling of all the open cells keeps: digits from
    their candidates, distinct within a run, ``sum(sign * x) == rest``."""
    ways = np.zeros((1, 0), np.int64)
    for i in range(len(m)):
        digits = np.flatnonzero((int(m[i]) >> np.arange(9)) & 1) + 1
        ways = np.concatenate([np.repeat(ways, len(digits), axis=0),
                               np.tile(digits, len(ways))[:, None]], axis=1)
        for j in range(i):                  # a digit twice in one run: not a filling
            if ((runs[:, i] >= 0) & (runs[:, i] == runs[:, j])).any():
                ways = ways[ways[:, i] != ways[:, j]]
    ways = ways[ways @ sign == rest]
    return np.bitwise_or.reduce(1 << (ways - 1), axis=0) if len(ways) else np.zeros_like(m)
