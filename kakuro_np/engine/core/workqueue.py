"""A circular queue of entry ids for the fixpoint kernels (each entry at most once).

Glossary
--------
queue  : int64 ring buffer of entry ids, one slot per entry.
inq    : bool per entry, True while it waits in the queue.
qstate : int64 ``[head, size]``.
"""

from __future__ import annotations

import numpy as np

from .jit import inline_kernel, kernel


@kernel
def new_queue(n_entries):
    """An empty queue for ``n_entries`` entries: ``(queue, inq, qstate)``."""
    n = max(n_entries, 1)
    return np.zeros(n, np.int64), np.zeros(n, np.bool_), np.zeros(2, np.int64)


@inline_kernel
def enqueue(queue, inq, qstate, k):
    """Put entry ``k`` on the queue unless it is already there."""
    if not inq[k]:
        inq[k] = True
        queue[(qstate[0] + qstate[1]) % queue.shape[0]] = k
        qstate[1] += 1


@inline_kernel
def dequeue(queue, inq, qstate):
    """Take the entry at the head of a non-empty queue."""
    k = queue[qstate[0]]
    qstate[0] = (qstate[0] + 1) % queue.shape[0]
    qstate[1] -= 1
    inq[k] = False
    return k
