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
