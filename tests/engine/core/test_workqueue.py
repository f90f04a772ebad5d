"""The queue of entries (``engine/core/workqueue.py``)."""

import collections

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kakuro_np.engine.core.workqueue import dequeue, enqueue, new_queue
from conftest import examples

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
