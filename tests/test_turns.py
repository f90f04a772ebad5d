"""Turns (``kakuro_np/turns.py``): limits, the kernels a count runs, and the race."""

import time

import numpy as np
import pytest

import kakuro_np as kn
from kakuro_np.engine.core import policy
from kakuro_np.turns import NO_LIMIT, as_limit, count_kernels, first_of
from conftest import PUZZLES


def test_a_limit_is_a_whole_number_or_none():
    assert as_limit(None) == NO_LIMIT and as_limit(0) == 0 and as_limit(np.int32(7)) == 7
    for bad in (-1, 2.0, True, "3", np.bool_(True)):
        with pytest.raises(ValueError, match="limit must be"):
            as_limit(bad)


def test_a_count_up_to_a_small_limit_takes_turns_with_the_hunt():
    assert count_kernels(policy.HUNT_MAX) == ("hunt", "count")
    assert count_kernels(policy.HUNT_MAX + 1) == count_kernels(None) == ("count",)


def test_the_first_to_end_answers_and_the_other_has_stopped_when_it_returns():
    stopped = []

    def slow(runner):
        while not runner.stopped:
            time.sleep(0.01)
        stopped.append(True)
        return "slow"

    assert first_of(slow, lambda runner: "fast") == (1, "fast")
    assert stopped == [True]                    # first_of waits until every call ended


def test_counts_in_turns_agree_with_the_listing_at_every_limit():
    p = kn.read(PUZZLES / "k3.txt")
    for limit in (1, 2, 39, 40, 41, None):
        assert kn.count(p, limit=limit) == min(40, NO_LIMIT if limit is None else limit)
