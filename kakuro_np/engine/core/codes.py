"""Every code a kernel returns, in one module: one meaning per name.

Kernels return small ints (numba freezes these constants into their machine
code). A name means one thing wherever it is used: ``CONTRADICTION`` is "no
solution" for a whole run, for a check of one node and for the ladder alike,
and ``TIMED_OUT`` is "the deadline passed" for all three.

Families
--------
One IntEnum a family, so a code read in Python names its family (``name_of``):

Status     : what a kernel run came to: OK, CONTRADICTION (no solution),
             OVER_BUDGET (tables past ``max_rows``), TIMED_OUT, THRASHING.
Ladder     : where the ladder of techniques left a puzzle (``techniques.climb``):
             SOLVED, STUCK, PAUSED, or Status.CONTRADICTION.
Check      : what a check of a node says (``checks.check_node``): WITNESSED, or
             Status.CONTRADICTION (none below it) or Status.TIMED_OUT.
Sat        : clause learning's answer (``cdcl``): YES, NO, UNKNOWN.
CountShort : a count is 0 or more; below zero it is none, and says why.
Walk       : ``trail.step`` returns -1 at a node, the entry whose table emptied at
             a dead end, or WALKED when the walk is over.

Status, Ladder and Check share one range of values, so a code printed in a test or
a log names itself; the others are small negative numbers, compared only within
their family.

Examples
--------
>>> Status(TIMED_OUT).name, CONTRADICTION in (OK, SOLVED, WITNESSED)
('TIMED_OUT', False)
>>> Sat(SAT_YES).name, CountShort(MEMO_FULL).name
('YES', 'MEMO_FULL')
"""

from __future__ import annotations

from enum import IntEnum


class Status(IntEnum):
    """What a kernel run came to."""
    OK = 0              #: done
    CONTRADICTION = 1   #: no solution
    OVER_BUDGET = 2     #: the tables would pass ``max_rows``
    TIMED_OUT = 3       #: the deadline passed
    THRASHING = 4       #: the search without checks went too long without a solution


class Ladder(IntEnum):
    """Where the ladder of techniques left a puzzle (``techniques.climb``), beside
    Status.CONTRADICTION."""
    SOLVED = 5          #: every cell has its digit
    STUCK = 6           #: no technique applies
    PAUSED = 7          #: its step limit


class Check(IntEnum):
    """What a check of a node says (``checks.check_node``), beside Status.CONTRADICTION (no
    solution below it) and Status.TIMED_OUT."""
    WITNESSED = 8       #: a solution below the node is in hand


class Sat(IntEnum):
    """Clause learning's answer (``cdcl``)."""
    NO = 0              #: no solution
    YES = 1             #: a solution, written out
    UNKNOWN = -1        #: its conflicts or its time ran out


class CountShort(IntEnum):
    """A count that is none, and why (a count is 0 or more)."""
    TIMED_OUT = -1      #: the deadline passed
    OUT_OF_NODES = -2   #: its node budget ran out
    MEMO_FULL = -3      #: its memo is full


class Walk(IntEnum):
    """What ``trail.step`` returns when the trail has no rows left."""
    WALKED = -2         #: the walk is over


# The kernels use int copies, named after their family where values repeat across
# families (numba freezes them into the machine code).
OK, CONTRADICTION, OVER_BUDGET, TIMED_OUT, THRASHING = (int(c) for c in Status)
SOLVED, STUCK, PAUSED = (int(c) for c in Ladder)
WITNESSED = int(Check.WITNESSED)
SAT_NO, SAT_YES, SAT_UNKNOWN = (int(c) for c in Sat)
COUNT_TIMED_OUT, OUT_OF_NODES, MEMO_FULL = (int(c) for c in CountShort)
WALKED = int(Walk.WALKED)

#: Every family, for a code's name in a message or a test (``name_of``).
FAMILIES = (Status, Ladder, Check, Sat, CountShort, Walk)


def name_of(code: int, family: type) -> str:
    """The name of ``code`` in ``family`` (an IntEnum of FAMILIES): ``Family.NAME``.

    Examples
    --------
    >>> name_of(SAT_YES, Sat), name_of(CONTRADICTION, Status)
    ('Sat.YES', 'Status.CONTRADICTION')
    """
    return f"{family.__name__}.{family(int(code)).name}"
