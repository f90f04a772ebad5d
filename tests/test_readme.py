"""The README's API tour runs as written."""

import os

import pytest

from conftest import ROOT


def run_block(heading):
    """The names the first python block after ``heading`` leaves, run from the repo's root."""
    text = (ROOT / "README.md").read_text()
    code = text.split(heading, 1)[1].split("```python", 1)[1].split("```", 1)[0]
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        namespace = {}
        exec(compile(code, "README.md", "exec"), namespace)
    finally:
        os.chdir(cwd)
    return namespace


def test_the_logic_tour_runs_and_says_what_it_shows(capsys):
    ns = run_block("## Logic you can follow")
    steps, s = ns["steps"], ns["s"]
    assert len(steps) == 91 and steps.status == "solved" and ns["stuck"].status == "stuck"
    assert str(steps[0]) in capsys.readouterr().out
    assert (s.technique, s.entry, s.cells, s.placed) == ("unique combination", 0, [(1, 1), (1, 2)], {})
    assert s.removed[(1, 1)] == {1, 2, 3, 4, 5, 6, 8}
    assert ns["tip"].technique == "mistake"
    assert (ns["g"].label, ns["g"].score, ns["g"].fanouts) == ("medium", 25.9, 0)
    assert (ns["c"].wrong, ns["c"].consistent) == ([(2, 3)], 0)
    assert ns["figures"]["white_cells"] == 48 and ns["figures"]["U1"] == 9 ** 48


def test_the_api_tour_runs(capsys):
    namespace = run_block("## A tour of the API")
    assert namespace["sols"].shape == (40, 11, 11) and namespace["n"] == 40
    assert namespace["r"].status == "solved"
    assert "┌" in capsys.readouterr().out


@pytest.mark.dask
def test_the_batch_tour_runs():
    pytest.importorskip("distributed")
    ns = run_block("## Many puzzles, many machines")
    r = ns["r"]
    assert (r.id, r.count, r.status, r.solutions.shape) == ("k3", 40, "multiple", (2, 11, 11))
    assert ns["bad"] == [] and ns["n"] == 40


def test_the_ten_line_tour_at_the_top_runs_as_its_comments_say(capsys):
    text = (ROOT / "README.md").read_text().split("## Contents", 1)[0]
    code = text.split("```python", 1)[1].split("```", 1)[0]
    assert len(code.strip().splitlines()) <= 13
    namespace = {}
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(code, "README.md", "exec"), namespace)
    finally:
        os.chdir(cwd)
    import kakuro_np as kn
    assert namespace["sols"].shape == (40, 11, 11) and kn.count(namespace["p"], limit=2) == 2
    assert namespace["new"].shape == (10, 10) and kn.count(namespace["new"], limit=2) == 1
    shown = capsys.readouterr().out
    assert shown.startswith("unique combination: The across 16 at (1, 0)") and "┌" in shown
    tip = kn.hint(kn.read(ROOT / "puzzles" / "k2-played.pipe"))
    assert tip.technique == "mistake" and "3 at (2, 3)" in tip.reason
    assert kn.kc(16, 2).tolist() == [[7, 9]] and kn.grade(ROOT / "puzzles" / "k7.txt").label == "medium"
