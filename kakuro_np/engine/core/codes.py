"""Every code a kernel returns, in one module: one meaning per name.

Kernels return small ints (numba freezes these constants into their machine
code). A name means one thing wherever it is used: ``CONTRADICTION`` is "no
solution" for a whole run, for a check of one node and for the ladder alike,
and ``TIMED_OUT`` is "the deadline passed" for all three.

Families
--------
run     : what a kernel run came to (``Status``): OK, CONTRADICTION (no
          solution), OVER_BUDGET (tables past ``max_rows``), TIMED_OUT,
          THRASHING (the walk without checks went too long without a solution).
ladder  : where the ladder of techniques left a puzzle (``techniques.climb``):
          SOLVED, STUCK (no technique applies), PAUSED (its step limit), or
          CONTRADICTION.
check   : what a check of a node says (``checks.check_node``): WITNESSED (a
          solution below it is in hand), CONTRADICTION (none below it) or TIMED_OUT.
sat     : clause learning's answer (``cdcl``): SAT_YES, SAT_NO, SAT_UNKNOWN
          (its conflicts or its time ran out).
count   : a count is 0 or more; below zero it is none, and says why:
          COUNT_TIMED_OUT, OUT_OF_NODES (its node budget ran out), MEMO_FULL.
walk    : ``trail.step`` returns -1 at a node, the entry whose table emptied at
          a dead end, or WALKED when the walk is over.

The families' values never meet in one comparison, but the run, ladder and
check codes are distinct from one another all the same, so a code printed in
a test or a log names itself.

Examples
--------
>>> Status(TIMED_OUT).name, CONTRADICTION in (OK, SOLVED, WITNESSED)
('TIMED_OUT', False)
"""

from __future__ import annotations

from enum import IntEnum


class Status(IntEnum):
    """What a kernel run came to (the kernels use the int copies below)."""
    OK = 0              #: done
    CONTRADICTION = 1   #: no solution
    OVER_BUDGET = 2     #: the tables would pass ``max_rows``
    TIMED_OUT = 3       #: the deadline passed
    THRASHING = 4       #: the search without checks went too long without a solution


OK, CONTRADICTION, OVER_BUDGET, TIMED_OUT, THRASHING = (int(s) for s in Status)
#: The ladder's (``techniques.climb``), beside CONTRADICTION.
SOLVED, STUCK, PAUSED = 5, 6, 7
#: A check's (``checks.check_node``), beside CONTRADICTION and TIMED_OUT.
WITNESSED = 8
#: Clause learning's answer (``cdcl``).
SAT_YES, SAT_NO, SAT_UNKNOWN = 1, 0, -1
#: A count that is none: below zero.
COUNT_TIMED_OUT, OUT_OF_NODES, MEMO_FULL = -1, -2, -3
#: What ``trail.step`` returns when the trail has no rows left: the walk is over.
WALKED = -2
