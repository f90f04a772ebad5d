"""Progress of a long count: ``Progress`` reports and the ``Meter`` that makes them."""

from __future__ import annotations

import threading
import time
from typing import NamedTuple

import numpy as np


class Progress(NamedTuple):
    """How far a ``count()`` has come: the ``nodes`` (rows tried) so far, the most
    ``solutions`` a count under way has reached (a piece's count so far; the full
    count is at least this unless another piece has none), and the ``seconds`` since it
    started."""
    nodes: int
    solutions: int
    seconds: float

    @property
    def rate(self) -> float:
        """Nodes per second."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


class Meter:
    """What ``count_in_turns`` has done, readable from another thread while a kernel runs.

    ``state`` is ``(nodes of the turns done, nodes of the turn under way, its
    work array)`` (see ``counting.Tally``), replaced whole, so a reader never sees
    half of an update.
    """

    def __init__(self):
        self.start = time.monotonic()
        self.state = (0, 0, np.zeros(2, np.int64))

    def read(self) -> Progress:
        """The progress so far."""
        done, turn, work = self.state
        return Progress(done + max(turn - max(int(work[0]), 0), 0), int(work[1]),
                        time.monotonic() - self.start)

    def add(self, nodes, turn=0, work=None):
        """Count ``nodes`` more as done, and start following a count of ``turn`` nodes with
        ``work`` (a fresh array carrying the solutions reached so far when None)."""
        done, _, last = self.state
        self.state = (done + nodes, turn,
                      np.array([turn, last[1]]) if work is None else work)


def reporting(work, progress, every):
    """``work(meter)`` in a second thread, calling ``progress(meter.read())`` about every
    ``every`` seconds in this one until it ends; its result (or exception)."""
    meter = Meter()
    out = {}

    def run():
        try:
            out["value"] = work(meter)
        except BaseException as e:          # handed to the calling thread
            out["error"] = e

    worker = threading.Thread(target=run, name="kakuro-count", daemon=True)
    worker.start()
    while True:
        worker.join(every)
        if not worker.is_alive():
            break
        progress(meter.read())
    if "error" in out:
        raise out["error"]
    return out["value"]
