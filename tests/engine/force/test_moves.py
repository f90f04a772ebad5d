"""engine.force.moves: a walk's moves: pick an entry, list its rows, apply a row or a digit."""

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from conftest import PUZZLES, examples
from strategies import filled_puzzles
from kakuro_np.engine.force import propagate, start_state
from kakuro_np.engine.force.moves import apply_digit, apply_row, live_rows, pick_entry
from kakuro_np.engine.model import build


def crossing():
    """Two runs of 6 crossing at their first cell, the across 21 (digits 1-6) and the down
    39 (4-9): 360 rows each, both kept lazily (``perms``)."""
    blank = np.zeros((7, 7), bool)
    blank[1, 1:] = blank[1:, 1] = True
    down, across = np.zeros((7, 7), np.int64), np.zeros((7, 7), np.int64)
    across[1, 0], down[0, 1] = 21, 39
    return build(kn.Puzzle(blank, down, across, np.zeros((7, 7), np.int64)))


def node(m):
    """The root node of model ``m``: ``(tables, live)``."""
    emptied, tables, live = start_state(m.root(), True)
    assert emptied == -1
    return tables, live


def rows_of(tables, live, k):
    """Entry ``k``'s live rows, by ``live_rows``."""
    out = np.zeros(len(tables.rows), np.int32)
    n = live_rows(tables, live, k, out, 0)
    return out[:n]


def fill_row(m, k, fill):
    """The row of entry ``k``'s table that holds the ``fill``'s digits."""
    cells = m.var_cell[m.ent_var[m.ent_off[k]:m.ent_off[k + 1]]]
    table = m.rows[m.tab_off[k]:m.tab_off[k + 1], :len(cells)]
    at = np.flatnonzero((table == fill.ravel()[cells]).all(axis=1))
    assert len(at) == 1, k
    return int(m.tab_off[k] + at[0])


def queued(live):
    """The entries waiting in the queue, in its order."""
    head, size = live.qstate
    return [int(live.queue[(head + i) % len(live.queue)]) for i in range(size)]


@settings(max_examples=examples(300))
@given(st.lists(st.integers(-1, 12), max_size=12))
def test_pick_entry_takes_the_fewest_live_rows_above_one_and_the_lowest_on_a_tie(nalive):
    open_entries = [(n, k) for k, n in enumerate(nalive) if n > 1]
    want = min(open_entries)[1] if open_entries else -1
    assert pick_entry(np.array(nalive, np.int64)) == want


def test_pick_entry_on_k3_picks_its_first_entry_of_two_live_rows():
    tables, live = node(build(kn.read(PUZZLES / "k3.txt")))
    k = pick_entry(live.nalive)
    assert live.nalive[k] == 2 and (live.nalive[:k] != 2).all()
    assert min(n for n in live.nalive if n > 1) == 2


def test_live_rows_copies_an_entrys_live_rows_where_it_is_told():
    m = build(kn.read(PUZZLES / "k3.txt"))
    tables, live = node(m)
    k = int(np.argmax(live.nalive))
    out = np.full(200, -7, np.int32)
    n = live_rows(tables, live, k, out, 5)
    assert n == live.nalive[k] == 84
    assert out[5:5 + n].tolist() == list(range(m.tab_off[k], m.tab_off[k + 1]))
    assert (out[:5] == -7).all() and (out[5 + n:] == -7).all()


def test_live_rows_of_a_lazy_table_lists_the_rows_its_masks_allow():
    m = crossing()
    tables, live = node(m)
    for k in (0, 1):
        assert rows_of(tables, live, k).tolist() == list(range(m.tab_off[k], m.tab_off[k + 1]))
    root = m.root()
    root.mask[7] &= ~(1 << 8)                       # the down run's third cell: not 9
    emptied, tables, live = start_state(root, True)
    assert emptied == -1
    assert live.nalive.tolist() == [360, 360 - 3 * 24]     # 9 there: 3 * 4! rows
    assert tables.perm_set[1] != 0 and live.nalive[1] > 256    # still lazy
    down = rows_of(tables, live, 1)
    table = m.rows[m.tab_off[1]:m.tab_off[2]]
    assert down.tolist() == (m.tab_off[1] + np.flatnonzero(table[:, 2] != 9)).tolist()
    assert live.nalive[1] == 288


@settings(max_examples=examples(90))
@given(filled_puzzles(), st.integers(0, 2**32 - 1))
def test_apply_row_leaves_the_row_alone_sets_its_digits_and_queues_what_it_narrows(case, seed):
    puzzle, _ = case
    m = build(puzzle)
    tables, live = node(m)
    open_entries = np.flatnonzero(live.nalive > 1)
    assume(len(open_entries) > 0)               # forced moves alone solve it: no choice
    rng = np.random.default_rng(seed)
    k = int(rng.choice(open_entries))
    r = int(rng.choice(rows_of(tables, live, k)))
    mask, nalive = live.mask.copy(), live.nalive.copy()
    apply_row(tables, live, k, r)
    cells = m.ent_var[m.ent_off[k]:m.ent_off[k + 1]]
    assert live.perm[m.tab_off[k]] == r and live.pos[r] == m.tab_off[k]
    assert live.nalive[k] == 1
    assert np.array_equal(np.delete(live.nalive, k), np.delete(nalive, k))
    assert live.mask[cells].tolist() == [1 << (int(d) - 1) for d in m.rows[r, :len(cells)]]
    others = np.setdiff1d(np.arange(len(mask)), cells)
    assert np.array_equal(live.mask[others], mask[others])
    changed = {int(v) for v in cells if live.mask[v] != mask[v]}
    want = sorted({j for j in range(len(nalive)) if j != k
                   and set(m.ent_var[m.ent_off[j]:m.ent_off[j + 1]].tolist()) & changed})
    assert sorted(queued(live)) == want and np.flatnonzero(live.inq).tolist() == want
    for s, v in enumerate(m.ent_var):           # the digits lost, at the others' cells
        of_k = m.ent_off[k] <= s < m.ent_off[k + 1]
        lost = mask[v] & ~live.mask[v] if v in changed and not of_k else 0
        assert live.gone[s] == lost, s


@settings(max_examples=examples(90))
@given(filled_puzzles(), st.integers(0, 2**32 - 1))
def test_the_rows_of_a_fill_applied_in_any_order_lead_to_it(case, seed):
    puzzle, fill = case
    assume(puzzle.blank.any())
    m = build(puzzle)
    tables, live = node(m)
    for k in np.random.default_rng(seed).permutation(len(m.ent_sum)):
        r = fill_row(m, k, fill)
        assert r in rows_of(tables, live, k)
        apply_row(tables, live, k, r)
        assert propagate(tables, live, True) == -1
        assert live.perm[m.tab_off[k]] == r and live.nalive[k] == 1
    assert (live.nalive == 1).all()
    assert live.mask.tolist() == [1 << (int(d) - 1) for d in fill.ravel()[m.var_cell]]


@settings(max_examples=examples(90))
@given(filled_puzzles(), st.integers(0, 2**32 - 1))
def test_apply_digit_leaves_the_digit_alone_and_queues_the_cells_entries(case, seed):
    puzzle, _ = case
    assume(puzzle.blank.any())
    m = build(puzzle)
    tables, live = node(m)
    rng = np.random.default_rng(seed)
    v = int(rng.integers(len(m.var_cell)))
    digits = [d for d in range(9) if live.mask[v] >> d & 1]
    d = int(rng.choice(digits))
    mask, nalive = live.mask.copy(), live.nalive.copy()
    apply_digit(tables, live, v, d)
    assert live.mask[v] == 1 << d
    assert np.array_equal(np.delete(live.mask, v), np.delete(mask, v))
    assert np.array_equal(live.nalive, nalive)
    mine = [k for k in range(len(nalive)) if v in m.ent_var[m.ent_off[k]:m.ent_off[k + 1]]]
    slots = np.flatnonzero(m.ent_var == v)
    if len(digits) > 1:
        assert sorted(queued(live)) == mine
        assert (live.gone[slots] == mask[v] & ~(1 << d)).all()
    else:                                       # nothing lost: nothing queued
        assert queued(live) == [] and not live.inq.any()
    assert not np.delete(live.gone, slots).any()


@settings(max_examples=examples(90))
@given(filled_puzzles(), st.integers(0, 2**32 - 1))
def test_the_digits_of_a_fill_applied_in_any_order_lead_to_it(case, seed):
    puzzle, fill = case
    m = build(puzzle)
    tables, live = node(m)
    digits = fill.ravel()[m.var_cell].astype(np.int64) - 1
    for v in np.random.default_rng(seed).permutation(len(m.var_cell)):
        assert live.mask[v] >> digits[v] & 1
        apply_digit(tables, live, v, digits[v])
        assert propagate(tables, live, True) == -1
    assert (live.nalive == 1).all()
    assert live.mask.tolist() == (1 << digits).tolist()


def test_apply_digit_of_k3_narrows_its_first_cell_and_leaves_unbuilt_tables_alone():
    """The docstring's move (cell 0 from 1, 2, 4, 5 to 5), here with the first of the cell's
    two entries not built yet (``nalive`` -1): the other alone is queued, and told of
    the digits 1, 2 and 4 gone."""
    m = build(kn.read(PUZZLES / "k3.txt"))
    tables, live = node(m)
    assert live.mask[0] == 0b11011
    unbuilt, other = np.flatnonzero(m.ent_var == 0)         # variable 0's two slots
    entry_of = np.searchsorted(m.ent_off, [unbuilt, other], side="right") - 1
    live.nalive[entry_of[0]] = -1
    apply_digit(tables, live, 0, 4)
    assert live.mask[0] == 1 << 4
    assert queued(live) == [entry_of[1]] and live.inq.sum() == 1
    assert live.gone[unbuilt] == 0 and live.gone[other] == 0b01011


def test_apply_row_of_k3_leaves_unbuilt_tables_alone_as_apply_digit_does():
    """A row of cell 0's second entry with the first not built yet (``nalive`` -1): the
    unbuilt one is neither queued nor told of digits gone, and propagating finds no
    contradiction that is not there."""
    m = build(kn.read(PUZZLES / "k3.txt"))
    tables, live = node(m)
    unbuilt, other = np.flatnonzero(m.ent_var == 0)         # variable 0's two slots
    j, k = np.searchsorted(m.ent_off, [unbuilt, other], side="right") - 1
    live.nalive[j] = -1
    apply_row(tables, live, k, live.perm[tables.tab_off[k] + 1])
    assert not live.inq[j] and live.gone[unbuilt] == 0
    assert propagate(tables, live, True) == -1
