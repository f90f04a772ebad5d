"""The nested dissection behind exact counts: its cuts split the grid, and counts that
decide its cells first are the counts."""

import json
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings

import kakuro_np as kn
from kakuro_np import turns
from kakuro_np.engine.core import policy
from kakuro_np.engine.walk.counting import count_split, wide_value
from kakuro_np.engine.walk.dissect import LEAF, LEAST_PART, LEVELS, cut_ranks
from kakuro_np.engine.core.jit import NO_DEADLINE
from kakuro_np.engine.walk.memo import growable, new_memo
from kakuro_np.solve import model
from kakuro_np.turns import NO_LIMIT, NO_RANKS, count_in_turns
from strategies import OPEN_BLOCK, filled_puzzles
from conftest import DATA, ROOT, count_pieces, examples

BENCH_SETS = ROOT / "bench" / "sets"


def edges_of(m):
    """``{cell: (entry, entry)}`` for the cells of two entries each."""
    ents = {}
    for k in range(len(m.ent_off) - 1):
        for v in m.ent_var[m.ent_off[k]:m.ent_off[k + 1]]:
            ents.setdefault(int(v), []).append(k)
    return {v: tuple(ks) for v, ks in ents.items() if len(ks) == 2}


def parts_of(entries, edges):
    """The connected parts of ``entries`` over ``edges`` (a list of entry pairs), as sets."""
    entries, seen, parts = set(entries), set(), []
    links = {k: [] for k in entries}
    for a, b in edges:
        if a in entries and b in entries:
            links[a].append(b)
            links[b].append(a)
    for k in entries:
        if k not in seen:
            part, todo = set(), [k]
            seen.add(k)
            while todo:
                j = todo.pop()
                part.add(j)
                for i in links[j]:
                    if i not in seen:
                        seen.add(i)
                        todo.append(i)
            parts.append(part)
    return parts


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(filled_puzzles(max_blank_share=0.95))
def test_each_level_of_cuts_splits_every_part_it_cuts(case):
    p, _ = case
    m = model(p)
    ranks = cut_ranks(m.ent_off, m.ent_var, np.full(len(m.mask), 0x1FF))
    edges = edges_of(m)
    assert set(ranks.tolist()) <= set(range(LEVELS)) | {LEAF}
    assert all(ranks[v] == LEAF for v in range(len(ranks)) if v not in edges)
    parts = parts_of(range(len(m.ent_off) - 1), edges.values())
    for level in range(LEVELS):
        kept = [e for v, e in edges.items() if ranks[v] > level]
        below = []
        for part in parts:
            split = parts_of(part, kept)
            cut = any(ranks[v] == level and edges[v][0] in part for v in edges)
            # a part of LEAST_PART entries or more is cut at its level, into two or more
            assert cut == (len(part) >= LEAST_PART and len(part) > 1)
            assert len(split) >= 2 or not cut
            below += [s for s in split if len(s) > 1]
        parts = below


def exact(m, rank):
    counts, *_, wides = count_split(m.root(), np.arange(len(m.tab_off) - 1), np.int64(NO_LIMIT),
                                    np.int64(NO_DEADLINE), new_memo(17, 1 << 20),
                                    np.array([NO_LIMIT, 0]), rank)
    assert (counts >= 0).all()
    return int(np.prod([wide_value(w) if c == NO_LIMIT else int(c)
                        for c, w in zip(counts, wides)], dtype=object))


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(filled_puzzles(max_blank_share=0.95))
def test_a_count_that_decides_the_cut_cells_first_counts_every_solution(case):
    p, _ = case
    m = model(p)
    assert m.status == 0                        # clued from a fill: it has a solution
    n = len(kn.kakuro(p, limit=5000))
    assume(n < 5000)                            # too many to list
    ranked = count_pieces(m.root(), np.int64(NO_LIMIT), np.int64(NO_DEADLINE),
                          new_memo(17, 1 << 20), np.array([NO_LIMIT, 0]),
                          cut_ranks(m.ent_off, m.ent_var, m.mask))
    assert int(np.prod([int(c) for c in ranked], dtype=object)) == n


def test_counts_of_the_many_solution_set_with_ranks_are_the_recorded_counts():
    """Each grid of ``many.jsonl`` (CP-SAT enumerated their solutions), counted deciding
    the cells of its dissection first."""
    for line in (BENCH_SETS / "many.jsonl").read_text().splitlines():
        row = json.loads(line)
        m = model(kn.parse(row["grid"]))
        ranks = cut_ranks(m.ent_off, m.ent_var, m.mask)
        assert exact(m, ranks) == row["solutions"], row["name"]


@pytest.mark.parametrize("race", [False, True])
def test_an_exact_count_dissects_once_its_first_nodes_run_out(monkeypatch, race):
    """With ``race`` the count in the first order goes on beside the dissected one, and
    either may answer: the counts are the same."""
    cuts = []
    monkeypatch.setattr(policy, "DISSECT_AFTER", 50)
    monkeypatch.setattr(policy, "RACE", race)
    monkeypatch.setattr(turns, "cores", lambda: 2)
    assert turns.racing() == race
    monkeypatch.setattr(turns, "cut_ranks", lambda *a: cuts.append(1) or cut_ranks(*a))
    raced, first_of = [], turns.first_of
    monkeypatch.setattr(turns, "first_of", lambda *calls: raced.append(1) or first_of(*calls))
    m = model(DATA / "many-12x12.txt")
    assert count_in_turns(m, NO_LIMIT, NO_DEADLINE) == 166_162_320
    assert cuts == [1] and raced == ([1] if race else [])
    cuts.clear()
    assert count_in_turns(model("puzzles/k3.txt"), NO_LIMIT, NO_DEADLINE) == 40
    assert cuts == []                           # counted within its first nodes
    assert count_in_turns(m, NO_LIMIT, NO_DEADLINE,
                          memo=growable(new_memo(4, 256))) == 166_162_320
    assert exact(m, NO_RANKS) == 166_162_320


def test_the_count_that_loses_a_race_is_stopped():
    m = model(OPEN_BLOCK)

    def endless(runner):                    # a count of the block runs for hours
        runner.work = np.array([NO_LIMIT, 0])
        return count_pieces(m.root(), np.int64(NO_LIMIT), np.int64(NO_DEADLINE),
                            growable(new_memo(20, 1 << 20)), runner.work, NO_RANKS)

    started = time.monotonic()
    assert turns.first_of(endless, lambda runner: time.sleep(0.05) or 7) == (1, 7)
    assert time.monotonic() - started < 60      # not the endless count's hours


def test_a_race_that_times_out_says_so_and_ends():
    started = time.monotonic()
    with pytest.raises(kn.SolveTimeout):
        kn.count(OPEN_BLOCK, timeout=3)
    assert time.monotonic() - started < 60      # not the count's hours
