"""The README's API tour runs as written."""

import os

from conftest import ROOT


def test_the_api_tour_runs(capsys):
    text = (ROOT / "README.md").read_text()
    code = text.split("## A tour of the API", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        namespace = {}
        exec(compile(code, "README.md", "exec"), namespace)
    finally:
        os.chdir(cwd)
    assert namespace["sols"].shape == (40, 11, 11) and namespace["n"] == 40
    assert namespace["r"].status == "solved"
    assert "┌" in capsys.readouterr().out
