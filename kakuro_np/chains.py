"""Contradiction chains: from one candidate, the ladder's steps to a cell with none.

Where no technique of the ladder (``techniques``), no region sum (``regions``) and no
x-wing (``patterns``) makes progress, suppose an open cell holds one of its candidates
and let the ladder climb from there. If the climb leaves some cell with no candidate,
the supposition was false and the candidate goes: a proof, each link one step of the
ladder on one run. The chain's links are the steps the contradiction depends on (walking
back from the last step, a step is a link when it changed a cell of a later link's run),
so they replay one by one, from the supposition alone, to the same empty cell; then each
is left out in turn while the rest still get there. Every open candidate is tried, and
the one with the fewest links (at most MAX_LINKS) is removed.

Glossary
--------
supposition : an open cell taken to hold one of its candidates.
link        : one step of the ladder that the contradiction depends on.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .combos import POPCOUNT
from .engine.core.codes import CONTRADICTION, TIMED_OUT
from .engine.core.jit import NO_DEADLINE
from .techniques import JOINT_POSSIBILITIES, climb, try_technique

#: The most links a chain may have: a longer one is not a proof a person would follow.
MAX_LINKS = 20
#: The techniques a link may use: the ladder below joint possibilities (whose tables of
#: every filling of a long open run would make each supposition costly).
CHAIN_TOP = JOINT_POSSIBILITIES
#: The most steps the ladder climbs from a supposition: a contradiction further on would
#: rarely have few links (on published-style puzzles it comes well within them).
CLIMB_STEPS = 100
#: The most suppositions one solve by logic tries in all, so that a grid with very many
#: solutions, where chains find little, is given up in seconds (published-style puzzles
#: need far fewer).
MAX_SUPPOSITIONS = 5_000
#: Of the suppositions that end in a contradiction, the SLICED whose climbs take the
#: fewest steps are cut to the steps the contradiction depends on (``chain_links``), and
#: the PRUNED of those with the fewest links are pruned (``pruned``); the shortest is used.
SLICED, PRUNED = 32, 8


class Chain(NamedTuple):
    """A supposition that ends in a contradiction.

    var, digit : the variable supposed to hold ``digit`` (which it therefore cannot).
    start      : the masks with the supposition made (before the first link).
    links      : the links in order, as ``techniques.climb`` records steps (``replayed``):
                 ``(status, technique, entry, info, change_off, change_var, change_old,
                 change_new)``, the last leaving a cell with no candidate.
    """
    var: int
    digit: int
    start: np.ndarray
    links: tuple

    def __len__(self):
        return len(self.links[1])


def shortest_chain(runs, mask, budget, max_links=MAX_LINKS, deadline=NO_DEADLINE) -> tuple:
    """``(chain, suppositions tried)``: the supposition with the fewest links (at most
    ``max_links``) that ends in a contradiction, over the open candidates of ``mask``
    (ties: the first variable, then the lowest digit), or None; at most ``budget``
    suppositions are tried (the first variables first). The ladder must be stuck at
    ``mask``: each climb starts from the supposed cell's entries alone. SolveTimeout once
    ``deadline`` (monotonic ns) has passed (looked at for each supposition and link).

    ``runs`` is ``(ent_off, ent_var, ent_sum, var_eoff, var_ent)`` as ``climb`` takes them.

    Examples
    --------
    >>> from kakuro_np import Puzzle
    >>> from kakuro_np.explanation import _board
    >>> p = Puzzle.from_rows([["x", (4, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 4), "_", "_"]])
    >>> chain, tried = shortest_chain(_board(p).runs, np.array([3, 3, 7, 7], np.int64), 100)
    >>> chain.var, chain.digit, len(chain), tried
    (0, 2, 1, 10)

    Supposing (1, 1) is 2, one link ends it: the down 4 at (0, 1) can only be 1 + 3.
    """
    from .checking import _left
    found, tried = [], 0
    for v in np.flatnonzero(POPCOUNT[mask] > 1).tolist():
        for d in range(1, 10):
            if not (int(mask[v]) >> (d - 1)) & 1 or tried == budget:
                continue
            _left(deadline, "solving by logic")
            tried += 1
            start = mask.copy()
            start[v] = 1 << (d - 1)
            climbed = climb(runs, start.copy(), np.int64(CLIMB_STEPS), np.int64(CHAIN_TOP),
                            np.int64(v), np.int64(deadline))
            if climbed[0] == TIMED_OUT:
                _left(deadline, "solving by logic")     # stopped early only past the deadline
            if climbed[0] == CONTRADICTION:
                found.append((len(climbed[1]), v, d, start, climbed))
    sliced = []                             # a climb's steps bound its links: few, few
    for _, v, d, start, climbed in sorted(found, key=lambda f: f[:3])[:SLICED]:
        steps = chain_links(climbed, runs[0], runs[1], len(mask))
        sliced.append((len(steps), v, d, start, climbed[1][steps], climbed[2][steps]))
    best = None
    for _, v, d, start, technique, entry in sorted(sliced, key=lambda f: f[:3])[:PRUNED]:
        links = pruned(runs, start, technique, entry, deadline)
        if len(links[1]) <= max_links and (best is None or len(links[1]) < len(best)):
            best = Chain(v, d, start, links)
    return best, tried


def chain_links(climbed, ent_off, ent_var, n_vars) -> np.ndarray:
    """The steps of a climb that ends in a contradiction which that contradiction
    depends on: the last step, and each earlier step that changed a cell of a later
    link's run."""
    _, _, entry, _, change_off, change_var = climbed[:6]
    watched = np.zeros(n_vars, bool)
    links = []
    for s in range(len(entry) - 1, -1, -1):
        if s == len(entry) - 1 or watched[change_var[change_off[s]:change_off[s + 1]]].any():
            links.append(s)
            watched[ent_var[ent_off[entry[s]]:ent_off[entry[s] + 1]]] = True
    return np.array(links[::-1], np.int64)


def pruned(runs, start, technique, entry, deadline=NO_DEADLINE) -> tuple:
    """The links ``(technique, entry)`` that still end in a contradiction from ``start``
    with as many as can be left out left out (each in turn, the first first), replayed
    (``replayed``); SolveTimeout once ``deadline`` (monotonic ns) has passed."""
    from .checking import _left
    links = replayed(runs, start, list(zip(technique.tolist(), entry.tolist())))
    i = 0
    while i < len(links[1]) - 1:
        _left(deadline, "solving by logic")
        kept = list(zip(links[1].tolist(), links[2].tolist()))
        trial = replayed(runs, start, kept[:i] + kept[i + 1:])
        if trial is not None:
            links = trial
        else:
            i += 1
    return links


def replayed(runs, start, links) -> tuple | None:
    """Each ``(technique, entry)`` of ``links`` applied in turn from the masks ``start``,
    recorded as ``climb`` records its steps; a link that changes nothing is left out, and
    the record ends at the first link that leaves a cell with no candidate. None when
    none does."""
    ent_off, ent_var, ent_sum = runs[0], runs[1], runs[2]
    mask = start.copy()
    facts, scratch = np.zeros(4, np.int64), np.zeros(32, np.int64)
    technique, entry, info, change_off = [], [], [], [0]
    change_var, change_old, change_new = [], [], []
    for t, k in links:
        vs = ent_var[ent_off[k]:ent_off[k + 1]]
        m = mask[vs]
        out = m.copy()
        facts[:] = 0
        if not try_technique(np.int64(t), m, np.int64(ent_sum[k]), out, facts, scratch):
            continue
        changed = np.flatnonzero(out != m)
        technique.append(t)
        entry.append(k)
        info.append(facts.copy())
        change_var.extend(vs[changed].tolist())
        change_old.extend(m[changed].tolist())
        change_new.extend(out[changed].tolist())
        change_off.append(len(change_var))
        mask[vs] = out
        if (out == 0).any():
            return (CONTRADICTION, *(np.array(xs, np.int64) for xs in (technique, entry)),
                    np.array(info, np.int64).reshape(-1, 4),
                    *(np.array(xs, np.int64) for xs in (change_off, change_var, change_old,
                                                        change_new)))
    return None
