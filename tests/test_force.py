"""force: one round as the essay's verb, and the numba fixpoint."""

import numpy as np

import kakuro_np as kn
from conftest import PUZZLES
from kakuro_np.essay import force_until_fixed

ESSAY_ROW_COUNTS = """
2 6 6 18 18 48 6 2 2 16 10 5 2 2 4 10 4 2 144 8 2 48 8 8 18 2
1 2 2  4 10 48 1 1 1 16  5 3 1 1 1  4 2 2 144 4 1  6 2 2  6 1
1 1 1  3  2  4 1 1 1  8  4 1 1 1 1  2 1 2   6 4 1  4 2 1  4 1
1 1 1  3  1  4 1 1 1  3  2 1 1 1 1  2 1 2   2 1 1  4 1 1  1 1
1 1 1  1  1  1 1 1 1  3  2 1 1 1 1  2 1 1   1 1 1  4 1 1  1 1
1 1 1  1  1  1 1 1 1  2  1 1 1 1 1  2 1 1   1 1 1  1 1 1  1 1
1 1 1  1  1  1 1 1 1  1  1 1 1 1 1  1 1 1   1 1 1  1 1 1  1 1
"""


def test_iterating_force_on_k2_gives_the_essays_table():
    cells, sums = kn.entries(kn.read(PUZZLES / "k2.txt"))
    tables = kn.jposs(cells, sums)
    counts = []
    while True:
        counts.append([len(t) for t in tables])
        new = kn.force(cells, tables)
        if [len(t) for t in new] == counts[-1]:
            break
        tables = new
    expected = [[int(x) for x in line.split()] for line in ESSAY_ROW_COUNTS.strip().splitlines()]
    assert counts == expected


def test_fixpoint_equals_iterated_rounds_on_every_sample():
    for name in ["k1.txt", "k2.txt", "k3.txt", "k5.txt", "k7.txt"]:
        cells, sums = kn.entries(kn.read(PUZZLES / name))
        tables = kn.jposs(cells, sums)
        fixed = kn.force(cells, tables, until_fixed=True)
        iterated = force_until_fixed(cells, tables)
        assert all(np.array_equal(a, b) for a, b in zip(fixed, iterated)), name
        assert all(a.dtype == np.int8 for a in fixed)


def test_force_keeps_row_order_and_shape():
    cells = [[0, 1], [0, 2]]
    tables = [np.array([[1, 3], [3, 1]]), np.array([[1, 2], [2, 1]])]
    out = kn.force(cells, tables)
    assert [t.tolist() for t in out] == [[[1, 3]], [[1, 2]]]


def test_an_empty_table_empties_the_tables_it_crosses():
    cells = [[0, 1], [0, 2], [3, 4]]
    tables = [np.zeros((0, 2), np.int8), np.array([[1, 2], [2, 1]]), np.array([[1, 2]])]
    out = kn.force(cells, tables, until_fixed=True)
    assert [len(t) for t in out] == [0, 0, 1]
    assert [len(t) for t in force_until_fixed(cells, tables)] == [0, 0, 1]
