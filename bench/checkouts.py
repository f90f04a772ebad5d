"""Two checkouts side by side: a bench script's worker run in a checkout, and its commit.

The scripts that compare a change's before and after (``calls.py``, ``scale.py``,
``before_after.py``, ``open_before_after.py``) run their timed side in a fresh process
of each checkout, with that checkout's own package first on the path (the venv's
editable install would otherwise find this one's), and read its answer back from the
last line it prints, as JSON.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys


def run_in(tree: str, argv: list, env: dict | None = None) -> dict:
    """The JSON of the last line ``python ARGV...`` prints, run in the checkout ``tree``
    (its working directory and package, before any ``PYTHONPATH`` already set), with
    ``env`` added to the environment."""
    path = os.pathsep.join(filter(None, [os.path.abspath(tree), os.environ.get("PYTHONPATH")]))
    out = subprocess.run([sys.executable, *argv], capture_output=True, text=True, cwd=tree,
                         check=True, env={**os.environ, **(env or {}), "PYTHONPATH": path})
    return json.loads(out.stdout.strip().splitlines()[-1])


def commit_of(tree: str) -> str:
    """The short commit a checkout is at ("?" outside git)."""
    return subprocess.run(["git", "-C", tree, "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip() or "?"


def fresh_copy(puzzle):
    """A new ``Puzzle`` equal to ``puzzle``, so that no model kept from a call on it is
    reused (``solve.model``); an older checkout's Puzzle, which cannot be copied, keeps
    no model: itself."""
    try:
        return copy.copy(puzzle)
    except AttributeError:
        return puzzle
