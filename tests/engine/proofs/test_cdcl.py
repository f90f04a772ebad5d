"""cdcl: the clause-learning check agrees with the full list of solutions, on any node."""

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
import kakuro_np.turns as turns
import kakuro_np.solve as solve
from kakuro_np.engine.proofs.cdcl import (DIRTY, LEVELS, QHEAD, SAT_NO, SAT_UNKNOWN, SAT_YES,
                                          SUMS_CONFLICT, TRAIL, _assign, _cancel_until,
                                          _propagate_all, _reason_lits, sat_of, sat_solve)
from kakuro_np.engine.force import start_state
from kakuro_np.engine.walk.sums import network_of, sums_feasible
from kakuro_np.engine.core.codes import OK
from kakuro_np.engine.core.jit import NO_DEADLINE
from strategies import filled_puzzles, satisfies
from conftest import ROOT, examples

BUDGET = 10**6


def grid_of(m, witness):
    """The (H, W) digits of a solution given as one-digit masks per variable."""
    digits = np.zeros(m.puzzle.blank.size, np.int8)
    digits[m.var_cell] = [int(w).bit_length() for w in witness]
    return digits.reshape(m.puzzle.blank.shape)


def sat_and_root(p):
    """The model of ``p``, its Sat and the root's masks. ``p`` has a solution (clued from a
    fill, or a sample), so forced moves neither refute it nor empty a table."""
    m = solve.model(p)
    assert m.status == OK
    emptied, tables, live = start_state(m.root(), True)
    assert emptied < 0
    return m, sat_of(tables, live.mask), live.mask.copy()


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(filled_puzzles())
def test_the_root_of_a_filled_puzzle_has_a_solution_and_the_witness_is_one(case):
    p, fill = case
    m, sat, mask = sat_and_root(p)
    witness = np.zeros_like(mask)
    assert sat_solve(sat, mask, witness, BUDGET, NO_DEADLINE, witness) == SAT_YES
    assert satisfies(p, grid_of(m, witness))
    # guided by the fill, it finds the fill itself (the first decisions take its digits)
    guide = np.zeros_like(mask)
    guide[:] = [1 << (int(d) - 1) for d in fill.ravel()[m.var_cell]]
    assert sat_solve(sat, mask, guide, BUDGET, NO_DEADLINE, witness) == SAT_YES
    assert satisfies(p, grid_of(m, witness))


@settings(max_examples=examples(100), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(filled_puzzles(max_side=7), st.randoms(use_true_random=False))
def test_any_node_has_a_solution_exactly_when_one_of_the_full_list_fits_it(case, rnd):
    """Random masks below the root, one Sat for all of them (what it learns under one
    node must hold under the others): yes with a solution that fits, or no, as the
    full list says."""
    p, _ = case
    m, sat, root_mask = sat_and_root(p)
    every = kn.kakuro(p, limit=2000)
    assume(len(every) < 2000)
    digits = every.reshape(len(every), -1)[:, m.var_cell].astype(np.int64)
    as_masks = np.where(digits > 0, 1 << np.maximum(digits - 1, 0), 0)
    witness = np.zeros_like(root_mask)
    for _ in range(12):
        keep = rnd.random() * 0.6 + 0.4
        mask = root_mask.copy()
        for v in range(len(mask)):
            for d in range(9):
                if mask[v] >> d & 1 and rnd.random() > keep:
                    mask[v] &= ~(1 << d)
        expected = bool(np.any(np.all(as_masks & mask == as_masks, axis=1)))
        said = sat_solve(sat, mask, np.zeros_like(mask), BUDGET, NO_DEADLINE, witness)
        assert said != SAT_UNKNOWN
        assert said == (SAT_YES if expected else SAT_NO)
        if said == SAT_YES:
            assert np.all(witness & mask == witness)
            assert satisfies(p, grid_of(m, witness))


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(filled_puzzles(), st.randoms(use_true_random=False))
def test_each_digit_a_table_drops_is_explained_by_digits_gone_before_it(case, rnd):
    """Digits taken out at random at level 1, propagated: for every digit a table dropped,
    its explanation's digits gone, alone, leave no row of the table that keeps it."""
    p, _ = case
    m, sat, root_mask = sat_and_root(p)
    new_level(sat)
    for v in range(len(root_mask)):
        for d in range(9):
            if root_mask[v] >> d & 1 and rnd.random() < 0.3 and sat.value[2 * (9 * v + d)] == 0:
                _assign(sat, 2 * (9 * v + d) + 1, -1)
    _propagate_all(sat)
    for lit in sat.trail[:sat.state[TRAIL]]:
        r = sat.reason[lit >> 1]
        if r > -2:
            continue
        k = -2 - r
        n = _reason_lits(sat, r, lit)
        assert sat.explain[0] == lit
        masks = np.full(len(root_mask), 511)
        for q in sat.explain[1:n]:
            assert q & 1 == 0 and sat.value[q] == -1
            masks[(q >> 1) // 9] &= ~(1 << ((q >> 1) % 9))
        v, d = divmod(int(lit >> 1), 9)
        cells = m.ent_var[m.ent_off[k]:m.ent_off[k + 1]]
        table = m.rows[m.tab_off[k]:m.tab_off[k + 1], :len(cells)].astype(np.int64)
        fits = np.all(masks[cells] >> (table - 1) & 1 == 1, axis=1)
        assert not np.any(fits & (table[:, list(cells).index(v)] == d + 1))


def new_level(sat):
    """Open a decision level, as ``sat_solve`` does."""
    sat.state[LEVELS] += 1
    sat.level_start[sat.state[LEVELS]] = sat.state[TRAIL]


def sums_conflicts(p, rnd, tries):
    """Random bounds at level 1 (each cell's digits cut to a range of its own), ``tries``
    times: for each time the sums fail, the masks the explanation alone leaves
    (every cell 1-9 but the digits it names), and a network to test them on."""
    m, sat, root_mask = sat_and_root(p)
    _, tables, _ = start_state(m.root(), True)
    net = network_of(tables, len(root_mask), True)
    for _ in range(tries):
        new_level(sat)
        for v in range(len(root_mask)):
            digits = [d for d in range(9) if sat.cell_mask[v] >> d & 1]
            lo, hi = sorted(rnd.choices(digits, k=2))
            for d in digits:
                if not lo <= d <= hi:
                    _assign(sat, 2 * (9 * v + d) + 1, -1)
        sat.dirty[:] = False                    # nothing queued: the sums test alone
        sat.state[DIRTY] = 0
        sat.state[QHEAD] = sat.state[TRAIL]
        if _propagate_all(sat) == SUMS_CONFLICT:
            masks = np.full(len(root_mask), 511, np.int64)
            for q in sat.explain[:_reason_lits(sat, np.int64(SUMS_CONFLICT), np.int64(-1))]:
                assert q & 1 == 0 and sat.value[q] == -1      # a digit gone
                masks[(q >> 1) // 9] &= ~(1 << ((q >> 1) % 9))
            yield net, masks
        _cancel_until(sat, 0)


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(filled_puzzles(), st.randoms(use_true_random=False))
def test_a_sums_conflict_names_digits_whose_absence_alone_fails_the_sums(case, rnd):
    """The cut's explanation is a nogood: with only its digits gone, whatever the other
    cells hold, the sums still cannot be met."""
    for net, masks in sums_conflicts(case[0], rnd, 10):
        assert not sums_feasible(net, masks)


def test_sums_conflicts_happen_and_are_explained_on_the_samples():
    """The property above is not vacuous: the samples' random bounds fail the sums."""
    import random
    rnd = random.Random(7)
    conflicts = 0
    for name in ("k3", "k5", "k6", "k7"):
        for net, masks in sums_conflicts(kn.read(f"puzzles/{name}.txt"), rnd, 20):
            assert not sums_feasible(net, masks)
            conflicts += 1
    assert conflicts >= 10


def test_a_draft_node_the_fan_out_cannot_refute_is_refuted_in_a_few_thousand_conflicts():
    """gen-10x10-expert-12 (bench/sets/slow_drafts.jsonl): the essay's first branch has no
    solution; the checks' counts and hunts did not prove it in 27 s."""
    import json
    rows = ROOT / "bench" / "sets" / "slow_drafts.jsonl"
    draft = next(json.loads(line) for line in rows.read_text().splitlines()
                 if json.loads(line)["name"] == "gen-10x10-expert-12")
    p = kn.parse(draft["grid"])
    m = solve.model(p)
    _, tables, live = start_state(m.root(), True)
    sat = sat_of(tables, live.mask)
    k = int(np.argmin(np.where(live.nalive > 1, live.nalive, 1 << 40)))
    rows = sorted(tables.rows[r, :tables.ent_off[k + 1] - tables.ent_off[k]].tolist()
                  for r in live.perm[tables.tab_off[k]:tables.tab_off[k] + live.nalive[k]])
    cells = tables.ent_var[tables.ent_off[k]:tables.ent_off[k + 1]]
    said = []
    for row in rows:
        mask = live.mask.copy()
        mask[cells] = [1 << (d - 1) for d in row]
        witness = np.zeros_like(mask)
        said.append(sat_solve(sat, mask, witness, 20_000, NO_DEADLINE, witness))
    assert said[0] == SAT_NO and SAT_YES in said


@settings(max_examples=examples(100), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(filled_puzzles())
def test_learner_turns_find_distinct_solutions_of_the_full_list_and_know_when_there_are_no_more(
        case):
    p, _ = case
    every = kn.kakuro(p, limit=30)
    assume(len(every) < 30)
    listed = {s[p.blank].tobytes() for s in every}
    m = solve.model(p)
    learner = turns.Learner(m, 20)
    while not learner.turn(3, NO_DEADLINE):       # many short turns
        pass
    assert len(learner.found) == min(20, len(every))
    grids = {grid_of(m, w)[p.blank].tobytes() for w in learner.found}
    assert len(grids) == len(learner.found) and grids <= listed
