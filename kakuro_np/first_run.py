"""A first run's answer while the kernels compile: the essay, in numpy, for a few seconds.

On an empty cache the engine's kernels take a long time to compile. Most puzzles
people solve do not need them: the essay's verbs in plain numpy (``essay``: the
same tables, the same fixpoint and the same fan-out, so the same solutions in the
same order) solve a published puzzle long before the kernels are compiled. So when
the kernels a question needs are not in the cache, ``kakuro()``, ``count()`` and
``reduce()`` have helper processes compile them (``engine.core.ahead``) and meanwhile
ask the essay, for at most ESSAY_SECONDS of its own thread's processor time (work,
not wall time: a loaded machine slows the essay and the compile alike). If the essay
answers, that is the answer, the same as the engine's; if it does not within its
budget (a grid that thrashes, tables past MOST_ROWS, too many solutions) or the
helpers finish first, the engine answers as ever, from the kernels the helpers
compiled.

Glossary
--------
essay walk : the essay's ``solve`` (force to the fixpoint, fan out over the
             smallest table, rows in order) as a loop over a stack of row
             iterators, stopping after ``cap`` solutions, when told to stop, or
             past its deadline.
gave up    : the walk returns None: the engine answers instead.

Examples
--------
>>> import kakuro_np as kn
>>> from kakuro_np.engine.core.jit import NO_DEADLINE
>>> digits, complete = essay_answer(kn.read("puzzles/k3.txt"), 2, NO_DEADLINE)
>>> digits.shape, complete
((2, 11, 11), False)
"""

from __future__ import annotations

import time

import numpy as np

from . import essay
from .budget import solutions_within
from .engine.build.entries import packed_entries
from .engine.core import ahead

#: Whether ``kakuro()`` and ``count()`` ask the essay while their kernels compile (the tests
#: of the engine turn it off, so that they test the engine on an empty cache too).
ENABLED = True
#: The processor seconds the essay's thread may spend on an answer.
ESSAY_SECONDS = 3.0
#: The most table rows the essay builds (each table bounded before it is built): past
#: it, the engine's narrower tables answer. Published-style puzzles stay well below it;
#: an open block of 45s passes it within a few tables.
MOST_ROWS = 1_000_000
#: The most solutions the essay lists when asked for all of them.
MOST_SOLUTIONS = 10_000


def essay_answer(puzzle, cap: int, deadline: int, stop=lambda: False,
                 max_rows: int = MOST_ROWS):
    """The first ``cap`` solutions of ``puzzle`` in the essay's order, by the essay in numpy.

    Returns ``(digits, complete)``: an ``(n, H, W)`` int8 array of ``n <= cap``
    solutions and whether they are all there are; or None when it gave up: its
    tables would pass ``max_rows`` (or MOST_ROWS), ``stop()`` said so, it spent
    ESSAY_SECONDS of processor time, or the monotonic deadline ``deadline`` (ns)
    passed. The puzzle's runs must be valid (``engine.build.entries.packed_entries``
    raises for those that are not).
    """
    H, W = puzzle.shape
    x, sums = essay.entries(puzzle)
    if not x:
        return np.zeros((min(cap, 1), H, W), np.int8), True
    over = _budget(deadline, stop)
    try:
        found, complete = _walk(x, _tables(puzzle, x, sums, over, max_rows), cap, over)
    except essay.Timeout:
        return None
    out = np.zeros((len(found), H * W), np.int8)
    for n, tables in enumerate(found):
        for cells, t in zip(x, tables):
            out[n, cells] = t[0]
    return out.reshape(-1, H, W), complete


def essay_masks(puzzle, deadline: int, stop=lambda: False, max_rows: int = MOST_ROWS):
    """``reduce``'s cell masks by the essay in numpy: per blank cell in row-major order (the
    engine's variables), its digits as bits at the fixpoint of ``force`` (the same fixpoint
    as the engine's: it is unique); or None when a table emptied (the engine names the
    run that cannot be filled), or it gave up (as ``essay_answer``).

    Examples
    --------
    >>> import kakuro_np as kn
    >>> from kakuro_np.engine.core.jit import NO_DEADLINE
    >>> essay_masks(kn.read("puzzles/k0.txt"), NO_DEADLINE).tolist()
    [2, 1, 4, 1, 8, 2, 1, 2]
    """
    x, sums = essay.entries(puzzle)
    over = _budget(deadline, stop)
    try:
        p = essay.force_until_fixed(x, _tables(puzzle, x, sums, over, max_rows), over)
    except essay.Timeout:
        return None
    if any(len(t) == 0 for t in p):
        return None
    allowed = np.ones((puzzle.blank.size, 10), bool)
    for cells, t in zip(x, p):
        allowed[cells] &= essay.allowed(t)
    bits = allowed[np.flatnonzero(puzzle.blank), 1:]
    return (bits << np.arange(9)).sum(axis=1).astype(np.int64)


def _budget(deadline: int, stop):
    """A function true once the essay should give up: ``stop()``, ESSAY_SECONDS of this
    thread's processor time spent, or the monotonic ``deadline`` (ns) passed."""
    spent = time.thread_time() + ESSAY_SECONDS

    def over() -> bool:
        return time.thread_time() > spent or time.monotonic_ns() > deadline or stop()
    return over


def _tables(puzzle, x, sums, over, max_rows) -> list:
    """The essay's joint possibilities of the entries ``x`` with their ``sums``, the
    puzzle's given digits kept; ``essay.Timeout`` once they pass ``max_rows`` (or
    MOST_ROWS) or ``over()``."""
    y = essay.jposs(x, sums, over, min(max_rows, MOST_ROWS))
    if np.any(puzzle.given):
        y = essay.keep_givens(x, y, puzzle.given)
    return y


def _walk(x, y, cap, over):
    """The essay walk (see the glossary): ``(solutions, complete)``; ``essay.Timeout`` once
    ``over()``."""
    found = []
    stack = [iter((y,))]
    while stack and len(found) < cap:
        branch = next(stack[-1], None)
        if branch is None:
            stack.pop()
            continue
        if over():
            raise essay.Timeout
        p = essay.force_until_fixed(x, branch, over)
        n = np.array([len(t) for t in p])
        if (n == 0).any():
            continue
        if (n == 1).all():
            found.append(p)
            continue
        j = int(np.argmin(n + (n == 1) * n.max()))          # as ``essay.solve`` picks it
        stack.append(_branches(p, j))
    return found, not stack


def _branches(p, j):
    """The tables ``p`` with table ``j`` cut to each of its rows in turn: the fan-out."""
    for row in p[j]:
        yield p[:j] + [row[None, :]] + p[j + 1:]


def while_compiling(puzzle, names, cap, deadline, max_rows, max_bytes=None):
    """The essay's answer while helpers compile the kernels ``names`` (``essay_meanwhile``),
    or None when they are all compiled or it gave up.

    ``answer`` is ``(digits, complete)`` of at most ``cap`` solutions
    (``essay_answer``), kept only when it answers the question: ``cap``
    solutions, or all of them. With ``max_bytes`` (``kakuro()`` without a limit) every
    solution is asked for, and an answer kept only within the bytes (and
    ``MOST_SOLUTIONS``).
    """
    meanwhile = essay_meanwhile(puzzle, names, deadline)
    if meanwhile is None:
        return None
    need_all = max_bytes is not None or cap > MOST_SOLUTIONS
    if max_bytes is not None:
        H, W = puzzle.shape
        cap = solutions_within(max_bytes, int(puzzle.blank.sum()), H, W)
    cap = min(cap, MOST_SOLUTIONS)
    answer = essay_answer(puzzle, cap, *meanwhile, max_rows)
    if answer is None or not (answer[1] or (not need_all and len(answer[0]) == cap)):
        return None
    return answer


def reduced_while_compiling(puzzle, deadline, max_rows):
    """``reduce``'s cell masks by the essay while helpers compile the model's kernels
    (``essay_masks``), or None when they are compiled, the essay gave up, or a
    run cannot be filled (the engine names it)."""
    meanwhile = essay_meanwhile(puzzle, ("model",), deadline)
    if meanwhile is None:
        return None
    return essay_masks(puzzle, *meanwhile, max_rows)


def essay_meanwhile(puzzle, names, deadline) -> tuple | None:
    """``(deadline, compiled)`` when the kernels ``names`` are not all in the cache:
    helpers start compiling them, and the essay (``first_run``) may answer until ``deadline``
    (monotonic ns, the caller's deadline) or until ``compiled()``, within its budget
    (``ESSAY_SECONDS`` of processor time); else None. The puzzle's runs are
    checked first, as the engine checks them (``PuzzleError``)."""
    if not ENABLED or ahead.all_cached(names):
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
