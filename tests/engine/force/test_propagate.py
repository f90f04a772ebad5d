"""engine.force.propagate: filtering until nothing changes, the walks' start, force's rounds."""

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from conftest import PUZZLES, examples
from strategies import filled_puzzles, open_grid
from kakuro_np.engine.build.jposs import build_tables
from kakuro_np.engine.build.perms import LAZY_ROWS
from kakuro_np.engine.core.jit import NO_DEADLINE
from kakuro_np.engine.core.state import tables_model
from kakuro_np.engine.core.workqueue import enqueue
from kakuro_np.engine.force import INDEX_MIN, apply_digit, live_rows
from kakuro_np.engine.force.propagate import force_rows, propagate, start_state
from kakuro_np.engine.model import build

NEVER = 1 << 40             # an index_min no table reaches: no index


def geometry(ent_off, tab_off):
    """For each row and column of the packed tables: whether the column is one of its
    entry's cells, and the ``ent_var`` slot of that cell (0 where not)."""
    E = len(tab_off) - 1
    ent = np.repeat(np.arange(E), np.diff(tab_off))
    p = np.arange(9)[None, :]
    valid = p < np.diff(ent_off)[ent][:, None]
    return valid, np.where(valid, ent_off[ent][:, None] + p, 0)


def fits(rows, valid, slot, ent_var, mask):
    """Which rows hold only digits their cells' masks allow."""
    if len(rows) == 0:
        return np.zeros(0, bool)
    bits = np.int64(1) << np.maximum(rows.astype(np.int64) - 1, 0)
    return np.where(valid, mask[ent_var[slot]] & bits != 0, True).all(axis=1)


def projected(rows, valid, slot, ent_var, alive, V):
    """Each cell's mask as the AND over its entries of the digits their ``alive`` rows put
    there (an entry with no row alive puts none)."""
    proj = np.zeros(len(ent_var), np.int64)
    use = valid & alive[:, None]
    np.bitwise_or.at(proj, slot[use], np.int64(1) << (rows[use].astype(np.int64) - 1))
    mask = np.full(V, 0x1FF, np.int64)
    np.bitwise_and.at(mask, ent_var, proj)
    return mask


def numpy_fixpoint(rows, tab_off, ent_off, ent_var, mask):
    """The fixpoint of force from ``mask`` by numpy: ``(mask, alive)``, the rows kept
    those whose digits the masks allow, each mask narrowed to what its entries' rows
    put there, until nothing changes."""
    valid, slot = geometry(ent_off, tab_off)
    mask = mask.copy()
    while True:
        alive = fits(rows, valid, slot, ent_var, mask)
        new = mask & projected(rows, valid, slot, ent_var, alive, len(mask))
        if np.array_equal(new, mask):
            return mask, alive
        mask = new


def live_sets(tables, live):
    """Each entry's live rows as a set (a lazy table's listed first: ``live_rows``)."""
    out = np.zeros(len(tables.rows), np.int32)
    return [set(out[:live_rows(tables, live, k, out, 0)].tolist())
            for k in range(len(live.nalive))]


def check_fixpoint(m, tables, live, want_mask, want_alive):
    """The node holds the fixpoint: its masks, and each entry's live rows (or a lazy
    table's count), with an empty queue and no digit gone."""
    assert np.array_equal(live.mask, want_mask)
    for k in range(len(m.tab_off) - 1):
        lo, hi = m.tab_off[k], m.tab_off[k + 1]
        want = set((lo + np.flatnonzero(want_alive[lo:hi])).tolist())
        assert live.nalive[k] == len(want), k
        if tables.perm_set[k] != 0 and live.nalive[k] > LAZY_ROWS:
            continue                        # lazy: its block is not kept
        assert set(live.perm[lo:lo + live.nalive[k]].tolist()) == want, k
    assert live.qstate[1] == 0 and not live.inq.any() and not live.gone.any()


def narrowed_root(m, fill, rng, keep_fill):
    """Model ``m``'s root with about a third of its masks narrowed at random (keeping the
    ``fill``'s digit if ``keep_fill``)."""
    root = m.root()
    digit = 1 << (fill.ravel()[m.var_cell].astype(np.int64) - 1)
    for v in range(len(root.mask)):
        if rng.random() < 1 / 3:
            root.mask[v] &= int(rng.integers(0, 512)) | (int(digit[v]) if keep_fill else 0)
    return root


@settings(max_examples=examples(120))
@given(filled_puzzles(), st.integers(0, 2**32 - 1), st.sampled_from([1, INDEX_MIN, NEVER]),
       st.booleans())
def test_a_start_from_narrowed_masks_reaches_their_fixpoint_and_names_the_first_emptied(
        case, seed, index_min, keep_fill):
    """From any masks the start holds the fixpoint of force (lazy tables, an index or none
    alike); it empties a table exactly when that fixpoint does, never while a solution
    fits the masks, and with ``stop_on_empty`` stops at the same first emptied entry."""
    puzzle, fill = case
    m = build(puzzle)
    root = narrowed_root(m, fill, np.random.default_rng(seed), keep_fill)
    want_mask, want_alive = numpy_fixpoint(m.rows, m.tab_off, m.ent_off, m.ent_var, root.mask)
    empty = [not want_alive[m.tab_off[k]:m.tab_off[k + 1]].any()
             for k in range(len(m.ent_sum))]
    stopping = root._replace(mask=root.mask.copy())
    emptied, tables, live = start_state(root, False, index_min)
    check_fixpoint(m, tables, live, want_mask, want_alive)
    assert (emptied >= 0) == any(empty)
    assert emptied == -1 or empty[emptied]
    if keep_fill:
        assert emptied == -1
    stopped, tables, live = start_state(stopping, True, index_min)
    assert stopped == emptied
    assert live.qstate[1] == 0 and not live.inq.any() and not live.gone.any()
    if stopped >= 0:
        assert live.nalive[stopped] == 0


@settings(max_examples=examples(90))
@given(filled_puzzles(), st.integers(0, 2**32 - 1), st.sampled_from([1, NEVER]))
def test_propagating_every_entry_again_at_a_fixpoint_changes_nothing(case, seed, index_min):
    puzzle, fill = case
    m = build(puzzle)
    root = narrowed_root(m, fill, np.random.default_rng(seed), True)
    emptied, tables, live = start_state(root, False, index_min)
    assert emptied == -1
    mask, nalive, rows = live.mask.copy(), live.nalive.copy(), live_sets(tables, live)
    live.gone[:] = 0x1FF                            # every column to check again
    for k in range(len(nalive)):
        enqueue(live.queue, live.inq, live.qstate, k)
    assert propagate(tables, live, False) == -1
    assert np.array_equal(live.mask, mask) and np.array_equal(live.nalive, nalive)
    assert live_sets(tables, live) == rows
    assert live.qstate[1] == 0 and not live.gone.any()


@settings(max_examples=examples(90))
@given(filled_puzzles(), st.integers(0, 2**32 - 1))
def test_propagating_a_node_after_each_move_reaches_what_a_fresh_start_from_its_masks_would(
        case, seed):
    puzzle, _ = case
    assume(puzzle.blank.any())
    m = build(puzzle)
    emptied, tables, live = start_state(m.root(), True)
    rng = np.random.default_rng(seed)
    for _ in range(3):
        v = int(rng.integers(len(m.var_cell)))
        d = int(rng.choice([d for d in range(9) if live.mask[v] >> d & 1]))
        apply_digit(tables, live, v, d)
        want_mask, want_alive = numpy_fixpoint(m.rows, m.tab_off, m.ent_off, m.ent_var,
                                               live.mask)
        emptied = propagate(tables, live, False)
        check_fixpoint(m, tables, live, want_mask, want_alive)
        empty = [live.nalive[k] == 0 for k in range(len(m.ent_sum))]
        assert (emptied >= 0) == any(empty) and (emptied == -1 or empty[emptied])
        if emptied >= 0 or not (live.mask & (live.mask - 1)).any():
            break                                   # dead, or a solution: no move left


def test_a_start_on_an_open_grid_reaches_the_fixpoint_through_lazy_and_indexed_tables():
    """An open 7x7 grid (7-cell runs: two kept lazily, the others indexed), its masks
    narrowed lightly (a digit off a few cells: the lazy tables stay lazy) or half of them
    to a few digits (they are listed), always keeping the fill's digits."""
    puzzle, fill = open_grid(8, 2)
    m = build(puzzle)
    digit = fill.ravel()[m.var_cell].astype(np.int64) - 1
    seen = set()
    for seed in range(6):
        rng = np.random.default_rng(seed)
        root = m.root()
        if seed < 3:
            for v in rng.choice(len(root.mask), 2 + seed, replace=False):
                others = [d for d in range(9) if root.mask[v] >> d & 1 and d != digit[v]]
                root.mask[v] &= ~(1 << int(rng.choice(others)))
        else:
            for v in range(len(root.mask)):
                if rng.random() < 0.5:
                    root.mask[v] &= (int(rng.integers(0, 512)) & int(rng.integers(0, 512))
                                     | 1 << int(digit[v]))
        want_mask, want_alive = numpy_fixpoint(m.rows, m.tab_off, m.ent_off, m.ent_var,
                                               root.mask)
        emptied, tables, live = start_state(root, False)
        assert emptied == -1
        check_fixpoint(m, tables, live, want_mask, want_alive)
        assert len(tables.idx_row) > 0 and tables.perm_set.any()
        perms = tables.perm_set != 0
        seen.add("lazy" if (live.nalive[perms] > LAZY_ROWS).all() else "listed")
    assert seen == {"lazy", "listed"}


def test_a_digit_no_entry_allows_empties_its_first_entry_first_and_without_stopping_all():
    """On every sample, cell 0 given a digit its entries rule out: with ``stop_on_empty``
    the start stops at one of its entries, emptied, with the queue cleared; without, the
    fixpoint empties every table and every mask (the samples are connected), in place in
    the root's masks."""
    for i in range(8):
        m = build(kn.read(PUZZLES / f"k{i}.txt"))
        mine = [k for k in range(len(m.ent_sum)) if 0 in m.ent_var[m.ent_off[k]:m.ent_off[k + 1]]]
        bad = min(d for d in range(9) if not m.mask[0] >> d & 1)
        root = m.root()
        root.mask[0] = 1 << bad
        emptied, tables, live = start_state(root._replace(mask=root.mask.copy()), True)
        assert emptied in mine and live.nalive[emptied] == 0, i
        assert live.qstate[1] == 0 and not live.inq.any() and not live.gone.any()
        everything, tables, live = start_state(root, False)
        assert everything == emptied
        assert not live.nalive.any() and not live.mask.any(), i
        assert not root.mask.any()                  # the root's masks, changed in place


def test_an_entry_with_no_table_yet_is_never_queued():
    """k3 with one of cell 0's entries marked unbuilt (``nalive`` -1): moves to a solution's
    digits on each cell of that entry leave it alone, its digits gone untouched."""
    puzzle = kn.read(PUZZLES / "k3.txt")
    m = build(puzzle)
    solution = kn.kakuro(puzzle, limit=1)[0].ravel()[m.var_cell].astype(np.int64)
    _, tables, live = start_state(m.root(), True)
    j = next(k for k in range(len(m.ent_sum)) if 0 in m.ent_var[m.ent_off[k]:m.ent_off[k + 1]])
    live.nalive[j] = -1
    cells = m.ent_var[m.ent_off[j]:m.ent_off[j + 1]]
    narrowed = 0
    for v in cells:
        apply_digit(tables, live, int(v), solution[v] - 1)
        assert not live.inq[j]
        before = live.mask[cells].copy()
        assert propagate(tables, live, True) == -1
        assert live.nalive[j] == -1 and not live.gone.any()
        narrowed += int((live.mask[cells] != before).sum())
    assert narrowed > 0                 # its cells narrowed by the others: it was passed over
    assert live.nalive[np.arange(len(m.ent_sum)) != j].min() >= 1


def test_a_start_from_the_models_own_masks_forces_nothing():
    m = build(kn.read(PUZZLES / "k3.txt"))
    root = m.root()
    emptied, tables, live = start_state(root, True)
    assert emptied == -1
    assert np.array_equal(live.perm, np.arange(len(m.rows)))
    assert np.array_equal(live.pos, np.arange(len(m.rows)))
    assert np.array_equal(live.nalive, np.diff(m.tab_off))
    assert np.array_equal(live.mask, m.mask) and np.shares_memory(live.mask, root.mask)
    assert not live.gone.any() and (live.support == -1).all() and live.qstate[1] == 0


@settings(max_examples=examples(90))
@given(filled_puzzles())
def test_each_variables_slots_are_its_cells_in_its_entries(case):
    """The start's ``var_slot[q]`` is where variable ``v`` sits among the cells of entry
    ``var_ent[q]``, for each of ``v``'s entries: every cell of every entry once."""
    puzzle, _ = case
    m = build(puzzle)
    _, tables, _ = start_state(m.root(), True)
    var_eoff, var_ent, var_slot = tables.var_eoff, tables.var_ent, tables.var_slot
    assert sorted(var_slot.tolist()) == list(range(len(m.ent_var)))
    for v in range(len(m.var_cell)):
        for q in range(var_eoff[v], var_eoff[v + 1]):
            k = var_ent[q]
            assert m.ent_off[k] <= var_slot[q] < m.ent_off[k + 1]
            assert m.ent_var[var_slot[q]] == v


def test_the_variables_slots_of_two_crossing_entries():
    """Entries 0 (variables 0, 1) and 1 (variables 2, 0): variable 0 is slot 0 of entry 0
    and slot 3 (the second cell of entry 1)."""
    ent_off, ent_var = np.array([0, 2, 4]), np.array([0, 1, 2, 0])
    rows = np.zeros((2, 9), np.int8)
    rows[0, :2], rows[1, :2] = (1, 2), (3, 1)
    _, tables, _ = start_state(tables_model(ent_off, ent_var, rows, np.array([0, 1, 2])).root(),
                               True)
    assert tables.var_eoff.tolist() == [0, 2, 3, 4] and tables.var_ent.tolist() == [0, 1, 0, 1]
    assert tables.var_slot.tolist() == [0, 3, 1, 2]


def test_a_start_indexes_the_big_tables_but_a_models_lazy_ones():
    """The crossing 21 and 39 over 6 cells: 360 rows each, kept lazily in their model and
    so not indexed; given as plain tables, indexed. k3 with index_min 1: every table."""
    blank = np.zeros((7, 7), bool)
    blank[1, 1:] = blank[1:, 1] = True
    down, across = np.zeros((7, 7), np.int64), np.zeros((7, 7), np.int64)
    across[1, 0], down[0, 1] = 21, 39
    m = build(kn.Puzzle(blank, down, across, np.zeros((7, 7), np.int64)))

    def indexed(tables):
        return [bool(tables.idx_off[81 * k] != tables.idx_off[81 * k + 81])
                for k in range(len(tables.tab_off) - 1)]
    _, tables, _ = start_state(m.root(), True, 1)
    assert indexed(tables) == [False, False] and tables.perm_set.all()
    _, tables, live = start_state(tables_model(m.ent_off, m.ent_var, m.rows,
                                                 m.tab_off).root(), True, 1)
    assert indexed(tables) == [True, True] and not tables.perm_set.any()
    assert live.nalive.tolist() == [360, 360]
    _, tables, _ = start_state(tables_model(m.ent_off, m.ent_var, m.rows,
                                              m.tab_off).root(), True, 361)
    assert indexed(tables) == [False, False]
    k3 = build(kn.read(PUZZLES / "k3.txt"))
    _, tables, _ = start_state(k3.root(), True, 1)
    assert all(indexed(tables)) and len(tables.idx_row) == (np.diff(k3.tab_off)
                                                             * np.diff(k3.ent_off)).sum()


def essay_tables(m):
    """The essay's jposs tables of model ``m``'s entries, from its givens."""
    g = m.puzzle.given.ravel()[m.var_cell].astype(np.int64)
    mask = np.where(g > 0, 1 << np.maximum(g - 1, 0), 0x1FF).astype(np.int64)
    rows, tab_off, _, _ = build_tables(m.ent_off, m.ent_var, m.ent_sum, mask, np.int64(2**62),
                                       np.int64(NO_DEADLINE), False)
    return rows, tab_off


def essay_root(ent_off, ent_var, rows, tab_off, alive):
    """The root of the tables ``rows[tab_off]`` with only their ``alive`` rows."""
    keep = np.flatnonzero(alive)
    return tables_model(ent_off, ent_var, rows[keep], np.searchsorted(keep, tab_off)).root()


@settings(max_examples=examples(60))
@given(filled_puzzles())
def test_each_round_of_force_is_the_essays_and_they_end_at_its_fixpoint(case):
    """``force_rows`` from the jposs tables, round by round (each on the rows the last one
    kept) against numpy (the masks from the live rows, then the rows the masks allow);
    where the rounds stop, ``force_rows`` until fixed and the numpy fixpoint."""
    puzzle, _ = case
    m = build(puzzle)
    rows, tab_off = essay_tables(m)
    V = len(m.var_cell)
    valid, slot = geometry(m.ent_off, tab_off)
    alive = np.ones(len(rows), np.bool_)
    for _ in range(50):
        mask = projected(rows, valid, slot, m.ent_var, alive, V)
        want = alive & fits(rows, valid, slot, m.ent_var, mask)
        kept = force_rows(essay_root(m.ent_off, m.ent_var, rows, tab_off, alive), False)
        assert np.array_equal(kept, want[alive])
        if want.sum() == alive.sum():
            break
        alive = want
    else:
        raise AssertionError("force did not reach its fixpoint in 50 rounds")
    fixed = force_rows(tables_model(m.ent_off, m.ent_var, rows, tab_off).root(), True)
    assert np.array_equal(fixed, alive)
    _, fixed = numpy_fixpoint(rows, tab_off, m.ent_off, m.ent_var, np.full(V, 0x1FF, np.int64))
    assert np.array_equal(fixed, alive)
