"""Shared fixtures: the sample puzzles and their measured solution counts."""

import json
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
EXPECTED = json.loads((PUZZLES / "expected.json").read_text())
SAMPLES = sorted(name for name in EXPECTED if not name.startswith("_"))


@pytest.fixture(scope="session")
def expected():
    """The samples' measured facts, keyed by file name."""
    return EXPECTED
