"""kc: the combination table, against the essay and brute force."""

import numpy as np
import pytest

import kakuro_np as kn
from strategies import all_combinations

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


@pytest.mark.parametrize("length", range(10))
def test_kc_equals_itertools_for_every_total(length):
    for total in range(-1, 50):
        combos = all_combinations(total, length)
        expected = np.array(combos, int).reshape(len(combos), length)
        got = kn.kc(total, length)
        assert got.shape == expected.shape, (total, length)
        np.testing.assert_array_equal(got, expected)


def test_kc_extremes():
    assert kn.kc(45, 9).tolist() == [list(range(1, 10))]
    assert kn.kc(3, 2).tolist() == [[1, 2]]
    assert kn.kc(46, 9).shape == (0, 9)
    assert kn.kc(0, 0).shape == (1, 0)


@pytest.mark.parametrize("args", [(10, 10), (10, -1), (10.5, 2), ("10", 2), (10, True)])
def test_kc_rejects_bad_arguments(args):
    with pytest.raises(ValueError):
        kn.kc(*args)
