"""The public verbs ``kakuro``, ``count`` and ``reduce``: each reads the puzzle, builds its
model (stages 1-3, ``engine.model``) and fans out (stage 4, ``fan_out``), with its limits,
timeouts and results.

The kernels are in ``engine`` (the search in ``engine.search``, counts in
``engine.walk.counting``, the hunt in any order in ``engine.walk.anyorder``); the
strategies that take turns are in ``turns``, the memory budget of a listing in
``budget``, a count's progress in ``progress``, the essay's answer while kernels compile
in ``first_run``.

Glossary
--------
model    : the packed puzzle the kernels share (``engine.model``),
           with the Puzzle and its packed entries (``Model``).
deadline : a ``monotonic_ns`` time after which kernels stop (``NO_DEADLINE``: never).
limit    : how many solutions to find or count at most (``NO_LIMIT``: no limit).
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from .combos import LOWEST_DIGIT, candidate_grid
from .engine.model import MAX_ROWS, Model, build
from .engine.core import ahead, policy
from .engine.core.codes import OK, THRASHING, TIMED_OUT
from .engine.core.jit import NO_DEADLINE, deadline_ns
from .engine.proofs.checks import checks_for
from .engine.walk.memo import new_memo
from .engine.force import start_state
from .engine.search import search
from .errors import SolveTimeout, seconds
from .impossible import why_impossible
from . import first_run
from .budget import MAX_BYTES, all_within, timed_out_counting
from .progress import Progress, reporting
from .puzzle import Puzzle, PuzzleLike
from .turns import (NO_LIMIT, Runner, Stopped, as_limit, count_in_turns, count_kernels, racing,
                    solutions_in_any_order)


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
    deadline, cap, puzzle = deadline_ns(timeout), as_limit(limit), _puzzle(grid)
    walk, = kakuro_kernels(limit, order)
    if scheduler is None:                   # an empty cache: the essay may answer meanwhile
        answer = first_run.while_compiling(puzzle, ("model", walk), cap, deadline, max_rows,
                                  max_bytes if limit is None else None)
        if answer is not None:
            return answer[0]
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
    with ``scheduler``), or ``cap`` in any order (``walk`` "hunt"); with ``every``, all of
    them within ``max_bytes``."""
    if forced_solution(m) and scheduler is None:
        return 1, LOWEST_DIGIT[m.mask].astype(np.int8)[None]
    if walk == "hunt":                          # a hunt in any order
        return solutions_in_any_order(m, cap, deadline, timeout)
    if scheduler is not None:
        return _on_cluster(m, scheduler, cap, every, deadline, timeout, max_rows, max_bytes)
    if every:                                   # bounded by max_bytes instead
        return all_within(m, lambda cap, checked=True: essay_solutions(
            m, cap, deadline, timeout, checked), max_bytes, deadline, timeout)
    return essay_solutions(m, cap, deadline, timeout)


def forced_solution(m) -> bool:
    """Whether force alone solved model ``m``: every table is down to one row, so its masks
    are the one solution (the essay's fan-out stops at once)."""
    return len(m.rows) == len(m.ent_sum)


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
            return all_within(m, run, max_bytes, deadline, timeout)
        return run(cap)


def essay_solutions(m, cap, deadline, timeout=None, checked=True) -> tuple | None:
    """Up to ``cap`` solutions of a model in the essay's order: ``(found, digits per
    variable)``; SolveTimeout past ``deadline`` (``timeout`` is for the message).
    Without ``checked``, None once the walk thrashes.

    Once the search thrashes, it runs again with checks (see ``search``), from a
    witness of the root: the root's own check's (the search's first, ``checks.root_ns``,
    steered by the node where the walk thrashed), if it answers within ``policy.ROOT_CHECK_S``
    (as it does at once on most drafts), else a solution found in any order
    (``solutions_in_any_order``), with which the search runs once more. The root's check hunts
    with timed turns, and on a big open grid may take longer than a hunt in any order:
    hence its time limit. On a first run, while a helper compiles the search, another
    compiles the checks' first part (a thrashing grid's first answer 3-4 s sooner).
    """
    if checked and ahead.compiling("search"):  # this process only waits: the other core
        ahead.start("proof-checks")         # compiles the checks' longer first part
    ahead.ready(("search",), deadline)      # with a deadline, compiled within it by a helper
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
            # helper does
            ahead.start(*ahead.AFTER["checks"])
            ahead.ready(ahead.AFTER["checks"], deadline)
            ahead.ready(("checks",), deadline)
            checks = checks_for(m)
            checks.seed[:] = root.mask      # the node where the walk thrashed
            checks.root_ns[0] = int(policy.ROOT_CHECK_S * 1e9)     # the root's check first
            continue
        try:                                # the root's check found no witness in time
            found_any, digits_any = solutions_in_any_order(m, 1, deadline, timeout, after_check=True)
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
    """The kernels ``kakuro(limit=limit, order=order)`` runs first (a name in ``ahead.KERNELS``):
    the hunt for any solutions up to a limit of ``policy.HUNT_MAX`` (the turns of a count
    that reads its solutions back, and of clause learning, compile meanwhile:
    ``turns.solutions_in_any_order``), else the search.

    Examples
    --------
    >>> kakuro_kernels(2, "any"), kakuro_kernels(2), kakuro_kernels(None, "any")
    (('hunt',), ('search',), ('search',))
    """
    return ("hunt",) if order == "any" and as_limit(limit) <= policy.HUNT_MAX else ("search",)


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
    deadline, cap, puzzle = deadline_ns(timeout), as_limit(limit), _puzzle(grid)
    if scheduler is None and progress is None:  # an empty cache: the essay may answer meanwhile
        answer = first_run.while_compiling(puzzle, ("model",) + count_kernels(cap), cap, deadline,
                                  max_rows)
        if answer is not None:
            return len(answer[0])
    m = model(puzzle, max_rows, deadline)
    if m.status != OK or cap == 0:
        return 0
    if forced_solution(m) and progress is None and scheduler is None:
        return 1
    if scheduler is not None:
        from .dist import connected, count_on
        with connected(scheduler) as client:
            return count_on(client, count_subproblem, m, cap, timeout, max_rows)
    race = racing()                         # decided here: with progress the count runs in
    found = (count_in_turns(m, cap, deadline, race=race) if progress is None else  # a thread
             reporting(lambda meter: count_in_turns(m, cap, deadline, meter=meter, race=race),
                        progress, every))
    if found is None:
        raise timed_out_counting(m, timeout)
    return found


def _kept_model(puzzle, key, max_rows) -> tuple:
    """``(model, memo)`` of ``puzzle`` in a Dask worker: made on its first task and kept
    for the others (a memo's counts hold for every subproblem of the model, see
    ``counting.count_split``)."""
    from .dist import MEMO_SLOTS_LOG2, MEMO_WORDS, kept
    return kept(key, lambda: (model(puzzle, max_rows), new_memo(MEMO_SLOTS_LOG2, MEMO_WORDS)))


def count_subproblem(puzzle, key, max_rows, mask, cap, end, stop=None, first_order=False):
    """A Dask task (``dist.count_on``): the solutions below the subproblem ``mask`` of
    ``puzzle``'s model (named ``key``), at most ``cap``; None past the wall-clock
    time ``end``, ``dist.STOPPED`` once the cluster's Event ``stop`` is set. An exact
    count keeps to the first order with ``first_order``, else it dissects (see
    ``turns.count_in_turns``): the workers fill the cores already, no thread races."""
    from .dist import STOPPED, deadline_of, stopping
    m, memo = _kept_model(puzzle, key, max_rows)
    runner = Runner()
    with stopping(stop, runner.stop):
        try:
            return count_in_turns(m._replace(mask=mask), cap, deadline_of(end), memo=memo,
                                  race=False, stop=runner, first_order=first_order)
        except Stopped:
            return STOPPED


def subproblem_solutions(puzzle, key, max_rows, mask, cap, end):
    """A Dask task (``dist.solutions_on``): the first ``cap`` solutions below the
    subproblem ``mask`` in the essay's order, as digits per variable ((n, V) int8);
    SolveTimeout past the wall-clock time ``end``."""
    from .dist import deadline_of
    m, _ = _kept_model(puzzle, key, max_rows)
    found, digits = essay_solutions(m._replace(mask=mask), cap, deadline_of(end))
    return digits[:found]


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
    mask = first_run.reduced_while_compiling(puzzle, deadline, max_rows)
    culprit = -1
    if mask is not None:                    # the essay's, while the kernels compile
        var_cell = np.flatnonzero(puzzle.blank.ravel())
    else:
        m = model(puzzle, max_rows, deadline)
        root = m.root()
        var_cell, mask, culprit = m.var_cell, root.mask, m.culprit
        if m.status == OK:
            culprit = start_state(root, True)[0]     # the masks at force's fixpoint
    candidates, digits = candidate_grid(puzzle.shape, var_cell, mask)
    if culprit >= 0:
        return Reduction(candidates, digits, "contradiction", puzzle,
                         why_impossible(puzzle, m.packed, culprit))
    status = "solved" if (digits.ravel()[var_cell] > 0).all() else "stuck"
    return Reduction(candidates, digits, status, puzzle)
