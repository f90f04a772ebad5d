"""sums: the max-flow test that every clue can still be met within the cells' bounds."""

import itertools

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
import kakuro_np.turns as turns
import kakuro_np.solve as solve
from kakuro_np.engine.search import search
from kakuro_np.engine.force import start_state
from kakuro_np.engine.walk.sums import network_of, sums_feasible
from strategies import filled_puzzles
from conftest import examples

SETTINGS = settings(max_examples=examples(150), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def network(m):
    _, tables, _ = start_state(m.root(), True)
    return network_of(tables, np.int64(len(m.mask)), True)


def built(case):
    """The model of a random puzzle ``(puzzle, fill)`` and the fill's digit per variable."""
    p, fill = case
    m = solve.model(p)
    assert m.status == 0                        # clued from a fill: it has a solution
    return m, fill.ravel()[m.var_cell].astype(np.int64)


def band(lo, hi):
    """The mask of the digits lo..hi."""
    return sum(1 << (d - 1) for d in range(lo, hi + 1))


def sums_met_by_brute_force(m, lo, hi):
    """Is there a digit per variable within [lo, hi] (repeats allowed) meeting the sum of every
    entry of two cells or more? Tries every assignment."""
    runs = [(m.ent_var[a:b], int(m.ent_sum[k]))
            for k, (a, b) in enumerate(zip(m.ent_off[:-1], m.ent_off[1:])) if b - a >= 2]
    ranges = [range(int(a), int(b) + 1) for a, b in zip(lo, hi)]
    return any(all(sum(x[v] for v in cells) == total for cells, total in runs)
               for x in itertools.product(*ranges))


def test_each_cell_is_an_arc_from_an_entry_of_one_side_to_one_of_the_other():
    m = solve.model(kn.read("puzzles/k2.txt"))
    net = network(m)
    arc_var, tail, head = net.arc_var, net.tail, net.head
    cells = np.flatnonzero(arc_var >= 0)
    assert sorted(arc_var[cells]) == list(range(len(m.mask)))  # an arc per cell
    tails, heads = set(tail[2 * cells].tolist()), set(head[2 * cells].tolist())
    across, down = set(range(14)), set(range(14, 26))        # the essay's across entries first
    assert (tails, heads) in ((across, down), (down, across))  # k2: every cell in two entries


def test_an_outie_from_the_sums_alone():
    """A 2x2 block with a tail: the block's across sums (3 + 4) and its first down sum (4)
    leave 3 for the two block cells of the second down entry (6), so its tail cell is 3,
    which the flow finds from full masks, with no table's help."""
    rows = [["x", (4, 0), (6, 0)],
            [(0, 3), "_", "_"],
            [(0, 4), "_", "_"],
            ["x", "x", "_"]]
    m = solve.model(kn.Puzzle.from_rows(rows))
    net = network(m)
    mask = np.full(len(m.mask), 0x1FF, np.int64)
    assert sums_feasible(net, mask)
    tail = len(mask) - 1                                     # the last blank, row-major
    for digit in range(1, 10):
        mask[tail] = 1 << (digit - 1)
        assert sums_feasible(net, mask) == (digit == 3), digit


@SETTINGS
@given(filled_puzzles(max_side=4), st.randoms(use_true_random=False))
def test_the_flow_says_exactly_whether_digits_within_bounds_meet_the_sums(case, rnd):
    m, _ = built(case)
    assert len(m.mask) <= 9                     # max_side=4: at most 3 x 3 blank cells
    lo = np.array([rnd.randint(1, 9) for _ in m.mask])
    hi = np.minimum(lo + np.array([rnd.randint(0, 2) for _ in m.mask]), 9)
    mask = np.array([band(a, b) for a, b in zip(lo, hi)], np.int64)
    assert sums_feasible(network(m), mask) == sums_met_by_brute_force(m, lo, hi)


@SETTINGS
@given(filled_puzzles(max_side=7), st.randoms(use_true_random=False))
def test_masks_that_hold_a_solution_always_pass(case, rnd):
    """Soundness: a node whose masks allow the fill is never refuted."""
    m, digits = built(case)
    mask = np.array([(1 << (d - 1)) | rnd.randint(0, 511) for d in digits], np.int64)
    assert sums_feasible(network(m), mask)
    assert sums_feasible(network(m), (1 << (digits - 1)).astype(np.int64))


@SETTINGS
@given(filled_puzzles(max_side=7), st.randoms(use_true_random=False))
def test_a_refuted_node_has_no_solution(case, rnd):
    """Cuts of each cell to a band of digits, most of them losing the fill: whenever the
    flow refutes the node (about a quarter of the draws), fan-out (which does not test
    sums) finds no solution there either. (Random cuts that keep the forced moves' fixpoint
    alive are never refuted by the flow on puzzles this small: such a test checks nothing.)"""
    m, digits = built(case)
    lo = np.array([rnd.randint(1, d) for d in digits.tolist()])
    hi = np.array([rnd.randint(d, 9) for d in digits.tolist()])
    lo = np.minimum(lo + rnd.randint(0, 3), 9)
    mask = np.array([band(a, b) for a, b in zip(lo, np.maximum(lo, hi))], np.int64)
    assume(not sums_feasible(network(m), mask))
    root = m.root()
    root.mask[:] = mask
    plain = search(root, np.int64(turns.NO_LIMIT), False, np.int64(turns.NO_LIMIT),
                   np.int64(10**15), None)
    assert plain.found == 0


@SETTINGS
@given(filled_puzzles(max_side=6), st.randoms(use_true_random=False))
def test_a_network_kept_from_test_to_test_answers_as_a_fresh_one(case, rnd):
    """Each test starts from the flow the last one left, refuted or not."""
    m, digits = built(case)
    kept = network(m)
    digits = digits.tolist()
    for _ in range(8):
        lo = np.array([rnd.randint(1, d) for d in digits])
        hi = np.array([rnd.randint(d, 9) for d in digits])
        if rnd.random() < 0.5:                       # a cut that may lose the fill
            lo = np.minimum(lo + rnd.randint(0, 3), 9)
            hi = np.maximum(lo, hi)
        mask = np.array([band(a, b) for a, b in zip(lo, hi)], np.int64)
        assert sums_feasible(kept, mask) == sums_feasible(network(m), mask)
