"""Turns: strategies that take turns on one question, and two orders that race.

A count up to a limit, ``kakuro(order="any")`` and an exact count each run several
strategies in turns of growing length: a hunt in any order, a count of pieces whose
solutions are read back, and clause learning (``in_turns``); an exact count may race
two orders on two cores, the first to end answering (``first_of``).

Glossary
--------
turn  : a stretch of work with a budget of nodes or seconds, after which the next
        strategy goes on from where it stood.
limit : how many solutions to find or count at most (``NO_LIMIT``: no limit).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import math
import threading

import numpy as np

from .combos import LOWEST_DIGIT
from .dist import cores
from .engine.core import ahead, policy
from .engine.core.codes import COUNT_TIMED_OUT, MEMO_FULL, OUT_OF_NODES
from .engine.core.jit import NO_DEADLINE
from .engine.proofs.cdcl import sat_of_root, sat_solutions
from .engine.walk.anyorder import any_solutions
from .engine.walk.counting import count_split, counted_solutions, wide_value
from .engine.walk.dissect import cut_ranks
from .engine.walk.memo import Memo, borrowed, give_back, grown
from .engine.walk.split import row_children
from .errors import SolveTimeout, seconds
from .progress import Meter


#: Count limit meaning "no limit".
NO_LIMIT = np.iinfo(np.int64).max
#: Per thread: whether its counts keep to one core (``one_core``).
_ONE_CORE = threading.local()
#: No ranks (see ``counting.new_tally``).
NO_RANKS = np.empty(0, np.int64)
#: No rows to keep the solutions a hunt finds in (``anyorder.any_solutions``): it counts them.
NO_ROWS = np.zeros((0, 0), np.int64)


def as_limit(limit) -> int:
    """A ``limit=`` argument as a count limit: NO_LIMIT for None; ValueError for anything but a
    whole number >= 0."""
    if limit is None:
        return NO_LIMIT
    if isinstance(limit, (bool, np.bool_)) or not isinstance(limit, (int, np.integer)) or limit < 0:
        raise ValueError(f"limit must be a whole number >= 0 or None, got {limit!r}")
    return int(limit)


def solutions_in_any_order(m, cap, deadline, timeout, turns=None,
                   after_check=False) -> tuple:
    """``kakuro(order="any")`` of a model: ``(found, digits per variable)`` of up to ``cap``
    solutions.

    Turns of the hunt in any order (``anyorder``) alternate with turns of a count up
    to ``cap`` whose solutions are then read back (``counting.counted_solutions``)
    and, from the second round on, turns of clause learning (``in_turns``), as
    ``count(limit=n)`` takes them: the hunt answers most drafts at once, the count
    those whose pieces the hunt thrashes between. The count's turns share one memo.
    ``after_check``: see ``in_turns``; such a witness (any solution: the essay's search
    goes on from it, its answer the same) does not wait for helpers still compiling the
    count's or learning's kernels (``compiling_meanwhile``), while a caller's answer,
    which the turns decide, does.
    """
    ahead.ready(("hunt",), deadline)
    ahead.start("readback", "learn")        # a first run: compiled while the hunt goes
    memo = [None]                           # borrowed at the first count turn
    keep = np.zeros((cap, len(m.var_cell)), np.int64)   # each turn writes from the top

    def hunt(turn, weight):
        hunted = any_solutions(m.root(), keep, np.int64(cap), np.int64(turn),
                               np.int64(deadline), weight)
        masks = keep[:min(hunted.found, cap)]   # the first found, in rows from the top
        return masks if len(masks) >= cap or hunted.exhausted else None

    def count_turn(turn):
        if memo[0] is None:
            if after_check and compiling_meanwhile("readback"):
                return None                 # a witness: the hunt goes on meanwhile
            ahead.ready(("readback",), deadline)
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
                         after_check=after_check, meanwhile=after_check)
    finally:
        if memo[0] is not None:
            give_back(memo[0])
    return len(masks), LOWEST_DIGIT[masks]         # a one-digit mask's digit


def compiling_meanwhile(name: str) -> bool:
    """Whether a helper compiles ``name`` now, started here when it is not in the cache:
    a first run's count up to a limit hunts on meanwhile instead of waiting (its answer,
    a number, is the same)."""
    if ahead.cached(name):
        return False
    ahead.start(name)
    return ahead.compiling(name)


def in_turns(m, cap, deadline, turns, hunt, count_turn, learned, *, hunting=True,
             after_check=False, meanwhile=False):
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
    With ``after_check`` (the root's check, ``Checks.root_ns``, has had its
    count and learning turns, and the essay's walk is to start from the
    solution) the first round is the hunt's alone and learning starts a round
    later: the walk goes faster from a hunt's solution than from clause
    learning's (see bench/HISTORY.md). With ``meanwhile``, learning waits for no
    helper: its turns start once its kernels are compiled (``compiling_meanwhile``).

    Examples
    --------
    A hunt and a count that never answer within their turns; the learning's turn
    of 4 conflicts finds a solution of k3:

    >>> from kakuro_np.solve import model
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
            if turn > first_turn * (growth if after_check else 1) and (
                    learner is not None or not (meanwhile and compiling_meanwhile("learn"))):
                learner = learner or Learner(m, cap, deadline)
                if learner.turn(turn, deadline):
                    return learned(learner.found)
        if not (after_check and turn == first_turn):
            answer = count_turn(turn)
            if answer is not None:
                return answer
        turn = NO_LIMIT if turn >= NO_LIMIT else min(turn, NO_LIMIT // growth) * growth


class Learner:
    """Turns of clause learning (``cdcl``) for up to ``cap`` different solutions of a model:
    ``found`` holds the one-digit masks of those found so far, each barred from the
    solver once found, so the turns go on where the last stopped.

    Examples
    --------
    >>> from kakuro_np.solve import model
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
                   race=None, *, stop=None, first_order=False):
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
    ``stop``, a ``Runner``: once it is stopped, the count raises Stopped (a Dask task
    whose other side answered, ``dist.count_on``). With ``first_order``, an exact count
    keeps to the first order, never dissected (the other side of a race run apart).
    """
    held = [memo]
    try:
        return _counted(m, cap, deadline, turns, meter, held, race, stop=stop,
                        first_order=first_order)
    finally:
        if memo is None and held[0] is not None:
            give_back(held[0])


def _counted(m, cap, deadline, turns, meter, memo, race, *, stop, first_order):
    """``count_in_turns``'s work; ``memo`` is a one-element list holding the memo of the
    count's turns, None until the first turn borrows one."""
    race = racing() if race is None else race
    meter = Meter() if meter is None else meter
    rank = [NO_RANKS]
    scope = np.arange(len(m.tab_off) - 1)   # every entry
    kernels = count_kernels(cap)
    hunting = "hunt" in kernels
    ahead.ready(kernels[:1], deadline)      # the first turn's: the count's at its turn

    def hunt(turn, weight):
        found, exhausted, hunted = any_solutions(m.root(), NO_ROWS, np.int64(cap), np.int64(turn),
                                                 np.int64(deadline), weight)
        meter.add(hunted)
        return int(found) if found >= cap or exhausted else None

    def count_turn(turn, memo=memo, rank=rank, runner=stop, followed=True):
        if memo[0] is None:
            if hunting and compiling_meanwhile("count"):
                return None
            ahead.ready(("count",), deadline)
            memo[0] = borrowed()
        while True:
            if runner is not None and runner.stopped:
                if runner is stop:
                    raise Stopped
                return None
            if followed:                    # the meter follows it
                meter.add(0, turn)
                work = meter.state[2]
            else:
                work = np.array([turn, 0])
            if runner is not None:
                runner.work = work
            pieces = count_split(m.root(), scope, np.int64(min(cap, NO_LIMIT)),
                                 np.int64(deadline), memo[0], work, rank[0])[0]
            if followed:
                meter.add(turn - max(int(work[0]), 0), 0, work)
            if stop is not None and runner is stop and stop.stopped:
                raise Stopped
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

    exact = cap >= NO_LIMIT and not first_order
    answer = in_turns(m, cap, deadline, turns, hunt, exact_turn if exact else count_turn,
                      len, hunting=hunting, meanwhile=True)
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


class Stopped(Exception):
    """A count told to stop (``count_in_turns``'s ``stop``) before it ended."""


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
    >>> import time
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
    >>> from kakuro_np.solve import model
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


def count_kernels(limit) -> tuple:
    """The kernels ``count(limit=limit)`` runs (names in ``ahead.KERNELS``): the hunt
    takes turns with the count up to a limit of ``policy.HUNT_MAX``.

    Examples
    --------
    >>> count_kernels(2), count_kernels(None)
    (('hunt', 'count'), ('count',))
    """
    return ("hunt", "count") if as_limit(limit) <= policy.HUNT_MAX else ("count",)
