"""The techniques people solve Kakuro with by hand, as kernels, and the ladder that applies them.

Each technique looks at one entry: the candidates of its cells and its clue.
It returns the candidates it leaves, or says it cannot help there. The
ladder applies, step after step, the simplest technique that makes progress
somewhere, preferring the entries whose cells changed last (where a person's
eye already is). Every technique removes only digits that no filling of that
entry allows, and the last one, the essay's joint possibilities, removes
every such digit; so the ladder stops exactly at the fixpoint of ``force``.

Glossary
--------
mask     : a cell's candidates as a 9-bit digit set (bit ``d - 1`` for digit ``d``).
m, out   : the masks of one entry's cells in the entry's order before and
           after a technique (int64, one per cell).
decided  : a cell with one candidate; an open cell has two or more.
used     : the digits of an entry's decided cells; ``rest``, its clue less their sum.
sum combinations : every set of as many distinct digits as the entry has open
           cells, none of them used, adding up to ``rest``: what the clue
           alone allows, whatever the candidates.
fitting  : a sum combination that each open cell can take a digit of and whose
           every digit some open cell can take.
required : a digit in every fitting combination.
info     : four numbers a technique leaves for the sentence that explains it
           (see ``INFO``).
stamp    : the step at which one of an entry's cells last changed; a technique
           that found nothing in an entry is not tried there again until its
           stamp moves.
"""

from __future__ import annotations

import numpy as np
from numba import types

from .combos import COMBO_BITS, COMBO_OFF, LOWEST_DIGIT, MAX_SUM, MAX_TOTAL, MIN_SUM, POPCOUNT
from .engine.core import ahead
from .engine.core.codes import CONTRADICTION, PAUSED, SOLVED, STUCK, TIMED_OUT
from .engine.core.jit import INT, INTS, NO_DEADLINE, kernel, monotonic_ns, sort_ints

#: The ladder, from the simplest technique up (the order in which they are tried).
(NO_REPEATS, LONE_SQUARE, UNIQUE_COMBINATION, CROSS_REFERENCE, BOUNDS, COMPLEMENT,
 REQUIRED_DIGIT, NAKED_PAIR, HIDDEN_PAIR, NAKED_TRIPLE, HIDDEN_TRIPLE, COMBINATION_ELIMINATION,
 COMBINATION_PLACEMENT, JOINT_POSSIBILITIES) = range(14)
N_TECHNIQUES = 14
NAMES = ("no repeats", "lone square", "unique combination", "cross reference", "bounds",
         "complement", "required digit", "naked pair", "hidden pair", "naked triple",
         "hidden triple", "combination elimination", "combination placement",
         "joint possibilities")
#: What ``info`` holds after each technique (``cell`` is an index into the entry).
INFO = {
    NO_REPEATS: ("cell", "digit"),
    LONE_SQUARE: ("cell (-1: every cell is decided)", "rest", "sum of the decided digits"),
    UNIQUE_COMBINATION: ("digit set", "number of sum combinations", "rest", "open cells"),
    CROSS_REFERENCE: ("digit set", "number of sum combinations", "rest", "open cells"),
    BOUNDS: ("cell", "least the other cells make", "most they make"),
    COMPLEMENT: ("rest",),
    REQUIRED_DIGIT: ("cell", "digit", "fitting sum combinations (bit per combination)"),
    NAKED_PAIR: ("cells (bit per cell)", "digit set"),
    NAKED_TRIPLE: ("cells (bit per cell)", "digit set"),
    HIDDEN_PAIR: ("cells (bit per cell)", "digit set", "fitting sum combinations"),
    HIDDEN_TRIPLE: ("cells (bit per cell)", "digit set", "fitting sum combinations"),
    COMBINATION_ELIMINATION: ("digit set", "fitting sum combinations"),
    COMBINATION_PLACEMENT: ("rest", "open cells"),
    JOINT_POSSIBILITIES: ("ways to fill the open cells", "rest", "open cells"),
}
#: HIGHEST_DIGIT[s]: the largest digit of digit set ``s`` (0 for the empty set).
HIGHEST_DIGIT = np.array([s.bit_length() for s in range(512)], np.int64)


# -- the techniques, simplest first -----------------------------------------------

#: ``scratch`` (32 int64, the caller's) holds an entry's open cells (their indices into
#: the entry) from 0, and its sum combinations from COMBOS_FROM (12 at most).
COMBOS_FROM = 9


@kernel
def no_repeats(m, out, info):
    """A decided digit is crossed off the entry's other cells."""
    n = m.shape[0]
    for i in range(n):
        if POPCOUNT[m[i]] != 1:
            continue
        changed = False
        for j in range(n):
            if j != i and m[j] & m[i]:
                out[j] = m[j] & ~m[i]
                changed = True
        if changed:
            info[0], info[1] = i, LOWEST_DIGIT[m[i]]
            return True
    return False


@kernel
def bounds(m, total, out, info):
    """Minimax: a cell holds the clue less what the other cells can make, at least and at most."""
    n = m.shape[0]
    for i in range(n):
        if POPCOUNT[m[i]] < 2:
            continue
        least = 0
        most = 0
        union = 0
        for j in range(n):
            if j != i:
                least += LOWEST_DIGIT[m[j]]
                most += HIGHEST_DIGIT[m[j]]
                union |= m[j]
        least = max(least, MIN_SUM[union, n - 1])
        most = min(most, MAX_SUM[union, n - 1])
        low, high = max(total - most, 1), min(total - least, 9)     # the digits low..high
        keep = m[i] & ((1 << high) - 1) & ~((1 << (low - 1)) - 1) if low <= high else 0
        if keep != m[i]:
            out[i] = keep
            info[0], info[1], info[2] = i, least, most
            return True
    return False


@kernel
def complement(m, out, info, cells, used, rest):
    """Two open cells (``cells[:2]``): a digit in one needs what the clue leaves in the other."""
    changed = False
    for j in range(2):
        here, there = m[cells[j]], m[cells[1 - j]]
        keep = 0
        for d in range(1, 10):
            other = rest - d
            if (here >> (d - 1)) & 1 and 1 <= other <= 9 and other != d \
                    and (there >> (other - 1)) & 1 and not (used >> (other - 1)) & 1:
                keep |= 1 << (d - 1)
        if keep != here:
            out[cells[j]] = keep
            changed = True
    info[0] = rest
    return changed


@kernel
def required_digit(m, out, info, fit, required):
    """A digit every fitting combination needs, with one open cell left for it, goes there."""
    for d in range(9):
        if not (required >> d) & 1:
            continue
        place = -1
        places = 0
        for i in range(m.shape[0]):
            if POPCOUNT[m[i]] != 1 and (m[i] >> d) & 1:
                place = i
                places += 1
        if places == 1:
            out[place] = 1 << d
            info[0], info[1], info[2] = place, d + 1, fit
            return True
    return False


@kernel
def naked_subset(m, out, info, cells, n, size):
    """``size`` of the ``n`` open cells ``cells[:n]`` holding only ``size`` digits between
    them: the other cells lose those."""
    for chosen in range(1 << n):
        if POPCOUNT[chosen] != size:
            continue
        digits = 0
        where = 0
        for j in range(n):
            if (chosen >> j) & 1:
                digits |= m[cells[j]]
                where |= 1 << cells[j]
        if POPCOUNT[digits] != size:
            continue
        changed = False
        for j in range(n):
            i = cells[j]
            if not (chosen >> j) & 1 and m[i] & digits:
                out[i] = m[i] & ~digits
                changed = True
        if changed:
            info[0], info[1] = where, digits
            return True
    return False


@kernel
def hidden_subset(m, out, info, fit, required, size):
    """``size`` required digits with only ``size`` open cells for them: those cells hold nothing else."""
    if POPCOUNT[required] < size:
        return False
    digits = required
    while digits:                       # every subset of the required digits
        if POPCOUNT[digits] == size:
            where = 0
            for i in range(m.shape[0]):
                if POPCOUNT[m[i]] != 1 and m[i] & digits:
                    where |= 1 << i
            if POPCOUNT[where] == size:
                changed = False
                for i in range(m.shape[0]):
                    if (where >> i) & 1 and m[i] & ~digits:
                        out[i] = m[i] & digits
                        changed = True
                if changed:
                    info[0], info[1], info[2] = where, digits, fit
                    return True
        digits = (digits - 1) & required
    return False


@kernel
def combination_placement(m, out, combos, n_sum):
    """An open cell keeps a digit only if a sum combination (of ``combos[:n_sum]``) holding
    it can put its other digits in the other open cells (each of them taking one, every
    digit a place)."""
    changed = False
    for i in range(m.shape[0]):
        if POPCOUNT[m[i]] == 1:
            continue
        union = 0                               # what the other open cells can take
        for j in range(m.shape[0]):
            if j != i and POPCOUNT[m[j]] != 1:
                union |= m[j]
        keep = 0
        for c in range(n_sum):
            for d in range(9):
                bit = 1 << d
                if not (combos[c] & m[i] & bit) or keep & bit:
                    continue
                others = combos[c] & ~bit
                if others & ~union:
                    continue
                fits = True
                for j in range(m.shape[0]):
                    if j != i and POPCOUNT[m[j]] != 1 and m[j] & others == 0:
                        fits = False
                        break
                if fits:
                    keep |= bit
        if keep != m[i]:
            out[i] = keep
            changed = True
    return changed


@kernel
def joint_possibilities(m, out, info, cells, n, used, rest):
    """The essay's table step: the ``n`` open cells ``cells[:n]`` keep the digits some full
    filling of the entry puts there.

    Enumerates the fillings of the open cells depth first (the last digit is
    what the clue leaves) and stops early once every candidate is seen used.
    """
    least = np.zeros(n + 1, np.int64)       # what cells j.. make at least and at most
    most = np.zeros(n + 1, np.int64)
    need = 0
    for j in range(n - 1, -1, -1):
        c = m[cells[j]] & ~used
        least[j] = least[j + 1] + LOWEST_DIGIT[c]
        most[j] = most[j + 1] + HIGHEST_DIGIT[c]
        need += POPCOUNT[m[cells[j]]]
    seen = np.zeros(n, np.int64)
    digit = np.zeros(n, np.int64)
    ways = 0
    j = 0
    partial = 0
    taken = used
    while True:
        if j == n - 1:                          # the last open cell takes the rest
            d = rest - partial
            if 1 <= d <= 9 and (m[cells[j]] >> (d - 1)) & 1 and not (taken >> (d - 1)) & 1:
                ways += 1
                digit[j] = d
                for q in range(n):
                    bit = 1 << (digit[q] - 1)
                    if not seen[q] & bit:
                        seen[q] |= bit
                        need -= 1
                if need == 0:
                    return False                # every candidate is used by some filling
            j -= 1
            taken ^= 1 << (digit[j] - 1)
            partial -= digit[j]
        d = digit[j] + 1                        # the next digit for cell j
        found = False
        while d <= 9:
            if (m[cells[j]] >> (d - 1)) & 1 and not (taken >> (d - 1)) & 1:
                if partial + d + least[j + 1] > rest:
                    break
                if partial + d + most[j + 1] >= rest:
                    found = True
                    break
            d += 1
        if not found:
            digit[j] = 0
            if j == 0:
                break
            j -= 1
            taken ^= 1 << (digit[j] - 1)
            partial -= digit[j]
            continue
        digit[j] = d
        taken |= 1 << (d - 1)
        partial += d
        j += 1
        if j < n - 1:
            digit[j] = 0
    for q in range(n):
        out[cells[q]] = seen[q]
    info[0], info[1], info[2] = ways, rest, n
    return True


@kernel
def try_technique(t, m, total, out, info, scratch):
    """Apply technique ``t`` to one entry: True, with ``out`` and ``info`` set, if it made progress.

    ``out`` must hold a copy of ``m``; only the cells that change are written. What the
    techniques but no repeats and bounds start from is worked out here, once: the
    decided digits (``used``), the open cells, the clue's ``rest``, then, where a
    technique needs them, the sum combinations and those that fit (``scratch`` holds
    them). Lone square, and the techniques that keep the digits of some sum combinations
    in the open cells (unique combination, cross reference, combination elimination),
    are done here too.
    """
    if t == NO_REPEATS:
        return no_repeats(m, out, info)
    if t == BOUNDS:
        return bounds(m, total, out, info)
    # the decided digits, and the open cells in scratch[:n_open]
    cells = scratch[:COMBOS_FROM]
    used = 0
    used_sum = 0
    n_open = 0
    for i in range(m.shape[0]):
        if POPCOUNT[m[i]] == 1:
            used |= m[i]
            used_sum += LOWEST_DIGIT[m[i]]
        else:
            cells[n_open] = i
            n_open += 1
    rest = total - used_sum
    if t == LONE_SQUARE:                    # the last open cell takes what the clue leaves
        if n_open == 1:
            i = cells[0]
            out[i] = m[i] & (1 << (rest - 1) if 1 <= rest <= 9 else 0) & ~used
            info[0], info[1], info[2] = i, rest, used_sum
            return True
        if n_open == 0 and rest != 0:       # a full entry must add up
            for i in range(m.shape[0]):
                out[i] = 0
            info[0], info[1], info[2] = -1, rest, used_sum
            return True
        return False
    if t == COMPLEMENT:
        return n_open == 2 and complement(m, out, info, cells, used, rest)
    if t == NAKED_PAIR or t == NAKED_TRIPLE:
        size = 2 if t == NAKED_PAIR else 3
        return n_open > size and naked_subset(m, out, info, cells, n_open, size)
    if t == JOINT_POSSIBILITIES:
        if n_open < 2 or not joint_possibilities(m, out, info, cells, n_open, used, rest):
            return False
        for i in range(m.shape[0]):             # the early stop returns False: compare anyway
            if out[i] != m[i]:
                return True
        return False
    if n_open < 2:
        return False
    # the sum combinations, lexicographic, in combos[:n_sum]
    combos = scratch[COMBOS_FROM:]
    n_sum = 0
    if 0 <= rest <= MAX_TOTAL:
        group = n_open * (MAX_TOTAL + 1) + rest
        for j in range(COMBO_OFF[group], COMBO_OFF[group + 1]):
            if COMBO_BITS[j] & used == 0:
                combos[n_sum] = COMBO_BITS[j]
                n_sum += 1
    if t == COMBINATION_PLACEMENT:
        if n_open < 3:
            return False
        info[0], info[1] = rest, n_open
        return combination_placement(m, out, combos, n_sum)
    union = 0                               # the digits the open cells may keep
    if t == UNIQUE_COMBINATION or t == CROSS_REFERENCE:
        if (n_sum == 1) != (t == UNIQUE_COMBINATION):
            return False
        for j in range(n_sum):
            union |= combos[j]
        info[0], info[1], info[2], info[3] = union, n_sum, rest, n_open
    else:
        # the fitting combinations (bit j for combos[j]): each open cell can take a digit
        # of one, and its every digit some open cell can take; ``required`` is in them all
        reach = 0
        for q in range(n_open):
            reach |= m[cells[q]]
        fit = 0
        for j in range(n_sum):
            c = combos[j]
            if c & ~reach:
                continue
            fits = True
            for q in range(n_open):
                if m[cells[q]] & c == 0:
                    fits = False
                    break
            if fits:
                fit |= 1 << j
        required = 0x1FF if fit else 0
        for j in range(n_sum):
            if (fit >> j) & 1:
                union |= combos[j]
                required &= combos[j]
        if t == REQUIRED_DIGIT:
            return required_digit(m, out, info, fit, required)
        if t == HIDDEN_PAIR or t == HIDDEN_TRIPLE:
            size = 2 if t == HIDDEN_PAIR else 3
            return n_open > size and hidden_subset(m, out, info, fit, required, size)
        if t != COMBINATION_ELIMINATION or fit == (1 << n_sum) - 1:
            return False
        info[0], info[1] = union, fit       # combination elimination: the others dropped
    changed = False                         # the open cells keep only ``union``
    for q in range(n_open):
        i = cells[q]
        if m[i] & ~union:
            out[i] = m[i] & union
            changed = True
    return changed


# -- the ladder -----------------------------------------------------------------

#: The types ``explain`` calls ``climb`` with (see ``ahead``).
CLIMB_TYPES = (types.UniTuple(INTS, 5), INTS, INT, INT, INT, INT)
#: Steps a climb takes between two looks at the clock.
CLOCK_STEPS = 64


@kernel
def climb(runs, mask, max_steps, top, changed_var, deadline):
    """Apply the ladder's techniques ``0..top-1`` to ``mask`` in place, one step at a time.

    ``runs`` is ``(ent_off, ent_var, ent_sum, var_eoff, var_ent)``: entry ``k`` holds the
    variables ``ent_var[ent_off[k]:ent_off[k + 1]]`` and adds up to ``ent_sum[k]``;
    variable ``v`` is in the entries ``var_ent[var_eoff[v]:var_eoff[v + 1]]``.

    With ``changed_var`` -1 every entry is tried; else only the entries of that variable
    to begin with (the others are known to be where no technique helps, e.g. after a
    supposition on a state where the ladder was stuck), and then those a step touches.

    Each step is the simplest technique that makes progress in some entry,
    trying the entries whose cells changed most recently first (ties to the
    lower entry). It stops when no technique helps, when a cell is left with
    no candidate, after ``max_steps`` steps, or once ``deadline`` (monotonic ns, looked at
    every CLOCK_STEPS steps; NO_DEADLINE: never) has passed. Each technique keeps a stack of
    the entries to try: the entries a step touches go on top, and an entry
    tried since it last changed is skipped, so a step costs what it touches.

    Returns ``(status, technique, entry, info, change_off, change_var,
    change_old, change_new)``: SOLVED, STUCK, CONTRADICTION, PAUSED or TIMED_OUT; per
    step its technique, entry and info; and its changes
    ``change_off[s]:change_off[s + 1]``, each a variable with its masks before
    and after.
    """
    ent_off, ent_var, ent_sum, var_eoff, var_ent = runs
    E = ent_sum.shape[0]
    V = mask.shape[0]
    most = 9 * V + 1                        # every step removes a digit
    technique = np.zeros(most, np.int64)
    entry = np.zeros(most, np.int64)
    info = np.zeros((most, 4), np.int64)
    change_off = np.zeros(most + 1, np.int64)
    change_var = np.zeros(most, np.int64)
    change_old = np.zeros(most, np.int64)
    change_new = np.zeros(most, np.int64)
    stamp = np.zeros(E, np.int64)
    tried = np.full((N_TECHNIQUES, E), -1, np.int64)
    stack = np.empty((max(top, 1), E + 64), np.int64)
    size = np.zeros(max(top, 1), np.int64)
    touched = np.zeros(E + 1, np.int64)
    n_touched = 0
    if changed_var < 0:
        for k in range(E):                  # every entry, the lowest on top
            touched[k] = k
        n_touched = E
    else:
        for q in range(var_eoff[changed_var], var_eoff[changed_var + 1]):
            touched[n_touched] = var_ent[q]
            n_touched += 1
        sort_ints(touched, np.int64(0), n_touched)
    m = np.zeros(9, np.int64)
    out = np.zeros(9, np.int64)
    facts = np.zeros(4, np.int64)
    scratch = np.zeros(32, np.int64)
    n_steps = 0
    n_changes = 0
    status = STUCK
    while True:
        # the entries touched[:n_touched] (ascending) go on every technique's stack, the
        # lowest on top; the stacks grow when full
        fullest = 0
        for t in range(size.shape[0]):
            fullest = max(fullest, size[t])
        if fullest + n_touched > stack.shape[1]:
            bigger = np.empty((stack.shape[0], 2 * stack.shape[1] + n_touched), np.int64)
            for t in range(stack.shape[0]):
                for i in range(stack.shape[1]):
                    bigger[t, i] = stack[t, i]
            stack = bigger
        for t in range(stack.shape[0]):
            for i in range(n_touched - 1, -1, -1):
                stack[t, size[t]] = touched[i]
                size[t] += 1
        if n_steps == max_steps:
            status = PAUSED
            break
        if deadline != NO_DEADLINE and n_steps % CLOCK_STEPS == 0 and monotonic_ns() > deadline:
            status = TIMED_OUT
            break
        found = -1
        k = -1
        for t in range(top):
            while size[t] > 0:
                k = stack[t, size[t] - 1]
                if tried[t, k] == stamp[k]:
                    size[t] -= 1
                    continue
                a = ent_off[k]
                n = ent_off[k + 1] - a
                for p in range(n):
                    m[p] = mask[ent_var[a + p]]
                    out[p] = m[p]
                facts[:] = 0
                if try_technique(t, m[:n], ent_sum[k], out[:n], facts, scratch):
                    found = t
                    break
                tried[t, k] = stamp[k]
                size[t] -= 1
            if found >= 0:
                break
        if found < 0:
            status = STUCK
            for v in range(V):
                if POPCOUNT[mask[v]] != 1:
                    break
            else:
                status = SOLVED
            break
        technique[n_steps] = found
        entry[n_steps] = k
        for i in range(4):
            info[n_steps, i] = facts[i]
        emptied = False
        n_touched = 0
        a = ent_off[k]
        for p in range(ent_off[k + 1] - a):
            if out[p] == m[p]:
                continue
            v = ent_var[a + p]
            change_var[n_changes] = v
            change_old[n_changes] = m[p]
            change_new[n_changes] = out[p]
            n_changes += 1
            mask[v] = out[p]
            emptied |= out[p] == 0
            for q in range(var_eoff[v], var_eoff[v + 1]):
                j = var_ent[q]
                if stamp[j] != n_steps + 1:
                    stamp[j] = n_steps + 1
                    touched[n_touched] = j
                    n_touched += 1
        sort_ints(touched, np.int64(0), n_touched)
        n_steps += 1
        change_off[n_steps] = n_changes
        if emptied:
            status = CONTRADICTION
            break
    return (status, technique[:n_steps], entry[:n_steps], info[:n_steps],
            change_off[:n_steps + 1], change_var[:n_changes], change_old[:n_changes],
            change_new[:n_changes])


# the climb, compiled ahead by a helper (``ahead``) while the command line reads the puzzle
ahead.declare("climb", __name__, ((__name__, "climb", "CLIMB_TYPES"),))
