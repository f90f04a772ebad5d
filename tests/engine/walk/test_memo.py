"""The sub-problem memo behind count(): storing, finding, starting over or growing when full."""

import json

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from kakuro_np import turns
from kakuro_np.engine.walk.counting import (ORDERED_PIECE, OUT_OF_NODES, count_split,
                                            count_scope, new_tally, wide_combine, wide_set,
                                            wide_value)
from kakuro_np.engine.force import start_state
from kakuro_np.engine.core.jit import NO_DEADLINE
from kakuro_np.engine.walk.sums import network_of

from kakuro_np.engine.walk import memo as memo_module
from kakuro_np.engine.walk.memo import (WIDE, borrowed, emptied, give_back, growable, grown, lookup,
                                       new_memo, store, wants_room)
from kakuro_np.solve import model
from kakuro_np.turns import NO_LIMIT, NO_RANKS, count_in_turns
from strategies import filled_puzzles
from conftest import DATA, PUZZLES, ROOT, count_pieces, examples

BENCH_SETS = ROOT / "bench" / "sets"
W = np.zeros(WIDE)                              # a stored count past int64 (unused here)
#: The nodes a count in a property test may take: a dense grid drawn with many solutions
#: would otherwise count for minutes (the test then assumes nothing of it).
NODES = 2_000_000


def test_a_stored_count_is_found_and_can_be_overwritten():
    m = new_memo(4, 64)
    a, b = np.array([2, 0, 1, 3, 5, 0, 6]), np.array([2, 0, 1, 3, 5, 0, 7])
    assert lookup(m, a)[0] == -1
    assert store(m, a, 12, False, W) and store(m, b, 5, True, W)
    ea, eb = lookup(m, a)[0], lookup(m, b)[0]
    assert ea != eb and (m.value[ea], m.capped[ea], m.value[eb], m.capped[eb]) == (12, False, 5, True)
    assert store(m, a, 40, False, W) and lookup(m, a)[0] == ea and m.value[ea] == 40
    assert lookup(m, np.array([2, 0, 1, 3, 5]))[0] == -1          # a prefix is another key


def test_a_full_memo_starts_over():
    m = new_memo(3, 12)                       # 4 keys, 12 words
    keys = [np.array([i, i + 1, i + 2]) for i in range(6)]
    for i, k in enumerate(keys):
        assert store(m, k, i, False, W)
        assert lookup(m, k)[0] >= 0
    assert lookup(m, keys[0])[0] == -1           # forgotten when the memo emptied
    assert not store(m, np.arange(13), 1, False, W)   # longer than the whole memo


def test_a_growable_memo_keeps_its_counts_and_grows_holding_them_all():
    m = growable(new_memo(3, 12))             # 4 keys, 12 words
    keys = [np.array([i, i + 1, i + 2]) for i in range(4)]
    assert all(store(m, k, i, i % 2 == 1, W) for i, k in enumerate(keys))
    assert not store(m, np.array([9, 9, 9]), 9, False, W) and wants_room(m)
    assert all(lookup(m, k)[0] >= 0 for k in keys)          # nothing forgotten
    bigger = grown(m)
    assert not wants_room(bigger) and bigger.slot.shape[0] == 4 * m.slot.shape[0]
    for i, k in enumerate(keys):
        e = lookup(bigger, k)[0]
        assert (bigger.value[e], bigger.capped[e]) == (i, i % 2 == 1)
    assert store(bigger, np.array([9, 9, 9]), 9, False, W)


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(2, 7), st.lists(st.lists(st.integers(-5, 5), min_size=1, max_size=4), max_size=40))
def test_an_emptied_memo_is_as_new_and_takes_the_same_keys_again(slots_log2, keys):
    """``emptied`` frees the slots of the keys stored (one by one, or all past an eighth):
    the memo is then as ``new_memo`` makes it, and finds each key once stored again."""
    m = new_memo(slots_log2, 64)
    keys = [np.array(k) for k in keys]
    for i, k in enumerate(keys):
        store(m, k, i, False, W)
    emptied(m)
    assert (m.slot == -1).all() and m.fill[:2].tolist() == [0, 0] and m.fill[3] == 0
    assert all(lookup(m, k)[0] == -1 for k in keys)
    for i, k in enumerate(keys):
        assert store(m, k, i, False, W)
        assert m.value[lookup(m, k)[0]] == i


def test_a_count_gives_its_memo_back_emptied_and_the_next_count_borrows_it(monkeypatch):
    monkeypatch.setattr(memo_module, "_spares", [])
    p = kn.read("puzzles/k3.txt")
    assert kn.count(p) == 40
    [spare] = memo_module._spares
    assert spare.fill[0] == 0 and (spare.slot == -1).all() and spare.fill[2] == 1   # growable
    assert kn.count(p) == 40 and kn.count(p, limit=2) == 2
    assert memo_module._spares == [spare]                 # lent again and given back


def test_only_small_memos_of_the_default_size_are_kept(monkeypatch):
    monkeypatch.setattr(memo_module, "_spares", [])
    give_back(growable(new_memo(4, 64)))                  # not the default size
    big = borrowed()
    store(big, np.arange(memo_module.SPARE_WORDS + 1), 1, False, W)
    give_back(big)                                        # holds too many key words
    assert memo_module._spares == []
    kept = [borrowed() for _ in range(memo_module.SPARES + 1)]
    for m in kept:
        give_back(m)
    assert len(memo_module._spares) == memo_module.SPARES


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(filled_puzzles(max_blank_share=0.95))
def test_a_count_whose_memo_grows_counts_the_same(case):
    """count_in_turns grows a full growable memo (here from 2 slots) and counts again: the
    same count as the solutions listed."""
    p, _ = case
    m = model(p)
    assert m.status == 0                        # clued from a fill: it has a solution
    n = len(kn.kakuro(p, limit=5000))
    assume(n < 5000)                            # too many to list
    assert count_in_turns(m, NO_LIMIT, NO_DEADLINE, memo=growable(new_memo(1, 8))) == n


def test_a_count_grows_its_memo_on_a_grid_with_many_pieces(monkeypatch):
    growths = []
    real = turns.grown
    monkeypatch.setattr(turns, "grown", lambda memo: growths.append(memo.slot.shape[0]) or real(memo))
    m = model(DATA / "many-12x12.txt")
    assert count_in_turns(m, NO_LIMIT, NO_DEADLINE, memo=growable(new_memo(4, 256))) == 166_162_320
    assert growths[:2] == [16, 64]                        # 4x the slots each time


def pieces(p, slots_log2, words, limit=NO_LIMIT):
    """The count of ``p`` by ``count_pieces`` on a memo of the size given, or None past
    NODES nodes (a dense grid on a tiny memo may thrash)."""
    m = model(p)
    if m.status != 0:
        return 0
    counts = count_pieces(m.root(), np.int64(limit), np.int64(NO_DEADLINE),
                          new_memo(slots_log2, words), np.array([NODES, 0]), NO_RANKS)
    if (counts == OUT_OF_NODES).any():
        return None
    return int(np.prod([int(c) for c in counts]))


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(filled_puzzles(max_blank_share=0.95))
def test_a_tiny_memo_that_keeps_starting_over_counts_the_same(case):
    p, _ = case
    n = len(kn.kakuro(p, limit=5000))
    assume(n < 5000)                            # too many to list
    tiny, default = pieces(p, 2, 40), pieces(p, 17, 1 << 22)
    assume(tiny is not None)
    assert tiny == default == n


def test_a_dense_grid_with_many_solutions_counts_as_cp_sat_enumerated():
    rows = [json.loads(line) for line in (BENCH_SETS / "many.jsonl").read_text().splitlines()]
    case = next(r for r in rows if r["name"] == "many-035")   # 7x7, 32 blanks
    p = kn.parse(case["grid"])
    assert kn.count(p) == case["solutions"] == 270536
    assert kn.count(p, limit=1000) == 1000
    assert pieces(p, 6, 500) == 270536        # the memo empties again and again


def test_exact_counts_of_big_pieces_in_decomposition_order_match_the_recorded_counts():
    """Exact counts fan out over pieces of ORDERED_PIECE entries or more in the order of a
    tree decomposition (``counting.decomposition_depths``): on the many-solution set's
    grids with such a piece, the counts recorded in the set (CP-SAT enumerated them)."""
    rows = [json.loads(line) for line in (BENCH_SETS / "many.jsonl").read_text().splitlines()]
    checked = 0
    for row in rows:
        p = kn.parse(row["grid"])
        m = model(p)
        counts, _, starts, _, _ = count_split(m.root(), np.arange(len(m.tab_off) - 1),
                                              np.int64(NO_LIMIT), np.int64(NO_DEADLINE),
                                              new_memo(17, 1 << 20), np.array([NO_LIMIT, 0]),
                                              NO_RANKS)
        if len(starts) > 1 and np.diff(starts).max() >= ORDERED_PIECE:
            assert kn.count(p) == row["solutions"]
            checked += 1
    assert checked >= 5                       # 11 of the 40 have such a piece


def read_key(key, entry_lengths):
    """The fields of a ``piece_key`` read back: ``(entries, [(sum, masks), ...])``."""
    from kakuro_np.engine.walk.counting import KEY_ENTRY_BITS, KEY_MASK_BITS, KEY_SUM_BITS
    bits = "".join(format(int(w) & (2**64 - 1), "064b")[::-1] for w in key)
    at = 0

    def take(width):
        nonlocal at
        at += width
        return int(bits[at - width:at][::-1], 2)
    entries = [take(KEY_ENTRY_BITS) for _ in range(take(KEY_ENTRY_BITS))]
    fields = []
    for k in entries:
        fields.append((take(KEY_SUM_BITS), [take(KEY_MASK_BITS) for _ in range(entry_lengths[k])]))
    assert "1" not in bits[at:]                         # nothing after the last field
    return entries, fields


@settings(max_examples=examples(60), deadline=None)
@given(filled_puzzles())
def test_piece_keys_read_back_as_the_pieces_entries_sums_and_masks(case):
    from kakuro_np.engine.walk.counting import components, piece_key
    from kakuro_np.engine.force import start_state
    puzzle, fill = case
    m = model(puzzle)
    assert m.status == 0                        # clued from a fill: it has a solution
    emptied, tables, live = start_state(m.root(), True)
    E = len(live.nalive)
    members, starts = components(np.arange(E), tables, live, np.full(E, -1, np.int64))
    lengths = np.diff(tables.ent_off)
    for i in range(len(starts) - 1):
        piece = members[starts[i]:starts[i + 1]]
        if len(piece) == 1:          # counted as its live rows, never keyed (and a lone
            continue                 # unclued cell's entry has no one sum)
        entries, fields = read_key(piece_key(piece, tables, live), lengths)
        assert entries == sorted(piece.tolist())
        for k, (total, masks) in zip(entries, fields):
            cells = tables.ent_var[tables.ent_off[k]:tables.ent_off[k + 1]]
            undecided = [bin(int(live.mask[v])).count("1") > 1 for v in cells]
            assert masks == [int(live.mask[v]) if u else 0 for v, u in zip(cells, undecided)]
            assert total == sum(fill.flat[m.var_cell[v]] for v, u in zip(cells, undecided) if u)


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(filled_puzzles(max_blank_share=0.95))
def test_each_piece_holds_its_count_past_int64_too(case):
    """Without a limit, a count keeps each piece's count past int64 too (``wide_set``: its
    size and residues), through sums, products, empty pieces and a tiny memo that keeps
    starting over: read back (``wide_value``), the counts int64 holds."""
    p, _ = case
    m = model(p)
    assert m.status == 0                        # clued from a fill: it has a solution
    counts, _, _, _, wides = count_split(m.root(), np.arange(len(m.tab_off) - 1),
                                         np.int64(NO_LIMIT), np.int64(NO_DEADLINE),
                                         new_memo(2, 40), np.array([NODES // 8, 0]), NO_RANKS)
    assume(not (counts == OUT_OF_NODES).any())   # a dense grid whose tiny memo thrashes
    assert [wide_value(w) for w in wides[:len(counts)]] == counts.tolist()


@given(st.lists(st.tuples(st.sampled_from("+*"), st.integers(0, 2**40)), max_size=8))
def test_counts_past_int64_add_and_multiply_as_python_ints(steps):
    wide, other, exact = np.empty(WIDE), np.empty(WIDE), 1
    wide_set(wide, 1)
    for op, n in steps:
        wide_set(other, n)
        if op == "+":
            wide_combine(wide, other, False)
            exact += n
        else:
            wide_combine(wide, other, True)
            exact *= n
    if exact < 2**119:
        assert wide_value(wide) == exact
    elif exact >= 2**121:
        assert wide_value(wide) is None     # too large to read back: a piece is split then


def test_a_piece_past_int64_is_read_back_not_split(monkeypatch):
    """``exact_count`` takes a piece's count past int64 from its residues; it splits the
    piece only when the count may pass WIDE_EXACT."""
    m = model(PUZZLES / "k3.txt")
    wide = np.empty(WIDE)
    wide_set(wide, 3**35)
    wide_combine(wide, wide, True)                       # 3**70, past int64
    real = turns.count_split
    answers = [(np.array([NO_LIMIT]), np.arange(1), np.array([0, 1]), np.zeros(1, np.int64),
                wide[None])]
    monkeypatch.setattr(turns, "count_split", lambda *a: answers.pop() if answers else real(*a))
    assert turns.exact_count(m, NO_DEADLINE, [growable(new_memo(4, 64))]) == 3**70
    wide[0] = 2.0**121                                   # too large to read back: split
    answers.append((np.array([NO_LIMIT]), np.arange(len(m.tab_off) - 1),
                    np.array([0, len(m.tab_off) - 1]), np.zeros(1, np.int64), wide[None]))
    assert turns.exact_count(m, NO_DEADLINE, [growable(new_memo(4, 64))]) == 40


def test_each_piece_holds_its_count_past_int64_on_grids_with_many_solutions():
    """As above, on the many-solution set's grids, where a piece of a fan-out's child may
    be empty beside others (five of the 40 met that; the count past int64 was once kept
    from the pieces before it)."""
    rows = [json.loads(line) for line in (BENCH_SETS / "many.jsonl").read_text().splitlines()]
    for row in rows:
        m = model(kn.parse(row["grid"]))
        counts, _, _, _, wides = count_split(m.root(), np.arange(len(m.tab_off) - 1),
                                             np.int64(NO_LIMIT), np.int64(NO_DEADLINE),
                                             new_memo(17, 1 << 20), np.array([NO_LIMIT, 0]),
                                             NO_RANKS)
        assert [wide_value(w) for w in wides[:len(counts)]] == counts.tolist(), row["name"]


@settings(max_examples=examples(40), deadline=None,       # most small grids are counted within 30 nodes:
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.filter_too_much])   # those are filtered out
@given(filled_puzzles(), st.integers(0, 30))
def test_a_count_out_of_nodes_leaves_the_node_as_it_found_it(case, nodes):
    """A count whose nodes run out stops after a row is applied and before it is
    propagated: the node is put back and nothing is left queued (an indexed filter would
    drop rows by the digits left marked gone), so the next count of it is right."""
    p, _ = case
    m = model(p)
    emptied, tables, live = start_state(m.root(), True)
    assume(emptied < 0)
    sums = network_of(tables, live.mask.shape[0], True)

    def count(budget):
        tally = new_tally(tables, live, new_memo(np.int64(10), np.int64(1 << 14)),
                          np.array([budget, 0]), sums, False, np.empty(0, np.int64))
        return count_scope(np.arange(len(live.nalive)), np.int64(1000), tables, live, tally,
                           np.int64(NO_DEADLINE), np.empty(WIDE))

    def rows():
        return [sorted(live.perm[a:a + n]) for a, n in zip(tables.tab_off, live.nalive)]

    before = live.mask.copy(), live.nalive.copy(), rows()
    said = count(nodes)
    assume(said == OUT_OF_NODES)
    assert live.qstate[1] == 0 and not live.gone.any()
    assert np.array_equal(live.mask, before[0]) and np.array_equal(live.nalive, before[1])
    assert rows() == before[2]
    assert count(NO_LIMIT) == min(kn.count(p, limit=1000), 1000)
