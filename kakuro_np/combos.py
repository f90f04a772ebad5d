"""Combinations of distinct digits: ``kc`` and the lookup tables the kernels use.

Glossary
--------
digit set : a 9-bit mask, bit ``d - 1`` set when digit ``d`` is in the set.
COMBO_OFF, COMBO_BITS : the digit sets of every combination of ``length``
    distinct digits summing to ``total`` lie in
    ``COMBO_BITS[COMBO_OFF[length * 46 + total] : COMBO_OFF[length * 46 + total + 1]]``,
    in the lexicographic order of their sorted digits.
MIN_SUM, MAX_SUM : ``MIN_SUM[s, r]`` is the sum of the ``r`` smallest digits of
    digit set ``s`` (a large number when ``s`` has fewer than ``r``);
    ``MAX_SUM[s, r]`` the sum of the ``r`` largest (-1 when too few).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

DIGITS = tuple(range(1, 10))
ALL_DIGITS = 0x1FF
MAX_TOTAL = 45


def _digit_set(digits) -> int:
    return sum(1 << (d - 1) for d in digits)


def _combination_tables():
    """Every combination, grouped by (length, total), as digit sets and rows."""
    rows = {}
    for length in range(10):
        for combo in combinations(DIGITS, length):  # lexicographic already
            rows.setdefault((length, sum(combo)), []).append(combo)
    off = np.zeros(10 * (MAX_TOTAL + 1) + 1, np.int64)
    bits = []
    for length in range(10):
        for total in range(MAX_TOTAL + 1):
            group = rows.get((length, total), [])
            bits.extend(_digit_set(c) for c in group)
            off[length * (MAX_TOTAL + 1) + total + 1] = len(bits)
    return rows, off, np.array(bits, np.int32)


_ROWS, COMBO_OFF, COMBO_BITS = _combination_tables()


def _sum_bounds():
    sets = np.arange(512)
    present = (sets[:, None] >> np.arange(9)) & 1            # (512, 9) digit d+1 present
    digits = np.where(present, np.arange(1, 10), 0)
    ascending = np.sort(np.where(present, np.arange(1, 10), 99), axis=1)
    descending = -np.sort(-digits, axis=1)
    min_sum = np.zeros((512, 10), np.int32)
    max_sum = np.zeros((512, 10), np.int32)
    min_sum[:, 1:] = np.cumsum(ascending, axis=1)
    max_sum[:, 1:] = np.cumsum(descending, axis=1)
    count = present.sum(axis=1)
    too_few = np.arange(10)[None, :] > count[:, None]
    min_sum[too_few] = 999
    max_sum[too_few] = -1
    return min_sum, max_sum


MIN_SUM, MAX_SUM = _sum_bounds()


def _sum_sets():
    sets = np.arange(512)
    out = np.zeros((512, 10), np.int64)
    for chosen in range(512):
        digits = [d + 1 for d in range(9) if chosen >> d & 1]
        out[(sets & chosen) == chosen, len(digits)] |= 1 << sum(digits)
    return out


#: SUM_SETS[s, k]: the totals (bit t for total t) that k distinct digits of set s make.
SUM_SETS = _sum_sets()
#: PARTNERS[t, s]: the digits ``x`` whose partner ``t - x`` (another digit) is in set
#: ``s``: the first cells of the two-cell entries of total ``t`` whose second cell is ``s``.
PARTNERS = np.array([[sum(1 << (x - 1) for x in DIGITS
                          if 1 <= t - x <= 9 and t - x != x and s >> (t - x - 1) & 1)
                      for s in range(512)] for t in range(18)], np.int32)
POPCOUNT = np.array([bin(s).count("1") for s in range(512)], np.int32)
#: LOWEST_DIGIT[s]: the smallest digit of digit set ``s`` (0 for the empty set).
LOWEST_DIGIT = np.array([(s & -s).bit_length() for s in range(512)], np.int32)


def candidate_grid(shape, var_cell, mask) -> tuple:
    """``(candidates, digits)`` of a grid from its variables' digit sets.

    ``candidates`` is (H, W, 9) bool, True while digit ``d`` (index ``d - 1``) is
    possible; ``digits`` is (H, W) int8, a cell's lone candidate, else 0.
    ``var_cell[v]`` is the flat cell of variable ``v`` and ``mask[v]`` its digit set.

    Examples
    --------
    >>> cand, digits = candidate_grid((1, 3), np.array([1, 2]), np.array([0b100, 0b11]))
    >>> digits.tolist(), cand[0, 2].nonzero()[0].tolist()
    ([[0, 3, 0]], [0, 1])
    """
    H, W = shape
    bits = (np.asarray(mask)[:, None] >> np.arange(9)) & 1
    candidates = np.zeros((H * W, 9), bool)
    candidates[var_cell] = bits.astype(bool)
    ones = bits.sum(axis=1) == 1
    digits = np.zeros(H * W, np.int8)
    digits[var_cell[ones]] = bits[ones].argmax(axis=1) + 1
    return candidates.reshape(H, W, 9), digits.reshape(H, W)


def kc(total: int, length: int) -> np.ndarray:
    """Every ascending combination of ``length`` distinct digits 1-9 summing to ``total``.

    Parameters
    ----------
    total : int
        The clue.
    length : int
        The number of cells, 0-9.

    Returns
    -------
    (n, length) int8 array
        One combination per row, rows in lexicographic order; ``n`` may be 0.

    Examples
    --------
    >>> kc(18, 4)[[0, -1]]
    array([[1, 2, 6, 9],
           [3, 4, 5, 6]], dtype=int8)
    >>> kc(18, 4).shape, kc(50, 3).shape
    ((11, 4), (0, 3))
    """
    total, length = _whole(total, "total"), _whole(length, "length")
    if not 0 <= length <= 9:
        raise ValueError(f"length must be 0-9 (a run holds at most 9 distinct digits), got {length}")
    group = _ROWS.get((length, total), [])
    return np.array(group, np.int8).reshape(len(group), length)


def _whole(value, name) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    return int(value)
