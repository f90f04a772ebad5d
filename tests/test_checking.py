"""check: a player's digits against every solution (the thesis's section 5.2 wish)."""

import importlib
import itertools
import pathlib

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

import kakuro_np as kn
from strategies import filled_puzzles
from conftest import examples

# The module, however kakuro_np's __init__ binds the name ``check``.
check_mod = importlib.import_module("kakuro_np.checking")
check = check_mod.check

PUZZLES = pathlib.Path(__file__).resolve().parent.parent / "puzzles"
K2 = kn.read(PUZZLES / "k2.txt")
K3 = kn.read(PUZZLES / "k3.txt")


@pytest.fixture(scope="module")
def k3_solutions():
    sols = kn.kakuro(K3)
    assert len(sols) == 40
    return sols


def state(puzzle, digits, cells):
    """The puzzle with ``digits`` given in ``cells`` (a list of (row, col)) only."""
    given = np.zeros(puzzle.shape, np.int8)
    for r, c in cells:
        given[r, c] = digits[r, c]
    return puzzle.with_given(given)


def blank_cells(puzzle):
    return [tuple(int(i) for i in rc) for rc in np.argwhere(puzzle.blank)]


def expected_wrong(p, sols):
    """Given cells whose digit none of ``sols`` has there, row-major (the brute-force answer)."""
    return [tuple(int(i) for i in rc) for rc in np.argwhere(p.given > 0)
            if not (sols[:, rc[0], rc[1]] == p.given[tuple(rc)]).any()]


def agreeing(p, sols):
    """How many of ``sols`` agree with every given digit of ``p``."""
    mask = p.given > 0
    return int((sols[:, mask] == p.given[mask]).all(axis=1).sum())


# -- states drawn from the solutions of k3 (40 of them) ---------------------------------

def test_digits_from_one_solution_are_never_wrong(k3_solutions):
    a = k3_solutions[7]
    cells = blank_cells(K3)
    for part in (cells[::3], cells[1::2], cells[:10], cells[-10:]):
        r = check(state(K3, a, part))
        assert r.wrong == []
        assert r.consistent >= 1
        assert r.consistent == agreeing(state(K3, a, part), k3_solutions)
        assert (r.filled, r.blanks) == (len(part), len(cells))
        assert not r.complete and not r.solved
        assert str(r).startswith(f"no wrong digit; {len(part)} of {len(cells)} cells filled; ")


def test_a_whole_solution_is_solved(k3_solutions):
    for a in k3_solutions[[0, 1, 39]]:
        r = check(K3.with_given(a))
        assert r.wrong == [] and r.consistent == 1
        assert r.complete and r.solved
        assert str(r) == "solved"


def mixed_state(sols):
    """Digits from solutions A and B, where they differ, that no solution agrees with."""
    a, b = sols[0], sols[1]
    diff = [tuple(int(i) for i in rc) for rc in np.argwhere(a != b)]
    for p_cell, q_cell in itertools.permutations(diff, 2):
        given = np.zeros(K3.shape, np.int8)
        given[p_cell], given[q_cell] = a[p_cell], b[q_cell]
        p = K3.with_given(given)
        if agreeing(p, sols) == 0:
            return p
    raise AssertionError("no mix of A and B contradicts every solution")


def test_a_mix_of_two_solutions_has_no_wrong_digit_but_no_solution_agrees(k3_solutions):
    p = mixed_state(k3_solutions)
    assert expected_wrong(p, k3_solutions) == []          # each digit is in some solution
    assert agreeing(p, k3_solutions) == 0                 # but all of them in none
    r = check(p)
    assert r.wrong == [] and r.consistent == 0 and r.solvable
    assert str(r) == "no wrong digit; 2 of 64 cells filled; no solution agrees with every digit"
    assert kn.count(p) == 0


def changed_state(sols):
    """Solution 0 on every other blank, with some digits changed (some to digits of other solutions)."""
    a = sols[0]
    cells = blank_cells(K3)[::2]
    given = np.zeros(K3.shape, np.int8)
    for r, c in cells:
        given[r, c] = a[r, c]
    varies = [rc for rc in cells if len(set(sols[:, rc[0], rc[1]].tolist())) > 1]
    fixed = [rc for rc in cells if rc not in varies]
    for rc in fixed[::4]:                               # no solution has another digit here
        given[rc] = a[rc] % 9 + 1
    for rc in varies[:2]:                               # another solution's digit: not wrong
        given[rc] = next(int(d) for d in sols[:, rc[0], rc[1]] if d != a[rc])
    for rc in varies[2:4]:                              # some other digit, maybe in none
        given[rc] = next(d for d in range(9, 0, -1) if d != a[rc])
    return K3.with_given(given)


def test_changed_digits_are_wrong_exactly_where_no_solution_has_them(k3_solutions):
    p = changed_state(k3_solutions)
    want = expected_wrong(p, k3_solutions)
    r = check(p)
    assert len(want) >= 3 and len(want) < r.filled
    assert r.wrong == want
    assert r.wrong_digits == [int(p.given[rc]) for rc in want]
    assert r.consistent == 0
    assert str(r).startswith(f"{len(want)} wrong digits: ({want[0][0]}, {want[0][1]}) "
                             f"{p.given[want[0]]}, ")
    assert str(r).endswith("; no solution agrees with every digit")


# -- k2 (unique) ------------------------------------------------------------------------

def test_k2_one_wrong_digit_marks_exactly_that_cell():
    sol = kn.kakuro(K2)[0]
    cells = blank_cells(K2)
    for rc in (cells[0], cells[len(cells) // 2], cells[-1]):
        given = sol.copy()
        given[rc] = sol[rc] % 9 + 1
        for part in (cells, cells[::2] + [rc]):           # the whole grid, or part of it
            p = state(K2, given, part)
            r = check(p)
            assert r.wrong == [rc] and r.wrong_digits == [int(given[rc])]
            assert r.consistent == 0 and not r.solved
            assert str(r) == (f"1 wrong digit: ({rc[0]}, {rc[1]}) {given[rc]}; "
                              f"no solution agrees with every digit")


def test_k2_right_digits():
    sol = kn.kakuro(K2)[0]
    r = check(state(K2, sol, blank_cells(K2)[:5]))
    assert (r.wrong, r.consistent) == ([], 1)
    assert str(r) == f"no wrong digit; 5 of {r.blanks} cells filled; 1 solution agrees"


# -- the per-given query path (more than ENUM solutions) ----------------------------------

def test_query_path_agrees_with_enumeration(k3_solutions, monkeypatch):
    a, b = k3_solutions[0], k3_solutions[25]
    states = [state(K3, a, blank_cells(K3)[::3]), K3.with_given(a), mixed_state(k3_solutions),
              changed_state(k3_solutions), state(K3, b, blank_cells(K3)[-12:]), K3]
    by_enumeration = [check(p) for p in states]
    calls = []
    real_count = check_mod.count

    def spy(grid, *args, **kwargs):
        calls.append(kn.as_puzzle(grid))
        return real_count(grid, *args, **kwargs)

    monkeypatch.setattr(check_mod, "count", spy)
    for p, want in zip(states, by_enumeration):
        assert check(p, enum_limit=2) == want
    one_digit = [q for q in calls if (q.given > 0).sum() == 1]
    assert one_digit, "the per-given query path was not taken"


# -- edge cases and input handling ---------------------------------------------------------

def test_limit_caps_the_count_and_says_so():
    r = check(K3, limit=5)
    assert (r.consistent, r.limit) == (5, 5)
    assert str(r).endswith("; 5 or more solutions agree")
    assert check(K3, limit=None).consistent == 40
    assert check(K3, limit=41).consistent == 40
    r = check(K3, limit=0)
    assert r.consistent == 0 and str(r) == "no wrong digit; 0 of 64 cells filled"


def test_an_impossible_puzzle_is_said_so_and_no_digit_is_blamed():
    p = kn.Puzzle.from_rows([["x", (3, 0), (4, 0)], [(0, 30), 2, 1]])
    r = check(p)
    assert (r.wrong, r.consistent, r.solvable) == ([], 0, False)
    assert r.complete and not r.solved
    assert str(r) == "the puzzle has no solution"


def test_accepts_text_paths_and_rows():
    assert check(str(PUZZLES / "k2.txt")).consistent == 1
    text = "x ; 4 0 ; 3 0\n0 3 ; 1 ; _\n0 4 ; _ ; 2"
    r = check(text)
    assert (r.wrong, r.wrong_digits, r.filled, r.blanks) == ([(2, 2)], [2], 2, 4)
    assert check(kn.Puzzle.from_rows([["x", (4, 0), (3, 0)], [(0, 3), 1, 2],
                                      [(0, 4), 3, 1]])).solved


@pytest.mark.parametrize("bad", ["x ; 4 0 ; q\n0 3 ; _ ; _", [["x", (3, 0)], [(0, 3), 10]]])
def test_malformed_input_raises_puzzle_error(bad):
    with pytest.raises(kn.PuzzleError):
        check(bad)


@pytest.mark.parametrize("limit", [-1, 1.5, True, "3"])
def test_bad_limit_raises(limit):
    with pytest.raises(ValueError, match="limit"):
        check(K2, limit=limit)


def test_timeout():
    with pytest.raises(kn.SolveTimeout):
        check(K3, timeout=0)
    with pytest.raises(ValueError, match="timeout"):
        check(K3, timeout=-1)
    assert check(K3, timeout=60).consistent == 40


# -- property: random puzzles from random fills --------------------------------------------

MAX_SOLUTIONS = 20000


@settings(max_examples=examples(30), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(filled_puzzles(max_side=6), st.data())
def test_random_states_against_every_solution(case, data):
    p, fill = case
    base = p.with_given(np.zeros_like(p.given))
    cells = [tuple(int(i) for i in rc) for rc in np.argwhere(p.blank)]
    assume(cells)
    rc = data.draw(st.sampled_from(cells))                # the cell to change later
    chosen = data.draw(st.lists(st.booleans(), min_size=len(cells), max_size=len(cells)))
    given_cells = [x for x, keep in zip(cells, chosen) if keep or x == rc]
    right = state(base, fill, given_cells)
    r = check(right)
    assert r.wrong == [] and r.consistent >= 1 and r.solvable

    sols = kn.kakuro(base, limit=MAX_SOLUTIONS)
    assume(len(sols) < MAX_SOLUTIONS)                     # all of them
    digit = data.draw(st.sampled_from([d for d in range(1, 10) if d != fill[rc]]))
    given = right.given.copy()
    given[rc] = digit
    changed = base.with_given(given)
    r = check(changed)
    in_none = not (sols[:, rc[0], rc[1]] == digit).any()
    event(f"changed digit in no solution: {in_none}")
    assert r.wrong == ([rc] if in_none else [])
    assert r.consistent == min(agreeing(changed, sols), 1000)
    assert check(changed, enum_limit=2) == r            # the per-given query path
