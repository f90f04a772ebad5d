"""Counting solutions without listing them, estimating how many there are, and reading
a few of them back from a count.

Glossary
--------
piece    : a set of undecided entries linked through undecided cells; decided
           cells link nothing, so pieces are independent and their counts multiply.
scope    : the entries a count is about (a piece, or all of them).
estimate : Knuth's estimate of the number of solutions from one random descent:
           the product of the branching factors on the way to a solution, 0 if
           the descent dies. Its mean is the true count.
depth    : an entry's depth in a tree decomposition of the undecided entries
           (``decomposition_depths``); an exact count fans out over a big piece's
           least deep entry first, which splits the piece soonest.
rank     : a cell's level in a nested dissection of the grid (``dissect``); an exact
           count given ranks decides a piece's cell of least rank first.
fan      : what a count branches on (``open_fan``): the rows of an entry, or in an
           exact count, the digits of a cell (the piece's of least rank, else
           that entry's with the fewest), so that a piece splits as soon as its
           decided cells cut it.
read back: solution number i of a scope, found by walking the count's own tree and
           passing over children whose counts add up to at most i
           (``scope_solution``): the count's pieces, without a hunt.
"""

from __future__ import annotations

import math

import numpy as np
from numba.experimental import structref

from ...combos import LOWEST_DIGIT, POPCOUNT
from ..core import ahead
from ..core.codes import COUNT_TIMED_OUT, MEMO_FULL, OUT_OF_NODES, WALKED
from .dissect import LEAF
from ..force import apply_row, list_lazy, pick_entry, propagate, start_state
from ..core.jit import (INT, INTS, NO_DEADLINE, RecordType, by_reference, copy_into, kernel,
                        monotonic_ns, sort_ints)
from .memo import MEMO, WIDE, lookup, store
from ..core.state import ROOT
from .sums import network_of, sums_feasible
from .trail import close_levels, open_level, step, trail_for

#: Exact counts (no limit) fan out over the pieces of this many entries or more in the
#: order of a tree decomposition (``decomposition_depths``; see bench/HISTORY.md).
ORDERED_PIECE = 24
#: ... on grids of at most this many entries (the decomposition takes E * E bytes).
ORDERED_MOST_ENTRIES = 4096


#: Primes whose residues a count keeps past int64 (``wide_set``); their product is about
#: 2**124, so a count below WIDE_EXACT reads back exactly from them (``wide_value``).
WIDE_PRIMES = np.array([2147483647, 2147483629, 2147483587, 2147483579], np.int64)
#: The largest count ``wide_value`` reads back (its size is known far closer than that).
WIDE_EXACT = 2.0 ** 120


@kernel
def wide_set(wide, n):
    """Make ``wide`` (WIDE floats) the count ``n >= 0`` past int64: ``wide[0]`` its size (a
    float, close enough to tell a count below WIDE_EXACT), ``wide[1:]`` its residues
    modulo WIDE_PRIMES, each an integer below 2**31 that a float holds exactly.
    ``wide_combine`` adds and multiplies such counts in place."""
    wide[0] = n
    for i in range(WIDE_PRIMES.shape[0]):
        wide[1 + i] = n % WIDE_PRIMES[i]


@kernel
def wide_combine(wide, other, times):
    """``wide *= other`` when ``times``, else ``wide += other``: counts past int64 (see
    ``wide_set``)."""
    wide[0] = wide[0] * other[0] if times else wide[0] + other[0]
    for i in range(WIDE_PRIMES.shape[0]):
        a, b = np.int64(wide[1 + i]), np.int64(other[1 + i])
        wide[1 + i] = (a * b if times else a + b) % WIDE_PRIMES[i]


def wide_value(wide):
    """The count past int64 that ``wide`` holds (see ``wide_set``), read back from its
    residues (Chinese remainders); None when it may be WIDE_EXACT or more.

    Examples
    --------
    >>> w = np.empty(WIDE)
    >>> wide_set(w, 10 ** 17); wide_combine(w, w, True); wide_combine(w, w, False)
    >>> wide_value(w) == 2 * 10 ** 34
    True
    """
    if not wide[0] < WIDE_EXACT:
        return None
    whole = math.prod(int(p) for p in WIDE_PRIMES)
    value = 0
    for p, r in zip(WIDE_PRIMES.tolist(), wide[1:]):
        rest = whole // p
        value += int(r) * rest * pow(rest, -1, p)
    return value % whole


@kernel
def components(scope, tables, live, label):
    """Split the undecided entries of ``scope`` into independent pieces.

    Two undecided entries are linked when they share an undecided cell; decided
    cells link nothing. Returns ``(members, starts)``: piece ``i`` is
    ``members[starts[i]:starts[i + 1]]``. ``label`` is scratch, one per entry,
    left at -1.
    """
    ent_off, ent_var, var_eoff, var_ent = (tables.ent_off, tables.ent_var, tables.var_eoff,
                                           tables.var_ent)
    nalive, mask = live.nalive, live.mask
    members = np.empty(scope.shape[0], np.int64)
    starts = np.zeros(scope.shape[0] + 1, np.int64)
    n_members = 0
    n_pieces = 0
    for s in range(scope.shape[0]):
        k0 = scope[s]
        if nalive[k0] <= 1 or label[k0] >= 0:
            continue
        label[k0] = n_pieces
        first = n_members
        members[n_members] = k0
        n_members += 1
        i = first
        while i < n_members:                      # breadth-first over shared cells
            k = members[i]
            i += 1
            for q in range(ent_off[k], ent_off[k + 1]):
                v = ent_var[q]
                if POPCOUNT[mask[v]] > 1:
                    for t in range(var_eoff[v], var_eoff[v + 1]):
                        j = var_ent[t]
                        if label[j] < 0:
                            label[j] = n_pieces
                            members[n_members] = j
                            n_members += 1
        n_pieces += 1
        starts[n_pieces] = n_members
    for i in range(n_members):
        label[members[i]] = -1
    return members[:n_members], starts[:n_pieces + 1]



#: Bits of a key's fields (``piece_key``): an entry's number, the sum its undecided cells
#: must make (at most 45), a cell's mask.
KEY_ENTRY_BITS, KEY_SUM_BITS, KEY_MASK_BITS = 32, 6, 9


@kernel
def put_bits(key, at, value, width):
    """Write ``value`` (``0 <= value < 2**width``, ``width <= 32``) into the bit string
    ``key`` from bit ``at`` on (its bits there are 0); returns the bit after it."""
    w = at >> 6
    off = at & 63
    key[w] |= value << off
    if off + width > 64:
        key[w + 1] |= value >> (64 - off)
    return at + width


@kernel
def piece_key(members, tables, live):
    """The memo key of a piece (see ``memo``), its fields packed into int64 words.

    The number of its entries and their numbers in ascending order, then per
    entry the sum its undecided cells must make and the mask of each cell, 0
    for a decided one (KEY_*_BITS each; every field's width is fixed, so the key
    reads back one way). Tables hold every row that fits the root masks, so the
    piece's count is the number of fillings of its undecided cells from their
    masks in which each entry's undecided digits are different and make that
    sum (a decided digit of the entry is already out of its other cells'
    masks): the key fixes the count.
    """
    ent_off, ent_var, rows, mask = tables.ent_off, tables.ent_var, tables.rows, live.mask
    entries = members.copy()
    sort_ints(entries, np.int64(0), entries.shape[0])
    bits = KEY_ENTRY_BITS * (1 + entries.shape[0])
    for k in entries:
        bits += KEY_SUM_BITS + KEY_MASK_BITS * (ent_off[k + 1] - ent_off[k])
    key = np.zeros((bits + 63) >> 6, np.int64)
    at = put_bits(key, np.int64(0), entries.shape[0], KEY_ENTRY_BITS)
    for k in entries:
        at = put_bits(key, at, k, KEY_ENTRY_BITS)
    for k in entries:
        # any row gives the entry's sum (a lazy table's first row, dead or not: its digit
        # set, see ``perms``), less the digits decided
        r = live.perm[tables.tab_off[k]]
        a = ent_off[k]
        rest = 0
        for p in range(ent_off[k + 1] - a):
            rest += rows[r, p]
            if POPCOUNT[mask[ent_var[a + p]]] == 1:
                rest -= LOWEST_DIGIT[mask[ent_var[a + p]]]
        at = put_bits(key, at, rest, KEY_SUM_BITS)
        for p in range(ent_off[k + 1] - a):
            m = mask[ent_var[a + p]]
            at = put_bits(key, at, m if POPCOUNT[m] > 1 else 0, KEY_MASK_BITS)
    return key



class TallyType(RecordType):
    """The numba type of a ``Tally``."""


class Tally(structref.StructRefProxy):
    """A count's scratch: its ``trail``, a ``label`` per entry (-1, for ``components``), the
    ``memo`` of pieces, its ``work`` (``work[0]``: the nodes it may still visit;
    ``work[1]``: the most solutions a count under way has reached, for progress
    reports), the ``sums`` network its nodes are tested on (an empty one tests
    nothing), per entry its ``depth`` (see ``decomposition_depths``; empty outside
    exact counts) and per cell its ``rank`` (see ``dissect``; empty: none)."""


by_reference(Tally, TallyType, (     # its fields, passed by reference (``jit.by_reference``)
    "trail",        # Trail
    "label",
    "memo",         # Memo
    "work",
    "sums",         # Network
    "depth",
    "rank",
))


@kernel
def new_tally(tables, live, memo, work, sums, ordered, rank):
    """A tally for counts over ``tables`` from ``live``, with ``memo``, ``work`` (see
    ``Tally``) and the ``sums`` network; with ``ordered``, pieces fan out on cells,
    of least ``rank`` (one per cell, see ``dissect``; empty: none) first, then big
    pieces in the order of a tree decomposition (``decomposition_depths``, see
    ``open_fan``)."""
    E = live.nalive.shape[0]
    ordered = ordered and E <= ORDERED_MOST_ENTRIES         # its links: E * E bytes
    depth = decomposition_depths(tables, live) if ordered else np.empty(0, np.int64)
    trail = trail_for(tables, live, ordered)
    ranked = ordered and rank.shape[0] == live.mask.shape[0]
    return Tally(trail, np.full(E, -1, np.int64), memo, work, sums, depth,
                 rank if ranked else np.empty(0, np.int64))


@kernel
def decomposition_depths(tables, live):
    """Per entry, its depth in the elimination tree of the undecided entries (linked when
    they share an undecided cell), eliminating in turn the entry with the fewest links
    (min-degree); decided entries get E.

    An entry's parent is its neighbour eliminated first after it (its neighbours
    then made a clique), so the entries nearest the root separate the others:
    deciding them first splits a piece early, as sharpSAT-TD orders its branches.
    """
    E = live.nalive.shape[0]
    mask, var_eoff, var_ent = live.mask, tables.var_eoff, tables.var_ent
    link = np.zeros((E, E), np.bool_)
    for v in range(mask.shape[0]):
        if POPCOUNT[mask[v]] > 1:
            for a in range(var_eoff[v], var_eoff[v + 1]):
                for b in range(var_eoff[v], var_eoff[v + 1]):
                    link[var_ent[a], var_ent[b]] = a != b
    gone = live.nalive <= 1
    degree = np.zeros(E, np.int64)
    for k in range(E):
        for j in range(E):
            degree[k] += link[k, j] and not gone[j] and not gone[k]
    order = np.empty(E, np.int64)
    place = np.full(E, E, np.int64)
    later = np.empty(E, np.int64)
    n = 0
    while True:
        k = -1
        for j in range(E):
            if not gone[j] and (k < 0 or degree[j] < degree[k]):
                k = j
        if k < 0:
            break
        m = 0
        for j in range(E):
            if link[k, j] and not gone[j]:
                later[m] = j
                m += 1
        for a in range(m):                     # its later neighbours become a clique
            degree[later[a]] -= 1
            for b in range(m):
                if a != b and not link[later[a], later[b]]:
                    link[later[a], later[b]] = True
                    degree[later[a]] += 1
        for j in range(E):                     # its row keeps just its later neighbours
            link[k, j] = link[k, j] and not gone[j]
        gone[k] = True
        place[k] = n
        order[n] = k
        n += 1
    depth = np.full(E, E, np.int64)
    for i in range(n - 1, -1, -1):
        k = order[i]
        parent = -1
        for j in range(E):
            if link[k, j] and (parent < 0 or place[j] < place[parent]):
                parent = j
        depth[k] = 0 if parent < 0 else depth[parent] + 1
    return depth


@kernel
def fan_entry(members, tables, live, depth):
    """The entry a count of the piece ``members`` fans out over: the fewest live rows per
    undecided cell (a row there decides the most); in a piece of ORDERED_PIECE entries
    or more, when the tally has ``depth``s, the least deep of those first."""
    ordered = depth.shape[0] > 0 and members.shape[0] >= ORDERED_PIECE
    k = np.int64(-1)                        # not the literal -1: one compile of open_level
    best = 0.0
    for i in range(members.shape[0]):
        j = members[i]
        open_cells = 0
        for q in range(tables.ent_off[j], tables.ent_off[j + 1]):
            if POPCOUNT[live.mask[tables.ent_var[q]]] > 1:
                open_cells += 1
        score = np.log(live.nalive[j]) / open_cells
        if ordered and k >= 0 and depth[j] != depth[k]:
            better = depth[j] < depth[k]
        else:
            better = k < 0 or score < best
        if better:
            k = j
            best = score
    return k


@kernel
def open_fan(members, tables, live, tally):
    """Open the level a count of the piece ``members`` fans out on: in a tally with
    ``rank``s, the digits of its undecided cell of least rank (see ``dissect``; of those,
    the one with the fewest candidates); past those (every one a LEAF), the entry
    ``fan_entry`` picks, and in a tally with ``depth``s (an exact count) the digits of
    that entry's undecided cell with the fewest candidates (the first of those), else
    its rows.

    A row decides a whole entry at once, so a piece that its entry's first
    cells already cut stays whole until the last of them is decided; a digit
    decides one cell, and the piece splits as soon as the decided cells cut it
    (``components``). On big open grids, exact counts by digits and ranks end far
    sooner than by rows (see bench/HISTORY.md).
    """
    mask, ent_off, ent_var, rank = live.mask, tables.ent_off, tables.ent_var, tally.rank
    v = np.int64(-1)
    if rank.shape[0] > 0:
        for i in range(members.shape[0]):
            for q in range(ent_off[members[i]], ent_off[members[i] + 1]):
                u = ent_var[q]
                if POPCOUNT[mask[u]] > 1 and rank[u] < LEAF and (
                        v < 0 or rank[u] < rank[v] or
                        (rank[u] == rank[v] and POPCOUNT[mask[u]] < POPCOUNT[mask[v]])):
                    v = u
    if v < 0:
        k = fan_entry(members, tables, live, tally.depth)
        if tally.depth.shape[0] == 0:
            open_level(tally.trail, tables, live, k, True)
            return
        for q in range(ent_off[k], ent_off[k + 1]):
            u = ent_var[q]
            if POPCOUNT[mask[u]] > 1 and (v < 0 or POPCOUNT[mask[u]] < POPCOUNT[mask[v]]):
                v = u
    open_level(tally.trail, tables, live, -1 - v, True)


#: What a frame of a count's walk is (``count_scope``, ``scope_solution``): independent
#: pieces whose counts multiply, or one piece fanned out (``open_fan``).
PRODUCT, FAN = 0, 1
#: Where a count's walk goes next: begin counting (or reading back) a scope, hand a
#: result to the frame below, try the fan's next row, or end the fan.
BEGIN, RETURN, ADVANCE, END = 0, 1, 2, 3
#: A frame's fields (``new_frames``): its kind (PRODUCT or FAN), where its members start in
#: the walk's stack and how many (a product's piece starts follow them), how many pieces
#: (a product's), the next piece, its limit (the index, read back), its total (what
#: passed, or the rest of the index), where its memo key starts (a fan's) or its radix
#: (a product's, read back).
KIND, AT, N, PIECES, NEXT, LIMIT, TOTAL, KEY = range(8)
RADIX = KEY
#: The frames a count's walk starts with room for (``new_frames``; ``push_pieces`` doubles them).
FRAMES = 16


@kernel
def room_for(stack, used, more):
    """``stack``, or a copy of its first ``used`` items in an array twice as long or more,
    so that ``used + more`` fit."""
    if used + more <= stack.shape[0]:
        return stack
    bigger = np.empty(max(2 * stack.shape[0], used + more), stack.dtype)
    bigger[:used] = stack[:used]
    return bigger


@kernel
def new_frames(scope):
    """The frames of a count's walk from ``scope``: ``(frame, wides, stack)``, per frame its
    fields (see KIND) and a count past int64 (see ``wide_set``), and the stack of the
    frames' members with ``scope`` at the bottom."""
    stack = np.empty(2 * scope.shape[0] + 16, np.int64)
    stack[:scope.shape[0]] = scope
    return np.empty((FRAMES, 8), np.int64), np.empty((FRAMES, WIDE)), stack


@kernel
def push_pieces(frame, wides, f, stack, used, members, starts):
    """Open frame ``f`` on ``members`` (and a product's piece ``starts``) at ``used`` in
    ``stack``: ``(frame, wides, stack, used)`` after them. The stack may grow, and so may
    the frames (``new_frames``'): to twice as many, the first ones kept."""
    if f == frame.shape[0]:
        n = frame.shape[0]
        more_frame, more_wides = np.empty((2 * n, 8), np.int64), np.empty((2 * n, WIDE))
        more_frame[:n] = frame
        more_wides[:n] = wides
        frame, wides = more_frame, more_wides
    stack = room_for(stack, used, members.shape[0] + starts.shape[0])
    n_pieces = starts.shape[0] - 1
    frame[f, KIND] = PRODUCT if n_pieces > 1 else FAN
    frame[f, AT] = used
    frame[f, N] = members.shape[0]
    frame[f, PIECES] = n_pieces
    frame[f, NEXT] = 0
    stack[used:used + members.shape[0]] = members
    used += members.shape[0]
    if n_pieces > 1:
        stack[used:used + starts.shape[0]] = starts
        used += starts.shape[0]
    return frame, wides, stack, used


@kernel
def piece_of(frame, g, stack, i):
    """``(at, n)``: piece ``i`` of the product frame ``g`` in the stack."""
    starts_at = frame[g, AT] + frame[g, N]
    return frame[g, AT] + stack[starts_at + i], stack[starts_at + i + 1] - stack[starts_at + i]


@kernel
def count_scope(scope, limit, tables, live, tally, deadline, wide):
    """Solutions of the entries in ``scope`` from a propagated state, at most ``limit``.

    Independent pieces are counted apart and multiplied; a single piece is
    looked up in the tally's memo (see ``memo``), else it fans out (``open_fan``)
    and is recorded. The state is restored before returning. Returns
    COUNT_TIMED_OUT once ``deadline`` has passed, OUT_OF_NODES once the nodes left
    in ``tally.work[0]`` (one per row or digit tried) have run out, MEMO_FULL once
    a growable memo has no room left.

    Without a limit (``limit`` the largest int64) the count is exact however
    large: the count returned stops at the limit, and ``wide`` (see
    ``wide_set``) holds it past that. With a limit, ``wide`` is scratch.

    The walk is the trail's, a level per fan, with frames for what a recursive count
    keeps per call (``new_frames``): a count of a scope begins (BEGIN), hands its
    result and its count past int64 (``got``) to the frame below (RETURN), a fan
    tries its next row (ADVANCE) until it ends (END).
    """
    exact = limit == np.iinfo(np.int64).max
    nalive, memo, work, trail = live.nalive, tally.memo, tally.work, tally.trail
    frame, wides, stack = new_frames(scope)
    keys = np.empty(64, np.int64)           # the fans' memo keys, a stack
    used, keys_used = scope.shape[0], 0
    got = np.empty(WIDE)
    f = 0                                   # frames open
    at, n, lim = 0, scope.shape[0], limit   # the scope a count begins on, and its limit
    ret = np.int64(0)
    go = BEGIN
    while True:
        if go == BEGIN:
            go = RETURN
            if deadline != NO_DEADLINE and monotonic_ns() > deadline:
                ret = COUNT_TIMED_OUT
                continue
            members, starts = components(stack[at:at + n], tables, live, tally.label)
            if starts.shape[0] == 1:
                wide_set(got, 1)
                ret = 1
                continue
            if members.shape[0] == 1:       # one undecided entry: each live row is one solution
                wide_set(got, nalive[members[0]])
                ret = min(nalive[members[0]], lim)
                continue
            key_at = keys_used              # a fan's memo key, kept from here on
            if starts.shape[0] == 2:
                key = piece_key(members, tables, live)
                e = lookup(memo, key)[0]
                if e >= 0 and (not memo.capped[e] or memo.value[e] >= lim):
                    copy_into(got, memo.wide[e])
                    ret = min(memo.value[e], lim)
                    continue
                keys = room_for(keys, keys_used, key.shape[0])
                keys[keys_used:keys_used + key.shape[0]] = key
                keys_used += key.shape[0]
            frame, wides, stack, used = push_pieces(frame, wides, f, stack, used, members, starts)
            frame[f, KEY] = key_at
            frame[f, LIMIT] = lim
            f += 1
            if frame[f - 1, KIND] == PRODUCT:
                frame[f - 1, TOTAL] = 1
                wide_set(wides[f - 1], 1)
                frame[f - 1, NEXT] = 1
                at, n = piece_of(frame, f - 1, stack, 0)
                lim = lim if exact or 1 < lim else 1
                go = BEGIN                  # its first piece
            else:
                frame[f - 1, TOTAL] = 0
                wide_set(wides[f - 1], 0)
                open_fan(members, tables, live, tally)
                go = ADVANCE
        elif go == RETURN:                  # ``ret`` and ``got``: frame f - 1's child's count
            if f == 0:
                copy_into(wide, got)
                return ret
            g = f - 1
            total, lim = frame[g, TOTAL], frame[g, LIMIT]
            if frame[g, KIND] == FAN:
                go = END
                if ret >= 0:
                    total = lim if ret >= lim - total else total + ret
                    wide_combine(wides[g], got, False)
                    if total > work[1]:
                        work[1] = total
                    if exact or total < lim:
                        go = ADVANCE
                frame[g, TOTAL] = ret if ret < 0 else total
                continue
            if ret <= 0:                    # a product with an empty piece
                wide_set(got, 0)
            else:
                # times the piece's count, at most lim (without overflow)
                total = lim if total > lim // ret else min(total * ret, lim)
                frame[g, TOTAL] = total
                wide_combine(wides[g], got, True)
                i = frame[g, NEXT]
                if i < frame[g, PIECES]:    # the next piece
                    frame[g, NEXT] = i + 1
                    at, n = piece_of(frame, g, stack, i)
                    # once the product is at the limit, a piece only has to show it is
                    # not empty
                    lim = lim if exact or total < lim else 1
                    go = BEGIN
                    continue
                ret = total
                copy_into(got, wides[g])
            used = frame[g, AT]
            f = g
        elif go == ADVANCE:                 # frame f - 1's fan: its next row
            g = f - 1
            go = END
            while True:
                emptied = step(trail, tables, live, trail.top[0] - 1)
                if emptied == WALKED:
                    break
                work[0] -= 1
                if work[0] < 0:
                    frame[g, TOTAL] = OUT_OF_NODES
                    break
                if emptied < 0 and sums_feasible(tally.sums, live.mask):
                    at, n = frame[g, AT], frame[g, N]
                    lim = limit if exact else frame[g, LIMIT] - frame[g, TOTAL]
                    go = BEGIN
                    break
        else:                               # END: frame f - 1's fan ends
            g = f - 1
            close_levels(trail, live, trail.top[0] - 1, True)
            total, lim = frame[g, TOTAL], frame[g, LIMIT]
            ret = total
            if total >= 0 and not store(memo, keys[frame[g, KEY]:keys_used], total,
                                        total >= lim and not exact, wides[g]) and \
                    memo.fill[3]:
                ret = MEMO_FULL             # a growable memo is full: its owner grows it
            copy_into(got, wides[g])
            used, keys_used = frame[g, AT], frame[g, KEY]
            f = g
            go = RETURN


@kernel
def count_split(root, scope, most, deadline, memo, work, rank):
    """The pieces of the entries in ``scope`` at the fixpoint of ``root``, each counted up
    to ``most``: ``(counts, members, starts, fans, wides)``, piece ``i`` being
    ``members[starts[i]:starts[i + 1]]``, ``fans[i]`` the entry its count fans out
    over (``fan_entry``), by which a caller splits a piece whose count reached
    ``most``, and ``wides[i]`` its count past int64 when ``most`` is the largest
    int64 (``wide_set``). An exact count (``most`` the largest int64) decides cells of
    least ``rank`` first (see ``dissect``; empty: no ranks). ``root.mask`` is left at
    the fixpoint. The count below the node is the product of ``counts``: no pieces (forced
    moves decide everything), one solution; ``[0]`` where the node has no solution;
    ``[COUNT_TIMED_OUT]`` past ``deadline``; ``[OUT_OF_NODES]`` once more than ``work[0]``
    rows were tried (``work`` is the tally's, see ``Tally``: another thread may read it
    to report progress); ``[MEMO_FULL]`` when a growable memo is full. Pieces met again
    on the way are counted once, in ``memo`` (see ``memo``): a memo kept from an earlier
    count of the same model, from any root masks, serves again, since a key fixes its
    count.
    """
    none = np.empty(0, np.int64)
    no_wides = np.zeros((1, WIDE))
    emptied, tables, live = start_state(root, True)
    if emptied >= 0:
        return np.zeros(1, np.int64), none, np.zeros(1, np.int64), none, no_wides
    tally = new_tally(tables, live, memo, work,
                      network_of(tables, live.mask.shape[0],   # none once forced moves solve it
                                 pick_entry(live.nalive) >= 0),
                      most == np.iinfo(np.int64).max, rank)    # exact counts only
    if not sums_feasible(tally.sums, live.mask):  # nodes are tested before they split
        return np.zeros(1, np.int64), none, np.zeros(1, np.int64), none, no_wides
    members, starts = components(scope, tables, live, tally.label)
    counts = np.zeros(starts.shape[0] - 1, np.int64)
    fans = np.zeros(counts.shape[0], np.int64)
    wides = np.zeros((counts.shape[0], WIDE))
    for i in range(counts.shape[0]):
        piece = members[starts[i]:starts[i + 1]]
        counts[i] = count_scope(piece, most, tables, live, tally, deadline, wides[i])
        if counts[i] <= 0:
            return counts[i:i + 1], none, np.zeros(1, np.int64), none, no_wides
        fans[i] = fan_entry(piece, tables, live, tally.depth)
    return counts, members, starts, fans, wides


#: The types ``turns`` calls ``count_split`` with (see ``ahead``).
COUNT_TYPES = (ROOT, INTS, INT, INT, MEMO, INTS, INTS)


@kernel
def scope_solution(scope, index, tables, live, tally, deadline, out):
    """Write solution number ``index`` (from 0, in the count's order) of the entries in
    ``scope`` into ``out`` (one-digit masks of their cells); the scope must have more
    than ``index`` solutions. The node is left as it was.

    The count's own walk (``count_scope``'s frames), reading counts instead of adding
    them: in a fan, the child rows are passed over while their counts (mostly found in
    the memo that counted them) add up to at most the frame's index; independent pieces
    take the digits of the index in the mixed radix of their counts, each capped at
    ``index + 1`` (the radices' product still passes the index, so different indices
    give different solutions). Returns 1, or what ``count_scope`` returned instead of a
    count (the deadline passed, the nodes ran out, the memo is full).
    """
    mask, ent_off, ent_var, trail = live.mask, tables.ent_off, tables.ent_var, tally.trail
    frame, wides, stack = new_frames(scope)
    scratch = np.empty(WIDE)
    used = scope.shape[0]
    f = 0                                   # frames open
    at, n, i = 0, scope.shape[0], index     # the scope read back, and its solution's number
    ret = np.int64(1)
    go = BEGIN
    while True:
        if go == BEGIN:
            go = RETURN
            ret = 1
            for s in range(at, at + n):     # the cells as they stand; deeper frames decide more
                for q in range(ent_off[stack[s]], ent_off[stack[s] + 1]):
                    out[ent_var[q]] = mask[ent_var[q]]
            members, starts = components(stack[at:at + n], tables, live, tally.label)
            if starts.shape[0] == 1:
                continue
            if members.shape[0] == 1:       # one undecided entry: its live row number i
                k = members[0]
                list_lazy(tables, live, k)
                start = tables.tab_off[k]   # in row order: the live block's order is history's
                r = np.sort(live.perm[start:start + live.nalive[k]])[i]
                for p in range(ent_off[k + 1] - ent_off[k]):
                    out[ent_var[ent_off[k] + p]] = 1 << (tables.rows[r, p] - 1)
                continue
            frame, wides, stack, used = push_pieces(frame, wides, f, stack, used, members, starts)
            frame[f, LIMIT] = i
            frame[f, TOTAL] = i if frame[f, KIND] == PRODUCT else 0   # the rest, or what passed
            f += 1
            if frame[f - 1, KIND] == FAN:
                open_fan(members, tables, live, tally)
            go = ADVANCE
        elif go == RETURN:                  # ``ret``: frame f - 1's child's answer
            if f == 0:
                return ret
            g = f - 1
            if frame[g, KIND] == PRODUCT and ret > 0:
                frame[g, TOTAL] //= frame[g, RADIX]
                go = ADVANCE
                continue
            if frame[g, KIND] == FAN:       # a fan ends with its child's answer
                close_levels(trail, live, trail.top[0] - 1, True)
            used = frame[g, AT]
            f = g
        else:                               # ADVANCE: frame f - 1's next piece or row
            g = f - 1
            i = frame[g, LIMIT]
            go = RETURN
            if frame[g, KIND] == PRODUCT:
                p = frame[g, NEXT]
                ret = 1                     # every piece read back
                if p < frame[g, PIECES]:
                    frame[g, NEXT] = p + 1
                    at, n = piece_of(frame, g, stack, p)
                    ret = count_scope(stack[at:at + n], i + 1, tables, live, tally, deadline,
                                      scratch)
                    if ret > 0:
                        frame[g, RADIX] = min(ret, i + 1)
                        i = frame[g, TOTAL] % frame[g, RADIX]
                        go = BEGIN
                        continue
                used = frame[g, AT]         # every piece read back, or a count failed
                f = g
                continue
            ret = 0
            at, n = frame[g, AT], frame[g, N]
            while True:
                emptied = step(trail, tables, live, trail.top[0] - 1)
                if emptied == WALKED:
                    break
                if emptied < 0 and sums_feasible(tally.sums, mask):
                    passed = frame[g, TOTAL]
                    c = count_scope(stack[at:at + n], i + 1 - passed, tables, live, tally,
                                    deadline, scratch)
                    if c < 0:
                        ret = c
                        break
                    if passed + c > i:
                        i -= passed
                        go = BEGIN
                        break
                    frame[g, TOTAL] = passed + c
            if go == RETURN:
                close_levels(trail, live, trail.top[0] - 1, True)
                used = frame[g, AT]
                f = g


#: The types ``solve.kakuro(order="any")`` calls ``counted_solutions`` with (see ``ahead``).
SOLUTIONS_TYPES = (ROOT, INT, INT, MEMO, INTS)


@kernel
def counted_solutions(root, want, deadline, memo, work):
    """Up to ``want`` different solutions of ``root`` from a count up to ``want``:
    ``(status, masks)``, the one-digit masks of ``min(count, want)`` solutions, and
    the count's status: the solutions there are, at most ``want``, or COUNT_TIMED_OUT,
    OUT_OF_NODES (``work`` as for ``count_split``) or MEMO_FULL, with no masks.

    A count splits the puzzle into independent pieces and counts each piece once
    (``memo``), so it finds solutions where a hunt that decides the pieces in
    turn thrashes; the solutions are read back from the counts (``scope_solution``).
    """
    emptied, tables, live = start_state(root, True)
    V = live.mask.shape[0]
    none = np.zeros((0, V), np.int64)
    if emptied >= 0:
        return np.int64(0), none
    tally = new_tally(tables, live, memo, work,
                      network_of(tables, V, pick_entry(live.nalive) >= 0), False,
                      np.empty(0, np.int64))
    if not sums_feasible(tally.sums, live.mask):
        return np.int64(0), none
    scope = np.arange(live.nalive.shape[0])
    c = count_scope(scope, want, tables, live, tally, deadline, np.empty(WIDE))
    if c <= 0:
        return c, none
    out = np.zeros((c, V), np.int64)
    for i in range(c):
        copy_into(out[i], live.mask)
        got = scope_solution(scope, i, tables, live, tally, deadline, out[i])
        if got <= 0:
            return got, none
    return c, out


#: The types ``solve`` calls ``knuth_estimates`` with (see ``ahead``).
KNUTH_TYPES = (ROOT, INT, INT)


@kernel
def knuth_estimates(root, n_probes, seed):
    """Knuth's estimates of the number of solutions, one per random descent, as base-10
    logarithms (a big open grid's count passes the largest float).

    Each probe walks from the root to a leaf, taking a uniformly random live
    row of the entry the search would branch on; its estimate is the product
    of the branching factors on the way if the leaf is a solution, else 0
    (its logarithm -inf). Each estimate's mean is the true count, so (Markov) an
    estimate passes ``t`` times the true count with probability at most ``1/t``.
    """
    out = np.full(n_probes, -np.inf)
    emptied, tables, live = start_state(root, True)
    if emptied >= 0:
        return out
    nalive, perm, mask = live.nalive, live.perm, live.mask
    root_mask = mask.copy()
    root_alive = nalive.copy()
    np.random.seed(seed)
    for i in range(n_probes):
        copy_into(mask, root_mask)
        copy_into(nalive, root_alive)
        estimate = 0.0
        while True:
            k = pick_entry(nalive)
            if k < 0:
                out[i] = estimate
                break
            estimate += np.log10(nalive[k])
            list_lazy(tables, live, k)
            r = perm[tables.tab_off[k] + np.random.randint(nalive[k])]
            apply_row(tables, live, k, r)
            if propagate(tables, live, True) >= 0:
                break
    return out


# The compile groups of this module's kernels (``ahead``): counts, and a count whose
# solutions are read back.
ahead.declare("count", __name__, ((__name__, "count_split", "COUNT_TYPES"),
                                  (__name__, "knuth_estimates", "KNUTH_TYPES"),
                                  ("kakuro_np.engine.walk.memo", "emptied", "EMPTIED_TYPES")),
              after=("model",))
ahead.declare("readback", __name__, ((__name__, "counted_solutions", "SOLUTIONS_TYPES"),),
              after=("model",))
