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


def test_a_count_stopped_mid_turn_raises_stopped_and_hunts_nothing_after(monkeypatch):
    """A count told to stop while its kernel runs (a Dask task whose other side answered)
    raises Stopped when the kernel returns; the turns after such a stop, above the hunt's
    limit, hunted once with the count's limit as the hunt's (a billion-entry array: 8 GB
    in a worker)."""
    import kakuro_np.turns as turns_module
    from kakuro_np.solve import model
    called = []
    monkeypatch.setattr(turns_module, "any_solutions", lambda *a: called.append(a[2]))

    class MidTurn(turns_module.Runner):
        """Not stopped when the turn starts; stopped as soon as the kernel has its work."""
        looks = 0

        @property
        def stopped(self):
            self.looks += 1
            return self.looks > 1

        @stopped.setter
        def stopped(self, value):
            pass

        @property
        def work(self):
            return self._work

        @work.setter
        def work(self, value):
            self._work = value
            value[0] = turns_module.STOP_NODES          # the stop lands at once

    m = model("tests/data/many-12x12.txt")
    for cap in (10 ** 9, turns_module.NO_LIMIT):
        with pytest.raises(turns_module.Stopped):
            turns_module.count_in_turns(m, cap, turns_module.NO_DEADLINE, race=False,
                                        stop=MidTurn())
    assert called == []
