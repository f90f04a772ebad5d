"""The records the kernels share (``engine/core/state.py``): the model, its root, the tables
and the node."""

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from kakuro_np.engine.core.state import ROOT, Live, Model, Root, Tables, tables_model
from kakuro_np.engine.force import start_state
from kakuro_np.engine.model import build
from strategies import filled_puzzles
from conftest import PUZZLES, examples

SAMPLES = [f"k{i}.txt" for i in range(8)]
ROOT_FIELDS = ("ent_off", "ent_var", "mask", "rows", "tab_off", "idx_off", "idx_row", "fit_mask")
TABLES_FIELDS = ("ent_off", "ent_var", "var_eoff", "var_ent", "var_slot", "rows", "tab_off",
                 "idx_off", "idx_row", "perm_set")
LIVE_FIELDS = ("perm", "pos", "nalive", "mask", "queue", "inq", "qstate", "gone", "support")


@pytest.fixture(scope="module")
def models():
    """The sample puzzles' models, by file name."""
    return {name: build(kn.read(PUZZLES / name)) for name in SAMPLES}


def test_a_root_has_the_fields_and_types_the_kernels_compiled_ahead_take(models):
    assert Root._fields == ROOT_FIELDS and ROOT.instance_class is Root
    for name, m in models.items():
        assert numba.typeof(m.root()) == ROOT, name


def test_a_root_hands_a_fresh_copy_of_the_masks_and_the_tables_themselves(models):
    for name, m in models.items():
        kept = m.mask.copy()
        first, second = m.root(), m.root()
        for root in (first, second):
            assert np.array_equal(root.mask, kept) and not np.shares_memory(root.mask, m.mask)
            for field in set(ROOT_FIELDS) - {"mask"}:
                assert getattr(root, field) is getattr(m, field), (name, field)
        assert not np.shares_memory(first.mask, second.mask)
        first.mask[:] = 0
        assert np.array_equal(m.mask, kept) and np.array_equal(second.mask, kept), name


def test_a_start_narrows_its_roots_masks_in_place_and_never_the_models(models):
    m = models["k3.txt"]                          # 40 solutions: a cell with two digits or more
    kept = m.mask.copy()
    v = int(np.flatnonzero([bin(b).count("1") > 1 for b in kept])[0])
    digit = int(kn.kakuro(m.puzzle, limit=1)[0].ravel()[m.var_cell[v]])   # a solution's
    root = m.root()
    root.mask[v] = 1 << (digit - 1)
    emptied, tables, live = start_state(root, False)
    assert emptied == -1 and np.shares_memory(live.mask, root.mask)
    assert np.array_equal(m.mask, kept)
    assert (root.mask & ~kept == 0).all() and not np.array_equal(root.mask, kept)


#: Given tables: each entry's variables (distinct), over variables 0..V-1 (some maybe unused).
ENTRIES = st.lists(st.lists(st.integers(0, 11), min_size=1, max_size=4, unique=True),
                   max_size=6)


def given_tables(entries):
    """``(ent_off, ent_var, rows, tab_off)`` of ``entries``, each with one row: 1, 2, ..."""
    ent_off = np.cumsum([0] + [len(e) for e in entries]).astype(np.int64)
    ent_var = np.array([v for e in entries for v in e], np.int64)
    rows = np.zeros((len(entries), 9), np.int8)
    for k, e in enumerate(entries):
        rows[k, :len(e)] = np.arange(1, len(e) + 1)
    return ent_off, ent_var, rows, np.arange(len(entries) + 1, dtype=np.int64)


@settings(max_examples=examples(100))
@given(ENTRIES)
def test_a_model_of_given_tables_allows_every_digit_of_each_variable_up_to_the_largest(entries):
    ent_off, ent_var, rows, tab_off = given_tables(entries)
    m = tables_model(ent_off, ent_var, rows, tab_off)
    V = max((v for e in entries for v in e), default=-1) + 1
    assert isinstance(m, Model) and m.puzzle is None and m.packed is None
    assert (m.status, m.culprit) == (0, -1)
    assert m.ent_off is ent_off and m.ent_var is ent_var and m.rows is rows
    assert m.tab_off is tab_off
    assert m.var_cell.tolist() == list(range(V))
    assert m.mask.dtype == np.int64 and m.mask.tolist() == [0x1FF] * V
    for none in (m.ent_sum, m.idx_off, m.fit_mask):
        assert none.dtype == np.int64 and none.shape == (0,)   # no sums, no index, no fixpoint
    assert m.idx_row.dtype == np.int32 and m.idx_row.shape == (0,)
    assert numba.typeof(m.root()) == ROOT


def check_tables_and_node(root, tables, live):
    """What ``Tables`` and ``Live`` hold after a start from ``root`` that emptied nothing."""
    E, V = len(root.tab_off) - 1, len(root.mask)
    for field in ("ent_off", "ent_var", "rows", "tab_off"):
        assert np.array_equal(getattr(tables, field), getattr(root, field)), field
    assert tables.var_eoff.shape == (V + 1,) and tables.var_eoff[-1] == len(root.ent_var)
    assert sorted(tables.var_slot.tolist()) == list(range(len(root.ent_var)))
    for v in range(V):                            # each variable's entries, and its place in them
        for q in range(tables.var_eoff[v], tables.var_eoff[v + 1]):
            k, slot = tables.var_ent[q], tables.var_slot[q]
            assert root.ent_var[slot] == v and root.ent_off[k] <= slot < root.ent_off[k + 1]
    assert tables.perm_set.shape == (E,) and tables.idx_off.shape == (81 * E + 1,)
    assert V == 0 or np.shares_memory(live.mask, root.mask)   # (no memory: nothing shared)
    assert live.perm.dtype == live.pos.dtype == live.support.dtype == np.int32
    assert live.support.shape == (81 * E,)
    for k in range(E):                            # rows in blocks per entry, and where each is
        block = range(root.tab_off[k], root.tab_off[k + 1])
        assert sorted(live.perm[block.start:block.stop].tolist()) == list(block)
        assert all(live.perm[live.pos[r]] == r for r in block)
        assert 0 <= live.nalive[k] <= len(block)
    assert live.qstate[1] == 0 and not live.inq.any()          # empty between steps
    assert live.queue.shape == live.inq.shape == (max(E, 1),)
    assert live.gone.shape == root.ent_var.shape and not live.gone.any()


def test_the_records_of_a_start_from_given_tables_read_back():
    ent_off, ent_var, rows, tab_off = given_tables([[0, 1], [2, 1], [0, 3]])
    root = tables_model(ent_off, ent_var, rows, tab_off).root()
    emptied, tables, live = start_state(root, True)
    assert isinstance(tables, Tables) and isinstance(live, Live)
    assert emptied == -1 and live.nalive.tolist() == [1, 1, 1]
    assert live.mask.tolist() == [1, 2, 1, 2]     # each row forces its digits: 1 2 / 1 2 / 1 2
    check_tables_and_node(root, tables, live)


def test_the_records_of_a_start_from_each_sample_read_back(models):
    for name, m in models.items():
        root = m.root()
        emptied, tables, live = start_state(root, True)
        assert emptied == -1, name
        assert np.shares_memory(tables.idx_off, m.idx_off)     # the model's index, built once
        check_tables_and_node(root, tables, live)


@settings(max_examples=examples(40),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(filled_puzzles(max_side=7), st.integers(0, 2**16))
def test_the_records_of_a_start_from_a_narrowed_root_read_back(case, pick):
    p, fill = case
    m = build(p)
    root = m.root()
    if len(m.var_cell):                           # a grid may have no blank cell at all
        v = pick % len(m.var_cell)
        root.mask[v] = 1 << (int(fill.ravel()[m.var_cell[v]]) - 1)   # the fill's digit there
    emptied, tables, live = start_state(root, True)
    assert emptied == -1                          # the fill is a solution: nothing empties
    check_tables_and_node(root, tables, live)
    digits = fill.ravel()[m.var_cell].astype(np.int64)
    assert ((live.mask >> (digits - 1)) & 1).all()             # the fill's digits stay
