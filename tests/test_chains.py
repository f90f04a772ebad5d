"""Chains: each link is a ladder step on one run, and the links replay to a contradiction."""

import numpy as np
import pytest

import kakuro_np as kn
from conftest import PUZZLES
from kakuro_np.chains import MAX_LINKS, shortest_chain
from kakuro_np.explanation import LADDER, replay
from kakuro_np.techniques import NAMES, N_TECHNIQUES
from test_explanation import assert_follows_from_its_entry

#: Stuck on the ladder, on region sums and on x-wings; one x-wing and six chains of 6-7
#: links solve it.
CHAIN = ("x ; 27 0 ; 34 0 ; 14 0\n0 14 ; _ ; _ ; _\n0 13 ; _ ; _ ; _\n0 24 ; _ ; _ ; _\n"
         "0 8 ; _ ; _ ; _\n0 16 ; _ ; _ ; x\n")


def test_chains_solve_what_the_ladder_and_region_sums_leave():
    p = kn.parse(CHAIN)
    assert kn.count(p, limit=2) == 1
    assert kn.explain(p, top=LADDER.index("chain")).status == "stuck"
    steps = kn.explain(p)
    assert steps.status == "solved" and np.array_equal(steps.digits, kn.kakuro(p)[0])
    chains = [s for s in steps if s.technique == "chain"]
    assert chains and all(1 <= len(s.links) <= MAX_LINKS for s in chains)
    first = chains[0]
    assert first.reason.startswith("Suppose (1, 1) were 7. (1) (1, 1) is 7 and no digit repeats")
    assert first.removed == {(1, 1): {7}} and "(2, 1) has no candidate left after 6 links" \
        in first.reason
    g = kn.grade(p)
    assert g.hardest == "chain" and g.label == "expert" and 80 <= g.score < 90
    assert g.chains == tuple(len(s.links) for s in chains)
    assert "longest chain 7 links" in str(g)


@pytest.mark.parametrize("grid", [CHAIN, PUZZLES / "k3.txt"])
def test_a_chains_links_replay_one_by_one_to_its_contradiction(grid):
    """From the candidates before the chain, with the supposition made, each link is a
    step of the ladder that follows from its entry alone, and after the last a cell has no
    candidate; the supposed digit is in no solution."""
    p = kn.parse(grid) if isinstance(grid, str) else kn.read(grid)
    cells, sums = kn.entries(p)
    steps = kn.explain(p)
    solutions = kn.kakuro(p)
    state = steps.start
    n_chains = 0
    for step in steps:
        if step.technique == "chain":
            n_chains += 1
            (cell, digits), = step.removed.items()
            d, = digits
            trial = state.copy()
            trial[cell] = False
            trial[cell][d - 1] = True
            for link in step.links:
                assert link.technique in NAMES[:LADDER.index("joint possibilities")]
                assert [r * p.shape[1] + c for r, c in link.cells] == cells[link.entry].tolist()
                assert_follows_from_its_entry(link, trial, sums)
                trial = replay(trial, [link])
            assert (trial.sum(axis=2)[p.blank] == 0).any()
            assert not (solutions[:, cell[0], cell[1]] == d).any()
        state = replay(state, [step])
    assert n_chains > 0


def test_the_chain_search_keeps_its_budget():
    p = kn.parse(CHAIN)
    from kakuro_np.explanation import _board
    board = _board(p)
    runs = board.runs
    r = kn.explain(p, top=N_TECHNIQUES + 1)
    cand = r.candidates.reshape(-1, 9)[board.var_cell]
    mask = (cand << np.arange(9)).sum(axis=1).astype(np.int64)
    assert shortest_chain(runs, mask, 0) == (None, 0)
    chain, tried = shortest_chain(runs, mask, 3)
    assert tried == 3
    chain, tried = shortest_chain(runs, mask, 10_000)
    assert chain is not None and tried == int(np.sum([bin(m).count("1") for m in mask
                                                      if bin(m).count("1") > 1]))
