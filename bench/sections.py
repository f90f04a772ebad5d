"""Sections that bench scripts other than ``run.py`` keep in ``RESULTS.md``.

A section runs from ``<!-- begin NAME -->`` to ``<!-- end NAME -->``; ``run.py`` carries
them over when it rewrites the file.
"""

from __future__ import annotations

import os

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "RESULTS.md")


def markers(name: str) -> tuple:
    """The begin and end lines of section ``name``."""
    return f"<!-- begin {name} -->", f"<!-- end {name} -->"


def write_section(name: str, text: str, path: str = RESULTS) -> None:
    """Put ``text`` (which starts and ends with the markers) in place of section ``name``,
    or at the end of the file."""
    begin, end = markers(name)
    old = open(path).read() if os.path.exists(path) else "# Benchmark results\n"
    if begin in old and end in old:
        head, rest = old.split(begin, 1)
        new = head + text.rstrip("\n") + rest.split(end, 1)[1]
    else:
        new = old.rstrip("\n") + "\n\n" + text
    with open(path, "w") as f:
        f.write(new)
