"""The queue of entries and the min-heap (``engine/core/workqueue.py``)."""

import collections
import heapq

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kakuro_np.engine.core.workqueue import (dequeue, enqueue, enqueue_neighbours, heap_pop,
                                             heap_push, new_queue)
from conftest import examples

INT64 = st.integers(-2**63, 2**63 - 1)


@settings(max_examples=examples(30))
@given(st.integers(0, 50))
def test_a_new_queue_is_empty_with_one_slot_per_entry(n):
    queue, inq, qstate = new_queue(np.int64(n))
    slots = max(n, 1)                            # no entries: still one slot
    assert queue.dtype == np.int64 and queue.shape == (slots,)
    assert inq.dtype == np.bool_ and inq.shape == (slots,) and not inq.any()
    assert qstate.dtype == np.int64 and qstate.tolist() == [0, 0]


def drain(queue, inq, qstate):
    """Every entry on the queue, in the order it hands them out."""
    out = []
    while qstate[1] > 0:
        out.append(int(dequeue(queue, inq, qstate)))
    return out


#: Operations on a queue of up to 12 entries: an entry to put on it, or None to take one off.
OPERATIONS = st.integers(1, 12).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(st.none() | st.integers(0, n - 1), max_size=120)))


@settings(max_examples=examples(200))
@given(OPERATIONS)
def test_the_queue_hands_out_each_waiting_entry_once_first_in_first_out(case):
    n, operations = case
    queue, inq, qstate = new_queue(np.int64(n))
    waiting = collections.deque()
    for k in operations:
        if k is not None:
            enqueue(queue, inq, qstate, np.int64(k))
            if k not in waiting:
                waiting.append(k)
        elif waiting:                            # only a non-empty queue is dequeued
            assert dequeue(queue, inq, qstate) == waiting.popleft()
        assert qstate[1] == len(waiting) <= n
        assert 0 <= qstate[0] < n
        assert inq.tolist() == [e in waiting for e in range(n)]
    assert drain(queue, inq, qstate) == list(waiting)
    assert not inq.any()


def test_the_queue_wraps_around_its_ring():
    queue, inq, qstate = new_queue(np.int64(3))
    for k in (0, 1, 2):
        enqueue(queue, inq, qstate, np.int64(k))
    assert dequeue(queue, inq, qstate) == 0 and dequeue(queue, inq, qstate) == 1
    enqueue(queue, inq, qstate, np.int64(0))
    enqueue(queue, inq, qstate, np.int64(1))
    assert qstate.tolist() == [2, 3] and queue.tolist() == [0, 1, 2]
    assert drain(queue, inq, qstate) == [2, 0, 1]


@st.composite
def neighbourhoods(draw):
    """``(var_eoff, var_ent, v, k, queued)``: each variable's entries, a variable, an entry,
    and the entries waiting already."""
    E = draw(st.integers(1, 10))
    V = draw(st.integers(1, 6))
    entries = [draw(st.lists(st.integers(0, E - 1), max_size=E, unique=True)) for _ in range(V)]
    var_eoff = np.cumsum([0] + [len(e) for e in entries]).astype(np.int64)
    var_ent = np.array([k for e in entries for k in e], np.int64)
    v = draw(st.integers(0, V - 1))
    k = draw(st.integers(0, E - 1) | st.sampled_from(entries[v] or [0]))
    queued = draw(st.lists(st.integers(0, E - 1), max_size=E, unique=True))
    return E, var_eoff, var_ent, v, k, queued


@settings(max_examples=examples(150))
@given(neighbourhoods())
def test_neighbours_join_the_queue_in_order_once_each_but_the_entry_itself(case):
    E, var_eoff, var_ent, v, k, queued = case
    queue, inq, qstate = new_queue(np.int64(E))
    for e in queued:
        enqueue(queue, inq, qstate, np.int64(e))
    enqueue_neighbours(queue, inq, qstate, np.int64(v), np.int64(k), var_eoff, var_ent)
    neighbours = [int(e) for e in var_ent[var_eoff[v]:var_eoff[v + 1]] if e != k]
    assert drain(queue, inq, qstate) == queued + [e for e in neighbours if e not in queued]


def heap_keys(keys):
    """A heap of room ``len(keys)`` with ``keys`` pushed in turn."""
    heap, size = np.zeros(max(len(keys), 1), np.int64), 0
    for key in keys:
        size = heap_push(heap, np.int64(size), np.int64(key))
        assert all(heap[(i - 1) // 2] <= heap[i] for i in range(1, size))   # a min-heap
    return heap, size


@settings(max_examples=examples(200))
@given(st.lists(INT64, max_size=80))
def test_a_heap_pops_any_keys_in_ascending_order(keys):
    heap, size = heap_keys(keys)
    assert size == len(keys)
    popped = []
    while size > 0:
        key, size = heap_pop(heap, np.int64(size))
        popped.append(int(key))
    assert popped == sorted(keys)


@settings(max_examples=examples(200))
@given(st.lists(st.none() | st.integers(-50, 50), max_size=100))
def test_a_heap_pop_always_takes_the_smallest_key_pushed_and_not_yet_popped(operations):
    heap, size, model = np.zeros(max(len(operations), 1), np.int64), 0, []
    for key in operations:
        if key is not None:
            size = heap_push(heap, np.int64(size), np.int64(key))
            heapq.heappush(model, key)
        elif model:                               # only a non-empty heap is popped
            key, size = heap_pop(heap, np.int64(size))
            assert key == heapq.heappop(model)
        assert size == len(model)
        assert sorted(heap[:size].tolist()) == sorted(model)
