"""Repairing a nearby solution: a small search over the cells near where it stopped fitting.

The essay's order checks each child before it enters it (``checks.check_node``):
is there a solution below it? Most children that have one have one that
differs from their parent's solution (the witness) only near the child's
row. So before a hunt dives down every entry from the child, ``repair``
keeps the witness's digits far from the conflict and looks for digits for the
cells near it: a search over tens of cells, on digit sets and sums alone,
that costs microseconds where a hunt's dive costs a propagation per entry.

Glossary
--------
conflict : the cells whose witness digit the node has lost.
free     : the cells the repair may change: the conflict, grown by rings of
           entries (each ring adds every cell of every entry holding a free
           cell). Every other cell keeps its witness digit.
pinned   : a cell that is not free.
left     : per entry, its free cells not yet given a digit.
rest     : per entry, what its free cells still have to add up to (its clue
           less its pinned and given digits; the witness's digits make the clue).
used     : per entry, the digits its pinned and given cells hold.
"""

from __future__ import annotations

import numpy as np

from ...combos import LOWEST_DIGIT, POPCOUNT, SUM_SETS
from ..core.codes import NO_REPAIR, REPAIRED, REPAIR_BUDGET
from ..core.jit import kernel

#: The most free cells a repair looks over; past that a hunt does better.
REPAIR_MAX_CELLS = 200


@kernel
def free_ring(tables, free):
    """Free every cell of every entry that holds a free cell (one ring wider); returns how
    many cells are free."""
    grown = free.copy()
    for v in range(free.shape[0]):
        if free[v]:
            for q in range(tables.var_eoff[v], tables.var_eoff[v + 1]):
                j = tables.var_ent[q]
                for i in range(tables.ent_off[j], tables.ent_off[j + 1]):
                    grown[tables.ent_var[i]] = True
    free[:] = grown
    return np.count_nonzero(free)


@kernel
def fits(tables, v, d, used, rest, left):
    """Can free cell ``v`` take digit ``d``, its entries' other free cells still able to
    make their sums with digits no cell of the entry holds?"""
    bit = 1 << (d - 1)
    for q in range(tables.var_eoff[v], tables.var_eoff[v + 1]):
        j = tables.var_ent[q]
        if tables.ent_off[j + 1] - tables.ent_off[j] < 2:    # a lone cell: its mask says it all
            continue
        if used[j] & bit or rest[j] < d:
            return False
        if not SUM_SETS[511 & ~(used[j] | bit), left[j] - 1] >> (rest[j] - d) & 1:
            return False
    return True


@kernel
def set_digit(tables, v, d, used, rest, left, sign):
    """Give free cell ``v`` digit ``d`` in its entries' records (``sign`` 1), or take it back
    (``sign`` -1)."""
    bit = 1 << (d - 1)
    for q in range(tables.var_eoff[v], tables.var_eoff[v + 1]):
        j = tables.var_ent[q]
        if sign > 0:
            used[j] |= bit
        else:
            used[j] &= ~bit
        rest[j] -= sign * d
        left[j] -= sign


@kernel
def repair_search(tables, mask, witness, free, out, node_budget):
    """Digits for the ``free`` cells, within their ``mask``s, that make a solution with the
    witness's digits everywhere else; depth-first, the cell with the fewest
    digits first, its witness digit first. Returns REPAIRED (the solution in
    ``out``, one-digit masks), NO_REPAIR or REPAIR_BUDGET (after ``node_budget``
    nodes).
    """
    V = mask.shape[0]
    E = tables.ent_off.shape[0] - 1
    used = np.zeros(E, np.int64)
    rest = np.zeros(E, np.int64)
    left = np.zeros(E, np.int64)
    for j in range(E):
        for i in range(tables.ent_off[j], tables.ent_off[j + 1]):
            u = tables.ent_var[i]
            if free[u]:
                rest[j] += LOWEST_DIGIT[witness[u]]
                left[j] += 1
            else:
                used[j] |= witness[u]
    cells = np.flatnonzero(free)
    n = cells.shape[0]
    digit = np.zeros(V, np.int64)            # a free cell's digit, 0 while it has none
    stack = np.empty(n, np.int64)            # the cells given digits, in order
    untried = np.empty(n, np.int64)          # the digits each has left to try
    top = 0
    nodes = 0
    touched = np.flatnonzero(left > 1)
    reach = np.zeros(E, np.int64)            # per entry, the digits its free cells can take
    while True:
        # a node: the free cell with the fewest digits that fit, or a solution
        best, best_count, best_digits = -1, 10, 0
        reach[touched] = 0
        for i in range(n):
            v = cells[i]
            if digit[v] != 0:
                continue
            digits = 0
            m = mask[v]
            while m:
                bit = m & -m
                m ^= bit
                if fits(tables, v, LOWEST_DIGIT[bit], used, rest, left):
                    digits |= bit
            for q in range(tables.var_eoff[v], tables.var_eoff[v + 1]):
                reach[tables.var_ent[q]] |= digits
            c = POPCOUNT[digits]
            if c < best_count:
                best, best_count, best_digits = v, c, digits
                if c == 0:
                    break
        for j in touched:                    # can the entry's free cells make its sum?
            if left[j] > 0 and not SUM_SETS[reach[j], left[j]] >> rest[j] & 1:
                best_count = 0
        if best < 0:
            for v in range(V):
                out[v] = (1 << (digit[v] - 1)) if free[v] else witness[v]
            return REPAIRED
        if best_count > 0:
            stack[top] = best
            untried[top] = best_digits
            top += 1
        # the next digit of the deepest cell with digits left to try
        while True:
            if top == 0:
                return NO_REPAIR
            v = stack[top - 1]
            if digit[v] != 0:
                set_digit(tables, v, digit[v], used, rest, left, -1)
                digit[v] = 0
            digits = untried[top - 1]
            if digits == 0:
                top -= 1
                continue
            bit = witness[v] if digits & witness[v] else digits & -digits
            untried[top - 1] = digits & ~bit
            digit[v] = LOWEST_DIGIT[bit]
            set_digit(tables, v, digit[v], used, rest, left, 1)
            break
        nodes += 1
        if nodes > node_budget:
            return REPAIR_BUDGET


@kernel
def repair(tables, mask, witness, out, node_budget):
    """A solution within ``mask`` that keeps ``witness``'s digits (a solution that does not
    fit ``mask``) away from the cells where they do not fit, or False.

    The free cells start as those where the witness does not fit, and grow by
    rings of entries (1, 2, 4, ...) while ``repair_search`` finds nothing, up
    to REPAIR_MAX_CELLS cells, or until a ring adds none (a piece of the grid
    is free whole). True with the solution in ``out`` (one-digit
    masks); False proves nothing.

    Examples
    --------
    k3's first two solutions differ in a few cells; with the first one's masks,
    the second repairs to the first:

    >>> import numpy as np, kakuro_np as kn
    >>> from kakuro_np.engine.force import start_state
    >>> from kakuro_np.solve import model
    >>> m = model(kn.read("puzzles/k3.txt"))
    >>> _, tables, _ = start_state(m.root(), True)
    >>> digits = kn.kakuro(m.puzzle, limit=2)[:, m.puzzle.blank].astype(np.int64)
    >>> first, second = 1 << (digits - 1)
    >>> out = np.zeros_like(first)
    >>> repair(tables, first, second, out, 100), bool((out == first).all())
    (True, True)
    """
    return repair_steps(tables, mask, witness, out, node_budget)[0]


@kernel
def repair_steps(tables, mask, witness, out, node_budget):
    """``repair``: ``(repaired, proved)``, and how many of its first ring steps (the free
    cells grown by 1 ring, then 2 more, 4 more, ...) it proved hold no repair
    (``repair_search`` went through them whole): a hunt with the same cells free,
    the others pinned to the witness, would find nothing there either."""
    V = mask.shape[0]
    free = np.zeros(V, np.bool_)
    for v in range(V):
        free[v] = mask[v] & witness[v] == 0
    n_free = np.count_nonzero(free)
    if n_free == 0:
        out[:] = witness
        return True, 0
    rings = 1
    searched = -1
    steps = proved = 0
    while True:
        for _ in range(rings):
            n_free = free_ring(tables, free)
        if n_free == searched or n_free > REPAIR_MAX_CELLS or 2 * n_free > V:
            return False, proved    # no ring added a cell (a piece is free whole), or too many
        said = repair_search(tables, mask, witness, free, out, node_budget)
        if said == REPAIRED:
            return True, proved
        steps += 1
        if said == NO_REPAIR and proved == steps - 1:
            proved = steps
        searched = n_free
        rings *= 2
