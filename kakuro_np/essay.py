"""The J essay "Essays/Kakuro", verb by verb, in plain numpy: the yardstick for the engine.

Each function below is one of the essay's verbs, under the essay's name, and
computes what the J computes, in the same order. The engine (``kakuro_np.kakuro``,
``jposs``, ``force``, ``kc``) is the same verbs made fast with numba; the tests
hold the two equal: the same tables, the same fixpoint, the same solutions in
the same order. This module imports only numpy and itertools, so that it stays
an independent statement of the method.

    comb      x comb y: every size-x combination of i.y
    kc        x kc y: the combinations of y distinct digits that add up to x
    entries   entries y: the runs of blank cells and their sums
    csl       x csl y: the cross sums of one entry, from its cells' candidates
    allowed   (i.10) e."1 t: the digits each column of a table holds
    jposs     x jposs y: every entry's joint possibilities, most constrained first
    force     x force y: one round of forced moves
    rounds    x force^:a: y: the tables after each round, up to the fixpoint
    force_until_fixed   x force^:_ y: the fixpoint, where no round drops a row
    solve     x solve y: force, then fan out over the smallest table
    keep_givens         drop the rows that break a given digit (not in the essay)
    kakuro    kakuro y: every solution of a puzzle

Glossary
--------
puzzle : anything with ``blank`` (bool), ``down`` and ``across`` (int) arrays of one
         shape ``(H, W)``, and optionally ``given`` digits (0 = none), such as a
         ``kakuro_np.Puzzle``. A sum of 0 means no clue.
cell   : a flat row-major index ``r * W + c`` (the essay's ``i. $y``).
cells  : one int64 array of cells per entry; ``sums`` the clue of each entry.
table  : an ``(n, L)`` int8 array, one row per joint possibility of an entry of L
         cells, rows in lexicographic order (the essay stores it transposed, L x n).
x, y   : a verb's left and right arguments, named as in J: in ``jposs`` the cells and
         the sums, in ``force`` and ``solve`` the cells and the tables.
b, r   : ``(cells, 10)`` bool arrays, ``b[i, d]`` while digit d is possible in cell i
         (column 0, the digit 0, is never set): ``jposs``'s candidates and ``force``'s
         masks, named as in the essay.

Two things the essay leaves out are added, as the engine adds them: a blank
cell with no clue either way is an entry of its own with sum 0 (any digit), and
a puzzle's given digits drop the rows that disagree with them (``keep_givens``).
Pass ``deadline`` (a ``time.perf_counter()`` value, or a function that says when
to stop) to give up with ``Timeout`` when a puzzle takes too long.
"""

from __future__ import annotations

import math
import time
from itertools import combinations

import numpy as np

__all__ = ["Timeout", "comb", "kc", "entries", "csl", "allowed", "jposs", "force", "rounds",
           "force_until_fixed", "solve", "keep_givens", "kakuro"]


class Timeout(Exception):
    """The puzzle took longer than its deadline, or its tables more rows than allowed."""


def _check(deadline):
    """Raise Timeout once ``time.perf_counter()`` has passed ``deadline``, or once
    ``deadline()`` is true where it is a function (None: never)."""
    if deadline is None:
        return
    if deadline() if callable(deadline) else time.perf_counter() > deadline:
        raise Timeout


def _n_cells(cells):
    """1 + the largest cell index of any entry (``1+>./;x``)."""
    return 1 + max((int(np.asarray(c).max()) for c in cells if len(c)), default=-1)


# -- Kakuro combinations ---------------------------------------------------------

def comb(x, y):
    """Every size-``x`` combination of ``range(y)``, one per row, in lexicographic order.

    Examples
    --------
    >>> comb(2, 4).tolist()
    [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    """
    c = list(combinations(range(y), x))
    return np.array(c, np.int64).reshape(len(c), x)


def kc(x, y):
    """Every combination of ``y`` distinct digits 1-9 that adds up to ``x``, ascending.

    ``kc=: ((= +/"1) # ]) >:@comb&9``

    Parameters
    ----------
    x : int
        The sum.
    y : int
        How many digits, 0-9.

    Returns
    -------
    (n, y) int8 array
        One combination per row, rows in lexicographic order.

    Examples
    --------
    >>> kc(18, 4)[[0, -1]].tolist(), len(kc(18, 4))
    ([[1, 2, 6, 9], [3, 4, 5, 6]], 11)
    """
    c = 1 + comb(y, 9)                                   # >:@comb&9: the digits 1-9, y at a time
    return c[c.sum(axis=1) == x].astype(np.int8)         # (= +/"1) # ]: those adding up to x


# -- A Kakuro solver -------------------------------------------------------------

def entries(puzzle):
    """The cells of every entry and the sums they need, in the essay's order.

    Across entries in row-major order of their clue cells, then down entries in
    column-major order, then (not in the essay) each blank cell that belongs to
    no entry, as an entry of its own with sum 0.

    Parameters
    ----------
    puzzle : Puzzle
        Or anything with ``blank``, ``down`` and ``across`` arrays.

    Returns
    -------
    cells : list of int64 arrays
        Flat row-major indices of each entry's cells, in reading order.
    sums : int64 array
        The clue of each entry.

    Raises
    ------
    ValueError
        If a run of two or more blank cells has no clue.

    Examples
    --------
    A down 3 over cells 5 and 9, and cell 7 alone with no clue either way:

    >>> from kakuro_np import Puzzle
    >>> cells, sums = entries(Puzzle.from_rows([["x", (3, 0), "x", "x"],
    ...                                         ["x", "_", "x", "_"],
    ...                                         ["x", "_", "x", "x"]]))
    >>> [c.tolist() for c in cells], sums.tolist()
    ([[5, 9], [7]], [3, 0])
    """
    blank = np.asarray(puzzle.blank, bool)
    H, W = blank.shape
    index = np.arange(H * W).reshape(H, W)                   # i. $y: each cell's flat index
    cells, sums = [], []
    # (|.&.>,y),,|:y: make all entries horizontal: the rows, then the rows of the transpose
    for b, clue, idx in ((blank, np.asarray(puzzle.across), index),
                         (blank.T, np.asarray(puzzle.down).T, index.T)):
        b = np.pad(b, ((0, 0), (1, 1))).ravel()                  # a non-blank at each row's ends
        clue = np.pad(clue, ((0, 0), (1, 1))).ravel()            # (no clue there)
        idx = np.pad(idx, ((0, 0), (1, 1)), constant_values=-1).ravel()
        step = np.diff(b.astype(np.int8))
        starts = np.flatnonzero(step == 1) + 1                   # p=. b<}.b,0: a run's first blank
        stops = np.flatnonzero(step == -1) + 1                   # the first non-blank after it
        for s, e in zip(starts, stops):
            total = int(clue[s - 1])                             # {.&> p#t: the clue before it
            if total == 0 and e - s == 1:
                continue                                         # a lone unclued cell: no entry
            if total == 0:
                raise ValueError(f"a run of {e - s} blank cells has no clue")
            cells.append(idx[s:e].astype(np.int64))              # its cells, in reading order
            sums.append(total)
    covered = np.zeros(H * W, bool)
    for c in cells:
        covered[c] = True
    for c in np.flatnonzero(blank.ravel() & ~covered):           # a blank in no entry at all:
        cells.append(np.array([c], np.int64))                    # an entry of its own, any digit
        sums.append(0)
    return cells, np.array(sums, np.int64)


def csl(x, y, deadline=None):
    """The cross sums of one entry: every filling by distinct digits that adds up to ``x``.

    ``csl=: |: (#~ x = +/"1) (#~ *./@~:"1 *. x >: +/"1)@(,/)@:(,."0 _)&:>/ y``

    Parameters
    ----------
    x : int
        The entry's sum; 0 means any digit (a lone unclued cell).
    y : list of int arrays
        Each cell's candidate digits, ascending.
    deadline : float or callable, optional
        As ``jposs``'s: looked at before each cell is put in front.

    Returns
    -------
    (n, len(y)) int8 array
        One filling per row, rows in lexicographic order.

    Examples
    --------
    >>> csl(4, [[1, 2, 3], [1, 3]]).tolist()
    [[1, 3], [3, 1]]
    """
    if x == 0:
        return np.asarray(y[0], np.int8)[:, None]                # one cell, any candidate
    t = np.asarray(y[-1], np.int8)[:, None]                      # /: fold from the last cell
    for c in y[-2::-1]:
        _check(deadline)
        c = np.asarray(c, np.int8)
        # ,/@:(,."0 _): each candidate of this cell in front of each row so far
        t = np.concatenate([np.repeat(c, len(t))[:, None], np.tile(t, (len(c), 1))], axis=1)
        # #~ *./@~:"1 *. x >: +/"1: keep distinct digits whose sum is not over x
        t = t[(t[:, :1] != t[:, 1:]).all(axis=1) & (t.sum(axis=1, dtype=np.int64) <= x)]
    return t[t.sum(axis=1, dtype=np.int64) == x]                 # #~ x = +/"1: the sum exactly


def allowed(t):
    """(L, 10) bool: the digits each cell's column of table ``t`` holds (``(i.10) e."1 t``).

    Examples
    --------
    >>> allowed(np.array([[1, 3], [3, 1]])).nonzero()
    (array([0, 0, 1, 1]), array([1, 3, 1, 3]))
    """
    L = t.shape[1]
    out = np.zeros((L, 10), bool)
    out[np.broadcast_to(np.arange(L), t.shape), t] = True
    return out


def jposs(x, y, deadline=None, max_rows=None):
    """The joint possibilities of every entry, building the most constrained first.

    Start with 1-9 in every cell. Repeatedly take the entry not yet built with the
    fewest estimated possibilities (the product of its cells' candidate counts,
    ties to the lower index), build its table from the current candidates, and
    narrow its cells to the digits its table uses.

    Parameters
    ----------
    x : list of int arrays
        The cells of each entry, as from ``entries``.
    y : sequence of int
        The sum of each entry.
    deadline : float or callable, optional
        A ``time.perf_counter()`` value; past it, raise ``Timeout``.
    max_rows : int, optional
        Raise ``Timeout`` before a table is built that could take the rows past this
        (by its combinations times their orders, or its candidates' product).

    Returns
    -------
    list of (n_k, len_k) int8 arrays

    Examples
    --------
    >>> [t.tolist() for t in jposs([[0, 1], [0, 2]], [4, 3])]
    [[[1, 3], [3, 1]], [[1, 2]]]
    """
    b = np.ones((_n_cells(x), 10), bool)                         # b: possible numbers per square,
    b[:, 0] = False                                              # 1-9 (0 1 1 1 1 1 1 1 1 1)
    v = list(range(len(x)))                                      # v=. i.#x: entries not built yet
    p = [None] * len(x)
    rows = 0
    while v:
        _check(deadline)
        counts = b.sum(axis=1)                                   # +/"1 b
        est = [np.prod(counts[x[j]], dtype=np.float64) for j in v]   # */@({&(+/"1 b))&> v{x
        at = int(np.argmin(est))                                 # (i.<./): fewest, first of ties
        j = v.pop(at)
        k = x[j]                                                 # k=. j{::x: its squares
        if max_rows is not None and rows + _most_rows(int(y[j]), est[at], len(k)) > max_rows:
            raise Timeout
        t = csl(int(y[j]), [np.flatnonzero(b[i]) for i in k], deadline)  # t=. (j{y) csl <@I."1 k{b
        b[k] = allowed(t)                                        # b=. b k}~ (i.10) e."1 t
        p[j] = t                                                 # p=. p j}~ <t
        rows += len(t)
    return p


def _most_rows(total, candidates, length) -> float:
    """The most rows a table of ``length`` cells with sum ``total`` can have: its
    combinations times their orders, and at most the product of its ``candidates``."""
    if total == 0:
        return candidates
    return min(candidates, math.factorial(length) * len(kc(total, length)))


def force(x, y):
    """One round of forced moves: keep the rows that every cell's joint mask allows.

    A cell's mask is the AND, over the entries holding it, of the digits the
    entry's table allows there; each table keeps the rows whose every digit its
    cells' masks allow.

    Parameters
    ----------
    x : list of int arrays
        The cells of each entry.
    y : list of (n_k, len_k) int arrays
        The tables, as from ``jposs``.

    Returns
    -------
    list of (m_k, len_k) arrays
        The rows kept, in their order.

    Examples
    --------
    >>> [t.tolist() for t in force([[0, 1], [0, 2]], [np.array([[1, 3], [3, 1]]),
    ...                                               np.array([[1, 2], [2, 1]])])]
    [[[1, 3]], [[1, 2]]]
    """
    # r=. (j *.//. ; (i.10)&e."1&.> y) (~.j)} ...: each cell's mask, ANDed over its entries
    r = np.ones((_n_cells(x), 10), bool)
    for k, t in zip(x, y):
        r[k] &= allowed(t)                                       # what this entry allows there
    # y (*./@({"_1) #"1 [)&.> {&r&.> x: keep the rows whose every digit its cell allows
    return [t[r[k][np.arange(t.shape[1]), t].all(axis=1)] for k, t in zip(x, y)]


def rounds(x, y, deadline=None):
    """``x force^:a: y``: the tables before the first round and after each, to the fixpoint.

    A generator; the last tables it yields are the fixpoint. The essay prints the
    row counts of these for k2: seven lines, down to all ones.

    Examples
    --------
    >>> x = [[0, 1], [1, 2], [2, 3]]                              # a chain of three entries
    >>> y = [np.array([[1, 2]]), np.array([[1, 3], [2, 4]]), np.array([[3, 1], [4, 2]])]
    >>> [[len(t) for t in p] for p in rounds(x, y)]
    [[1, 2, 2], [1, 1, 2], [1, 1, 1]]
    """
    yield y
    while True:
        _check(deadline)
        p = force(x, y)
        if all(len(a) == len(b) for a, b in zip(p, y)):          # nothing dropped: the fixpoint
            return
        yield p
        y = p


def force_until_fixed(x, y, deadline=None):
    """``x force^:_ y``: repeat ``force`` until no table loses a row.

    Examples
    --------
    >>> x = [[0, 1], [1, 2], [2, 3]]
    >>> y = [np.array([[1, 2]]), np.array([[1, 3], [2, 4]]), np.array([[3, 1], [4, 2]])]
    >>> [t.tolist() for t in force_until_fixed(x, y)]
    [[[1, 2]], [[2, 4]], [[4, 2]]]
    """
    for p in rounds(x, y, deadline):
        pass
    return p


def solve(x, y, deadline=None):
    """Every solution, in the essay's order, as a list of tables of one row each.

    Force to the fixpoint. If some table is empty there is no solution; if every
    table has one row, that is the solution. Otherwise fan out over the rows of
    the table with the fewest rows above one (ties to the lower index), solve
    each branch, and concatenate.

    Parameters
    ----------
    x, y : the cells and the tables, as for ``force``
    deadline : float or callable, optional
        A ``time.perf_counter()`` value; past it, raise ``Timeout``.

    Returns
    -------
    list of lists of (1, len_k) arrays

    Examples
    --------
    >>> x = [[0, 1], [2, 3], [0, 2], [1, 3]]                     # a 2x2 block of 3s
    >>> sols = solve(x, jposs(x, [3, 3, 3, 3]))
    >>> [[t[0].tolist() for t in s] for s in sols]
    [[[1, 2], [2, 1], [1, 2], [2, 1]], [[2, 1], [1, 2], [2, 1], [1, 2]]]
    """
    p = force_until_fixed(x, y, deadline)                        # p=. x force^:_ y
    n = np.array([len(t) for t in p])                            # n=. {:@$&> p: rows per table
    if (n == 0).any():
        return []                                                # some entry has no possibilities
    if (n == 1).all():
        return [p]                                               # found a unique solution
    j = int(np.argmin(n + (n == 1) * n.max()))                   # j=. (i.<./) n+(1=n)*>./n
    out = []
    for row in p[j]:                                             # fan out the rows of that entry
        branch = list(p)
        branch[j] = row[None, :]
        out += solve(x, branch, deadline)                        # ; x <@solve p j}"0 1~ ...
    return out


def keep_givens(x, y, given):
    """Drop the rows that disagree with a given digit (0 = none): not in the essay.

    Examples
    --------
    >>> [t.tolist() for t in keep_givens([[0, 1]], [np.array([[1, 3], [3, 1]])], [0, 1])]
    [[[3, 1]]]
    """
    given = np.asarray(given).ravel()
    return [t[((given[k] == 0) | (t == given[k])).all(axis=1)] for k, t in zip(x, y)]


def kakuro(puzzle, deadline=None):
    """Every solution of a puzzle, in the essay's order.

    ``'i s'=. entries y`` then ``i solve i jposs s``, with the digits put in place.

    Parameters
    ----------
    puzzle : Puzzle
        Or anything with ``blank``, ``down`` and ``across`` arrays (and ``given``).
    deadline : float or callable, optional
        A ``time.perf_counter()`` value; past it, raise ``Timeout``.

    Returns
    -------
    (n, H, W) int8 array
        The digits in the blanks, 0 elsewhere; a puzzle without blanks has one
        empty solution.

    Examples
    --------
    >>> from kakuro_np import Puzzle
    >>> k0 = Puzzle.from_rows([["x", "x", "x", (6, 0), (3, 0)],
    ...                        ["x", (4, 0), (3, 3), "_", "_"],
    ...                        [(0, 10), "_", "_", "_", "_"],
    ...                        [(0, 3), "_", "_", "x", "x"]])
    >>> kakuro(k0)[0]
    array([[0, 0, 0, 0, 0],
           [0, 0, 0, 2, 1],
           [0, 3, 1, 4, 2],
           [0, 1, 2, 0, 0]], dtype=int8)
    """
    H, W = np.shape(puzzle.blank)
    i, s = entries(puzzle)                                       # 'i s'=. entries y
    if not i:
        return np.zeros((1, H, W), np.int8)                      # no runs: one empty solution
    p = jposs(i, s, deadline)                                    # i jposs s
    given = getattr(puzzle, "given", None)
    if given is not None and np.any(given):
        p = keep_givens(i, p, given)
    sols = solve(i, p, deadline)                                 # i solve ...
    out = np.zeros((len(sols), H * W), np.int8)
    for n, sol in enumerate(sols):
        for k, t in zip(i, sol):
            out[n, k] = t[0]                                     # (;i)}: each row into its cells
    return out.reshape(-1, H, W)
