"""Across-run patterns: the X-wing of two runs over two crossing runs.

Two runs of one direction each need a digit ``d`` (every combination that fits the run
holds it, and no cell of the run holds it yet), and each has only two open cells that can
take it. When those four cells lie two by two in two crossing runs, the two ``d``s
cannot share a crossing run, so each crossing run gets one of them, in one of those
cells: the crossing runs' other cells lose ``d``. (Two runs of Kakuro share at most one
cell, so a digit confined to the cells two runs share is a single cell, which the
ladder's required digit already places; this is the pattern over four runs that the
published-style puzzles use: see bench/HISTORY.md.)

Glossary
--------
needs   : the digits every fitting combination of a run holds, less those decided in it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .combos import COMBO_BITS, COMBO_OFF, LOWEST_DIGIT, MAX_TOTAL, POPCOUNT


class XWing(NamedTuple):
    """One X-wing: ``digit``, the two runs that need it, their four cells (variables, run
    by run), the two crossing runs, and the variables ``var`` that lose the digit, their
    digit sets before (``old``) and after (``new``)."""
    digit: int
    runs: tuple
    cells: tuple
    cross: tuple
    var: np.ndarray
    old: np.ndarray
    new: np.ndarray


def needs(m, total) -> int:
    """The digit set every fitting combination of a run holds, less its decided digits,
    for the run's masks ``m`` and clue ``total`` (0 when no combination fits).

    Examples
    --------
    >>> bin(needs(np.array([0b1, 0b111111111, 0b111111111]), 7))    # 1 + {2 + 4}
    '0b1010'
    """
    decided = POPCOUNT[m] == 1
    used = int(np.bitwise_or.reduce(m[decided])) if decided.any() else 0
    rest = total - int(LOWEST_DIGIT[m[decided]].sum())
    opened = m[~decided]
    if not len(opened) or not 0 <= rest <= MAX_TOTAL:
        return 0
    group = len(opened) * (MAX_TOTAL + 1) + rest
    combos = COMBO_BITS[COMBO_OFF[group]:COMBO_OFF[group + 1]]
    union = int(np.bitwise_or.reduce(opened))
    fits = ((combos & used) == 0) & ((combos & ~union) == 0)
    fits &= ((combos[:, None] & opened[None, :]) != 0).all(axis=1)
    return int(np.bitwise_and.reduce(combos[fits])) if fits.any() else 0


def x_wing(ent_off, ent_var, ent_sum, n_across, var_run, mask) -> XWing | None:
    """The first X-wing that removes a candidate (across pairs first, then down; lower
    digits, then lower runs first), or None. ``var_run`` is ``(2, V)``: each variable's
    across and down run (-1: none)."""
    E = len(ent_sum)
    for direction in (0, 1):
        by_digit = {}
        for k in (range(n_across) if direction == 0 else range(n_across, E)):
            vs = ent_var[ent_off[k]:ent_off[k + 1]]
            m = mask[vs]
            need = needs(m, int(ent_sum[k]))
            for d in range(1, 10):
                if need >> (d - 1) & 1:
                    where = vs[(POPCOUNT[m] > 1) & (m >> (d - 1) & 1 == 1)]
                    if len(where) == 2:
                        by_digit.setdefault(d, []).append((k, where))
        for d in sorted(by_digit):
            found = by_digit[d]
            for i in range(len(found)):
                for j in range(i + 1, len(found)):
                    made = _eliminated(d, found[i], found[j], var_run[1 - direction], ent_off,
                                       ent_var, mask)
                    if made is not None:
                        return made
    return None


def _eliminated(d, first, second, cross_of, ent_off, ent_var, mask) -> XWing | None:
    """The X-wing of runs ``first`` and ``second`` (each ``(run, its two cells)``) on
    digit ``d`` if their cells lie two by two in two crossing runs and it removes a
    candidate."""
    (k1, c1), (k2, c2) = first, second
    cross = sorted(cross_of[c1].tolist())
    if cross != sorted(cross_of[c2].tolist()) or cross[0] < 0:
        return None
    corners = set(c1.tolist()) | set(c2.tolist())
    var = np.array([v for c in cross for v in ent_var[ent_off[c]:ent_off[c + 1]].tolist()
                    if v not in corners and mask[v] >> (d - 1) & 1], np.int64)
    if not len(var):
        return None
    old = mask[var]
    return XWing(d, (k1, k2), (tuple(c1.tolist()), tuple(c2.tolist())), tuple(cross), var,
                 old, old & ~(1 << (d - 1)))
