"""The ladder's techniques one by one, on the README's examples and against brute force."""

import itertools
import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import kakuro_np as kn
from conftest import ROOT, examples
from kakuro_np.techniques import NAMES, N_TECHNIQUES, try_technique


def digit_set(text: str) -> int:
    return sum(1 << (int(d) - 1) for d in text)


def digits(mask: int) -> str:
    return "".join(str(d) for d in range(1, 10) if (mask >> (d - 1)) & 1)


def first_progress(total, masks):
    """``(technique, masks after)`` of the simplest technique that helps, or ``(None, masks)``."""
    m = np.array(masks, np.int64)
    for t in range(N_TECHNIQUES):
        out = m.copy()
        if try_technique(t, m, total, out, np.zeros(4, np.int64), np.zeros(32, np.int64)):
            return NAMES[t], out.tolist()
    return None, masks


def ladder_examples():
    """``(technique, total, before, after)`` from the README's table of the ladder."""
    text = (ROOT / "README.md").read_text().split("### The ladder", 1)[1].split("\n### ", 1)[0]
    rows = re.findall(r"^\| \d+ \| ([a-z ]+) \| .*`(\d+): ([\d ]+) → ([\d ]+)` \|$", text, re.M)
    return [(name, int(total), before.split(), after.split()) for name, total, before, after in rows]


def test_the_readme_shows_every_technique():
    assert [row[0] for row in ladder_examples()] == list(NAMES)


@pytest.mark.parametrize("name, total, before, after", ladder_examples())
def test_readme_example_is_its_technique(name, total, before, after):
    """The example's technique is the simplest that helps, and gives what the README says."""
    technique, out = first_progress(total, [digit_set(d) for d in before])
    assert technique == name
    assert [digits(m) for m in out] == after


def fillings(total, masks):
    return [p for combo in kn.kc(total, len(masks)).tolist()
            for p in itertools.permutations(combo)
            if all((m >> (d - 1)) & 1 for m, d in zip(masks, p))]


@st.composite
def entries_with_candidates(draw):
    """``(total, masks)``: an entry filled at random, each cell's candidates holding its digit."""
    n = draw(st.integers(2, 6))
    fill = draw(st.permutations(range(1, 10)))[:n]
    masks = [digit_set(str(d)) | draw(st.integers(0, 511)) & draw(st.integers(0, 511))
             for d in fill]
    return sum(fill), masks


@settings(max_examples=examples(300), deadline=None)
@given(entries_with_candidates(), st.integers(0, N_TECHNIQUES - 1))
def test_no_technique_removes_a_digit_some_filling_uses(case, t):
    total, masks = case
    m = np.array(masks, np.int64)
    out = m.copy()
    if try_technique(t, m, total, out, np.zeros(4, np.int64), np.zeros(32, np.int64)):
        assert (out & ~m).sum() == 0                     # only removes
        for way in fillings(total, masks):
            assert all((o >> (d - 1)) & 1 for o, d in zip(out.tolist(), way)), (NAMES[t], way)


@settings(max_examples=examples(300), deadline=None)
@given(entries_with_candidates())
def test_joint_possibilities_keep_exactly_what_the_fillings_use(case):
    total, masks = case
    ways = fillings(total, masks)
    keep = [sum(1 << (d - 1) for d in {w[i] for w in ways}) for i in range(len(masks))]
    m = np.array(masks, np.int64)
    out = m.copy()
    decided = [x for x in masks if bin(x).count("1") == 1]
    changed = try_technique(NAMES.index("joint possibilities"), m, total, out,
                            np.zeros(4, np.int64), np.zeros(32, np.int64))
    if len(masks) - len(decided) >= 2 and len(set(decided)) == len(decided):
        open_keep = [k for k, x in zip(keep, masks) if bin(x).count("1") != 1]
        open_out = [o for o, x in zip(out.tolist(), masks) if bin(x).count("1") != 1]
        assert open_out == open_keep
        assert changed == (open_keep != [x for x in masks if bin(x).count("1") != 1])
