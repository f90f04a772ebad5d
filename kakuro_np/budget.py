"""What fits: ``kakuro()`` without a limit lists solutions only within a memory budget.

Past FIRST_TRY solutions it counts (for at most QUICK_COUNT seconds) before it lists
more, and Knuth's estimate refuses at once a listing far past the budget
(``TooManySolutions`` says how many, or about how many).
"""

from __future__ import annotations

import math
import time

import numpy as np

from .combos import POPCOUNT
from .engine.core import ahead
from .engine.core.jit import deadline_ns
from .engine.walk.counting import knuth_estimates
from .errors import SolveTimeout, TooManySolutions, seconds
from .turns import NO_LIMIT, count_in_turns, count_kernels


#: Default budget on the memory that ``kakuro()`` without a limit may fill with solutions.
MAX_BYTES = 1 << 30
#: Without a limit, how many solutions ``kakuro()`` collects before it checks the budget.
FIRST_TRY = 10_000
#: Knuth probes, and how far past the budget their median must lie to refuse at once.
PROBES, RISK = 9, 1000.0
#: Seconds ``kakuro()`` without a limit counts, before it lists solutions, to say how many.
QUICK_COUNT = 2.0
#: Seconds within which ``kakuro()`` without a limit decides, once compiled, whether the
#: solutions fit: past them, where Knuth's estimate cannot tell, TooManySolutions says so.
DECIDE_SECONDS = 10.0


def solution_bytes(blanks: int, H: int, W: int) -> int:
    """The bytes one solution of an ``H`` by ``W`` puzzle with ``blanks`` blank cells
    takes while ``kakuro()`` lists it (its digits, and its row of the answer)."""
    return 2 * blanks + H * W + 1


def solutions_within(max_bytes: int, blanks: int, H: int, W: int) -> int:
    """How many solutions of a puzzle with ``blanks`` blank cells, ``H`` by ``W``,
    ``kakuro()`` lists within ``max_bytes`` (at least 1).

    >>> solutions_within(1 << 30, 36, 8, 8)
    7837531
    """
    return max(1, max_bytes // solution_bytes(blanks, H, W))


def all_within(m, run, max_bytes, deadline, timeout) -> tuple:
    """``kakuro()`` without a limit: every solution of a model, ``(found, digits per
    variable)`` found by ``run(cap, checked)`` (``essay_solutions``); TooManySolutions,
    saying how many, when they would pass ``max_bytes``.

    The first FIRST_TRY solutions are listed by the walk without checks: most puzzles
    end there. Where there are more, or the walk thrashes, they are counted first
    (``count_before_filling``, which decides from Knuth's estimates within seconds
    where the count is long), and listed only when they fit.
    """
    most = solutions_within(max_bytes, len(m.var_cell), *m.puzzle.shape)
    cap = first = min(most + 1, FIRST_TRY)
    found, digits = run(first, False) or (None, None)
    if found is not None and found < first:
        return found, digits
    if found != most + 1:
        cap = count_before_filling(m, most, max_bytes, deadline, timeout) + 1
        found, digits = run(cap)
    if found == cap:
        raise too_many(f"more than {cap - 1:,}", cap - 1, max_bytes, at_least=cap)
    return found, digits


def count_before_filling(m, most, max_bytes, deadline, timeout) -> int:
    """How many solutions a model has, when at most ``most`` (the number ``max_bytes``
    hold); TooManySolutions, saying how many, before any memory is filled when more.

    First an exact count for at most QUICK_COUNT seconds: a count with pieces to multiply
    or a memo to share ends in milliseconds where listing would take minutes. Past it,
    Knuth's estimates refuse a count far past ``most`` at once: by Markov's inequality
    each probe passes RISK times the true count with probability at most 1 / RISK, so
    their median (5 of 9) does with probability below C(9, 5) / RISK ** 5, about 1e-13.
    The others are counted up to ``most + 1`` (SolveTimeout past ``deadline``), for
    DECIDE_SECONDS at most: past them it is told that it could not be told.
    """
    ahead.ready(count_kernels(most + 1), deadline)
    decide_by = deadline_ns(DECIDE_SECONDS)
    quick = min(deadline, deadline_ns(QUICK_COUNT))
    n = count_in_turns(m, NO_LIMIT, quick)
    if n is None:
        typical = typical_estimate(m)
        if typical > math.log10(RISK * most):
            raise too_many(f"about {power_of_ten(typical)} (estimated)", most, max_bytes,
                            at_least=most + 1)
        n = count_in_turns(m, most + 1, min(deadline, decide_by))
        if n is None and time.monotonic_ns() >= deadline:
            raise timed_out_counting(m, timeout)
        if n is None:
            raise untold(most, max_bytes)
        if n > most:
            raise too_many(f"more than {most:,}", most, max_bytes, at_least=n)
    elif n > most:
        raise too_many(f"{n:,}", most, max_bytes, count=n)
    return n


def untold(most, max_bytes) -> TooManySolutions:
    """The TooManySolutions of ``kakuro()`` without a limit when neither a count nor Knuth's
    estimate told within DECIDE_SECONDS whether the solutions fit."""
    return TooManySolutions(
        f"could not tell within {DECIDE_SECONDS:g} s whether this puzzle has at most the "
        f"{most:,} solutions that {max_bytes:,} bytes hold (its count did not end, and "
        f"Knuth's estimate could not say); ask for some with limit=, or count them with "
        f"count()", at_least=0, how_many="an untold number of")


def too_many(how_many: str, most, max_bytes, **known) -> TooManySolutions:
    """The TooManySolutions of ``kakuro()`` without a limit (``count``/``at_least`` in
    ``known``)."""
    return TooManySolutions(
        f"this puzzle has {how_many} solutions, more than the {most:,} that "
        f"{max_bytes:,} bytes hold; ask for some with limit=, or count them with count()",
        how_many=how_many, **known)


def typical_estimate(m) -> float:
    """The median of PROBES of Knuth's estimates of the number of solutions of a model
    (``counting.knuth_estimates``), as a base-10 logarithm; -inf when most descents met
    no solution."""
    return float(np.median(knuth_estimates(m.root(), PROBES, 20061122)))


def power_of_ten(log10: float, digits: int = 1) -> str:
    """``10 ** log10`` for a person, ``digits`` after the point: ``2.6e+1449``, past what
    a float holds (an exact int ``n`` is ``power_of_ten(math.log10(n))``).

    >>> power_of_ten(1449.41), power_of_ten(2.0), power_of_ten(math.log10(9 ** 40000), 3)
    ('2.6e+1449', '1.0e+02', '5.016e+38169')
    """
    exponent = math.floor(log10)
    mantissa = round(10 ** (log10 - exponent), digits)
    if mantissa >= 10:                      # 9.96 rounds up to 10.0
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{mantissa:.{digits}f}e{exponent:+03d}"


def timed_out_counting(m, timeout) -> SolveTimeout:
    """The SolveTimeout of a count past its time, with what is known of the count: at most
    ``at_most`` (an int: the product of each cell's candidates in the model's tables),
    and ``estimate``, Knuth's (a base-10 logarithm, ``typical_estimate``), or None when
    its kernel is not compiled or most random descents met no solution (a few
    milliseconds more)."""
    at_most = math.prod(POPCOUNT[m.mask].tolist())
    said = (f"timed out after {seconds(timeout)} s while counting; at most {big_number(at_most)} solutions "
            f"(the product of the cells' candidates after forced moves)")
    estimate = typical_estimate(m) if ahead.cached("count") else -math.inf
    if estimate > -math.inf:
        said += (f", about {power_of_ten(estimate)} by Knuth's estimate from {PROBES} random "
                 f"descents")
    error = SolveTimeout(said)
    error.at_most, error.estimate = at_most, estimate if estimate > -math.inf else None
    return error


def big_number(n: int) -> str:
    """An int for a person: with commas up to a billion, past it a power of ten.

    >>> big_number(123_456), big_number(10 ** 40)
    ('123,456', '1.0e+40')
    """
    return f"{n:,}" if n < 10 ** 9 else power_of_ten(math.log10(n))
