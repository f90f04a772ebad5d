"""The repair of a nearby solution (``engine/proofs/repair.py``): what it returns is a solution
within the masks; on open grids it finds one for most branches."""

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from kakuro_np.engine.force import start_state
from kakuro_np.engine.proofs.repair import free_ring, repair, repair_steps
from kakuro_np.solve import model
from strategies import filled_puzzles, satisfies
from test_force import open_grid
from conftest import examples


def one_digit_masks(digits):
    return (1 << (np.asarray(digits, np.int64) - 1)).astype(np.int64)


def grid_of(puzzle, out):
    """The digit grid of one-digit masks ``out`` (0 off the blanks)."""
    digits = np.zeros(puzzle.blank.shape, np.int64)
    digits[puzzle.blank] = np.log2(out).astype(np.int64) + 1
    return digits


def repaired(puzzle, tables, mask, witness):
    """``repair``'s answer, checked: None, or a solution of ``puzzle`` within ``mask``."""
    out = np.zeros_like(witness)
    if not repair(tables, mask, witness, out, 2000):
        return None
    assert np.all((out & mask) == out) and np.all((out & (out - 1)) == 0)
    assert satisfies(puzzle, grid_of(puzzle, out))
    return out


@settings(max_examples=examples(60), deadline=None)
@given(filled_puzzles(max_side=8), st.randoms(use_true_random=False))
def test_a_repair_is_a_solution_within_the_masks(case, rnd):
    puzzle, fill = case
    m = model(puzzle)
    emptied, tables, live = start_state(m.root(), True)
    solutions = kn.kakuro(puzzle, limit=30, order="any")
    assert emptied < 0 and len(solutions) > 0
    digits = solutions[:, puzzle.blank]
    for _ in range(5):
        kept, witness = (rnd.randrange(len(solutions)) for _ in range(2))
        mask = live.mask.copy()
        pinned = [v for v in range(len(mask)) if rnd.random() < 0.3]
        mask[pinned] = one_digit_masks(digits[kept, pinned])   # solution `kept` fits
        out = repaired(puzzle, tables, mask, one_digit_masks(digits[witness]))
        if np.all(mask & one_digit_masks(digits[witness])):      # the witness fits: itself
            assert np.array_equal(out, one_digit_masks(digits[witness]))


def test_most_branches_of_open_grids_repair_their_parents_solution():
    """A branch (one entry's cells narrowed to another solution's digits) mostly has a
    solution near a solution that does not fit it."""
    rng = np.random.default_rng(1)
    for side, seed in [(10, 3), (9, 5)]:
        puzzle = open_grid(side, seed)
        _, tables, live = start_state(model(puzzle).root(), True)
        digits = kn.kakuro(puzzle, limit=40, order="any")[:, puzzle.blank]
        found = 0
        for _ in range(50):
            branch, witness = rng.choice(len(digits), 2, replace=False)
            k = int(rng.integers(len(tables.ent_off) - 1))
            cells = tables.ent_var[tables.ent_off[k]:tables.ent_off[k + 1]]
            mask = live.mask.copy()
            mask[cells] = one_digit_masks(digits[branch, cells])
            found += repaired(puzzle, tables, mask, one_digit_masks(digits[witness])) is not None
        assert found >= 30, (side, seed, found)      # 77-79 of 100 measured


def test_a_repair_stops_when_no_ring_adds_a_cell():
    """Two 2x2 blocks apart, two solutions each: the conflict fills one block, whose rings
    add nothing; the block is searched once (a repair found there), and a conflict
    with no repair ends too."""
    puzzle = kn.parse("x ; 4 0 ; 6 0 ; x ; 4 0 ; 6 0\n"
                      "0 5 ; _ ; _ ; 0 5 ; _ ; _\n"
                      "0 5 ; _ ; _ ; 0 5 ; _ ; _")
    _, tables, live = start_state(model(puzzle).root(), True)
    sols = kn.kakuro(puzzle)[:, puzzle.blank]
    assert len(sols) == 4
    witness = one_digit_masks(sols[0])
    left = [0, 1, 4, 5]                                     # the left block's cells
    other = next(s for s in sols if (s[left] != sols[0][left]).all()
                 and np.delete(s == sols[0], left).all())
    mask = live.mask.copy()
    mask[left] = one_digit_masks(other[left])               # the left block: the other way
    out = repaired(puzzle, tables, mask, witness)
    assert np.array_equal(out, one_digit_masks(other))
    mask[0] = mask[1]                                       # no solution at all: no repair
    assert repaired(puzzle, tables, mask, witness) is None


@settings(max_examples=examples(80), deadline=None)
@given(filled_puzzles(max_side=8), st.randoms(use_true_random=False), st.sampled_from([3, 30, 2000]))
def test_the_ring_steps_a_repair_proves_empty_hold_no_solution(case, rnd, budget):
    """``repair_steps`` says how many of its first ring steps hold no repair (a near hunt
    skips them): no solution within the masks keeps the witness's digits outside the
    free cells of any of those steps. A tiny node budget ends steps unproved."""
    puzzle, _ = case
    _, tables, live = start_state(model(puzzle).root(), True)
    every = kn.kakuro(puzzle, limit=500)[:, puzzle.blank]
    assume(len(tables.ent_off) > 1)
    for _ in range(5):
        branch, witness_at = (rnd.randrange(len(every)) for _ in range(2))
        k = rnd.randrange(len(tables.ent_off) - 1)
        cells = tables.ent_var[tables.ent_off[k]:tables.ent_off[k + 1]]
        mask = live.mask.copy()
        mask[cells] = one_digit_masks(every[branch, cells])
        witness = one_digit_masks(every[witness_at])
        out = np.zeros_like(witness)
        repaired_, proved = repair_steps(tables, mask, witness, out, budget)
        within = [one_digit_masks(s) for s in every if (one_digit_masks(s) & mask != 0).all()]
        free = mask & witness == 0
        rings = 1
        for _ in range(proved):
            for _ in range(rings):
                free_ring(tables, free)
            rings *= 2
            assert not any((s[~free] == witness[~free]).all() for s in within)
