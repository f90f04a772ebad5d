"""trail: the one depth-first walk the search, the hunt and the count share."""

import numpy as np
from hypothesis import HealthCheck, assume, given, settings

import kakuro_np as kn
from kakuro_np.combos import LOWEST_DIGIT
from kakuro_np.engine.core.jit import NO_DEADLINE
from kakuro_np.engine.force import pick_entry, start_state
from kakuro_np.engine.search import walk_fanouts
from kakuro_np.engine.walk.trail import WALKED, close_levels, open_level, step, trail_for
from kakuro_np.solve import model
from strategies import filled_puzzles, satisfies
from conftest import examples

MOST = 500                                      # leaves a walk collects in Python at most
SETTINGS = settings(max_examples=examples(120), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def walk(p, in_order=True, most=10**6, on_cells=False):
    """Every leaf of a walk by the essay's rule, as digits per variable (Python glue);
    ``on_cells`` branches on the entry's first undecided cell instead of its rows."""
    m = model(p)
    if m.status != 0:
        return m, []
    emptied, tables, live = start_state(m.root(), True)
    if emptied >= 0:
        return m, []
    trail = trail_for(tables, live, on_cells)
    leaves, at_node = [], True
    while len(leaves) < most:
        if at_node:
            k = pick_entry(live.nalive)
            if k < 0:
                leaves.append([int(LOWEST_DIGIT[b]) for b in live.mask])
            elif on_cells:
                cells = m.ent_var[m.ent_off[k]:m.ent_off[k + 1]]
                v = next(v for v in cells if bin(live.mask[v]).count("1") > 1)
                open_level(trail, tables, live, np.int64(-1 - v), True)
            else:
                open_level(trail, tables, live, np.int64(k), in_order)
        emptied = step(trail, tables, live, 0)
        if emptied == WALKED:
            break
        at_node = emptied < 0
    return m, leaves


@SETTINGS
@given(filled_puzzles())
def test_a_walk_in_order_meets_kakuros_solutions_in_kakuros_order(case):
    p, _ = case
    m, leaves = walk(p, most=300)
    sols = kn.kakuro(p, limit=300)
    assert np.array_equal(sols.reshape(len(sols), -1)[:, m.var_cell], np.array(leaves, np.int8)
                          .reshape(len(leaves), len(m.var_cell)))


@SETTINGS
@given(filled_puzzles())
def test_a_walk_in_any_order_meets_every_solution_once(case):
    p, fill = case
    m, leaves = walk(p, in_order=False, most=MOST)
    assert len(leaves) == kn.count(p, limit=MOST)
    assert len({tuple(leaf) for leaf in leaves}) == len(leaves)
    digits = np.zeros(p.shape, np.int64).ravel()
    for leaf in leaves:
        digits[m.var_cell] = leaf
        assert satisfies(p, digits.reshape(p.shape))
    if len(leaves) < MOST:                      # every solution: the fill is one
        assert list(fill.ravel()[m.var_cell]) in [list(leaf) for leaf in leaves]


@SETTINGS
@given(filled_puzzles())
def test_a_walk_on_cells_meets_every_solution_once(case):
    p, _ = case
    m, leaves = walk(p, most=MOST, on_cells=True)
    sols = kn.kakuro(p, limit=MOST)
    assume(len(sols) < MOST)                    # every solution listed
    listed = sols.reshape(len(sols), -1)[:, m.var_cell].tolist()
    assert sorted(leaves) == sorted(listed) and len({tuple(x) for x in leaves}) == len(leaves)


@SETTINGS
@given(filled_puzzles())
def test_a_level_on_a_cell_tries_its_digits_in_order_and_restores_the_node(case):
    p, _ = case
    m = model(p)
    _, tables, live = start_state(m.root(), True)
    open_cells = np.flatnonzero([bin(b).count("1") > 1 for b in live.mask])
    assume(len(open_cells) > 0)                 # forced moves alone solve it: no level to open
    v = open_cells[0]
    before = live.mask.copy(), live.nalive.copy()
    trail = trail_for(tables, live, True)
    open_level(trail, tables, live, np.int64(-1 - v), True)
    tried = []
    while step(trail, tables, live, 0) != WALKED:
        tried.append(1 << int(trail.cand[trail.nxt[0] - 1]))    # the digit just tried
    close_levels(trail, live, 0, True)
    assert trail.top[0] == 0
    assert np.array_equal(live.mask, before[0]) and np.array_equal(live.nalive, before[1])
    assert tried == [1 << d for d in range(9) if (before[0][v] >> d) & 1]


@SETTINGS
@given(filled_puzzles())
def test_closing_a_level_with_restore_puts_the_node_back(case):
    p, _ = case
    m = model(p)
    _, tables, live = start_state(m.root(), True)
    k = pick_entry(live.nalive)
    assume(k >= 0)                              # forced moves alone solve it: no level to open
    before = live.mask.copy(), live.nalive.copy(), sorted(live.perm[m.tab_off[k]:
                                                                   m.tab_off[k] + live.nalive[k]])
    trail = trail_for(tables, live, False)
    open_level(trail, tables, live, np.int64(k), True)
    tried = []
    while step(trail, tables, live, 0) != WALKED:
        tried.append(trail.cand[trail.nxt[0] - 1])             # the row just tried
    close_levels(trail, live, 0, True)
    assert trail.top[0] == 0
    assert np.array_equal(live.mask, before[0]) and np.array_equal(live.nalive, before[1])
    assert tried == before[2]                  # each live row once, in lexicographic order


def test_fanouts_of_k3_count_its_40_solutions_and_stop_where_told():
    m = model(kn.read("puzzles/k3.txt"))
    counted = [walk_fanouts(m.root(), np.int64(most), NO_DEADLINE)[:2] for most in (0, 10, 46, 47)]
    assert counted == [(0, 0), (10, 4), (46, 40), (46, 40)]
    _, leaves = walk(kn.read("puzzles/k3.txt"))
    assert len(leaves) == 40
