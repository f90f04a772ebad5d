"""counting: solutions counted by independent pieces, read back from a count, and estimated."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from kakuro_np.combos import LOWEST_DIGIT, POPCOUNT
from kakuro_np.engine.core.codes import COUNT_TIMED_OUT, OUT_OF_NODES
from kakuro_np.engine.core.jit import NO_DEADLINE
from kakuro_np.engine.force import start_state
from kakuro_np.engine.walk.counting import (AT, FAN, FRAMES, KIND, N, NEXT, ORDERED_PIECE, PIECES,
                                            PRODUCT, components, counted_solutions,
                                            decomposition_depths, fan_entry, knuth_estimates,
                                            new_frames, new_tally, open_fan, piece_of,
                                            push_pieces, put_bits, room_for)
from kakuro_np.engine.walk.dissect import LEAF
from kakuro_np.engine.walk.memo import new_memo
from kakuro_np.engine.walk.sums import network_of
from kakuro_np.engine.walk.trail import close_levels
from kakuro_np.solve import model
from strategies import FOUR_BLOCKS, THRASHING_DRAFT, filled_puzzles, independent_blocks
from conftest import DATA, PUZZLES, SAMPLES, count_pieces, examples

SETTINGS = settings(max_examples=examples(80), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
NO_LIMIT = np.iinfo(np.int64).max
NO_RANKS = np.empty(0, np.int64)
#: The nodes a count in a property test may take (a dense grid may have many solutions).
NODES = 2_000_000
LISTED = 2000                                   # solutions listed to check a count against


def pieces_of(m, limit=NO_LIMIT, deadline=NO_DEADLINE, nodes=NO_LIMIT, root=None):
    """``count_pieces`` of model ``m`` (or of ``root``) on a fresh memo, as a list."""
    root = m.root() if root is None else root
    return count_pieces(root, np.int64(limit), np.int64(deadline), new_memo(10, 1 << 14),
                        np.array([nodes, 0]), NO_RANKS).tolist()


def node_of(m):
    """The tables and the live node at the fixpoint of model ``m``."""
    emptied, tables, live = start_state(m.root(), True)
    assert emptied == -1
    return tables, live


def undecided(live):
    return np.flatnonzero(live.nalive > 1)


def pieces_by_hand(tables, live):
    """The undecided entries joined through their undecided cells (union-find)."""
    parent = {int(k): int(k) for k in undecided(live)}

    def find(k):
        while parent[k] != k:
            k = parent[k]
        return k
    for v in range(len(live.mask)):
        if POPCOUNT[live.mask[v]] > 1:
            ents = tables.var_ent[tables.var_eoff[v]:tables.var_eoff[v + 1]].tolist()
            for j in ents[1:]:
                parent[find(j)] = find(ents[0])
    groups = {}
    for k in parent:
        groups.setdefault(find(k), set()).add(k)
    return {frozenset(g) for g in groups.values()}


def split(members, starts):
    return [members[a:b].tolist() for a, b in zip(starts[:-1], starts[1:])]


def pieces_at(tables, live):
    """The node's pieces (``components`` of every entry), each a list of entries."""
    E = len(live.nalive)
    return split(*components(np.arange(E), tables, live, np.full(E, -1, np.int64)))


def open_cells(tables, live, k):
    cells = tables.ent_var[tables.ent_off[k]:tables.ent_off[k + 1]]
    return [int(v) for v in cells if POPCOUNT[live.mask[v]] > 1]


# -- small kernels ----------------------------------------------------------------------


@settings(max_examples=examples(100))
@given(st.lists(st.integers(1, 32).flatmap(
    lambda w: st.tuples(st.just(w), st.integers(0, 2**w - 1))), max_size=20))
def test_bits_put_one_after_another_read_back_as_one_bit_string(fields):
    total = sum(w for w, _ in fields)
    key = np.zeros(max(1, (total + 63) >> 6), np.int64)
    at = np.int64(0)
    for width, value in fields:
        at = put_bits(key, at, np.int64(value), np.int64(width))
    assert at == total
    got = sum((int(w) & (2**64 - 1)) << (64 * i) for i, w in enumerate(key))
    want, shift = 0, 0
    for width, value in fields:
        want |= value << shift
        shift += width
    assert got == want


def test_a_field_across_a_word_boundary_is_split_between_the_words():
    key = np.zeros(2, np.int64)
    assert put_bits(key, np.int64(60), np.int64(0x1FF), np.int64(9)) == 69
    assert (int(key[0]) & (2**64 - 1), int(key[1])) == (0xF << 60, 0x1F)


def test_room_for_keeps_a_stack_with_room_and_copies_one_without():
    stack = np.arange(10, dtype=np.int64)
    same = room_for(stack, np.int64(4), np.int64(6))
    assert np.shares_memory(same, stack) and len(same) == 10
    bigger = room_for(stack, np.int64(4), np.int64(7))
    assert len(bigger) == 20 and bigger[:4].tolist() == [0, 1, 2, 3]
    assert not np.shares_memory(bigger, stack)
    assert len(room_for(stack, np.int64(10), np.int64(25))) == 35    # past twice as long


def test_frames_start_with_the_scope_and_double_keeping_the_first():
    frame, wides, stack = new_frames(np.array([4, 2, 9], np.int64))
    assert frame.shape == (FRAMES, 8) and wides.shape[0] == FRAMES
    assert stack[:3].tolist() == [4, 2, 9] and len(stack) == 2 * 3 + 16
    frame[:] = np.arange(FRAMES * 8).reshape(FRAMES, 8)
    wides[:] = 1.5
    kept = frame.copy()
    members, starts = np.array([5, 6], np.int64), np.array([0, 2], np.int64)
    more, more_wides, _, _ = push_pieces(frame, wides, np.int64(FRAMES), stack, np.int64(3),
                                         members, starts)      # one frame past the last
    assert more.shape == (2 * FRAMES, 8) and more_wides.shape[0] == 2 * FRAMES
    assert np.array_equal(more[:FRAMES], kept) and (more_wides[:FRAMES] == 1.5).all()
    assert more[FRAMES, [KIND, AT, N]].tolist() == [FAN, 3, 2]


def test_a_frame_of_several_pieces_is_a_product_and_reads_each_piece_back():
    frame, wides, stack = new_frames(np.arange(3, dtype=np.int64))
    members, starts = np.array([5, 6, 7, 8, 9], np.int64), np.array([0, 2, 5], np.int64)
    frame, wides, stack, used = push_pieces(frame, wides, np.int64(0), stack, np.int64(3), members,
                                            starts)
    assert used == 3 + 5 + 3                    # the members, then the piece starts
    assert frame[0, [KIND, AT, N, PIECES, NEXT]].tolist() == [PRODUCT, 3, 5, 2, 0]
    pieces = [piece_of(frame, np.int64(0), stack, np.int64(i)) for i in range(2)]
    assert [stack[a:a + n].tolist() for a, n in pieces] == [[5, 6], [7, 8, 9]]
    frame, wides, stack, used = push_pieces(frame, wides, np.int64(1), stack, used, members[:3],
                                            np.array([0, 3], np.int64))
    assert used == 11 + 3                       # one piece: a fan, no starts kept
    assert frame[1, [KIND, AT, N, PIECES]].tolist() == [FAN, 11, 3, 1]
    assert stack[11:14].tolist() == [5, 6, 7] and stack[:3].tolist() == [0, 1, 2]


# -- pieces, depths and what a count fans out over ----------------------------------------


def test_separate_blocks_are_separate_pieces_and_a_decided_block_is_none():
    m = model(independent_blocks(3))
    tables, live = node_of(m)
    label = np.full(12, -1, np.int64)
    members, starts = components(np.arange(12), tables, live, label)
    # entries: across 0-2 (row 1), 3-5 (row 2), then down 6-11, two per block
    assert [sorted(p) for p in split(members, starts)] == [[0, 3, 6, 7], [1, 4, 8, 9],
                                                           [2, 5, 10, 11]]
    assert (label == -1).all()                  # left as it was found
    tables, live = node_of(model(independent_blocks(3, given=1)))
    members, starts = components(np.arange(12), tables, live, np.full(12, -1, np.int64))
    assert [sorted(p) for p in split(members, starts)] == [[0, 3, 6, 7], [2, 5, 10, 11]]


@SETTINGS
@given(filled_puzzles(max_blank_share=0.95))
def test_pieces_are_the_undecided_entries_joined_by_undecided_cells(case):
    p, _ = case
    tables, live = node_of(model(p))
    E = len(live.nalive)
    members, starts = components(np.arange(E), tables, live, np.full(E, -1, np.int64))
    got = split(members, starts)
    assert sum(map(len, got)) == len(set(members.tolist()))        # no entry twice
    assert {frozenset(g) for g in got} == pieces_by_hand(tables, live)


@SETTINGS
@given(filled_puzzles(max_blank_share=0.95))
def test_decomposition_depths_root_each_piece_once_and_part_linked_entries(case):
    """An elimination tree: one root (depth 0) per piece, linked entries at different depths
    (one is the other's ancestor), decided entries at depth E."""
    p, _ = case
    tables, live = node_of(model(p))
    E = len(live.nalive)
    depth = decomposition_depths(tables, live)
    open_entries = live.nalive > 1
    assert (depth[~open_entries] == E).all() and (depth[open_entries] < E).all()
    pieces = pieces_by_hand(tables, live)
    assert [sum(depth[k] == 0 for k in piece) for piece in pieces] == [1] * len(pieces)
    for v in range(len(live.mask)):
        if POPCOUNT[live.mask[v]] > 1:
            ents = tables.var_ent[tables.var_eoff[v]:tables.var_eoff[v + 1]]
            assert len(set(depth[ents].tolist())) == len(ents)     # one or two entries


def score(tables, live, k):
    return math.log(live.nalive[k]) / len(open_cells(tables, live, k))


@SETTINGS
@given(filled_puzzles(max_blank_share=0.95))
def test_a_count_fans_out_over_the_entry_of_fewest_rows_per_open_cell(case):
    p, _ = case
    tables, live = node_of(model(p))
    for piece in pieces_at(tables, live):
        k = fan_entry(np.array(piece, np.int64), tables, live, NO_RANKS)
        scores = [score(tables, live, j) for j in piece]
        best = min(scores)
        assert k in piece and score(tables, live, k) <= best + 1e-9
        assert all(s > best + 1e-9 for s in scores[:piece.index(k)])   # ties to the first


BIG_PIECES = {"draft": kn.parse(THRASHING_DRAFT), "many": kn.read(DATA / "many-12x12.txt")}


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(sorted(BIG_PIECES)), st.randoms(use_true_random=False))
def test_a_big_piece_with_depths_fans_out_over_its_least_deep_entry_first(name, rnd):
    """Grids of one piece of 42 and 48 entries, random depths: a piece of ORDERED_PIECE
    entries takes the least deep entry first, a smaller one the depths do not steer."""
    tables, live = node_of(model(BIG_PIECES[name]))
    piece = undecided(live).tolist()
    rnd.shuffle(piece)
    depth = np.array([rnd.randint(0, 3) for _ in range(len(live.nalive))], np.int64)
    big = np.array(piece[:ORDERED_PIECE], np.int64)
    k = fan_entry(big, tables, live, depth)
    least = min(depth[big])
    assert depth[k] == least
    assert score(tables, live, k) <= min(score(tables, live, j) for j in big
                                         if depth[j] == least) + 1e-9
    small = big[:ORDERED_PIECE - 1]             # too small a piece to be ordered
    k = fan_entry(small, tables, live, depth)
    assert score(tables, live, k) <= min(score(tables, live, j) for j in small) + 1e-9


def fanned_cell(tables, live, piece, rank):
    """The cell ``open_fan`` opens the level of an exact count of ``piece`` on (a tally with
    depths, and ``rank``); the level is closed again."""
    tally = new_tally(tables, live, new_memo(4, 64), np.array([0, 0]),
                      network_of(tables, np.int64(len(live.mask)), False), True, rank)
    open_fan(np.array(piece, np.int64), tables, live, tally)
    branch = int(tally.trail.branch[0])
    close_levels(tally.trail, live, np.int64(0), True)
    assert branch < 0                           # a cell's digits, not an entry's rows
    return -1 - branch


@SETTINGS
@given(filled_puzzles(max_blank_share=0.95), st.randoms(use_true_random=False))
def test_a_fan_on_cells_takes_the_open_cell_of_least_rank_else_of_fewest_candidates(case, rnd):
    p, _ = case
    tables, live = node_of(model(p))
    depth = decomposition_depths(tables, live)
    rank = np.array([rnd.choice([0, 1, 2, LEAF]) for _ in range(len(live.mask))], np.int64)
    for piece in pieces_at(tables, live):
        cells = open_cells(tables, live, fan_entry(np.array(piece, np.int64), tables, live, depth))
        counts = [POPCOUNT[live.mask[u]] for u in cells]
        fewest = cells[counts.index(min(counts))]          # the first of the fewest
        assert fanned_cell(tables, live, piece, NO_RANKS) == fewest
        ranked = {u for k in piece for u in open_cells(tables, live, k) if rank[u] < LEAF}
        v = fanned_cell(tables, live, piece, rank)
        if not ranked:                          # every cell a LEAF: as without ranks
            assert v == fewest
        else:                                   # least rank, then fewest candidates
            assert v in ranked and (rank[v], POPCOUNT[live.mask[v]]) == \
                min((rank[u], POPCOUNT[live.mask[u]]) for u in ranked)


# -- counts -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SAMPLES)
def test_the_pieces_counts_multiply_to_each_samples_count(name, expected):
    counts = pieces_of(model(PUZZLES / name))
    assert math.prod(counts) == expected[name]["solutions"] and all(c > 0 for c in counts)


@pytest.mark.parametrize("limit", [1, 2, 39, 40, 41, NO_LIMIT])
def test_a_count_with_a_limit_is_each_pieces_count_up_to_the_limit(limit):
    assert pieces_of(model(PUZZLES / "k3.txt"), limit) == [min(limit, 40)]
    assert pieces_of(model(independent_blocks(5)), limit) == [min(limit, 2)] * 5
    assert pieces_of(model(FOUR_BLOCKS), limit) == [min(limit, 576)] * 4


def test_a_count_says_when_it_cannot_answer_and_when_there_is_nothing_to_count():
    k3 = model(PUZZLES / "k3.txt")
    assert pieces_of(k3, deadline=1) == [COUNT_TIMED_OUT]
    assert pieces_of(k3, nodes=5) == [OUT_OF_NODES]
    assert pieces_of(k3, nodes=NODES) == [40]
    root = k3.root()
    root.mask[np.flatnonzero(POPCOUNT[root.mask] > 1)[0]] = 0   # a cell with no digit left
    assert pieces_of(k3, root=root) == [0]
    assert pieces_of(model(PUZZLES / "k0.txt")) == []           # force solved it: one


@SETTINGS
@given(filled_puzzles(max_blank_share=0.95), st.integers(1, 60))
def test_a_count_up_to_a_limit_is_the_number_of_solutions_up_to_it(case, limit):
    p, _ = case
    n = len(kn.kakuro(p, limit=LISTED))
    assume(n < LISTED)                          # every solution listed
    m = model(p)
    exact = pieces_of(m, nodes=NODES)
    assume(OUT_OF_NODES not in exact)           # a dense grid: too many nodes
    assert math.prod(exact) == n
    capped = pieces_of(m, limit, nodes=NODES)
    assume(OUT_OF_NODES not in capped)
    assert all(0 < c <= limit for c in capped) and len(capped) == len(exact)
    assert min(math.prod(capped), limit) == min(n, limit)


# -- solutions read back from a count -----------------------------------------------------


def read_back(m, want, nodes=NO_LIMIT, root=None):
    root = m.root() if root is None else root
    return counted_solutions(root, np.int64(want), np.int64(NO_DEADLINE),
                             new_memo(10, 1 << 14), np.array([nodes, 0]))


def test_solutions_read_back_from_k3s_count_are_its_40():
    m = model(PUZZLES / "k3.txt")
    status, masks = read_back(m, 100)
    assert status == 40 and masks.shape == (40, len(m.var_cell))
    assert (POPCOUNT[masks] == 1).all()
    read = {LOWEST_DIGIT[row].astype(np.int8).tobytes() for row in masks}
    listed = kn.kakuro(PUZZLES / "k3.txt").reshape(40, -1)[:, m.var_cell]
    assert read == {row.tobytes() for row in listed}
    status, masks = read_back(m, 3)
    assert status == 3 and len({row.tobytes() for row in masks}) == 3


def test_a_count_read_back_gives_no_masks_when_it_cannot_answer():
    m = model(PUZZLES / "k3.txt")
    status, masks = read_back(m, 10, nodes=5)
    assert status == OUT_OF_NODES and masks.shape == (0, len(m.var_cell))
    root = m.root()
    root.mask[np.flatnonzero(POPCOUNT[root.mask] > 1)[0]] = 0
    status, masks = read_back(m, 10, root=root)
    assert status == 0 and masks.shape == (0, len(m.var_cell))
    k0 = model(PUZZLES / "k0.txt")
    status, masks = read_back(k0, 10)
    assert status == 1 and masks.tolist() == [k0.mask.tolist()]


# -- Knuth's estimates ---------------------------------------------------------------------


def estimates(m, n, seed=1, root=None):
    return knuth_estimates(m.root() if root is None else root, np.int64(n), np.int64(seed))


def test_knuths_estimate_of_blocks_that_never_die_is_exact_every_time():
    got = estimates(model(independent_blocks(5)), 20)        # each descent: 5 fan-outs of 2 rows
    assert got == pytest.approx([5 * math.log10(2)] * 20)


def test_knuths_estimate_is_one_solution_when_forced_and_none_from_a_dead_root():
    m = model(PUZZLES / "k0.txt")
    assert estimates(m, 5).tolist() == [0.0] * 5          # log10(1)
    k3 = model(PUZZLES / "k3.txt")
    root = k3.root()
    root.mask[np.flatnonzero(POPCOUNT[root.mask] > 1)[0]] = 0
    assert estimates(k3, 5, root=root).tolist() == [-math.inf] * 5


def test_knuths_estimates_of_k3_are_products_of_branchings_averaging_near_40():
    m = model(PUZZLES / "k3.txt")
    got = estimates(m, 4000, seed=7)
    assert np.array_equal(got, estimates(m, 4000, seed=7))      # the seed decides
    alive = got[np.isfinite(got)]
    assert 0 < len(alive) < len(got)            # some descents die in k3, some do not
    products = 10 ** alive
    assert np.allclose(products, np.round(products)) and (products >= 2).all()
    assert 10 < products.sum() / len(got) < 160                 # 40 on average
