"""Stage 2, jposs: the joint possibilities (tables) of each entry.

Glossary
--------
mask   : a cell's candidates as a digit set (bit ``d - 1`` for digit ``d``).
table  : an entry's ``(n, L)`` rows, one per ordered way to fill its ``L`` cells
         with distinct candidates adding up to its sum, in lexicographic order.
rows, tab_off : the packed form of all tables; entry ``k``'s table is
         ``rows[tab_off[k]:tab_off[k + 1], :L_k]`` (rows are padded to 9 digits).
ent_var : an entry's cells as compact variable ids ``0..V-1`` instead of flat indices.
support : the digits of a cell that some row of an entry's table puts there (the
         table's column); ``support_masks`` narrows each mask to the support of
         every entry of its cell until nothing changes: the masks of ``force``'s
         fixpoint, reached without a row.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ...combos import (ALL_DIGITS, COMBO_BITS, COMBO_OFF, LOWEST_DIGIT, MAX_SUM, MAX_TOTAL,
                       MIN_SUM, PARTNERS, POPCOUNT)
from ..core.codes import CONTRADICTION, OK, OVER_BUDGET, TIMED_OUT
from ..core.jit import INT, INTS, NO_DEADLINE, borrow, copy_into, kernel, monotonic_ns
from ..core.workqueue import dequeue, enqueue, new_queue


@kernel
def gen_table(masks, total, rows, n_rows, max_rows):
    """Append every row of one entry's table to ``rows`` from row ``n_rows`` on.

    ``masks`` holds the candidates of the entry's cells; rows come out in
    lexicographic order. Returns ``(rows, n_rows)``; ``n_rows`` is -1 once the table
    would pass ``max_rows`` rows in all (a budget, not a contradiction).

    Up to three cells, loops over the digits write the rows. More, ``fill_rows`` writes
    them until ``rows`` is full, then it grows and the walk goes on from where it
    stopped: an array given a new value in a loop is reference-counted at every turn of
    it (atomic operations, which would cost most of the build's time). ``rows`` grows
    to twice its size or more, its new rows not set (memory not yet written is not
    resident): each row is written in full, padding included.
    """
    L = masks.shape[0]
    if L <= 3:              # one to three cells: loops over the digits, no walk
        if n_rows + 72 > rows.shape[0]:         # the most such a table holds (9 * 8)
            grown = np.empty((max(n_rows + 72, 2 * rows.shape[0]), 9), np.int8)
            copy_into(grown.reshape(grown.size), rows.reshape(rows.size))
            rows = grown
        for a in range(1, 10):
            if not masks[0] >> (a - 1) & 1 or (L == 1 and a != total):
                continue
            for b in range(1 if L > 1 else 0, 10 if L > 1 else 1):     # one cell: b is 0
                c = total - a - b if L == 3 else 0
                if L > 1 and (b == a or not masks[1] >> (b - 1) & 1
                              or (L == 2 and a + b != total)
                              or (L == 3 and not (1 <= c <= 9 and c != a and c != b
                                                  and masks[2] >> (c - 1) & 1))):
                    continue
                if n_rows >= max_rows:
                    return rows, -1
                rows[n_rows, 0] = a
                rows[n_rows, 1] = b
                rows[n_rows, 2] = c
                for q in range(3, 9):
                    rows[n_rows, q] = 0
                n_rows += 1
        return rows, n_rows
    walk = np.empty(2 * L + 5, np.int64)      # the rest of the masks, the digits, the place
    walk[L] = 0
    for p in range(L - 1, -1, -1):            # walk[p]: union of the masks after p
        walk[p] = walk[p + 1] | (masks[p + 1] if p + 1 < L else 0)
    walk[L + 1] = 0                           # digit[0]
    walk[2 * L + 1:] = 0                      # p, used, partial, a row to write
    while True:
        n_rows, done = fill_rows(masks, total, rows, n_rows, min(max_rows, rows.shape[0]),
                                 walk)
        if done:
            return rows, n_rows
        if n_rows >= max_rows:
            return rows, -1
        grown = np.empty((max(n_rows + 1, 2 * rows.shape[0]), 9), np.int8)
        copy_into(grown.reshape(grown.size), rows.reshape(rows.size))
        rows = grown


@kernel
def fill_rows(masks, total, rows, n_rows, room, walk):
    """``gen_table``'s walk over the digits of an entry of two cells or more, writing rows
    from ``n_rows`` until ``room``: ``(n_rows, done)``. Not done, it stopped with ``rows``
    full and a row found, its place kept in ``walk`` (``rest``, ``digit``, then ``p``,
    ``used``, ``partial`` and 1: a row to write first)."""
    masks, rows, walk = borrow(masks), borrow(rows), borrow(walk)
    L = masks.shape[0]
    rest = walk[:L + 1]                       # rest[p]: union of the masks after p
    digit = walk[L + 1:2 * L + 1]
    p, used, partial, pending = walk[2 * L + 1], walk[2 * L + 2], walk[2 * L + 3], walk[2 * L + 4]
    while p >= 0:
        if pending:                            # the row found when rows was full
            pending = 0
            found = digit[p]
        else:
            d = digit[p]
            if d > 0:                          # step back from the digit tried last
                used &= ~(1 << (d - 1))
                partial -= d
            left = L - 1 - p
            # candidates above d, lowest first
            cand = masks[p] & ~used & ~((1 << d) - 1) & ALL_DIGITS
            found = 0
            while cand:
                low = cand & -cand
                e = LOWEST_DIGIT[low]
                need = total - partial - e
                avail = rest[p] & ~(used | low)
                if left == 1:                  # the last digit must be exactly what is left
                    if 1 <= need <= 9 and avail >> (need - 1) & 1:
                        found = e
                        break
                elif MIN_SUM[avail, left] <= need <= MAX_SUM[avail, left]:
                    found = e
                    break
                cand ^= low
            if found == 0:
                digit[p] = 0
                p -= 1
                continue
            digit[p] = found
            if p < L - 2:
                used |= 1 << (found - 1)
                partial += found
                p += 1
                digit[p] = 0
                continue
            if n_rows >= room:                 # full: the row is written once it grew
                walk[2 * L + 1], walk[2 * L + 2], walk[2 * L + 3] = p, used, partial
                walk[2 * L + 4] = 1
                return n_rows, False
        # p == L - 2: the last digit is what is left of the total (checked above)
        last = total - partial - found
        for q in range(L - 1):
            rows[n_rows, q] = digit[q]
        rows[n_rows, L - 1] = last
        for q in range(L, 9):
            rows[n_rows, q] = 0
        n_rows += 1
        used |= 1 << (found - 1)              # so the next try at p steps back from it
        partial += found
    return n_rows, True


#: The types ``entries.entry_variables`` calls ``var_entries`` with (see ``ahead``).
VAR_ENTRIES_TYPES = (INTS, INTS, INT)


@kernel
def var_entries(ent_off, ent_var, V):
    """The entries holding each variable, as CSR: ``var_ent[var_eoff[v]:var_eoff[v + 1]]``."""
    var_eoff = np.zeros(V + 1, np.int64)
    for i in range(ent_var.shape[0]):
        var_eoff[ent_var[i] + 1] += 1
    for v in range(V):
        var_eoff[v + 1] += var_eoff[v]
    fill = var_eoff[:-1].copy()
    var_ent = np.zeros(ent_var.shape[0], np.int64)
    for k in range(ent_off.shape[0] - 1):
        for i in range(ent_off[k], ent_off[k + 1]):
            v = ent_var[i]
            var_ent[fill[v]] = k
            fill[v] += 1
    return var_eoff, var_ent


@kernel
def build_tables(ent_off, ent_var, ent_sum, mask, max_rows, deadline, forced):
    """The table of every entry, built from ``mask`` (narrowed in place), packed in entry
    order; each table's rows in lexicographic order.

    With ``forced``, the tables at ``force``'s fixpoint (the model's): the fixpoint keeps,
    in each table, the rows whose digits all fit the masks, and in each mask the digits
    every table of the cell still uses; ``support_masks`` reaches those masks entry by
    entry without a row, so each table is then written once, from them, with no row to
    drop. Otherwise the essay's jposs: repeatedly the unbuilt entry with the smallest
    estimate (the product of its cells' candidate counts, ties to the lower index) gets
    its table from the masks as they are, and its cells are narrowed to the digits of
    its columns (``entry_support``: those digits, found without the rows).

    Returns ``(rows, tab_off, status, culprit)``: OK, or CONTRADICTION with an entry that
    emptied (``forced`` only: an essay's table may be empty), OVER_BUDGET past
    ``max_rows`` rows, TIMED_OUT past ``deadline``; with any status but OK, no rows and
    empty tables.
    """
    E = ent_sum.shape[0]
    empty, none = np.zeros((0, 9), np.int8), np.zeros(E + 1, np.int64)
    if deadline != NO_DEADLINE and monotonic_ns() > deadline:
        return empty, none, TIMED_OUT, -1
    var_eoff, var_ent = var_entries(ent_off, ent_var, mask.shape[0])
    cell_mask = np.empty(ent_var.shape[0], np.int64)    # the masks each table is built from
    if forced:
        culprit = support_masks(ent_off, ent_var, ent_sum, mask, var_eoff, var_ent, deadline)
        if culprit == -2:
            return empty, none, TIMED_OUT, -1
        if culprit >= 0:
            return empty, none, CONTRADICTION, culprit
        for i in range(ent_var.shape[0]):
            cell_mask[i] = mask[ent_var[i]]
    else:
        est = np.ones(E, np.int64)                      # each entry's estimate
        for k in range(E):
            for i in range(ent_off[k], ent_off[k + 1]):
                est[k] *= POPCOUNT[mask[ent_var[i]]]
        built = np.zeros(E, np.bool_)
        out, work = np.zeros(9, np.int64), np.zeros(SUPPORT_SCRATCH, np.int64)
        layers = np.zeros((10, 8), np.uint64)
        for _ in range(E):
            if deadline != NO_DEADLINE and monotonic_ns() > deadline:
                return empty, none, TIMED_OUT, -1
            k = -1
            for j in range(E):
                if not built[j] and (k < 0 or est[j] < est[k]):
                    k = j
            built[k] = True
            a = ent_off[k]
            L = ent_off[k + 1] - a
            for i in range(a, a + L):
                cell_mask[i] = mask[ent_var[i]]
            if not entry_support(k, ent_off, ent_var, ent_sum, mask, out, work, layers):
                out[:L] = 0                             # an empty table: no digit anywhere
            for i in range(L):
                v = ent_var[a + i]
                if out[i] != mask[v]:
                    mask[v] = out[i]
                    for q in range(var_eoff[v], var_eoff[v + 1]):
                        j = var_ent[q]
                        if not built[j]:
                            est[j] = 1
                            for c in range(ent_off[j], ent_off[j + 1]):
                                est[j] *= POPCOUNT[mask[ent_var[c]]]
    rows = np.empty((max(16, E), 9), np.int8)
    tab_off = np.zeros(E + 1, np.int64)
    n_rows = np.int64(0)                        # not the literal 0: one compile of gen_table
    for k in range(E):
        if deadline != NO_DEADLINE and monotonic_ns() > deadline:
            return empty, none, TIMED_OUT, -1
        a = ent_off[k]
        L = ent_off[k + 1] - a
        ways = 1
        for i in range(a, a + L):
            ways *= POPCOUNT[cell_mask[i]]
        if forced and ways == 1 and n_rows < rows.shape[0] and n_rows < max_rows:
            for i in range(L):                  # every cell forced: the one row
                rows[n_rows, i] = LOWEST_DIGIT[cell_mask[a + i]]
            for i in range(L, 9):
                rows[n_rows, i] = 0
            n_rows += 1
        else:
            rows, n_rows = gen_table(cell_mask[a:a + L], ent_sum[k], rows, n_rows, max_rows)
            if n_rows < 0:
                return empty, none, OVER_BUDGET, -1
        tab_off[k + 1] = n_rows
    if rows.shape[0] - n_rows > 4096:           # the room grown past the rows: let it go
        return rows[:n_rows].copy(), tab_off, OK, -1
    return rows[:n_rows], tab_off, OK, -1


def compact_cells(cells):
    """Pack a list of cell-index arrays: ``(ent_off, ent_var, var_cell)``.

    ``var_cell[v]`` is the flat cell of compact variable ``v``.
    """
    lengths = np.array([len(c) for c in cells], np.int64)
    ent_off = np.zeros(len(cells) + 1, np.int64)
    np.cumsum(lengths, out=ent_off[1:])
    flat = np.concatenate([np.asarray(c, np.int64).ravel() for c in cells]) if cells else \
        np.zeros(0, np.int64)
    var_cell, ent_var = np.unique(flat, return_inverse=True)
    return ent_off, ent_var.astype(np.int64), var_cell


def split_tables(rows, tab_off, ent_off):
    """The packed tables as a list of ``(n_k, L_k)`` int8 arrays."""
    return [rows[tab_off[k]:tab_off[k + 1], :ent_off[k + 1] - ent_off[k]].copy()
            for k in range(len(tab_off) - 1)]


def jposs(cells: Sequence[np.ndarray], sums: Sequence[int] | np.ndarray) -> list[np.ndarray]:
    """The essay's joint possibilities of each entry.

    Starting with 1-9 in every cell, repeatedly build the table of the entry
    with the fewest estimated possibilities (the product of its cells'
    candidate counts, ties to the lower index) and narrow its cells to the
    digits its table uses.

    Parameters
    ----------
    cells : list of int arrays
        Cell indices of each entry, as from ``entries``.
    sums : sequence of int
        The clue of each entry.

    Returns
    -------
    list of (n_k, len_k) int8 arrays
        One row per ordered filling, rows in lexicographic order.

    Examples
    --------
    >>> t = jposs([[0, 1], [0, 2]], [4, 3])
    >>> [x.tolist() for x in t]
    [[[1, 3], [3, 1]], [[1, 2]]]
    """
    sums = np.asarray(sums, np.int64).ravel()
    if len(sums) != len(cells):
        raise ValueError(f"{len(cells)} entries but {len(sums)} sums")
    ent_off, ent_var, var_cell = compact_cells(cells)
    mask = np.full(len(var_cell), ALL_DIGITS, np.int64)
    rows, tab_off, _, _ = build_tables(ent_off, ent_var, sums, mask, np.int64(2**62),
                                       np.int64(NO_DEADLINE), False)
    return split_tables(rows, tab_off, ent_off)


@kernel
def narrow_masks(ent_off, ent_var, ent_sum, mask, var_eoff, var_ent):
    """Narrow ``mask`` in place by each entry's combinations until nothing changes (the
    entries in a queue, first in, first out).

    A combination of an entry's sum is kept when it holds every digit forced in the
    entry, uses only digits some cell allows and meets every cell's candidates. Each
    cell keeps the digits of the kept combinations (less the digits forced elsewhere in
    the entry). Returns -1, or the entry found impossible (a cell left empty).
    """
    queue, inq, qstate = new_queue(ent_sum.shape[0])
    return narrow_queued(ent_off, ent_var, ent_sum, mask, var_eoff, var_ent,
                         (queue, inq, qstate, np.zeros(9, np.int64)))


@kernel
def narrow_queued(ent_off, ent_var, ent_sum, mask, var_eoff, var_ent, work):
    """``narrow_masks`` with its (empty) queue and a row of 9 for each cell's new candidates:
    ``work`` is ``(queue, inq, qstate, out)``; the loop, on views that are not
    reference-counted (``jit.borrow``)."""
    ent_off, ent_var = borrow(ent_off), borrow(ent_var)
    ent_sum, mask = borrow(ent_sum), borrow(mask)
    var_eoff, var_ent = borrow(var_eoff), borrow(var_ent)
    queue, inq, qstate, out = borrow(work[0]), borrow(work[1]), borrow(work[2]), borrow(work[3])
    for k in range(ent_sum.shape[0]):
        enqueue(queue, inq, qstate, k)
    while qstate[1] > 0:
        k = dequeue(queue, inq, qstate)
        a = ent_off[k]
        L = ent_off[k + 1] - a
        union = 0
        forced = 0
        for p in range(L):
            m = mask[ent_var[a + p]]
            if m == 0 or (POPCOUNT[m] == 1 and forced & m):
                return k
            union |= m
            if POPCOUNT[m] == 1:
                forced |= m
            out[p] = 0
        group = L * (MAX_TOTAL + 1) + ent_sum[k]
        for i in range(COMBO_OFF[group], COMBO_OFF[group + 1]):
            c = COMBO_BITS[i]
            if c & forced != forced or c & ~union:
                continue
            fits = True
            for p in range(L):
                if not mask[ent_var[a + p]] & c:
                    fits = False
                    break
            if fits:
                for p in range(L):
                    m = mask[ent_var[a + p]]
                    out[p] |= m & c if POPCOUNT[m] == 1 else m & c & ~forced
        for p in range(L):
            if out[p] == 0:
                return k
        for p in range(L):
            v = ent_var[a + p]
            if out[p] != mask[v]:
                mask[v] = out[p]
                for q in range(var_eoff[v], var_eoff[v + 1]):   # its other entries
                    if var_ent[q] != k:
                        enqueue(queue, inq, qstate, var_ent[q])
    return -1


def _subset_words():
    """WITHOUT[j, w]: word ``w`` of the 512-bit set of the digit sets (of 9 digits) that
    lack digit ``j``: bit ``i`` of word ``w`` set when set ``64 w + i`` lacks bit ``j``."""
    index = np.arange(512).reshape(8, 64)
    out = np.zeros((9, 8), np.uint64)
    for j in range(9):
        lacks = (index >> j) & 1 == 0
        out[j] = (lacks.astype(np.uint64) << np.arange(64, dtype=np.uint64)).sum(
            axis=1, dtype=np.uint64)
    return out


#: WITHOUT[j]: the digit sets lacking their ``j``-th digit, as 8 words of 64 bits.
WITHOUT = _subset_words()


def _sum_words():
    """SUM_WORDS[L, t]: the digit sets of ``L`` digits adding up to ``t``, as 8 words."""
    out = np.zeros((10, MAX_TOTAL + 1, 8), np.uint64)
    for s in range(512):
        digits = [d + 1 for d in range(9) if s >> d & 1]
        out[len(digits), sum(digits), s >> 6] |= np.uint64(1) << np.uint64(s & 63)
    return out


#: SUM_WORDS[L, t]: the digit sets of ``L`` digits adding up to ``t``, as 8 words.
SUM_WORDS = _sum_words()
#: ``entry_support``'s scratch: the open cells' masks, their places in the entry and the
#: digits found for them.
CELLS, OPEN, FOUND = 0, 9, 18
SUPPORT_SCRATCH = 27
#: ``entry_support``: the most ways to fill the open cells outside the two widest (the
#: product of their digit counts) for which it walks them rather than ``sets_support``.
MOST_OUTSIDE = 125


@kernel
def entry_support(k, ent_off, ent_var, ent_sum, mask, out, work, layers):
    """Entry ``k``'s cells narrowed to the digits some row of its table uses: ``out[p]``
    gets the digits of cell ``p`` that some way to fill the entry from the masks puts
    there (what ``force`` keeps of a table's column, found without its rows).

    A cell down to one digit is settled. The open cells: one takes what is left of
    the sum; two, the digits whose partner the other allows (``PARTNERS``); three,
    each first digit, then the pairs; four, and five with at most MOST_OUTSIDE ways to fill
    the cells but the two widest, each digit of those cells, then the pair (``PARTNERS``);
    more, ``sets_support``.
    ``work`` is SUPPORT_SCRATCH int64, ``layers`` ``sets_support``'s. Returns False when
    a cell is left empty.
    """
    a = ent_off[k]
    L = ent_off[k + 1] - a
    total = ent_sum[k]
    # a cell down to one digit is settled: its digit leaves the other cells and the sum
    forced = 0
    for p in range(L):
        m = mask[ent_var[a + p]]
        if m == 0 or (POPCOUNT[m] == 1 and forced & m):
            return False
        if POPCOUNT[m] == 1:
            forced |= m
            total -= LOWEST_DIGIT[m]
            out[p] = m
    n = 0                                       # the open cells: work[CELLS:CELLS + n]
    for p in range(L):
        m = mask[ent_var[a + p]]
        if POPCOUNT[m] > 1:
            work[CELLS + n] = m & ~forced
            work[OPEN + n] = p
            n += 1
    if n == 0:
        return total == 0
    if total < 0 or total > MAX_TOTAL:
        return False
    few = False
    if 4 <= n <= 5:         # the open cells by their digit counts, fewest first: few ways
        for q in range(1, n):       # to fill those but the last two, and walking them
            r = q                   # beats ``sets_support``
            while r > 0 and POPCOUNT[work[CELLS + r]] < POPCOUNT[work[CELLS + r - 1]]:
                work[CELLS + r], work[CELLS + r - 1] = work[CELLS + r - 1], work[CELLS + r]
                work[OPEN + r], work[OPEN + r - 1] = work[OPEN + r - 1], work[OPEN + r]
                r -= 1
        ways = 1
        for q in range(n - 2):
            ways *= POPCOUNT[work[CELLS + q]]
        few = ways <= MOST_OUTSIDE
    found = FOUND
    if n == 1:
        m = work[CELLS]
        work[found] = m & (1 << (total - 1)) if 1 <= total <= 9 else 0
    elif n == 2:                                # the digits whose partner is across
        m0, m1 = work[CELLS], work[CELLS + 1]
        work[found] = m0 & PARTNERS[total, m1] if total <= 17 else 0
        work[found + 1] = m1 & PARTNERS[total, work[found]] if total <= 17 else 0
    elif n == 3:                                # each first digit, then a pair
        m0, m1, m2 = work[CELLS], work[CELLS + 1], work[CELLS + 2]
        work[found], work[found + 1], work[found + 2] = 0, 0, 0
        rest = m0
        while rest:
            low = rest & -rest
            rest ^= low
            t = total - LOWEST_DIGIT[low]
            if t > 17 or t < 3:
                continue
            second = m1 & ~low & PARTNERS[t, m2 & ~low]
            if second:
                work[found] |= low
                work[found + 1] |= second
                work[found + 2] |= m2 & ~low & PARTNERS[t, second]
    elif few:                                   # each digit of the cells but a pair,
        m0, m1 = work[CELLS], work[CELLS + 1]   # then the pair (PARTNERS)
        m2 = work[CELLS + 2] if n == 5 else 0
        pa, pb = work[CELLS + n - 2], work[CELLS + n - 1]
        f0, f1, f2, fa, fb = 0, 0, 0, 0, 0
        rest0 = m0
        while rest0:
            low0 = rest0 & -rest0
            rest0 ^= low0
            rest1 = m1 & ~low0
            while rest1:
                low1 = rest1 & -rest1
                rest1 ^= low1
                rest2 = m2 & ~(low0 | low1) if n == 5 else -1    # four cells: one pass
                while rest2:
                    low2 = rest2 & -rest2 if n == 5 else 0
                    rest2 = rest2 ^ low2 if n == 5 else 0
                    t = total - LOWEST_DIGIT[low0] - LOWEST_DIGIT[low1] - LOWEST_DIGIT[low2]
                    if t > 17 or t < 3:
                        continue
                    used = low0 | low1 | low2
                    second = pa & ~used & PARTNERS[t, pb & ~used]
                    if second:
                        f0, f1, f2 = f0 | low0, f1 | low1, f2 | low2
                        fa, fb = fa | second, fb | (pb & ~used & PARTNERS[t, second])
        work[found], work[found + 1] = f0, f1
        if n == 5:
            work[found + 2] = f2
        work[found + n - 2], work[found + n - 1] = fa, fb
    else:
        sets_support(n, total, work, layers)
    for q in range(n):
        if work[found + q] == 0:
            return False
        out[work[OPEN + q]] = work[found + q]
    return True


@kernel
def sets_support(n, total, work, layers):
    """``entry_support`` for ``n`` open cells of masks ``work[CELLS:CELLS + n]`` adding up
    to ``total``: the digits each can take, in ``work[FOUND:FOUND + n]``.

    Layer ``q`` is the set of the digit sets that can fill the first ``q`` cells, a
    bit set over the 512 digit sets in 8 words of 64 bits (set ``s`` is bit
    ``s % 64`` of word ``s // 64``; ``layers[q]``, a (10, 8) uint64 scratch); layer
    ``q + 1`` is layer ``q`` grown by each digit cell ``q`` allows: a shift of the
    sets that lack it, within each word for 1-6, from word to word for 7-9. The last
    layer's sets of the sum (``SUM_WORDS``) are those that reach the end; back from
    them, digit ``d`` stays in cell ``q`` when a set of layer ``q`` lacking it, grown
    by it, reaches the end, and those sets reach it in turn. The eight words are
    eight locals, which numba keeps in registers.
    """
    z = np.uint64(0)
    f0, f1, f2, f3, f4, f5, f6, f7 = np.uint64(1), z, z, z, z, z, z, z   # the empty set
    for q in range(n):                          # forward: layer q + 1 from layer q
        layers[q, 0], layers[q, 1], layers[q, 2], layers[q, 3] = f0, f1, f2, f3
        layers[q, 4], layers[q, 5], layers[q, 6], layers[q, 7] = f4, f5, f6, f7
        g0, g1, g2, g3, g4, g5, g6, g7 = z, z, z, z, z, z, z, z
        m = work[CELLS + q]
        while m:
            j = LOWEST_DIGIT[m & -m] - 1
            m &= m - 1
            if j < 6:
                t = np.uint64(1 << j)
                g0 |= (f0 & WITHOUT[j, 0]) << t
                g1 |= (f1 & WITHOUT[j, 1]) << t
                g2 |= (f2 & WITHOUT[j, 2]) << t
                g3 |= (f3 & WITHOUT[j, 3]) << t
                g4 |= (f4 & WITHOUT[j, 4]) << t
                g5 |= (f5 & WITHOUT[j, 5]) << t
                g6 |= (f6 & WITHOUT[j, 6]) << t
                g7 |= (f7 & WITHOUT[j, 7]) << t
            elif j == 6:                        # 7: word w to word w + 1 (w even)
                g1, g3, g5, g7 = g1 | f0, g3 | f2, g5 | f4, g7 | f6
            elif j == 7:                        # 8: word w to word w + 2
                g2, g3, g6, g7 = g2 | f0, g3 | f1, g6 | f4, g7 | f5
            else:                               # 9: word w to word w + 4
                g4, g5, g6, g7 = g4 | f0, g5 | f1, g6 | f2, g7 | f3
        f0, f1, f2, f3, f4, f5, f6, f7 = g0, g1, g2, g3, g4, g5, g6, g7
    # the sets of layer q + 1 that reach the end: at first, the last layer's of the sum
    b0, b1 = f0 & SUM_WORDS[n, total, 0], f1 & SUM_WORDS[n, total, 1]
    b2, b3 = f2 & SUM_WORDS[n, total, 2], f3 & SUM_WORDS[n, total, 3]
    b4, b5 = f4 & SUM_WORDS[n, total, 4], f5 & SUM_WORDS[n, total, 5]
    b6, b7 = f6 & SUM_WORDS[n, total, 6], f7 & SUM_WORDS[n, total, 7]
    for q in range(n - 1, -1, -1):              # backward: the steps that reach the end
        h0, h1, h2, h3 = layers[q, 0], layers[q, 1], layers[q, 2], layers[q, 3]
        h4, h5, h6, h7 = layers[q, 4], layers[q, 5], layers[q, 6], layers[q, 7]
        r0, r1, r2, r3, r4, r5, r6, r7 = z, z, z, z, z, z, z, z
        m = work[CELLS + q]
        kept = 0
        while m:
            low = m & -m
            m ^= low
            j = LOWEST_DIGIT[low] - 1
            if j < 6:                           # the sets S lacking j with S + j below
                t = np.uint64(1 << j)
                c0 = (b0 & ~WITHOUT[j, 0]) >> t & h0
                c1 = (b1 & ~WITHOUT[j, 1]) >> t & h1
                c2 = (b2 & ~WITHOUT[j, 2]) >> t & h2
                c3 = (b3 & ~WITHOUT[j, 3]) >> t & h3
                c4 = (b4 & ~WITHOUT[j, 4]) >> t & h4
                c5 = (b5 & ~WITHOUT[j, 5]) >> t & h5
                c6 = (b6 & ~WITHOUT[j, 6]) >> t & h6
                c7 = (b7 & ~WITHOUT[j, 7]) >> t & h7
            elif j == 6:
                c0, c1, c2, c3, c4, c5, c6, c7 = b1 & h0, z, b3 & h2, z, b5 & h4, z, b7 & h6, z
            elif j == 7:
                c0, c1, c2, c3, c4, c5, c6, c7 = b2 & h0, b3 & h1, z, z, b6 & h4, b7 & h5, z, z
            else:
                c0, c1, c2, c3, c4, c5, c6, c7 = b4 & h0, b5 & h1, b6 & h2, b7 & h3, z, z, z, z
            if c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7:
                kept |= low
                r0, r1, r2, r3 = r0 | c0, r1 | c1, r2 | c2, r3 | c3
                r4, r5, r6, r7 = r4 | c4, r5 | c5, r6 | c6, r7 | c7
        work[FOUND + q] = kept
        b0, b1, b2, b3, b4, b5, b6, b7 = r0, r1, r2, r3, r4, r5, r6, r7


@kernel
def support_masks(ent_off, ent_var, ent_sum, mask, var_eoff, var_ent, deadline):
    """Narrow ``mask`` in place by ``entry_support`` until nothing changes: the masks of
    ``force``'s fixpoint, reached without a table.

    Returns -1, the entry found impossible, or -2 past ``deadline``.
    """
    E = ent_sum.shape[0]
    short, in_short, short_state = new_queue(E)
    long, in_long, long_state = new_queue(E)
    return support_queued(ent_off, ent_var, ent_sum, mask, var_eoff, var_ent, deadline,
                          (short, in_short, short_state, long, in_long, long_state,
                           np.zeros(9, np.int64), np.zeros(SUPPORT_SCRATCH, np.int64),
                           np.zeros((10, 8), np.uint64)))


@kernel
def support_queued(ent_off, ent_var, ent_sum, mask, var_eoff, var_ent, deadline, work):
    """``support_masks`` with its two (empty) queues, a row of 9 and ``entry_support``'s
    scratch: ``work`` is ``(short, in_short, short_state, long, in_long, long_state, out,
    scratch, layers)``. Entries of up to three cells go first: they are the cheapest, and
    what they narrow makes the longer ones cheap."""
    ent_off, ent_var = borrow(ent_off), borrow(ent_var)
    ent_sum, mask = borrow(ent_sum), borrow(mask)
    var_eoff, var_ent = borrow(var_eoff), borrow(var_ent)
    short, in_short, short_state = borrow(work[0]), borrow(work[1]), borrow(work[2])
    long, in_long, long_state = borrow(work[3]), borrow(work[4]), borrow(work[5])
    out, scratch, layers = borrow(work[6]), borrow(work[7]), borrow(work[8])
    for k in range(ent_sum.shape[0]):
        if ent_off[k + 1] - ent_off[k] <= 3:
            enqueue(short, in_short, short_state, k)
        else:
            enqueue(long, in_long, long_state, k)
    steps = 0
    while short_state[1] > 0 or long_state[1] > 0:
        steps += 1
        if deadline != NO_DEADLINE and steps % 64 == 0 and monotonic_ns() > deadline:
            return -2
        if short_state[1] > 0:
            k = dequeue(short, in_short, short_state)
        else:
            k = dequeue(long, in_long, long_state)
        if not entry_support(k, ent_off, ent_var, ent_sum, mask, out, scratch, layers):
            return k
        a = ent_off[k]
        for p in range(ent_off[k + 1] - a):
            v = ent_var[a + p]
            if out[p] == mask[v]:
                continue
            mask[v] = out[p]
            for q in range(var_eoff[v], var_eoff[v + 1]):
                j = var_ent[q]
                if j == k:
                    continue
                if ent_off[j + 1] - ent_off[j] <= 3:
                    enqueue(short, in_short, short_state, j)
                else:
                    enqueue(long, in_long, long_state, j)
    return -1
