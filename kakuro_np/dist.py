"""Dask: whole batches and one big search spread over a cluster (the optional extra ``dist``).

``connected(scheduler)`` gives a ``distributed.Client`` for what a caller
names: a Client, a cluster object, ``"local"`` (a LocalCluster of one
single-threaded worker process per core, on loopback, closed afterwards) or a
scheduler's address (``"tcp://host:8786"``). On it:

- ``batch.solved_on`` runs a batch there, a chunk of puzzles a task;
- ``count_on`` and ``solutions_on`` split one puzzle's fan-out tree into
  subproblems (``engine.walk.split``), a task each, and add up their counts or
  join their solutions in the fan-out order.

Every task is a pure function of its arguments, so a task whose worker dies
is run again by Dask on another, with the same result.

Glossary
--------
subproblem : the cell masks of one branch of the fan-out (see ``engine.walk.split``).
end        : the wall-clock time (``time.time()``) after which tasks give up,
             or None; wall clocks, since a cluster's machines share no other.
threads    : the cluster's worker threads in all; the tree is split into
             TASKS_PER_THREAD times as many subproblems, so that a slow branch
             is met by others running beside it.

A count's branches share most of their pieces (the far side of the grid is the
same below every branch), which a single process counts once in its memo. Split,
each worker counts them again for its own tasks: on a grid whose count is all
shared pieces, two workers are no faster than one, and sixteen may be slower
(bench/HISTORY.md, "Scale"). So ``count_on`` counts the whole tree as one more
task beside the split's (an exact count as two, one for each order that a process
races on two cores, ``turns.count_in_turns``), first in the queue: whichever
ends first answers, and the rest are stopped (``stopping``). On two workers that
is the race of one process; on more, the split's tasks run beside it, and answer
where the pieces do not repeat.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
import time
import uuid
from collections import OrderedDict

import numpy as np

from .errors import SolveTimeout, seconds

#: Subproblems per worker thread a distributed ``count``/``kakuro`` splits the tree into.
#: Few and large: branches share pieces, and a worker's memo serves only its own tasks, so
#: the more tasks, the more often a shared piece is counted again (see bench/HISTORY.md).
TASKS_PER_THREAD = 4
#: Seconds to wait for a scheduler's address to answer, and for a cluster's first worker.
CONNECT_SECONDS, WORKER_WAIT = 10, 60
#: Models a worker keeps built, by puzzle, each with its memo of pieces (its tasks of one
#: puzzle build the model once and share the memo).
MODELS_KEPT = 2
#: A worker's memo of pieces: 2**20 slots and 2**25 key words (256 MiB at most, touched only
#: as keys are stored). Subproblems of one puzzle share most of their pieces, which the
#: default memo, starting over when full, would count again task after task; this one
#: keeps them, so the subproblems in turn cost about what the whole count costs.
MEMO_SLOTS_LOG2, MEMO_WORDS = 20, 1 << 25
#: A count with no limit (``turns.NO_LIMIT``, which ``dist`` cannot import: ``turns``
#: imports ``dist``).
NO_LIMIT = np.iinfo(np.int64).max
#: Seconds between a task's looks at whether it is to stop (``stopping``).
STOP_POLL = 0.25
#: What a subproblem's task returns when it was stopped (``stopping``) before it ended.
STOPPED = -1
#: What to install where Dask is missing.
INSTALL = "pip install 'kakuro_np[dist]'"

_models: OrderedDict = OrderedDict()


def distributed_module():
    """``distributed``, or an ImportError saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise ImportError(f"scheduler= needs Dask distributed, which is not installed: "
                          f"{INSTALL}") from None
    return distributed


@contextlib.contextmanager
def connected(scheduler):
    """A ``distributed.Client`` for ``scheduler`` while the block runs.

    A Client is used as it is; a cluster object gets a Client of its own;
    ``"local"`` starts a LocalCluster (one single-threaded worker process per
    core, loopback, its dashboard on a free port) for the block; any other string is a
    scheduler's address. A Client or cluster given is left open.
    """
    distributed = distributed_module()
    if isinstance(scheduler, distributed.Client):
        yield scheduler
    elif scheduler == "local":
        with distributed.LocalCluster(n_workers=cores(), threads_per_worker=1, processes=True,
                                      host="127.0.0.1", dashboard_address=":0") as cluster, \
                distributed.Client(cluster) as client:
            yield client
    elif isinstance(scheduler, str):
        try:
            client = distributed.Client(scheduler, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError, ValueError) as e:
            raise ConnectionError(f"cannot reach the Dask scheduler at {scheduler!r}: "
                                  f"{e}") from None
        with client:
            yield client
    elif hasattr(scheduler, "scheduler_address"):              # a cluster object
        with distributed.Client(scheduler) as client:
            yield client
    else:
        raise ValueError(f"scheduler must be a distributed.Client, a cluster, 'local' or an "
                         f"address like 'tcp://host:8786', got {scheduler!r}")


def cores() -> int:
    """The cores this process may run on."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else os.cpu_count() or 1)


def threads(client) -> int:
    """The worker threads of the cluster (waiting up to WORKER_WAIT s for a first worker;
    ConnectionError past it)."""
    try:
        client.wait_for_workers(1, timeout=WORKER_WAIT)
    except TimeoutError:
        raise ConnectionError(f"the Dask scheduler at {client.scheduler.address} has no "
                              f"worker (start one with: dask worker "
                              f"{client.scheduler.address})") from None
    return max(1, sum(client.nthreads().values()))


# ---------------------------------------------------------------------------
# One puzzle's search, split


def model_key(puzzle, max_rows) -> str:
    """A name for a puzzle's model: the same puzzle and budget give the same name."""
    h = hashlib.blake2b(digest_size=16)
    h.update(repr((puzzle.shape, int(max_rows))).encode())
    for a in (puzzle.blank, puzzle.down, puzzle.across, puzzle.given):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def kept(key, make):
    """This worker's value for ``key``: ``make()`` on the first task that asks, kept for
    the later ones (the MODELS_KEPT last keys asked for)."""
    value = _models.get(key)
    if value is None:
        value = _models[key] = make()
        while len(_models) > MODELS_KEPT:
            _models.popitem(last=False)
    _models.move_to_end(key)
    return value


def forget() -> None:
    """Drop this worker's models and memos (``client.run(forget)`` on every worker): a
    count timed again starts cold."""
    _models.clear()


def deadline_of(end) -> int:
    """The kernels' deadline (``monotonic_ns``) for the wall-clock time ``end`` (None:
    never)."""
    from .engine.core.jit import deadline_ns
    return deadline_ns(None if end is None else max(end - time.time(), 0.0))


def _submit_split(client, task, m, cap, timeout, max_rows, tasks, *extra, orders=()):
    """``(parts, wholes)``: the futures of ``task(puzzle, key, max_rows, mask, cap, end,
    *extra)`` over the subproblems the tree of ``m`` splits into, and, sent before them,
    first in the queue, those of ``task(..., *extra, first_order)`` over the whole tree,
    one for each of ``orders`` (see the module's note)."""
    from .engine.walk.split import split
    end = None if timeout is None else time.time() + timeout
    parts = split(m, tasks if tasks is not None else TASKS_PER_THREAD * threads(client))
    key = model_key(m.puzzle, max_rows)
    wholes = [client.submit(task, m.puzzle, key, max_rows, m.mask, cap, end, *extra,
                            first_order, pure=False, priority=1) for first_order in orders]
    return [client.submit(task, m.puzzle, key, max_rows, mask, cap, end, *extra, pure=False)
            for mask in parts], wholes


def count_on(client, task, m, cap, timeout, max_rows, tasks=None):
    """``count`` of model ``m`` on the cluster: at most ``cap`` (exact for NO_LIMIT); the
    subproblems' counts added as they come, beside a task counting the whole tree:
    the first side to end answers, and the other's tasks are stopped (see the module's
    note). SolveTimeout past ``timeout`` seconds. ``task(puzzle, key, max_rows, mask,
    cap, end, stop)`` counts one subproblem (``solve.count_subproblem``), or STOPPED once
    the cluster's Event ``stop`` is set; ``max_rows`` is the budget ``m`` was built with;
    the tree is split into ``tasks`` subproblems (default TASKS_PER_THREAD a worker
    thread)."""
    distributed = distributed_module()
    stop = f"kakuro-np-stop-{uuid.uuid4().hex}"
    parts, wholes = _submit_split(client, task, m, cap, timeout, max_rows, tasks, stop,
                                  orders=(True, False) if cap >= NO_LIMIT else (False,))
    futures, parts, whole = parts + wholes, set(parts), set(wholes)
    total = 0
    try:
        for future in distributed.as_completed(futures):
            n = future.result()
            if n is None:
                raise SolveTimeout(f"timed out after {seconds(timeout)} s while counting, with "
                                   f"{total:,} solutions counted so far")
            if future in whole:
                return min(n, cap)
            total += n
            parts.discard(future)
            if total >= cap or not parts:
                break
    finally:
        distributed.Event(stop, client=client).set()
        client.cancel(futures)
    return min(total, cap)


@contextlib.contextmanager
def stopping(name, stop):
    """In a task: while the block runs, once the cluster's Event ``name`` is set (None:
    never), ``stop()`` is called every millisecond until the block ends (a kernel may
    take a node off just after a stop was written: see ``turns.first_of``). The
    Event is looked at every STOP_POLL seconds, in a thread of its own, which ends by
    itself within that once the block has ended (the task's answer does not wait for it)."""
    if name is None:
        yield
        return
    distributed = distributed_module()
    event = distributed.Event(name, client=distributed.get_client())
    ended = threading.Event()

    def watch():
        try:
            while not ended.is_set():
                if event.wait(STOP_POLL):
                    while not ended.wait(0.001):
                        stop()
                    return
        except Exception:                   # the client closing: the task ends anyway
            return

    threading.Thread(target=watch, daemon=True).start()
    try:
        yield
    finally:
        ended.set()


def solutions_on(client, task, m, cap, timeout, max_rows, tasks=None):
    """The first ``cap`` solutions of model ``m`` in the essay's order, found on the
    cluster: ``(found, digits per variable)``; SolveTimeout past ``timeout`` seconds.
    ``task`` finds a subproblem's (``solve.subproblem_solutions``); the rest is as
    for ``count_on``.

    Each subproblem's task finds up to ``cap`` solutions; they are joined in
    the fan-out order, and the tasks after the ``cap``-th solution are cancelled.
    """
    futures, _ = _submit_split(client, task, m, cap, timeout, max_rows, tasks)
    got, found = [], 0
    try:
        for future in futures:
            try:
                digits = future.result()
            except SolveTimeout:
                raise SolveTimeout(f"timed out after {seconds(timeout)} s with {found} solutions "
                                   f"joined; ask for fewer with limit= or count them with "
                                   f"count()") from None
            got.append(digits)
            found += len(digits)
            if found >= cap:
                break
    finally:
        client.cancel(futures)
    digits = np.concatenate(got)[:cap] if got else np.zeros((0, len(m.var_cell)), np.int8)
    return len(digits), digits
