"""When each strategy runs: the tuning constants of the walk, its checks, the hunt and the count,
in one place, one name each.

The public verbs (``solve``) read the first group when they are called (a test or a
bench may set them); the kernels (``search``) freeze the second group into their
machine code when they compile (the cache guard recompiles them after an edit).
bench/HISTORY.md records how each value was chosen.

Read when called
----------------
THRASH_NODES     : nodes of the essay's walk without a solution after which it
                   thrashes: it stops, and runs again with checks (``solve.essay_solutions``).
CHECK_HUNT_NODES : the nodes a check's first hunt may visit (later ones grow).
ROOT_CHECK_S     : seconds the root's check has once the walk thrashes; past them
                   the root's witness is a solution found in any order.
HUNT_MAX         : ``count(limit=n)`` and ``kakuro(order="any", limit=n)`` with ``n``
                   at most this take turns of hunting in any order.
TURN_NODES, TURN_GROWTH : the first turn of hunting, learning and counting, and how
                   many times longer each later turn is (``turns.in_turns``).
DISSECT_AFTER    : nodes an exact count takes before it decides the cells of a
                   nested dissection first (``dissect``).
RACE             : whether such a count, on two cores or more, also goes on in the
                   first order meanwhile, the first to end answering.

Frozen in the kernels
---------------------
THRASH_NS        : nanoseconds without a solution after which the walk thrashes,
                   however few its nodes (where each node is dear, as on a draft
                   with several 45-sums, THRASH_NODES of them would take minutes).
CLOCK_AFTER      : nodes without a solution after which the walk reads the clock at
                   every node.
CHECK_TURN_GROWTH : how many times more nodes each turn of a check's hunt has than the last.
CHECK_SAT_NS     : the first turn of a check's clause learning.
"""

from __future__ import annotations

THRASH_NODES = 5000
CHECK_HUNT_NODES = 2000
ROOT_CHECK_S = 0.25
HUNT_MAX = 1000
TURN_NODES, TURN_GROWTH = 1000, 4
DISSECT_AFTER = 100_000
RACE = True

THRASH_NS = 2_000_000_000
CLOCK_AFTER = 64
CHECK_TURN_GROWTH = 4
CHECK_SAT_NS = 10_000_000
