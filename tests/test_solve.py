"""kakuro, count and reduce on the essay's puzzles and on edge cases."""

import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import kakuro_np as kn
from conftest import PUZZLES, SAMPLES
from kakuro_np import essay
from kakuro_np.engine.core.jit import NO_DEADLINE
from strategies import independent_blocks, satisfies

@pytest.mark.parametrize("name", SAMPLES)
def test_sample_counts_match_the_independent_solver(name, expected):
    p = kn.read(PUZZLES / name)
    sols = kn.kakuro(p)
    assert sols.shape == (expected[name]["solutions"], *p.shape) and sols.dtype == np.int8
    assert kn.count(p) == expected[name]["solutions"]
    assert p.shape == (expected[name]["rows"], expected[name]["cols"])
    assert int(p.blank.sum()) == expected[name]["blank_cells"]
    if "entries" in expected[name]:
        assert len(kn.entries(p)[1]) == expected[name]["entries"]
    assert all(satisfies(p, s) for s in sols)


def test_k2_is_solved_by_forced_moves_alone():
    r = kn.reduce(PUZZLES / "k2.txt")
    assert r.status == "solved"
    np.testing.assert_array_equal(r.digits, kn.kakuro(PUZZLES / "k2.txt")[0])
    assert r.candidates.shape == (10, 8, 9) and r.candidates.dtype == bool
    assert (r.candidates.sum(axis=2) == r.puzzle.blank).all()


def test_k3_has_40_solutions_and_the_essays_first_two():
    t = kn.kakuro(PUZZLES / "k3.txt")
    assert t.shape == (40, 11, 11)
    differ = t[0] != t[1]
    assert differ[:9].sum() == 0 and differ[9:, :7].sum() == 0
    assert t[0][-2:, -4:].tolist() == [[1, 5, 2, 4], [4, 3, 1, 2]]
    assert t[1][-2:, -4:].tolist() == [[4, 5, 1, 2], [1, 3, 2, 4]]
    assert len({s.tobytes() for s in t}) == 40


def test_k3_solution_order_is_the_essays_fan_out():
    p = kn.read(PUZZLES / "k3.txt")
    np.testing.assert_array_equal(kn.kakuro(p), essay.kakuro(p))


def test_k3_reduce_is_stuck_and_keeps_every_solution_digit():
    r = kn.reduce(PUZZLES / "k3.txt")
    assert r.status == "stuck"
    sols = kn.kakuro(PUZZLES / "k3.txt")
    used = np.zeros_like(r.candidates)
    for s in sols:
        rr, cc = np.nonzero(s)
        used[rr, cc, s[rr, cc] - 1] = True
    assert not (used & ~r.candidates).any()


def test_limit_returns_a_prefix_of_the_full_answer():
    p = kn.read(PUZZLES / "k3.txt")
    full = kn.kakuro(p)
    for limit in (0, 1, 7, 40, 100):
        part = kn.kakuro(p, limit=limit)
        np.testing.assert_array_equal(part, full[:limit])
        assert kn.count(p, limit=limit) == min(limit, 40)


def test_accepts_text_paths_and_rows():
    text = (PUZZLES / "k0.txt").read_text()
    rows = [["x", "x", "x", (6, 0), (3, 0)], ["x", (4, 0), (3, 3), "_", "_"],
            [(0, 10), "_", "_", "_", "_"], [(0, 3), "_", "_", "x", "x"]]
    answers = [kn.kakuro(g) for g in (text, str(PUZZLES / "k0.txt"), PUZZLES / "k0.txt", rows)]
    for a in answers:
        np.testing.assert_array_equal(a, answers[0])
    assert answers[0][0].tolist() == [[0, 0, 0, 0, 0], [0, 0, 0, 2, 1],
                                      [0, 3, 1, 4, 2], [0, 1, 2, 0, 0]]


def test_an_impossible_clue_gives_no_solution_not_an_error():
    p = kn.Puzzle.from_rows([["x", (3, 0), (4, 0)], [(0, 2), "_", "_"]])   # 2 in 2 cells
    assert kn.kakuro(p).shape == (0, 2, 3)
    assert kn.count(p) == 0
    assert kn.reduce(p).status == "contradiction"


def test_given_digits_are_kept_and_a_clashing_given_gives_no_solution():
    base = [["x", (3, 0), (3, 0)], [(0, 3), "_", "_"], [(0, 3), "_", "_"]]
    assert kn.count(base) == 2
    with_given = [row[:] for row in base]
    with_given[1][1] = 2
    sols = kn.kakuro(with_given)
    assert sols.tolist() == [[[0, 0, 0], [0, 2, 1], [0, 1, 2]]]
    with_given[1][2] = 2                       # 2 twice in one run
    assert kn.count(with_given) == 0 and kn.reduce(with_given).status == "contradiction"


@pytest.mark.parametrize("limit", [-1, 1.5, "3", True])
def test_bad_limit_is_a_value_error(limit):
    with pytest.raises(ValueError):
        kn.kakuro(PUZZLES / "k0.txt", limit=limit)


def test_open_block_with_a_limit_stops_early_in_bounded_memory():
    """A 9x9 open block of 45s has astronomically many solutions; limit=1000 returns 1000."""
    script = textwrap.dedent("""
        import resource, numpy as np, kakuro_np as kn
        rows = [["x"] + [(45, 0)] * 9] + [[(0, 45)] + ["_"] * 9 for _ in range(9)]
        sols = kn.kakuro(rows, limit=1000)
        print(len(sols), len({s.tobytes() for s in sols}))
        block = sols[:, 1:, 1:]                 # every run is 45 over 9 cells: each row
        rows_ok = (np.sort(block, axis=2) == np.arange(1, 10)).all()           # and each
        cols_ok = (np.sort(block, axis=1) == np.arange(1, 10)[:, None]).all()  # column is 1-9
        print(bool(rows_ok and cols_ok and not sols[:, 0].any() and not sols[:, :, 0].any()))
        try:                                    # this process's own peak: ru_maxrss keeps
            with open("/proc/self/status") as f:  # the peak of the parent it was spawned from
                print(next(int(l.split()[1]) for l in f if l.startswith("VmHWM")) // 1024)
        except OSError:                         # not Linux
            print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, cwd=PUZZLES.parent, timeout=300).stdout.split()
    assert out[:3] == ["1000", "1000", "True"]
    assert int(out[3]) < 1024, f"peak memory {out[3]} MB"


def test_count_multiplies_independent_pieces():
    assert kn.count(independent_blocks(3)) == len(kn.kakuro(independent_blocks(3))) == 8
    assert kn.count(independent_blocks(40)) == 2 ** 40
    assert kn.count(independent_blocks(66)) == 2 ** 66      # past int64, exact all the same
    assert kn.count(independent_blocks(66), limit=10**30) == 2 ** 66
    assert kn.count(independent_blocks(40), limit=10**6) == 10**6
    assert kn.count(independent_blocks(5), limit=31) == 31


OPEN_GRID = str(PUZZLES.parent / "bench/sets/open-30x100.txt")


def test_a_count_past_its_time_says_how_many_there_are_at_most():
    """A timed-out count is not silent on the count: at most the product of the cells'
    candidates (an exact int, past a float here), in the error and its message."""
    from kakuro_np.combos import POPCOUNT
    from kakuro_np.engine.core import ahead
    from kakuro_np.solve import model
    ahead.main(["count"])                       # so that the time goes to counting
    started = time.perf_counter()
    m = model(OPEN_GRID)
    built = time.perf_counter() - started       # the count builds it again in its time:
    with pytest.raises(kn.SolveTimeout) as raised:      # on a loaded machine 1 s did not
        kn.count(OPEN_GRID, timeout=3 * built + 1)      # cover it, and the count never began
    assert raised.value.at_most == np.prod([int(c) for c in POPCOUNT[m.root().mask]],
                                           dtype=object) > 10 ** 1400
    assert "while counting; at most 2.6e+1449 solutions" in str(raised.value)
    assert raised.value.estimate is None          # random descents die on this grid


def test_knuths_estimate_of_k3_is_near_its_40_solutions():
    from kakuro_np.budget import power_of_ten, typical_estimate
    from kakuro_np.solve import model
    estimate = typical_estimate(model(PUZZLES / "k3.txt"))
    assert 0 < estimate < 3.5                     # 40 is 10 ** 1.6: within 2x10 either way
    assert power_of_ten(estimate).endswith(("e+00", "e+01", "e+02", "e+03"))


def test_a_wrong_given_digit_found_while_the_tables_are_built_is_no_solution():
    # pub-0372 with a 6 given at (4, 10): the build stops at the contradiction with some
    # tables made; their offsets were passed on with no rows, and the model read past them
    import json
    from conftest import ROOT
    with open(ROOT / "bench" / "sets" / "published.jsonl") as f:
        grid = next(row["grid"] for row in map(json.loads, f) if row["name"] == "pub-0372")
    puzzle = kn.parse(grid)
    given = puzzle.given.copy()
    given[4, 10] = 6
    wrong = puzzle.with_given(given)
    assert kn.kakuro(wrong, limit=2).shape[0] == 0 and kn.count(wrong) == 0
    assert kn.reduce(wrong).status == "contradiction"


def test_one_puzzle_asked_twice_is_built_once(monkeypatch):
    """``count`` then ``kakuro`` of one Puzzle (as a batch asks) build its model once; a
    new Puzzle, another row budget or tables past KEEP_ROWS build again."""
    from kakuro_np import solve
    built = []
    real = solve.build
    monkeypatch.setattr(solve, "build", lambda *a: built.append(a[0]) or real(*a))
    p = kn.read(PUZZLES / "k3.txt")
    assert kn.count(p) == 40 and len(kn.kakuro(p, limit=3)) == 3 and len(kn.kakuro(p)) == 40
    assert built == [p]
    kn.count(p, max_rows=10**6)
    q = kn.read(PUZZLES / "k3.txt")
    kn.count(q)
    assert built == [p, p, q]
    monkeypatch.setattr(solve, "KEEP_ROWS", 0)
    r = kn.read(PUZZLES / "k2.txt")
    kn.count(r), kn.count(r)
    assert built[3:] == [r, r]


@pytest.mark.parametrize("search_compiling", [True, False])
def test_a_first_search_has_the_checks_first_part_compiled_meanwhile(monkeypatch,
                                                                     search_compiling):
    """While a helper compiles the search (this process only waits), another compiles the
    checks' first part, which a thrashing grid needs next; when this process compiles the
    search itself, or it is cached, nothing more starts."""
    from kakuro_np import solve
    from kakuro_np.engine.core import ahead
    started = []
    monkeypatch.setattr(ahead, "compiling", lambda name: search_compiling and name == "search")
    monkeypatch.setattr(ahead, "start", lambda *names: started.append(names))
    found, _ = solve.essay_solutions(solve.model(kn.read(PUZZLES / "k2.txt")), 2, NO_DEADLINE)
    assert found == 1
    assert started == ([("proof-checks",)] if search_compiling else [])
