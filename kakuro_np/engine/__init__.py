"""The engine: the essay's verbs made fast, as numba kernels over packed arrays.

The stages, in the order the data flows (``kakuro_np.essay`` states each in plain numpy)::

    entries ──▶ jposs ──▶ force ──▶ trail ──▶ search / anyorder / counting

Modules
-------
jit       : kernel conventions (``kernel``, ``inline_kernel``), the cache guard,
            the clock, array helpers (``grow``, ``copy_into``, ``sort_ints``).
codes     : every code a kernel returns (``Status`` and the rest), one meaning per name.
policy    : when each strategy runs: the walk's, the checks', the hunt's and the count's
            tuning constants, one name each.
state     : the records the kernels share: ``Root`` (a puzzle's tables as the
            public verbs pass them), ``Tables`` (fixed once built) and ``Live``
            (the node the search stands on).
workqueue : the queue of entries to filter again, and a heap.
entries   : stage 1: the runs of a grid as packed entries (``entries``).
jposs     : stage 2: each entry's table, narrowed by combinations first (``jposs``).
force     : stage 3: filtering, propagation to the fixpoint, the fast table build
            (``force``), and the search's root (``start_state``).
trail     : stage 4's walk, written once: a ``Trail`` of fan-out levels with
            ``open_level`` / ``next_row`` / ``close_level`` / ``step``; the
            branching rule is the caller's.
search    : stage 4: the model and the depth-first fan-out in the essay's order
            (and its checks once it thrashes), the grade's fan-out count.
anyorder  : a hunt for solutions in any order (restarts, weights) on the trail.
counting  : counts by independent pieces on the trail, and Knuth's estimates.
cdcl      : clause learning over cell digits: the checks' refutations (nogoods).
memo      : the counts of pieces met again (a ``Memo`` record).
ahead     : compiling a kernel in a helper process on a first run.

Records are typed ``NamedTuple``s of arrays, which numba passes and caches like
arrays (``jitclass`` cannot be cached). Numba counts references to each array a
call receives, with atomic operations; on the per-node path (``step``,
``next_row``, ``apply_row``, ``propagate``, the queue) those cost about a third
of the search, so these few kernels are ``inline_kernel``: numba inlines them
into their caller, where the counts cancel out.

The public verbs (``kakuro``, ``count``, ``reduce``) are in ``kakuro_np.solve``.
"""
