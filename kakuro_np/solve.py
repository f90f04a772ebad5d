"""Stage 4, solve: the public verbs ``kakuro``, ``count`` and ``reduce``, with their budgets,
limits, timeouts and results.

The kernels are in ``engine``: the model in ``engine.model``, the search in ``engine.search``,
counting in ``engine.walk.counting``, the hunt in any order in ``engine.walk.anyorder``.

Glossary
--------
model    : the packed puzzle the kernels share (``engine.model``),
           with the Puzzle and its packed entries (``Model``).
deadline : a ``monotonic_ns`` time after which kernels stop (``NO_DEADLINE``: never).
limit    : how many solutions to find or count at most (``NO_LIMIT``: no limit).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import math
import threading
import time
from typing import Callable, NamedTuple

import numpy as np

from . import first_run
from .combos import LOWEST_DIGIT, POPCOUNT, candidate_grid
from .dist import cores
from .engine.build.entries import packed_entries
from .engine.model import MAX_ROWS, Model, build
from .engine.core import ahead, policy
from .engine.core.codes import (COUNT_TIMED_OUT, MEMO_FULL, OK, OUT_OF_NODES, THRASHING, TIMED_OUT)
from .engine.core.jit import NO_DEADLINE, deadline_ns
from .engine.proofs.cdcl import sat_of_root, sat_solutions
from .engine.proofs.checks import checks_for
from .engine.walk.anyorder import any_solutions, find_solutions
from .engine.walk.counting import (count_pieces, count_split, counted_solutions, knuth_estimates,
                                   wide_value)
from .engine.walk.dissect import cut_ranks
from .engine.walk.memo import Memo, borrowed, give_back, grown, new_memo
from .engine.search import fixpoint_masks, search
from .engine.walk.split import row_children
from .errors import SolveTimeout, TooManySolutions, seconds
from .impossible import why_impossible
from .puzzle import Puzzle, PuzzleLike

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
#: Count limit meaning "no limit".
NO_LIMIT = np.iinfo(np.int64).max
#: Per thread: whether its counts keep to one core (``one_core``).
_ONE_CORE = threading.local()
#: No ranks (see ``counting.new_tally``).
NO_RANKS = np.empty(0, np.int64)


# ---------------------------------------------------------------------------
# The public verbs


#: The last model ``model`` built, with its Puzzle and row budget; kept when its tables
#: hold at most KEEP_ROWS rows. A Puzzle is immutable, so the same object asked again
#: (``count`` then ``kakuro`` of one puzzle, as a batch asks) needs no second build.
_last_model = [(None, None, None)]
KEEP_ROWS = 100_000


def model(grid, max_rows=MAX_ROWS, deadline=NO_DEADLINE) -> Model:
    """Pack a puzzle (or text, path, rows) for the kernels (``engine.model``).

    Raises BudgetError past ``max_rows`` table rows and SolveTimeout past ``deadline``.
    """
    puzzle = _puzzle(grid)
    kept_puzzle, kept_rows, kept = _last_model[0]
    if kept_puzzle is puzzle and kept_rows == max_rows:
        return kept
    m = build(puzzle, max_rows, deadline)
    if len(m.rows) <= KEEP_ROWS:
        _last_model[0] = (puzzle, max_rows, m)
    return m


def _limit(limit) -> int:
    if limit is None:
        return NO_LIMIT
    if isinstance(limit, (bool, np.bool_)) or not isinstance(limit, (int, np.integer)) or limit < 0:
        raise ValueError(f"limit must be a whole number >= 0 or None, got {limit!r}")
    return int(limit)


def kakuro(grid: PuzzleLike, limit: int | None = None, *, order: str = "essay",
           timeout: float | None = None, max_rows: int = MAX_ROWS, max_bytes: int = MAX_BYTES,
           scheduler: object = None) -> np.ndarray:
    """Every solution of a puzzle, in the essay's fan-out order.

    Parameters
    ----------
    grid : Puzzle, text, path or rows
    limit : int, optional
        Stop after this many solutions.
    order : "essay" or "any"
        "essay": the first ``limit`` solutions of the full list, in the essay's
        order. "any": any ``limit`` different solutions, as fast as a hunt in any
        order or a count that reads them back, taking turns, finds them, for
        callers to whom the order does not matter; with more than 1,000 asked for
        (or no limit), the essay's order.
    timeout : float, optional
        Seconds; past them SolveTimeout is raised.
    max_rows : int
        Budget on table rows in all (BudgetError past it).
    max_bytes : int
        Without a limit, the memory the solutions may fill. Past 10,000 solutions
        (or 2 s of listing) they are counted before more are listed; past what
        fits, TooManySolutions is raised, saying how many, within seconds where
        Knuth's estimate is far past it (ask with ``limit=`` or use ``count()``).
    scheduler : distributed.Client, cluster, "local" or address, optional
        Search on a Dask cluster (the extra ``dist``; see ``dist.connected``):
        the fan-out tree is split into subproblems, a task each, and their
        solutions joined in the essay's order, the same as without it. The
        hunt of ``order="any"`` runs here.

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
    if order not in ("essay", "any"):
        raise ValueError(f"order must be 'essay' or 'any', got {order!r}")
    deadline, cap, puzzle = deadline_ns(timeout), _limit(limit), _puzzle(grid)
    walk, = kakuro_kernels(limit, order)
    if scheduler is None:                   # an empty cache: the essay may answer meanwhile
        answer = _while_compiling(puzzle, ("model", walk), cap, deadline, max_rows,
                                  max_bytes if limit is None else None)
        if answer is not None:
            return answer[0]
    ahead.ready(("model", walk), deadline)      # with a deadline, compiled in it, in helpers
    m = model(puzzle, max_rows, deadline)       # stages 1-3: entries -> jposs -> force
    if m.status != OK or cap == 0:
        return np.zeros((0, *puzzle.shape), np.int8)
    found, digits = fan_out(m, walk, cap, limit is None, deadline, timeout,   # stage 4
                            scheduler=scheduler, max_rows=max_rows, max_bytes=max_bytes)
    return on_grid(m, found, digits)


def fan_out(m, walk, cap, every, deadline, timeout, *, scheduler=None, max_rows=MAX_ROWS,
            max_bytes=MAX_BYTES) -> tuple:
    """Stage 4 of ``kakuro()``: ``(found, digits per variable)`` of the solutions of model
    ``m``: the first ``cap`` in the essay's order (``walk`` "search", on a Dask cluster
    with ``scheduler``), or ``cap`` in any order (``walk`` "any"); with ``every``, all of
    them within ``max_bytes``."""
    if walk == "any":                           # a hunt in any order
        return _any_solutions(m, cap, deadline, timeout)
    if scheduler is not None:
        return _on_cluster(m, scheduler, cap, every, deadline, timeout, max_rows, max_bytes)
    if every:                                   # bounded by max_bytes instead
        return _all_within(m, lambda cap, checked=True: essay_solutions(
            m, cap, deadline, timeout, checked), max_bytes, deadline, timeout)
    return essay_solutions(m, cap, deadline, timeout)


def _puzzle(grid):
    """The Puzzle of ``grid``: itself, or read (``formats.as_puzzle``)."""
    if type(grid) is Puzzle:
        return grid
    from .formats import as_puzzle
    return as_puzzle(grid)


def on_grid(m, found: int, digits) -> np.ndarray:
    """``(found, H, W)`` int8: the digits per variable of ``found`` solutions of model ``m``
    in their cells, 0 elsewhere."""
    H, W = m.puzzle.shape
    out = np.zeros((found, H * W), np.int8)
    out[:, m.var_cell] = digits
    return out.reshape(found, H, W)


def _on_cluster(m, scheduler, cap, every, deadline, timeout, max_rows, max_bytes) -> tuple:
    """``kakuro()``'s solutions of ``m`` found on a Dask cluster (``dist``): the first ``cap``,
    or with ``every`` all of them within ``max_bytes``."""
    from .dist import connected, solutions_on
    with connected(scheduler) as client:
        def run(cap, checked=True):
            return solutions_on(client, subproblem_solutions, m, cap, timeout, max_rows)
        if every:
            return _all_within(m, run, max_bytes, deadline, timeout)
        return run(cap)


def _while_compiling(puzzle, names, cap, deadline, max_rows, max_bytes=None):
    """The essay's answer while helpers compile the kernels ``names`` (``_essay_meanwhile``),
    or None when they are all compiled or it gave up.

    ``answer`` is ``(digits, complete)`` of at most ``cap`` solutions
    (``first_run.essay_answer``), kept only when it answers the question: ``cap``
    solutions, or all of them. With ``max_bytes`` (``kakuro()`` without a limit) every
    solution is asked for, and an answer kept only within the bytes (and
    ``first_run.MOST_SOLUTIONS``).
    """
    meanwhile = _essay_meanwhile(puzzle, names, deadline)
    if meanwhile is None:
        return None
    need_all = max_bytes is not None or cap > first_run.MOST_SOLUTIONS
    if max_bytes is not None:
        H, W = puzzle.shape
        cap = solutions_within(max_bytes, int(puzzle.blank.sum()), H, W)
    cap = min(cap, first_run.MOST_SOLUTIONS)
    answer = first_run.essay_answer(puzzle, cap, *meanwhile, max_rows)
    if answer is None or not (answer[1] or (not need_all and len(answer[0]) == cap)):
        return None
    return answer


def _reduced_while_compiling(puzzle, deadline, max_rows):
    """``reduce``'s cell masks by the essay while helpers compile the model's kernels
    (``first_run.essay_masks``), or None when they are compiled, the essay gave up, or a
    run cannot be filled (the engine names it)."""
    meanwhile = _essay_meanwhile(puzzle, ("model",), deadline)
    if meanwhile is None:
        return None
    return first_run.essay_masks(puzzle, *meanwhile, max_rows)


def _essay_meanwhile(puzzle, names, deadline) -> tuple | None:
    """``(deadline, compiled)`` when the kernels ``names`` are not all in the cache:
    helpers start compiling them, and the essay (``first_run``) may answer until ``deadline``
    (monotonic ns, the caller's deadline) or until ``compiled()``, within its budget
    (``first_run.ESSAY_SECONDS`` of processor time); else None. The puzzle's runs are
    checked first, as the engine checks them (``PuzzleError``)."""
    if not first_run.ENABLED or ahead.all_cached(names):
        return None
    packed_entries(puzzle, compiled=False)  # a bad run raises here, as in ``model``
    ahead.start(*names)
    polled = [0.0]

    def compiled():                         # the helpers are done: the engine answers
        now = time.monotonic()
        if now - polled[0] < 0.05:
            return False
        polled[0] = now
        return ahead.all_cached(names)

    return deadline, compiled


def essay_solutions(m, cap, deadline, timeout=None, checked=True) -> tuple | None:
    """Up to ``cap`` solutions of a model in the essay's order: ``(found, digits per
    variable)``; SolveTimeout past ``deadline`` (``timeout`` is for the message).
    Without ``checked``, None once the walk thrashes.

    Once the search thrashes, it runs again with checks (see ``search``), from a
    witness of the root: the root's own check's (the search's first, ``check_root``,
    steered by the node where the walk thrashed), if it answers within ``policy.ROOT_CHECK_S``
    (as it does at once on most drafts), else a solution found in any order
    (``_any_solutions``), with which the search runs once more. The root's check hunts
    with timed turns, and on a big open grid may take longer than a hunt in any order:
    hence its time limit.
    """
    checks = None                           # checks only once it thrashes
    while True:
        root = m.root()
        found, digits, _, status = search(
            root, np.int64(min(cap, NO_LIMIT)), True, np.int64(deadline),
            np.int64(policy.THRASH_NODES), checks)
        if status != THRASHING:
            break
        if not checked:
            return None
        if checks is None:
            # an empty cache: the checks' parts compile in two helpers at once (each a tree
            # of its own), then this process compiles their top, or with a deadline a
            # helper does; the hunt in any order and clause learning compile meanwhile
            ahead.start(*ahead.AFTER["checks"])
            ahead.ready(ahead.AFTER["checks"], deadline)
            ahead.start("any", "learn")
            ahead.ready(("checks",), deadline)
            checks = checks_for(m)
            checks.seed[:] = root.mask      # the node where the walk thrashed
            checks.root_ns[0] = int(policy.ROOT_CHECK_S * 1e9)     # the root's check first
            continue
        try:                                # the root's check found no witness in time
            found_any, digits_any = _any_solutions(m, 1, deadline, timeout, after_check=True)
        except SolveTimeout:
            status = TIMED_OUT
            break
        if found_any == 0:
            return found, digits
        checks.given[:] = 1 << (digits_any[0].astype(np.int64) - 1)
    if status == TIMED_OUT:
        raise SolveTimeout(f"timed out after {seconds(timeout)} s with {found} solutions found; "
                           f"ask for fewer with limit= or count them with count()")
    return found, digits


def kakuro_kernels(limit, order="essay") -> tuple:
    """The kernel ``kakuro(limit=limit, order=order)`` runs (a name in ``ahead.KERNELS``):
    the hunt for any solutions up to a limit of ``policy.HUNT_MAX``, else the search.

    Examples
    --------
    >>> kakuro_kernels(2, "any"), kakuro_kernels(2), kakuro_kernels(None, "any")
    (('any',), ('search',), ('search',))
    """
    return ("any",) if order == "any" and _limit(limit) <= policy.HUNT_MAX else ("search",)


def _any_solutions(m, cap, deadline, timeout, turns=None,
                   after_check=False) -> tuple:
    """``kakuro(order="any")`` of a model: ``(found, digits per variable)`` of up to ``cap``
    solutions.

    Turns of the hunt in any order (``anyorder``) alternate with turns of a count up
    to ``cap`` whose solutions are then read back (``counting.counted_solutions``)
    and, from the second round on, turns of clause learning (``in_turns``), as
    ``count(limit=n)`` takes them: the hunt answers most drafts at once, the count
    those whose pieces the hunt thrashes between. The count's turns share one memo.
    ``after_check``: see ``in_turns``.
    """
    ahead.ready(("any",), deadline)         # a thrashing search may compile it ahead
    memo = [None]                           # borrowed at the first count turn

    def hunt(turn, weight):
        masks, hunted = any_solutions(m.root(), np.int64(cap), np.int64(turn), np.int64(deadline),
                                      weight)
        return masks if len(masks) >= cap or hunted.exhausted else None

    def count_turn(turn):
        if memo[0] is None:
            memo[0] = borrowed()
        while True:
            status, masks = counted_solutions(m.root(), np.int64(cap), np.int64(deadline),
                                              memo[0], np.array([turn, 0]))
            if status != MEMO_FULL:
                break
            memo[0] = grown(memo[0])
        if status == COUNT_TIMED_OUT:
            raise SolveTimeout(f"timed out after {seconds(timeout)} s with no {cap} solutions found")
        return None if status == OUT_OF_NODES else masks

    try:
        masks = in_turns(m, cap, deadline, turns, hunt, count_turn, lambda found: found,
                         after_check=after_check)
    finally:
        if memo[0] is not None:
            give_back(memo[0])
    return len(masks), LOWEST_DIGIT[masks]         # a one-digit mask's digit


def in_turns(m, cap, deadline, turns, hunt, count_turn, learned, *, hunting=True,
             after_check=False):
    """The answer of the first turn that gives one, in rounds of turns that grow.

    Each round is a turn of ``hunt(turn, weight)`` (the hunt in any order; its
    ``weight`` per entry is kept from turn to turn), from the second round on a
    turn of clause learning (``Learner``, for up to ``cap`` solutions) of as many
    conflicts, whose answer is ``learned(its solutions' masks)``, and a turn of
    ``count_turn(turn)``; a turn is ``turn`` nodes long, the first ``turns[0]``,
    each next one ``turns[1]`` times longer. ``hunt`` and ``count_turn`` return
    None when their nodes ran out before an answer. Without ``hunting``, a
    single count with no node limit. The learning turns answer the drafts that
    thrash both the hunt and the count.
    With ``after_check`` (the root's check, ``checks.check_root``, has had its
    count and learning turns, and the essay's walk is to start from the
    solution) the first round is the hunt's alone and learning starts a round
    later: the walk goes faster from a hunt's solution than from clause
    learning's (see bench/HISTORY.md).

    Examples
    --------
    A hunt and a count that never answer within their turns; the learning's turn
    of 4 conflicts finds a solution of k3:

    >>> done = []
    >>> def hunt(turn, weight):
    ...     done.append(("hunt", turn))
    >>> def count_turn(turn):
    ...     done.append(("count", turn))
    >>> in_turns(model("puzzles/k3.txt"), 1, NO_DEADLINE, (1, 2), hunt, count_turn, len), done
    (1, [('hunt', 1), ('count', 1), ('hunt', 2), ('count', 2), ('hunt', 4)])

    After the root's check: no count in the first round, learning from the third:

    >>> done.clear()
    >>> in_turns(model("puzzles/k3.txt"), 1, NO_DEADLINE, (1, 2), hunt, count_turn, len,
    ...          after_check=True), done
    (1, [('hunt', 1), ('hunt', 2), ('count', 2), ('hunt', 4), ('count', 4), ('hunt', 8)])
    """
    first_turn, growth = (policy.TURN_NODES, policy.TURN_GROWTH) if turns is None else turns
    turn = first_turn if hunting else NO_LIMIT
    weight = np.ones(len(m.tab_off) - 1)
    learner = None
    while True:
        if turn < NO_LIMIT:
            answer = hunt(turn, weight)
            if answer is not None:
                return answer
            if turn > first_turn * (growth if after_check else 1):
                learner = learner or Learner(m, cap, deadline)
                if learner.turn(turn, deadline):
                    return learned(learner.found)
        if not (after_check and turn == first_turn):
            answer = count_turn(turn)
            if answer is not None:
                return answer
        turn = min(turn, NO_LIMIT // growth) * growth


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


def _all_within(m, run, max_bytes, deadline, timeout) -> tuple:
    """``kakuro()`` without a limit: every solution of a model, ``(found, digits per
    variable)`` found by ``run(cap, checked)`` (``essay_solutions``); TooManySolutions,
    saying how many, when they would pass ``max_bytes``.

    The first FIRST_TRY solutions are listed by the walk without checks: most puzzles
    end there. Where there are more, or the walk thrashes, they are counted first
    (``_count_before_filling``, which decides from Knuth's estimates within seconds
    where the count is long), and listed only when they fit.
    """
    most = solutions_within(max_bytes, len(m.var_cell), *m.puzzle.shape)
    cap = first = min(most + 1, FIRST_TRY)
    found, digits = run(first, False) or (None, None)
    if found is not None and found < first:
        return found, digits
    if found != most + 1:
        cap = _count_before_filling(m, most, max_bytes, deadline, timeout) + 1
        found, digits = run(cap)
    if found == cap:
        raise _too_many(f"more than {cap - 1:,}", cap - 1, max_bytes, at_least=cap)
    return found, digits


def _count_before_filling(m, most, max_bytes, deadline, timeout) -> int:
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
            raise _too_many(f"about {power_of_ten(typical)} (estimated)", most, max_bytes,
                            at_least=most + 1)
        n = count_in_turns(m, most + 1, min(deadline, decide_by))
        if n is None and time.monotonic_ns() >= deadline:
            raise _timed_out_counting(m, timeout)
        if n is None:
            raise _untold(most, max_bytes)
        if n > most:
            raise _too_many(f"more than {most:,}", most, max_bytes, at_least=n)
    elif n > most:
        raise _too_many(f"{n:,}", most, max_bytes, count=n)
    return n


def _untold(most, max_bytes) -> TooManySolutions:
    """The TooManySolutions of ``kakuro()`` without a limit when neither a count nor Knuth's
    estimate told within DECIDE_SECONDS whether the solutions fit."""
    return TooManySolutions(
        f"could not tell within {DECIDE_SECONDS:g} s whether this puzzle has at most the "
        f"{most:,} solutions that {max_bytes:,} bytes hold (its count did not end, and "
        f"Knuth's estimate could not say); ask for some with limit=, or count them with "
        f"count()", at_least=0, how_many="an untold number of")


def _too_many(how_many: str, most, max_bytes, **known) -> TooManySolutions:
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


def _timed_out_counting(m, timeout) -> SolveTimeout:
    """The SolveTimeout of a count past its time, with what is known of the count: at most
    ``at_most`` (an int: the product of each cell's candidates in the model's tables),
    and ``estimate``, Knuth's (a base-10 logarithm, ``typical_estimate``), or None when
    its kernel is not compiled or most random descents met no solution (a few
    milliseconds more)."""
    at_most = math.prod(POPCOUNT[m.mask].tolist())
    said = (f"timed out after {seconds(timeout)} s while counting; at most {_big(at_most)} solutions "
            f"(the product of the cells' candidates after forced moves)")
    estimate = typical_estimate(m) if ahead.cached("count") else -math.inf
    if estimate > -math.inf:
        said += (f", about {power_of_ten(estimate)} by Knuth's estimate from {PROBES} random "
                 f"descents")
    error = SolveTimeout(said)
    error.at_most, error.estimate = at_most, estimate if estimate > -math.inf else None
    return error


def _big(n: int) -> str:
    """An int for a person: with commas up to a billion, past it a power of ten.

    >>> _big(123_456), _big(10 ** 40)
    ('123,456', '1.0e+40')
    """
    return f"{n:,}" if n < 10 ** 9 else power_of_ten(math.log10(n))


class Progress(NamedTuple):
    """How far a ``count()`` has come: the ``nodes`` (rows tried) so far, the most
    ``solutions`` a count under way has reached (a piece's count so far; the full
    count is at least this unless another piece has none), and the ``seconds`` since it
    started."""
    nodes: int
    solutions: int
    seconds: float

    @property
    def rate(self) -> float:
        """Nodes per second."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


class Meter:
    """What ``count_in_turns`` has done, readable from another thread while a kernel runs.

    ``state`` is ``(nodes of the turns done, nodes of the turn under way, its
    work array)`` (see ``counting.Tally``), replaced whole, so a reader never sees
    half of an update.
    """

    def __init__(self):
        self.start = time.monotonic()
        self.state = (0, 0, np.zeros(2, np.int64))

    def read(self) -> Progress:
        """The progress so far."""
        done, turn, work = self.state
        return Progress(done + max(turn - max(int(work[0]), 0), 0), int(work[1]),
                        time.monotonic() - self.start)

    def add(self, nodes, turn=0, work=None):
        """Count ``nodes`` more as done, and start following a count of ``turn`` nodes with
        ``work`` (a fresh array carrying the solutions reached so far when None)."""
        done, _, last = self.state
        self.state = (done + nodes, turn,
                      np.array([turn, last[1]]) if work is None else work)


def count(grid: PuzzleLike, limit: int | None = None, *, timeout: float | None = None,
          max_rows: int = MAX_ROWS, progress: Callable[[Progress], object] | None = None,
          every: float = 1.0, scheduler: object = None) -> int:
    """How many solutions a puzzle has (at most ``limit``), without storing them.

    Where the undecided part of the puzzle splits into independent pieces,
    each is counted apart and the counts multiplied, exactly (a Python int,
    however large); a piece met again on another branch is counted once
    (see ``memo``). A piece with more than 2**63 - 1 solutions is split over
    its branches and their counts added (``exact_count``): the count stays
    exact, and ``timeout=`` bounds how long it may take. An exact count past its
    first ``policy.DISSECT_AFTER`` nodes decides the cells of a nested dissection first
    (``dissect``); on two cores or more the count in the first order goes on
    beside it, in a thread of its own, and the first of the two to end answers
    (neither order is fastest on every grid; see bench/HISTORY.md).

    With a limit of at most 1,000 (``count(p, limit=2) == 1`` asks "is it
    unique?"), turns of counting alternate with turns of hunting for
    ``limit`` solutions in any order, each turn longer than the last: a draft with
    many solutions is answered by
    the hunt in milliseconds even where fan-out would thrash, and a unique
    puzzle by counting, at most a small factor slower than counting alone.

    With ``progress``, a callable, the count runs in a second thread (the
    kernels release the GIL) and ``progress(Progress(...))`` is called about
    every ``every`` seconds until it ends, in the calling thread.

    With ``scheduler`` (a ``distributed.Client``, a cluster, "local" or a
    scheduler's address; the extra ``dist``), the fan-out tree is split into
    subproblems counted as Dask tasks and added up (see ``dist``); the count
    is the same. ``progress`` is for a count in this process only.

    Examples
    --------
    >>> count([["x", (3, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 3), "_", "_"]])
    2
    """
    if progress is not None and not (callable(progress) and every > 0):
        raise ValueError(f"progress must be callable and every > 0, got {progress!r} and "
                         f"{every!r}")
    if progress is not None and scheduler is not None:
        raise ValueError("progress= follows a count in this process; with scheduler=, "
                         "follow the cluster on its dashboard")
    deadline, cap, puzzle = deadline_ns(timeout), _limit(limit), _puzzle(grid)
    if scheduler is None and progress is None:  # an empty cache: the essay may answer meanwhile
        answer = _while_compiling(puzzle, ("model",) + count_kernels(cap), cap, deadline,
                                  max_rows)
        if answer is not None:
            return len(answer[0])
    ahead.ready(("model",) + count_kernels(cap), deadline)   # compiled within the deadline
    m = model(puzzle, max_rows, deadline)
    if m.status != OK or cap == 0:
        return 0
    if scheduler is not None:
        from .dist import connected, count_on
        with connected(scheduler) as client:
            return count_on(client, count_subproblem, m, cap, timeout, max_rows)
    race = racing()                         # decided here: with progress the count runs in
    found = (count_in_turns(m, cap, deadline, race=race) if progress is None else  # a thread
             _reporting(lambda meter: count_in_turns(m, cap, deadline, meter=meter, race=race),
                        progress, every))
    if found is None:
        raise _timed_out_counting(m, timeout)
    return found


def _kept_model(puzzle, key, max_rows) -> tuple:
    """``(model, memo)`` of ``puzzle`` in a Dask worker: made on its first task and kept
    for the others (a memo's counts hold for every subproblem of the model, see
    ``counting.count_pieces``)."""
    from .dist import MEMO_SLOTS_LOG2, MEMO_WORDS, kept
    return kept(key, lambda: (model(puzzle, max_rows), new_memo(MEMO_SLOTS_LOG2, MEMO_WORDS)))


def count_subproblem(puzzle, key, max_rows, mask, cap, end):
    """A Dask task (``dist.count_on``): the solutions below the subproblem ``mask`` of
    ``puzzle``'s model (named ``key``), at most ``cap``; None past the wall-clock
    time ``end``."""
    from .dist import deadline_of
    m, memo = _kept_model(puzzle, key, max_rows)
    return count_in_turns(m._replace(mask=mask), cap, deadline_of(end), memo=memo,
                          race=False)      # the worker threads fill the cores already


def subproblem_solutions(puzzle, key, max_rows, mask, cap, end):
    """A Dask task (``dist.solutions_on``): the first ``cap`` solutions below the
    subproblem ``mask`` in the essay's order, as digits per variable ((n, V) int8);
    SolveTimeout past the wall-clock time ``end``."""
    from .dist import deadline_of
    m, _ = _kept_model(puzzle, key, max_rows)
    found, digits = essay_solutions(m._replace(mask=mask), cap, deadline_of(end))
    return digits[:found]


def count_kernels(limit) -> tuple:
    """The kernels ``count(limit=limit)`` runs (names in ``ahead.KERNELS``): the hunt
    takes turns with the count up to a limit of ``policy.HUNT_MAX``.

    Examples
    --------
    >>> count_kernels(2), count_kernels(None)
    (('hunt', 'count'), ('count',))
    """
    return ("hunt", "count") if _limit(limit) <= policy.HUNT_MAX else ("count",)


def _reporting(work, progress, every):
    """``work(meter)`` in a second thread, calling ``progress(meter.read())`` about every
    ``every`` seconds in this one until it ends; its result (or exception)."""
    meter = Meter()
    out = {}

    def run():
        try:
            out["value"] = work(meter)
        except BaseException as e:          # handed to the calling thread
            out["error"] = e

    worker = threading.Thread(target=run, name="kakuro-count", daemon=True)
    worker.start()
    while True:
        worker.join(every)
        if not worker.is_alive():
            break
        progress(meter.read())
    if "error" in out:
        raise out["error"]
    return out["value"]


class Learner:
    """Turns of clause learning (``cdcl``) for up to ``cap`` different solutions of a model:
    ``found`` holds the one-digit masks of those found so far, each barred from the
    solver once found, so the turns go on where the last stopped.

    Examples
    --------
    >>> learner = Learner(model("puzzles/k3.txt"), 50)
    >>> learner.turn(100_000, NO_DEADLINE), len(learner.found)
    (True, 40)
    """

    def __init__(self, m, cap, deadline=NO_DEADLINE):
        ahead.ready(("learn",), deadline)   # a thrashing search may compile it ahead
        self.sat, self.mask = sat_of_root(m.root())
        self.found = np.zeros((0, len(m.var_cell)), np.int64)
        self.cap = cap

    def turn(self, conflicts, deadline) -> bool:
        """Look for more solutions for ``conflicts`` conflicts: True once the answer is
        known (``cap`` found, or no more)."""
        if self.sat is None:                # forced moves refute the puzzle
            return True
        keep = np.zeros((self.cap - len(self.found), len(self.mask)), np.int64)
        got, exhausted = sat_solutions(self.sat, self.mask, np.int64(conflicts),
                                       np.int64(deadline), keep)
        self.found = np.concatenate([self.found, keep[:got]])
        return exhausted or len(self.found) >= self.cap


def count_in_turns(m, cap, deadline, turns=None, meter=None, memo=None,
                   race=None):
    """``count`` of a model, at most ``cap`` (exact when ``cap`` is NO_LIMIT): None past
    ``deadline``.

    With ``cap`` at most ``policy.HUNT_MAX``, turns of hunting, of clause learning and of
    counting alternate (``in_turns``; a test may take very short turns, the count
    is the same). A ``Meter`` follows the nodes. The count's turns share one memo
    of pieces: ``memo``, one kept from earlier counts of the same model, or a new
    growable one: when it is full, a larger copy is made and the turn counted
    again, finding every piece counted so far in it (see ``memo``). An exact count
    may race two orders on two threads when ``race`` (None: ``racing()``). A memo of
    its own is borrowed at the first count turn and given back at the end (``memo``).
    """
    held = [memo]
    try:
        return _counted(m, cap, deadline, turns, meter, held, race)
    finally:
        if memo is None and held[0] is not None:
            give_back(held[0])


def _counted(m, cap, deadline, turns, meter, memo, race):
    """``count_in_turns``'s work; ``memo`` is a one-element list holding the memo of the
    count's turns, None until the first turn borrows one."""
    race = racing() if race is None else race
    meter = Meter() if meter is None else meter
    rank = [NO_RANKS]
    kernels = count_kernels(cap)
    ahead.ready(kernels, deadline)          # the command line may compile them ahead

    def hunt(turn, weight):
        found, exhausted, hunted = find_solutions(m.root(), np.int64(cap), np.int64(turn),
                                                  np.int64(deadline), weight)
        meter.add(hunted)
        return int(found) if found >= cap or exhausted else None

    def count_turn(turn, memo=memo, rank=rank, runner=None, followed=True):
        if memo[0] is None:
            memo[0] = borrowed()
        while True:
            if runner is not None and runner.stopped:
                return None
            if followed:                    # the meter follows it
                meter.add(0, turn)
                work = meter.state[2]
            else:
                work = np.array([turn, 0])
            if runner is not None:
                runner.work = work
            pieces = count_pieces(m.root(), np.int64(min(cap, NO_LIMIT)), np.int64(deadline),
                                  memo[0], work, rank[0])
            if followed:
                meter.add(turn - max(int(work[0]), 0), 0, work)
            if not (pieces == MEMO_FULL).any():
                break
            memo[0] = grown(memo[0])        # and the turn again, on every count stored
        return None if (pieces == OUT_OF_NODES).any() else pieces

    def exact_turn(turn):
        # most counts end within policy.DISSECT_AFTER nodes; the others decide the cells of a
        # nested dissection first, counting again on the memo kept (dissected once: later
        # turns go on in its order); with two cores, the count in the first order goes on
        # meanwhile on a copy of the memo, and the first to end answers (``race``)
        if rank[0] is NO_RANKS:
            pieces = count_turn(min(turn, policy.DISSECT_AFTER))
            if pieces is not None or turn <= policy.DISSECT_AFTER:
                return pieces
            ranks = cut_ranks(m.ent_off, m.ent_var, m.mask)
            if race:
                return race_orders(turn, ranks)
            rank[0] = ranks
        return count_turn(turn)

    def race_orders(turn, ranks):
        plain = [Memo(*(a.copy() for a in memo[0]))]
        winner, pieces = first_of(
            lambda runner: count_turn(turn, plain, [NO_RANKS], runner, followed=False),
            lambda runner: count_turn(turn, memo, [ranks], runner))
        if winner == 0:                     # the plain order's memo and order from now on
            memo[0] = plain[0]
        else:
            rank[0] = ranks
        return pieces

    answer = in_turns(m, cap, deadline, turns, hunt, exact_turn if cap >= NO_LIMIT else count_turn,
                      len, hunting="hunt" in kernels)
    if not isinstance(answer, np.ndarray):  # the hunt's or the learning's
        return answer
    pieces = answer
    if (pieces == COUNT_TIMED_OUT).any():
        return None
    if cap >= NO_LIMIT and (pieces == NO_LIMIT).any():
        return exact_count(m, deadline, memo, rank=rank[0])   # a piece past int64, read back
    total = math.prod(int(n) for n in pieces)      # exact, however large
    return total if cap >= NO_LIMIT else min(total, cap)


def racing() -> bool:
    """Whether an exact count in this thread may race two orders: ``policy.RACE``, two cores
    or more,
    and not within ``one_core``."""
    return policy.RACE and not getattr(_ONE_CORE, "on", False) and cores() > 1


@contextlib.contextmanager
def one_core():
    """Within it, the counts of this thread keep to one core (no race): for workers that
    each take a core already (``batch``).

    Examples
    --------
    >>> with one_core():
    ...     racing()
    False
    """
    before = getattr(_ONE_CORE, "on", False)
    _ONE_CORE.on = True
    try:
        yield
    finally:
        _ONE_CORE.on = before


class Runner:
    """One of ``first_of``'s calls: the work array of the count it runs (see
    ``counting.Tally``), and whether it was told to stop."""

    def __init__(self):
        self.work = np.zeros(2, np.int64)
        self.stopped = False

    def stop(self):
        """Have the count stop: no more counts, and the one under way out of nodes."""
        self.stopped = True
        self.work[0] = STOP_NODES


#: What ``Runner.stop`` sets a count's nodes left to: below zero, whatever the count takes off.
STOP_NODES = -(1 << 62)


def first_of(*calls) -> tuple:
    """``(i, answer)`` of the first of ``calls`` to return, each ``call(runner)`` run in a
    thread of its own (the kernels release the GIL); the others are then stopped
    (``Runner.stop``, again until they end: a kernel may take a node off just after
    the stop was written) and their answers dropped. An exception in the first
    call to end is raised here.

    Examples
    --------
    >>> first_of(lambda runner: time.sleep(0.5) or "slow", lambda runner: "fast")
    (1, 'fast')
    """
    runners = [Runner() for _ in calls]
    pool = concurrent.futures.ThreadPoolExecutor(len(calls))
    futures = [pool.submit(call, runner) for call, runner in zip(calls, runners)]
    try:
        done, _ = concurrent.futures.wait(futures, return_when=concurrent.futures.FIRST_COMPLETED)
        first = min(futures.index(f) for f in done)
    finally:                                # also on Ctrl-C: no count left running
        for future, runner in zip(futures, runners):
            while not future.done():
                runner.stop()
                concurrent.futures.wait([future], timeout=0.001)
        pool.shutdown()
    return first, futures[first].result()


def exact_count(m, deadline, memo, most=NO_LIMIT, mask=None, scope=None, rank=NO_RANKS):
    """The solutions of the entries ``scope`` (default: all) below the node ``mask`` (default:
    the model's) of model ``m``, exact however many a piece has: a Python int, or None
    past ``deadline``.

    Each piece is counted up to ``most`` (``counting.count_split``). Without a
    ``most``, a piece past int64 is read back from its count's residues
    (``counting.wide_value``) up to WIDE_EXACT (about 1e36). A piece that reaches
    ``most`` otherwise is split over the rows of the entry its count fans out
    over, and the counts of its children (the piece's entries below each row,
    counted the same way) added up. ``memo`` is a one-element list holding the
    growable memo the counts share (replaced when it grows); a piece met again
    in another child is counted once. Only pieces past ``most`` are split, so
    this costs what the count costs, plus a start from scratch per child of a
    split piece. ``rank`` (per cell, see ``dissect``) orders an exact count's
    fan-out; NO_RANKS: none.

    Examples
    --------
    >>> m = model("puzzles/k3.txt")
    >>> memo = [borrowed()]
    >>> exact_count(m, NO_DEADLINE, memo), exact_count(m, NO_DEADLINE, memo, most=3)
    (40, 40)
    """
    mask = m.mask if mask is None else mask
    scope = np.arange(len(m.tab_off) - 1) if scope is None else scope
    while True:
        root = m._replace(mask=mask).root()
        counts, members, starts, fans, wides = count_split(
            root, scope, np.int64(most), np.int64(deadline), memo[0],
            np.array([np.iinfo(np.int64).max, 0]), rank)
        if not (counts == MEMO_FULL).any():
            break
        memo[0] = grown(memo[0])            # and the count again, on every count stored
    if (counts < 0).any():
        return None
    total = 1
    for i, c in enumerate(counts):
        if c < most:
            total *= int(c)
            continue
        wide = wide_value(wides[i]) if most == NO_LIMIT else None
        if wide is not None:                # the count past int64, below WIDE_EXACT
            total *= wide
            continue
        piece, k = members[starts[i]:starts[i + 1]], fans[i]
        split = 0
        for child in row_children(m, root.mask, k):
            below = exact_count(m, deadline, memo, most, child, piece, rank)
            if below is None:
                return None
            split += below
        total *= split
    return total


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

    def _repr_svg_(self) -> str:
        """A notebook's view: the puzzle with the digits forced moves place and the
        candidates they leave as pencil marks (``svg.svg``)."""
        from .drawing import svg
        return svg(self.puzzle, candidates=self.candidates)._repr_svg_()


def reduce(grid: PuzzleLike, *, timeout: float | None = None, max_rows: int = MAX_ROWS) -> Reduction:
    """Apply forced moves only: the fixpoint of ``force`` from the tables.

    Examples
    --------
    >>> r = reduce([["x", (4, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]])
    >>> r.status, r.digits.tolist()
    ('solved', [[0, 0, 0], [0, 1, 2], [0, 3, 1]])
    >>> reduce([["x", (3, 0), (4, 0)], [(0, 30), "_", "_"]]).reason
    'the across 30 at (1, 0) over 2 cells: no 2 different digits add up to 30 (2 cells make 3 to 17)'
    """
    deadline, puzzle = deadline_ns(timeout), _puzzle(grid)
    mask = _reduced_while_compiling(puzzle, deadline, max_rows)
    culprit = -1
    if mask is not None:                    # the essay's, while the kernels compile
        var_cell = np.flatnonzero(puzzle.blank.ravel())
    else:
        m = model(puzzle, max_rows, deadline)
        root = m.root()
        var_cell, mask, culprit = m.var_cell, root.mask, m.culprit
        if m.status == OK:
            culprit = fixpoint_masks(root)
    candidates, digits = candidate_grid(puzzle.shape, var_cell, mask)
    if culprit >= 0:
        return Reduction(candidates, digits, "contradiction", puzzle,
                         why_impossible(puzzle, m.packed, culprit))
    status = "solved" if (digits.ravel()[var_cell] > 0).all() else "stuck"
    return Reduction(candidates, digits, status, puzzle)
