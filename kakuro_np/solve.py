"""Stage 4, solve: fan out over the smallest table and collect every solution.

Glossary
--------
model  : the packed puzzle the kernels share: variables (blank cells), entries,
         cell masks and tables (see ``jposs`` and ``force``).
var_cell : flat cell index of each variable (blank cells in row-major order).
level  : one fan-out in the depth-first search: the entry branched on, the
         rows still to try, and the masks and live-row counts to restore.
status : ``OK``, ``CONTRADICTION``, ``OVER_BUDGET`` or ``TIMED_OUT`` (see ``jit``).
deadline : a ``monotonic_ns`` time after which kernels stop (``NO_DEADLINE``: never).

The search visits the branches in the essay's order: at each node it takes the
entry with the fewest live rows above one (ties to the lower index) and tries
its rows in lexicographic order, so solutions come out in the essay's order.
The fast path narrows the masks by combinations before it builds the tables;
since the fixpoint of ``force`` is the same either way, so is every node.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .combos import ALL_DIGITS, POPCOUNT
from .entries import packed_entries
from .errors import BudgetError, SolveTimeout, TooManySolutions
from .explain import why_impossible
from .force import build_forced_tables, fixpoint_state, propagate
from .jit import (CONTRADICTION, NO_DEADLINE, OK, OVER_BUDGET, TIMED_OUT, deadline_ns, grow,
                  kernel, monotonic_ns)
from .jposs import FREE, narrow_masks, var_entries
from .workqueue import enqueue_neighbours

#: Default budget on table rows in all (about 40 bytes each with the search state).
MAX_ROWS = 10_000_000
#: Default budget on the memory that ``kakuro()`` without a limit may fill with solutions.
MAX_BYTES = 1 << 30
#: Without a limit, how many solutions ``kakuro()`` collects before it checks the budget.
FIRST_TRY = 10_000
#: Knuth probes, and how far past the budget their median must lie to refuse at once.
PROBES, RISK = 9, 1000.0
#: Count limit meaning "no limit".
NO_LIMIT = np.iinfo(np.int64).max


@kernel
def build_model(blank, given, ent_off, ent_cell, ent_sum, max_rows, deadline):
    """Variables, masks and tables of a grid, ready for the search.

    Blank cells in no entry get an entry of their own with the FREE sum, so
    every variable is in some table. Returns ``(status, culprit, var_cell,
    ent_off, ent_var, ent_sum, mask, rows, tab_off)``; ``culprit`` is the
    entry found impossible when the status is CONTRADICTION, else -1.
    """
    flat_blank = blank.ravel()
    var_cell = np.flatnonzero(flat_blank)
    V = var_cell.shape[0]
    cell_var = np.full(flat_blank.shape[0], -1, np.int64)
    for v in range(V):
        cell_var[var_cell[v]] = v
    in_entry = np.zeros(V, np.bool_)
    for i in range(ent_cell.shape[0]):
        in_entry[cell_var[ent_cell[i]]] = True
    loose = np.flatnonzero(~in_entry)
    E0 = ent_sum.shape[0]
    E = E0 + loose.shape[0]
    off = np.zeros(E + 1, np.int64)
    off[:E0 + 1] = ent_off
    var = np.zeros(ent_cell.shape[0] + loose.shape[0], np.int64)
    for i in range(ent_cell.shape[0]):
        var[i] = cell_var[ent_cell[i]]
    sums = np.zeros(E, np.int64)
    sums[:E0] = ent_sum
    for j in range(loose.shape[0]):
        var[ent_cell.shape[0] + j] = loose[j]
        off[E0 + j + 1] = off[E0 + j] + 1
        sums[E0 + j] = FREE
    mask = np.full(V, ALL_DIGITS, np.int64)
    flat_given = given.ravel()
    for v in range(V):
        if flat_given[var_cell[v]] > 0:
            mask[v] = 1 << (flat_given[var_cell[v]] - 1)
    var_eoff, var_ent = var_entries(off, var, V)
    empty_rows = np.zeros((0, 9), np.int8)
    empty_off = np.zeros(E + 1, np.int64)
    culprit = narrow_masks(off, var, sums, mask, var_eoff, var_ent)
    if culprit >= 0:
        return CONTRADICTION, culprit, var_cell, off, var, sums, mask, empty_rows, empty_off
    rows, tab_off, status, culprit = build_forced_tables(off, var, sums, mask, max_rows,
                                                         deadline)
    return status, culprit, var_cell, off, var, sums, mask, rows, tab_off


@kernel
def pick_entry(nalive):
    """The entry with the fewest live rows above one (ties to the lower index), or -1."""
    best = -1
    for k in range(nalive.shape[0]):
        if nalive[k] > 1 and (best < 0 or nalive[k] < nalive[best]):
            best = k
    return best


@kernel
def mask_digit(m):
    """The digit of a one-digit mask."""
    d = 1
    while m > 1:
        m >>= 1
        d += 1
    return d


@kernel
def search(ent_off, ent_var, mask, rows, tab_off, limit, store, deadline):
    """Depth-first fan-out from the fixpoint of ``force``.

    Returns ``(n_found, solutions, nodes, status)``: how many solutions were
    found (at most ``limit``), their digits per variable if ``store`` (else an
    empty array), how many nodes were visited, and OK or TIMED_OUT (the
    deadline passed; what was found so far is returned). ``mask`` is left at
    the last node.
    """
    E = tab_off.shape[0] - 1
    V = mask.shape[0]
    solutions = np.zeros((16 if store else 0, V), np.int8)
    emptied, var_eoff, var_ent, perm, pos, nalive, queue, inq, qstate = fixpoint_state(
        ent_off, ent_var, mask, rows, tab_off, True)
    if emptied >= 0:
        return 0, solutions[:0], 1, OK
    cap = 16
    saved_mask = np.zeros((cap, V), np.int64)
    saved_alive = np.zeros((cap, E), np.int64)
    branch = np.zeros(cap, np.int64)
    first = np.zeros(cap, np.int64)      # this level's rows: cand[first:stop]
    stop = np.zeros(cap, np.int64)
    nxt = np.zeros(cap, np.int64)
    cand = np.zeros(64, np.int64)
    n_cand = 0
    depth = 0
    found = 0
    nodes = 1
    at_node = True
    while True:
        if at_node:
            k = pick_entry(nalive)
            if k < 0:                                  # every table has one row
                if store:
                    if found == solutions.shape[0]:
                        bigger = np.zeros((2 * found, V), np.int8)
                        bigger[:found] = solutions
                        solutions = bigger
                    for v in range(V):
                        solutions[found, v] = mask_digit(mask[v])
                found += 1
                if found >= limit:
                    break
            else:                                      # open a level on entry k
                if depth == cap:
                    cap *= 2
                    saved_mask = _grow2(saved_mask, cap)
                    saved_alive = _grow2(saved_alive, cap)
                    branch = grow(branch, cap)
                    first = grow(first, cap)
                    stop = grow(stop, cap)
                    nxt = grow(nxt, cap)
                n = nalive[k]
                if n_cand + n > cand.shape[0]:
                    cand = grow(cand, max(2 * cand.shape[0], n_cand + n))
                cand[n_cand:n_cand + n] = np.sort(perm[tab_off[k]:tab_off[k] + n])
                saved_mask[depth] = mask
                saved_alive[depth] = nalive
                branch[depth] = k
                first[depth] = n_cand
                nxt[depth] = n_cand
                n_cand += n
                stop[depth] = n_cand
                depth += 1
        at_node = False
        while depth > 0:                               # the next row to try
            d = depth - 1
            if nxt[d] == stop[d]:
                n_cand = first[d]
                depth -= 1
                continue
            r = cand[nxt[d]]
            nxt[d] += 1
            mask[:] = saved_mask[d]
            nalive[:] = saved_alive[d]
            apply_row(branch[d], r, ent_off, ent_var, var_eoff, var_ent, rows, tab_off, perm,
                      pos, nalive, mask, queue, inq, qstate)
            nodes += 1
            if nodes & 1023 == 0 and deadline != NO_DEADLINE and monotonic_ns() > deadline:
                return found, solutions[:found], nodes, TIMED_OUT
            if propagate(queue, inq, qstate, rows, tab_off, perm, pos, nalive, mask,
                         ent_off, ent_var, var_eoff, var_ent, True) < 0:
                at_node = True
                break
        if not at_node:
            break
    return found, solutions[:found], nodes, OK


@kernel
def _grow2(a, n):
    b = np.zeros((n, a.shape[1]), a.dtype)
    b[:a.shape[0]] = a
    return b


@kernel
def fixpoint_masks(ent_off, ent_var, mask, rows, tab_off):
    """The cell masks at the fixpoint of ``force`` (in place); -1 or the entry that emptied."""
    return fixpoint_state(ent_off, ent_var, mask, rows, tab_off, True)[0]


@kernel
def saturating_mul(a, b, cap):
    """``min(a * b, cap)`` for counts ``a, b >= 0`` without overflow."""
    if a == 0 or b == 0:
        return 0
    if a > cap // b:
        return cap
    return min(a * b, cap)


@kernel
def apply_row(k, r, ent_off, ent_var, var_eoff, var_ent, rows, tab_off, perm, pos, nalive,
              mask, queue, inq, qstate):
    """Make row ``r`` entry ``k``'s only live row and queue the entries its digits narrow."""
    head = tab_off[k]
    other = perm[head]
    perm[pos[r]] = other
    pos[other] = pos[r]
    perm[head] = r
    pos[r] = head
    nalive[k] = 1
    a = ent_off[k]
    for p in range(ent_off[k + 1] - a):
        v = ent_var[a + p]
        bit = 1 << (rows[r, p] - 1)
        if mask[v] != bit:
            mask[v] = bit
            enqueue_neighbours(queue, inq, qstate, v, k, var_eoff, var_ent)


@kernel
def components(scope, ent_off, ent_var, var_eoff, var_ent, nalive, mask, label):
    """Split the undecided entries of ``scope`` into independent pieces.

    Two undecided entries are linked when they share an undecided cell; decided
    cells link nothing. Returns ``(members, starts)``: piece ``i`` is
    ``members[starts[i]:starts[i + 1]]``. ``label`` is scratch, one per entry,
    left at -1.
    """
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


@kernel
def count_scope(scope, limit, ent_off, ent_var, var_eoff, var_ent, rows, tab_off, perm, pos,
                nalive, mask, queue, inq, qstate, label, deadline):
    """Solutions of the entries in ``scope`` from a propagated state, at most ``limit``.

    Independent pieces are counted apart and multiplied; a single piece fans
    out over its smallest table. The state is restored before returning.
    Returns -1 once ``deadline`` has passed.
    """
    if deadline != NO_DEADLINE and monotonic_ns() > deadline:
        return -1
    members, starts = components(scope, ent_off, ent_var, var_eoff, var_ent, nalive, mask,
                                 label)
    n_pieces = starts.shape[0] - 1
    if n_pieces == 0:
        return 1
    if n_pieces > 1:
        total = 1
        for i in range(n_pieces):
            piece = members[starts[i]:starts[i + 1]]
            # once the product is at the limit, a piece only has to show it is not empty
            c = count_scope(piece, limit if total < limit else 1, ent_off, ent_var, var_eoff,
                            var_ent, rows, tab_off, perm, pos, nalive, mask, queue, inq,
                            qstate, label, deadline)
            if c <= 0:
                return c
            total = saturating_mul(total, c, limit)
        return total
    k = -1
    for i in range(members.shape[0]):
        j = members[i]
        if k < 0 or nalive[j] < nalive[k] or (nalive[j] == nalive[k] and j < k):
            k = j
    saved_mask = mask.copy()
    saved_alive = nalive.copy()
    choices = np.sort(perm[tab_off[k]:tab_off[k] + nalive[k]])
    total = 0
    for r in choices:
        mask[:] = saved_mask
        nalive[:] = saved_alive
        apply_row(k, r, ent_off, ent_var, var_eoff, var_ent, rows, tab_off, perm, pos, nalive,
                  mask, queue, inq, qstate)
        if propagate(queue, inq, qstate, rows, tab_off, perm, pos, nalive, mask,
                     ent_off, ent_var, var_eoff, var_ent, True) < 0:
            c = count_scope(members, limit - total, ent_off, ent_var, var_eoff, var_ent,
                            rows, tab_off, perm, pos, nalive, mask, queue, inq, qstate,
                            label, deadline)
            if c < 0:
                return c
            total += c
            if total >= limit:
                break
    mask[:] = saved_mask
    nalive[:] = saved_alive
    return total


@kernel
def count_pieces(ent_off, ent_var, mask, rows, tab_off, limit, deadline):
    """Solutions of each independent piece of the puzzle at the fixpoint, at most ``limit`` each.

    The puzzle's count is the product of the returned counts (an empty array
    when forced moves decide everything: one solution). ``[0]``: no
    solution; ``[-1]``: the deadline passed.
    """
    emptied, var_eoff, var_ent, perm, pos, nalive, queue, inq, qstate = fixpoint_state(
        ent_off, ent_var, mask, rows, tab_off, True)
    if emptied >= 0:
        return np.zeros(1, np.int64)
    E = tab_off.shape[0] - 1
    label = np.full(E, -1, np.int64)
    members, starts = components(np.arange(E), ent_off, ent_var, var_eoff, var_ent, nalive,
                                 mask, label)
    counts = np.zeros(starts.shape[0] - 1, np.int64)
    for i in range(counts.shape[0]):
        counts[i] = count_scope(members[starts[i]:starts[i + 1]], limit, ent_off, ent_var,
                                var_eoff, var_ent, rows, tab_off, perm, pos, nalive, mask, queue,
                                inq, qstate, label, deadline)
        if counts[i] <= 0:
            return counts[i:i + 1]
    return counts


@kernel
def knuth_estimates(ent_off, ent_var, mask, rows, tab_off, n_probes, seed):
    """Knuth's estimates of the number of solutions, one per random descent.

    Each probe walks from the root to a leaf, taking a uniformly random live
    row of the entry the search would branch on; its estimate is the product
    of the branching factors on the way if the leaf is a solution, else 0.
    Each estimate's mean is the true count, so (Markov) an estimate passes
    ``t`` times the true count with probability at most ``1/t``.
    """
    out = np.zeros(n_probes)
    emptied, var_eoff, var_ent, perm, pos, nalive, queue, inq, qstate = fixpoint_state(
        ent_off, ent_var, mask, rows, tab_off, True)
    if emptied >= 0:
        return out
    root_mask = mask.copy()
    root_alive = nalive.copy()
    np.random.seed(seed)
    for i in range(n_probes):
        mask[:] = root_mask
        nalive[:] = root_alive
        estimate = 1.0
        while True:
            k = pick_entry(nalive)
            if k < 0:
                out[i] = estimate
                break
            estimate *= nalive[k]
            r = perm[tab_off[k] + np.random.randint(nalive[k])]
            apply_row(k, r, ent_off, ent_var, var_eoff, var_ent, rows, tab_off, perm, pos,
                      nalive, mask, queue, inq, qstate)
            if propagate(queue, inq, qstate, rows, tab_off, perm, pos, nalive, mask,
                         ent_off, ent_var, var_eoff, var_ent, True) >= 0:
                break
    return out


# ---------------------------------------------------------------------------
# The public verbs


class Model(NamedTuple):
    """A puzzle packed for the kernels (see ``build_model``)."""
    puzzle: object
    packed: object
    status: int
    culprit: int
    var_cell: np.ndarray
    ent_off: np.ndarray
    ent_var: np.ndarray
    ent_sum: np.ndarray
    mask: np.ndarray
    rows: np.ndarray
    tab_off: np.ndarray


def model(grid, max_rows=MAX_ROWS, deadline=NO_DEADLINE) -> Model:
    """Pack a puzzle (or text, path, rows) for the kernels.

    Raises BudgetError past ``max_rows`` table rows and SolveTimeout past ``deadline``.
    """
    from .formats import as_puzzle
    puzzle = as_puzzle(grid)
    packed = packed_entries(puzzle)
    built = build_model(puzzle.blank, puzzle.given, packed.ent_off, packed.ent_cell,
                        packed.ent_sum, np.int64(max_rows), np.int64(deadline))
    if built[0] == OVER_BUDGET:
        raise BudgetError(f"the tables of this puzzle would pass {max_rows:,} rows "
                          f"(raise max_rows= to allow more)")
    if built[0] == TIMED_OUT:
        raise SolveTimeout("timed out while building the tables")
    return Model(puzzle, packed, *built)


def _limit(limit) -> int:
    if limit is None:
        return NO_LIMIT
    if isinstance(limit, (bool, np.bool_)) or not isinstance(limit, (int, np.integer)) or limit < 0:
        raise ValueError(f"limit must be a whole number >= 0 or None, got {limit!r}")
    return int(limit)


def kakuro(grid, limit=None, *, timeout=None, max_rows=MAX_ROWS, max_bytes=MAX_BYTES):
    """Every solution of a puzzle, in the essay's fan-out order.

    Parameters
    ----------
    grid : Puzzle, text, path or rows
    limit : int, optional
        Stop after this many solutions.
    timeout : float, optional
        Seconds; past them SolveTimeout is raised.
    max_rows : int
        Budget on table rows in all (BudgetError past it).
    max_bytes : int
        Without a limit, the memory the solutions may fill; past it
        TooManySolutions is raised (ask with ``limit=`` or use ``count()``).

    Returns
    -------
    (n, H, W) int8 array
        Digits in the blank cells, 0 elsewhere; ``n`` is 0 when there is no solution.

    Examples
    --------
    >>> sols = kakuro([["x", (4, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]])
    >>> sols.shape, sols[0].tolist()
    ((1, 3, 3), [[0, 0, 0], [0, 1, 2], [0, 3, 1]])
    """
    deadline = deadline_ns(timeout)
    cap = _limit(limit)
    m = model(grid, max_rows, deadline)
    H, W = m.puzzle.shape
    if m.status != OK or cap == 0:
        return np.zeros((0, H, W), np.int8)

    def run(cap):
        found, digits, _, status = search(m.ent_off, m.ent_var, m.mask.copy(), m.rows,
                                          m.tab_off, np.int64(min(cap, NO_LIMIT)), True,
                                          np.int64(deadline))
        if status == TIMED_OUT:
            raise SolveTimeout(f"timed out after {timeout} s with {found} solutions found; "
                               f"ask for fewer with limit= or count them with count()")
        return found, digits

    if limit is None:                       # bounded by max_bytes instead
        cap = max(1, max_bytes // (2 * len(m.var_cell) + H * W + 1)) + 1
        found, digits = run(min(cap, FIRST_TRY))
        if found == min(cap, FIRST_TRY) < cap:
            _refuse_astronomical(m, cap - 1, max_bytes)
            found, digits = run(cap)
        if found == cap:
            raise TooManySolutions(
                f"this puzzle has more than {cap - 1:,} solutions, more than {max_bytes:,} "
                f"bytes hold; ask for some with limit=, or count them with count()")
    else:
        found, digits = run(cap)
    out = np.zeros((found, H * W), np.int8)
    out[:, m.var_cell] = digits
    return out.reshape(found, H, W)


def _refuse_astronomical(m, most, max_bytes):
    """Raise TooManySolutions when Knuth's estimates put the count far past ``most``.

    By Markov's inequality each probe passes RISK times the true count with
    probability at most 1 / RISK, so their median (5 of 9) does with
    probability below C(9, 5) / RISK ** 5, about 1e-13: a puzzle refused here
    has more than ``most`` solutions all but surely. The others are
    enumerated up to the budget and refused only when it is reached.
    """
    estimates = knuth_estimates(m.ent_off, m.ent_var, m.mask.copy(), m.rows, m.tab_off,
                                PROBES, 20061122)
    typical = float(np.median(estimates))
    if typical > RISK * most:
        raise TooManySolutions(
            f"this puzzle has about {typical:.1e} solutions (estimated), far more than the "
            f"{most:,} that {max_bytes:,} bytes hold; ask for some with limit=, "
            f"or count them with count()")


def count(grid, limit=None, *, timeout=None, max_rows=MAX_ROWS) -> int:
    """How many solutions a puzzle has (at most ``limit``), without storing them.

    Where the undecided part of the puzzle splits into independent pieces,
    each is counted apart and the counts multiplied, exactly (a Python int,
    however large). Without a limit, TooManySolutions is raised only when a
    single piece passes 2**63 - 1 solutions.

    Examples
    --------
    >>> count([["x", (3, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 3), "_", "_"]])
    2
    """
    deadline = deadline_ns(timeout)
    cap = _limit(limit)
    m = model(grid, max_rows, deadline)
    if m.status != OK or cap == 0:
        return 0
    pieces = count_pieces(m.ent_off, m.ent_var, m.mask.copy(), m.rows, m.tab_off,
                          np.int64(min(cap, NO_LIMIT)), np.int64(deadline))
    if (pieces < 0).any():
        raise SolveTimeout(f"timed out after {timeout} s while counting")
    if cap >= NO_LIMIT and (pieces == NO_LIMIT).any():
        raise TooManySolutions(
            f"a single piece of this puzzle has more than {NO_LIMIT:,} solutions, more than "
            f"count() tells exactly; use limit=")
    total = math.prod(int(n) for n in pieces)      # exact, however large
    return total if limit is None else min(total, limit)


class Reduction(NamedTuple):
    """What forced moves alone make of a puzzle.

    candidates : (H, W, 9) bool, ``candidates[r, c, d - 1]`` while digit ``d`` is possible.
    digits     : (H, W) int8, the forced digit or 0.
    status     : "solved", "stuck" or "contradiction".
    puzzle     : the Puzzle reduced.
    reason     : with a contradiction, which run cannot be filled and why; else "".
    """
    candidates: np.ndarray
    digits: np.ndarray
    status: str
    puzzle: object
    reason: str = ""


def reduce(grid, *, timeout=None, max_rows=MAX_ROWS) -> Reduction:
    """Apply forced moves only: the fixpoint of ``force`` from the tables.

    Examples
    --------
    >>> r = reduce([["x", (4, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]])
    >>> r.status, r.digits.tolist()
    ('solved', [[0, 0, 0], [0, 1, 2], [0, 3, 1]])
    >>> reduce([["x", (3, 0), (4, 0)], [(0, 30), "_", "_"]]).reason
    'the across 30 at (1, 0) over 2 cells: no 2 different digits add up to 30 (2 cells make 3 to 17)'
    """
    m = model(grid, max_rows, deadline_ns(timeout))
    H, W = m.puzzle.shape
    mask = m.mask.copy()
    culprit = m.culprit
    if m.status == OK:
        culprit = fixpoint_masks(m.ent_off, m.ent_var, mask, m.rows, m.tab_off)
    bits = (mask[:, None] >> np.arange(9)) & 1
    candidates = np.zeros((H * W, 9), bool)
    candidates[m.var_cell] = bits.astype(bool)
    ones = bits.sum(axis=1) == 1
    digits = np.zeros(H * W, np.int8)
    digits[m.var_cell[ones]] = bits[ones].argmax(axis=1) + 1
    if culprit >= 0:
        return Reduction(candidates.reshape(H, W, 9), digits.reshape(H, W), "contradiction",
                         m.puzzle, why_impossible(m.puzzle, m.packed, culprit))
    status = "solved" if ones.all() else "stuck"
    return Reduction(candidates.reshape(H, W, 9), digits.reshape(H, W), status, m.puzzle)
