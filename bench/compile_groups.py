"""Compile groups of ``engine.core.ahead.KERNELS`` in one process, in order, on an empty cache,
and print each group's seconds and each kernel's own compile seconds (numba's compile
events, nested: a kernel's own time is its compile less its callees'), most first.

Run a checkout's copy to compare two side by side (one core each, the same minutes)::

    NUMBA_CACHE_DIR=$(mktemp -d) PYTHONPATH=/tmp/before .venv/bin/python \\
        /tmp/before/bench/compile_groups.py model search checks &
    NUMBA_CACHE_DIR=$(mktemp -d) .venv/bin/python bench/compile_groups.py model search checks

Without ``NUMBA_CACHE_DIR`` it makes a new one (an empty cache).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

os.environ.setdefault("NUMBA_CACHE_DIR", tempfile.mkdtemp(prefix="kakuro-compile-"))

from numba.core import event  # noqa: E402

#: (kernel name, own seconds, seconds with its callees) of each compile, as they end.
COMPILES = []
_open = []                          # [start, callees' seconds] of each compile under way


class _Timer(event.Listener):
    def on_start(self, ev):
        _open.append([time.perf_counter(), 0.0])

    def on_end(self, ev):
        began, callees = _open.pop()
        total = time.perf_counter() - began
        if _open:
            _open[-1][1] += total
        func = getattr(ev.data.get("dispatcher"), "py_func", None)
        COMPILES.append((getattr(func, "__qualname__", "?"), total - callees, total))


def main(groups) -> None:
    event.register("numba:compile", _Timer())
    from kakuro_np.engine.core import ahead
    for group in groups:
        began = time.perf_counter()
        for kernel, types in ahead.kernels_of(group):
            kernel.compile(types)
        print(f"{group}: {time.perf_counter() - began:.1f} s", flush=True)
    own = {}
    for name, self_s, total in COMPILES:
        row = own.setdefault(name, [0.0, 0, 0.0])
        row[0] += self_s
        row[1] += 1
        row[2] = max(row[2], total)
    print("\n| kernel | own s | compiles | longest with callees, s |\n|---|---:|---:|---:|")
    for name, (self_s, n, longest) in sorted(own.items(), key=lambda kv: -kv[1][0])[:30]:
        print(f"| {name} | {self_s:.2f} | {n} | {longest:.2f} |")
    print(f"\nown seconds, summed: {sum(row[0] for row in own.values()):.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:] or ["model", "search", "checks"])
