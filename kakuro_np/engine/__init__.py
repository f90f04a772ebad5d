"""The engine: the essay's verbs made fast, as numba kernels over packed arrays.

The stages, in the order the data flows (``kakuro_np.essay`` states each in plain numpy)::

    entries ──▶ jposs ──▶ force ──▶ search / anyorder / counting

Modules
-------
jit       : kernel conventions (``kernel``), the cache guard, ``Status``, the clock,
            array helpers (``grow``, ``copy_into``, ``sort_ints``).
workqueue : the queue of entries to filter again, and a heap.
entries   : stage 1: the runs of a grid as packed entries (``entries``).
jposs     : stage 2: each entry's table, narrowed by combinations first (``jposs``).
force     : stage 3: filtering, propagation to the fixpoint, the fast table build
            (``force``).
search    : stage 4: the model and the depth-first fan-out in the essay's order.
anyorder  : a hunt for solutions in any order (restarts, weights).
counting  : counts by independent pieces, and Knuth's estimates.
memo      : the counts of pieces met again.
ahead     : compiling a kernel in a helper process on a first run.

The public verbs (``kakuro``, ``count``, ``reduce``) are in ``kakuro_np.solve``.
"""
