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


@inline_kernel
def enqueue_neighbours(queue, inq, qstate, v, k, var_eoff, var_ent):
    """Queue every entry holding variable ``v`` other than ``k``."""
    for q in range(var_eoff[v], var_eoff[v + 1]):
        if var_ent[q] != k:
            enqueue(queue, inq, qstate, var_ent[q])


@kernel
def heap_push(heap, size, key):
    """Push ``key`` on the binary min-heap ``heap[:size]``; returns the new size (room assumed)."""
    i = size
    heap[i] = key
    while i > 0:
        parent = (i - 1) >> 1
        if heap[parent] <= key:
            break
        heap[i] = heap[parent]
        i = parent
    heap[i] = key
    return size + 1


@kernel
def heap_pop(heap, size):
    """Remove the smallest key of the non-empty heap ``heap[:size]``: ``(key, new size)``."""
    top = heap[0]
    size -= 1
    key = heap[size]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and heap[child + 1] < heap[child]:
            child += 1
        if heap[child] >= key:
            break
        heap[i] = heap[child]
        i = child
    if size > 0:
        heap[i] = key
    return top, size
