"""search: checks that cut branches with no solution once fan-out thrashes, keeping the order."""

import numpy as np
from hypothesis import HealthCheck, given, settings

import kakuro_np as kn
import kakuro_np.solve as solve
from kakuro_np.engine.jit import OK
from kakuro_np.engine.search import search
from strategies import filled_puzzles

NEVER = 10**15

# A writer's draft (12x12, 99 blanks, many solutions): kakuro(limit=2) fanned out for
# over 20 s in the essay's order before checks; CP-SAT finds two solutions in about 0.1 s.
THRASHING_DRAFT = r"""\|34\|38\|29\|21\|7\|16\|\|\|13\|19\|16\
\31|||||||\|13\14|||
\22|||||||36\26||||
\19|||||25\|18\28|||||
\41|||||||||\|29\|40\
\34||||||||33\|\9||
\6|||\22||||||29\11||
\17|||\|14\39|||||||
\|18\|14\|17\37||||||||
\21||||||12\|8\20||||
\21|||||\30||||||
\19||||\|\32||||||
"""


def solutions(p, check_after, hunt_nodes=solve.CHECK_HUNT, limit=solve.NO_LIMIT):
    """The digits per variable of the solutions ``search`` finds: with checks after
    ``check_after`` nodes without a solution, or without checks (``check_after`` NEVER)."""
    m = solve.model(p)
    checks = None if check_after == NEVER else m.checks(hunt_nodes)
    found = search(m.root(), np.int64(limit), True, np.int64(solve.NO_LIMIT),
                   np.int64(check_after), checks)
    assert found.status == OK
    return found.digits


def test_checks_keep_k3_in_the_essays_order():
    p = kn.read("puzzles/k3.txt")
    plain = solutions(p, NEVER)
    assert len(plain) == 40
    for hunt_nodes in (0, 5, 2000):     # 0: every check counts; 2000: most are hunted
        assert np.array_equal(solutions(p, 0, hunt_nodes), plain)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(filled_puzzles())
def test_checks_from_the_first_node_change_nothing_but_time(case):
    p, _ = case
    plain = solutions(p, NEVER, limit=500)
    for check_after, hunt_nodes in ((0, 0), (0, 50), (3, 2000)):
        assert np.array_equal(solutions(p, check_after, hunt_nodes, limit=500), plain)


def test_a_thrashing_draft_gives_its_first_two_solutions_at_once():
    solutions(kn.read("puzzles/k3.txt"), 0)          # compile the checks outside the timeout
    p = kn.parse(THRASHING_DRAFT)
    sols = kn.kakuro(p, limit=2, timeout=15)
    assert len(sols) == 2 and not np.array_equal(sols[0], sols[1])
    cells, sums = kn.entries(p)
    for s in sols:
        flat = s.ravel()
        assert all(flat[c].sum() == t and len(set(flat[c])) == len(c) for c, t in zip(cells, sums))
