"""Permutation tables kept without their rows: counts and projections from the masks alone.

A run whose clue has one combination of digits (every run of 9 cells: 45; of
8: 36-44; a few shorter ones) has as table every ordering of that digit set
that the cells' masks allow, and nothing else: the model's tables are every
row that fits its masks (``jposs.build_tables``), and a node's live rows
are those that fit the node's masks (``split``: a node is its masks). On big
open grids these tables hold most rows, and filtering them by a scan or an index
costs most of a node. With the masks alone:

- the live rows are the perfect matchings of cells to digits the masks allow:
  their number is the permanent of that 0/1 matrix (``perm_count``, Ryser's
  formula: 2^L sums for L cells);
- a column's digits are the edges of some perfect matching
  (``perm_projection``, Regin's rule for all-different: an edge outside one
  matching lies on an alternating cycle, so its cell and digit share a strongly
  connected component of the matching's graph).

Both are exactly what filtering the rows gives, so the fixpoint and the search
are unchanged. ``force`` keeps such a table lazy (``state.Tables.perm_set``)
while it has more than LAZY_ROWS live rows: its ``nalive`` is the count, and its
block of ``perm`` is left as it was; once the count falls to LAZY_ROWS or
fewer, the live rows are listed from the masks into the front of the block
(``list_perms``), and it is filtered as any table from then on.

Glossary
--------
perm set : the digit set (bits) of a permutation table kept lazily, or 0.
compact  : a cell's mask as bits over the perm set's digits, lowest first (Ryser's
           sums and the matching work on them).

Examples
--------
The 3 cells of a run of 6 in 3 (digits 1, 2, 3) with masks {1,2}, {1,2}, {1,2,3}:

>>> import numpy as np
>>> masks = np.array([0b011, 0b011, 0b111])
>>> int(perm_count(masks, 0b111))
2
>>> proj = np.zeros(3, np.int64)
>>> perm_projection(masks, 0b111, proj), proj.tolist()    # the third cell must hold 3
(True, [3, 3, 4])
"""

from __future__ import annotations

import numpy as np

from ...combos import POPCOUNT
from ..core.jit import kernel

#: A permutation table with more live rows than this is kept without them (see above).
LAZY_ROWS = 256


def _combinations():
    """``COMBINATIONS[L, s]``: how many sets of L different digits add up to s."""
    out = np.zeros((10, 46), np.int64)
    for bits in range(512):
        digits = [d + 1 for d in range(9) if bits >> d & 1]
        out[len(digits), sum(digits)] += 1
    return out


#: How many sets of L different digits add up to s (``COMBINATIONS[L, s]``).
COMBINATIONS = _combinations()



@kernel
def perm_sets(ent_off, rows, tab_off):
    """Each entry's perm set: its table's digit set when it has one combination of digits
    and more than LAZY_ROWS rows, else 0."""
    E = tab_off.shape[0] - 1
    out = np.zeros(E, np.int64)
    for k in range(E):
        if tab_off[k + 1] - tab_off[k] <= LAZY_ROWS:
            continue
        L = ent_off[k + 1] - ent_off[k]
        bits = 0
        total = 0
        for p in range(L):
            d = rows[tab_off[k], p]
            bits |= 1 << (d - 1)
            total += d
        if POPCOUNT[bits] == L and COMBINATIONS[L, total] == 1:
            out[k] = bits
    return out


@kernel
def perm_count(masks, digits):
    """How many ways to give the cells of ``masks`` each a different digit of ``digits``
    (as many as the cells) that its mask allows: the permanent of the 0/1 matrix, by
    Ryser's formula."""
    L = masks.shape[0]
    cm = np.zeros(L, np.int64)               # the masks compact
    n = 0
    for d in range(9):
        if digits >> d & 1:
            for i in range(L):
                cm[i] |= (masks[i] >> d & 1) << n
            n += 1
    total = 0
    for subset in range(1, 1 << L):
        prod = 1
        for i in range(L):
            prod *= POPCOUNT[cm[i] & subset]
            if prod == 0:
                break
        if (L - POPCOUNT[subset]) & 1:
            total -= prod
        else:
            total += prod
    return total


@kernel
def perm_projection(masks, digits, proj):
    """The digits each cell of ``masks`` holds in some way counted by ``perm_count``, into
    ``proj`` (digit bits, as the masks); False when there is no way.

    One perfect matching by augmenting paths, then Regin's rule: a cell keeps its
    matched digit, and every other digit of its mask whose node reaches the cell's
    and is reached from it in the graph of cell -> unmatched digit, digit ->
    its matched cell (nodes 0..L-1 the cells, L..2L-1 the digits).
    """
    L = masks.shape[0]
    cm = np.zeros(L, np.int64)               # the masks compact
    bit_of = np.empty(L, np.int64)           # compact digit -> digit bit
    n = 0
    for d in range(9):
        if digits >> d & 1:
            for i in range(L):
                cm[i] |= (masks[i] >> d & 1) << n
            bit_of[n] = 1 << d
            n += 1
    cell_of = np.full(L, -1, np.int64)       # the cell each compact digit is matched to
    digit_of = np.full(L, -1, np.int64)
    parent = np.empty(L, np.int64)           # the cell a digit was reached from
    queue = np.empty(L, np.int64)
    for c in range(L):                       # an augmenting path from each cell in turn
        for j in range(L):
            parent[j] = -1
        queue[0] = c
        head, tail = 0, 1
        end = -1
        while head < tail and end < 0:
            u = queue[head]
            head += 1
            for j in range(L):
                if cm[u] >> j & 1 and parent[j] < 0 and digit_of[u] != j:
                    parent[j] = u
                    if cell_of[j] < 0:
                        end = j
                        break
                    queue[tail] = cell_of[j]
                    tail += 1
        if end < 0:
            return False
        j = end
        while j >= 0:                        # flip the path
            u = parent[j]
            nxt = digit_of[u]
            digit_of[u] = j
            cell_of[j] = u
            j = nxt if u != c else -1
    reach = np.zeros(2 * L, np.int64)
    for c in range(L):
        for j in range(L):
            if cm[c] >> j & 1 and digit_of[c] != j:
                reach[c] |= 1 << (L + j)
        reach[L + digit_of[c]] |= 1 << c
    for w in range(2 * L):                   # transitive closure (Warshall, bit rows)
        for u in range(2 * L):
            if reach[u] >> w & 1:
                reach[u] |= reach[w]
    for c in range(L):
        proj[c] = bit_of[digit_of[c]]
        for j in range(L):
            if (cm[c] >> j & 1 and reach[c] >> (L + j) & 1
                    and reach[L + j] >> c & 1):
                proj[c] |= bit_of[j]
    return True


@kernel
def list_perms(masks, digits, rows, lo, hi, found, proj):
    """Every way counted by ``perm_count``, as the rows of ``rows[lo:hi]`` (in
    lexicographic order, each a permutation of ``digits``) that hold it, into
    ``found`` (room assumed); the digits of each column over them into ``proj``.
    Returns how many (a way with no row is left out: none, if the block holds
    every permutation the masks allow).

    A depth-first walk over the places, lowest digit first, that keeps the rows
    holding the digits chosen so far: a range of the block (it is in
    lexicographic order), narrowed at each place by two binary searches on that
    column; an empty range ends the branch.
    """
    L = masks.shape[0]
    for p in range(L):
        proj[p] = 0
    narrow = np.empty(L, np.int64)           # the masks narrowed to their matchings' digits:
    if not perm_projection(masks, digits, narrow):   # far fewer dead ends below
        return 0
    left = np.zeros(L, np.int64)             # the digits still to try at each place (bits)
    at = np.zeros(L, np.int64)               # the digit each place holds (0-8)
    first = np.zeros(L + 1, np.int64)        # the rows holding the places before each
    last = np.zeros(L + 1, np.int64)
    first[0], last[0] = lo, hi
    used = 0
    count = 0
    level = 0
    left[0] = narrow[0]
    while level >= 0:
        if left[level] == 0:                 # back up
            level -= 1
            if level >= 0:
                used &= ~(1 << at[level])
            continue
        j = 0
        while not left[level] >> j & 1:
            j += 1
        left[level] &= ~(1 << j)
        want = j + 1
        a, b = first[level], last[level]     # the first row with want or more here
        while a < b:
            mid = (a + b) // 2
            if rows[mid, level] < want:
                a = mid + 1
            else:
                b = mid
        start = a
        b = last[level]                      # the first row with more than want
        while a < b:
            mid = (a + b) // 2
            if rows[mid, level] <= want:
                a = mid + 1
            else:
                b = mid
        if start == a:                       # no row holds these digits
            continue
        at[level] = j
        if level == L - 1:
            found[count] = start
            count += 1
            for p in range(L):
                proj[p] |= 1 << at[p]
            continue
        used |= 1 << j
        ok = True                            # every later place keeps a digit
        for q in range(level + 1, L):
            ok = ok and narrow[q] & ~used != 0
        if ok:
            first[level + 1], last[level + 1] = start, a
            level += 1
            left[level] = narrow[level] & ~used
        else:
            used &= ~(1 << j)
    return count
