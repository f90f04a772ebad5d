"""What fits (``kakuro_np/budget.py``): a listing's bytes, and numbers for a person."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import kakuro_np as kn
from kakuro_np.budget import big_number, power_of_ten, solution_bytes, solutions_within
from conftest import PUZZLES


@given(st.integers(1, 1 << 40), st.integers(1, 200), st.integers(1, 200))
def test_the_solutions_within_a_budget_fit_it_and_one_more_would_not(max_bytes, H, W):
    blanks = H * W // 2 + 1
    n = solutions_within(max_bytes, blanks, H, W)
    one = solution_bytes(blanks, H, W)
    assert n >= 1 and one > 0
    assert n == 1 or n * one <= max_bytes < (n + 1) * one


@given(st.integers(1, 10 ** 60))
def test_a_big_number_reads_back_within_its_rounding(n):
    text = big_number(n)
    if n < 10 ** 9:
        assert int(text.replace(",", "")) == n
    else:
        assert abs(float(text) - n) <= 0.051 * 10 ** math.floor(math.log10(n))


@given(st.floats(0, 5000, allow_nan=False), st.integers(1, 4))
def test_a_power_of_ten_has_one_digit_before_the_point(log10, digits):
    mantissa, exponent = power_of_ten(log10, digits).split("e")
    assert 1.0 <= float(mantissa) < 10.0 and len(mantissa.split(".")[1]) == digits
    assert abs(math.log10(float(mantissa)) + int(exponent) - log10) < 10 ** -digits


def test_a_listing_past_the_budget_is_refused_with_what_is_known_of_the_count():
    blanks = int(kn.read(PUZZLES / "k3.txt").blank.sum())
    with pytest.raises(kn.TooManySolutions) as e:
        kn.kakuro(PUZZLES / "k3.txt", max_bytes=3 * solution_bytes(blanks, 11, 11))
    assert e.value.at_least > 3 and e.value.count in (None, 40)
    assert len(kn.kakuro(PUZZLES / "k3.txt", max_bytes=40 * solution_bytes(blanks, 11, 11))) == 40
