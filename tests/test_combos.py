"""kc: the combination table, against the essay, every digit set and the generating function."""

import numpy as np
import pytest

import kakuro_np as kn
from kakuro_np.search_space import COMBINATIONS

ESSAY_18_IN_4 = """1 2 6 9
1 2 7 8
1 3 5 9
1 3 6 8
1 4 5 8
1 4 6 7
2 3 4 9
2 3 5 8
2 3 6 7
2 4 5 7
3 4 5 6"""


def test_kc_18_4_is_the_essays_table():
    expected = np.array([line.split() for line in ESSAY_18_IN_4.splitlines()], int)
    got = kn.kc(18, 4)
    assert got.dtype == np.int8
    np.testing.assert_array_equal(got, expected)


#: The 512 sets of digits as bit masks (bit d - 1 for digit d), with their sizes and sums.
SETS = np.arange(512)
BITS = (SETS[:, None] >> np.arange(9)) & 1
SIZES = BITS.sum(axis=1)
TOTALS = BITS @ np.arange(1, 10)


@pytest.mark.parametrize("length", range(10))
def test_kc_rows_are_every_set_of_distinct_digits_that_adds_up_once_in_order(length):
    for total in range(-1, 50):
        got = kn.kc(total, length)
        assert got.dtype == np.int8 and got.shape[1] == length, (total, length)
        rows = got.astype(np.int64)
        assert ((rows >= 1) & (rows <= 9)).all()
        assert (np.diff(rows, axis=1) > 0).all()              # ascending, so distinct digits
        assert (rows.sum(axis=1) == total).all()
        assert rows.tolist() == sorted(rows.tolist())          # rows in lexicographic order
        as_sets = (1 << (rows - 1)).sum(axis=1)                # each row as its digit set
        assert sorted(as_sets.tolist()) == SETS[(SIZES == length) & (TOTALS == total)].tolist()


def test_kc_counts_are_the_generating_functions():
    """Davies et al., Lemma 1: the coefficients of prod (1 + a y^i), i = 1..9."""
    counts = [[len(kn.kc(total, length)) for total in range(46)] for length in range(10)]
    np.testing.assert_array_equal(counts, COMBINATIONS)
    assert [COMBINATIONS[2, t] for t in (3, 4, 16, 17)] == [1, 1, 1, 1]   # the 2-cell magic blocks
    assert COMBINATIONS[4, 18] == 11 and COMBINATIONS.sum() == 512


def test_kc_extremes():
    assert kn.kc(45, 9).tolist() == [list(range(1, 10))]
    assert kn.kc(3, 2).tolist() == [[1, 2]]
    assert kn.kc(46, 9).shape == (0, 9)
    assert kn.kc(0, 0).shape == (1, 0)


@pytest.mark.parametrize("args", [(10, 10), (10, -1), (10.5, 2), ("10", 2), (10, True)])
def test_kc_rejects_bad_arguments(args):
    with pytest.raises(ValueError):
        kn.kc(*args)


def test_sum_sets_are_the_totals_of_k_distinct_digits_of_a_set():
    import itertools
    from kakuro_np.combos import SUM_SETS
    for s in [0, 1, 0b100000001, 0b101010101, 511, 0b11110000]:
        digits = [d + 1 for d in range(9) if s >> d & 1]
        for k in range(10):
            totals = {sum(c) for c in itertools.combinations(digits, k)}
            assert SUM_SETS[s, k] == sum(1 << t for t in totals), (s, k)
