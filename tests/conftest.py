"""Shared fixtures: the sample puzzles and their measured solution counts."""

import json
import pathlib

import os

import pytest
from hypothesis import HealthCheck, settings

# CI draws the same examples every run (derandomize), so a run is reproducible: fan-out can
# thrash on rare random grids with many solutions (see bench/README.md), and a red CI must
# be one we can replay. HYPOTHESIS_PROFILE=explore draws new examples each run.
#
# `make test` (profile "ci") draws a third of each property test's examples, so that it
# runs within its 3 minutes; `make test-all` (profile "thorough") draws every one.
#
# No profile times an example (deadline=None) or the drawing of one (too_slow): the suite
# may share its cores with other processes, and no test depends on the machine's speed.
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
SHARE = {"ci": 1 / 3}.get(PROFILE, 1.0)
UNTIMED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", derandomize=True, max_examples=34, **UNTIMED)
settings.register_profile("thorough", derandomize=True, **UNTIMED)
settings.register_profile("explore", derandomize=False, **UNTIMED)
settings.load_profile(PROFILE)


def examples(n: int) -> int:
    """How many examples a property test written for ``n`` draws in this profile (at
    least 10, or ``n`` when that is fewer)."""
    return max(min(n, 10), round(n * SHARE))

ROOT = pathlib.Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
EXPECTED = json.loads((PUZZLES / "expected.json").read_text())
SAMPLES = sorted(name for name in EXPECTED if not name.startswith("_"))
#: The tests' own puzzles (tests/data), beside the samples.
DATA = pathlib.Path(__file__).resolve().parent / "data"

#: The essay's k2: its joint possibilities' table sizes (jposs), and the row counts of
#: each table after each round of force, to the fixpoint (the first line is K2_SIZES).
K2_SIZES = [2, 6, 6, 18, 18, 48, 6, 2, 2, 16, 10, 5, 2, 2, 4, 10, 4, 2, 144, 8, 2, 48, 8, 8, 18, 2]
ESSAY_ROW_COUNTS = """
2 6 6 18 18 48 6 2 2 16 10 5 2 2 4 10 4 2 144 8 2 48 8 8 18 2
1 2 2  4 10 48 1 1 1 16  5 3 1 1 1  4 2 2 144 4 1  6 2 2  6 1
1 1 1  3  2  4 1 1 1  8  4 1 1 1 1  2 1 2   6 4 1  4 2 1  4 1
1 1 1  3  1  4 1 1 1  3  2 1 1 1 1  2 1 2   2 1 1  4 1 1  1 1
1 1 1  1  1  1 1 1 1  3  2 1 1 1 1  2 1 1   1 1 1  4 1 1  1 1
1 1 1  1  1  1 1 1 1  2  1 1 1 1 1  2 1 1   1 1 1  1 1 1  1 1
1 1 1  1  1  1 1 1 1  1  1 1 1 1 1  1 1 1   1 1 1  1 1 1  1 1
"""


def placed_error(verb, text):
    """The PuzzleError ``verb(text)`` raises (a reader), as its message; it names a line and
    a column."""
    from kakuro_np.errors import PuzzleError
    with pytest.raises(PuzzleError) as info:
        verb(text)
    assert info.value.line is not None and info.value.col is not None
    return str(info.value)


@pytest.fixture(scope="session")
def expected():
    """The samples' measured facts, keyed by file name."""
    return EXPECTED


# The tests hold the engine itself to its answers, on an empty cache too: the essay's answer
# while the kernels compile (``first_run``) is tested on its own, in tests/test_first_run.py.
from kakuro_np import first_run  # noqa: E402

first_run.ENABLED = False


def count_pieces(root, limit, deadline, memo, work, rank):
    """The counts of the pieces of every entry of ``root`` (``counting.count_split`` over all
    of them), as ``turns`` counts a model."""
    import numpy as np
    from kakuro_np.engine.walk.counting import count_split
    return count_split(root, np.arange(root.tab_off.shape[0] - 1), limit, deadline, memo, work,
                       rank)[0]
