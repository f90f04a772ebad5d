"""The engine: the essay's verbs made fast, as numba kernels over packed arrays.

The stages, in the order the data flows (``kakuro_np.essay`` states each in plain numpy)::

    core ──▶ build ──▶ force ──▶ model ──▶ walk ──▶ proofs ──▶ search
             (entries, jposs)    (stages 1-3     (trail,   (checks,   (stage 4,
                                  in one call)    counts)   cdcl)      the essay's order)

Each stage imports only the stages before it (``tests/test_code_shape.py`` holds it,
imports inside functions included).

Layout
------
core/   : what every stage shares. ``jit`` (kernel conventions, the cache guard and
          lock, the clock, array helpers), ``state`` (the records: ``Root``,
          ``Tables``, ``Live``), ``codes`` (every code a kernel returns, one meaning
          per name), ``policy`` (when each strategy runs: its constants, one name
          each), ``workqueue`` (the queue of entries to filter again),
          ``ahead`` (compiling in helper processes on a first run: each module declares
          the groups of its kernels).
build/  : stages 1 and 2. ``entries`` (the runs of a grid as packed entries),
          ``jposs`` (each entry's table, the one table builder: ``build_tables``, the
          model's tables at force's fixpoint or the essay's; the masks of that fixpoint
          by each entry's support, ``support_masks``), ``perms``
          (tables of one digit set kept without their rows).
force/  : stage 3, the one propagation. ``index`` (big tables by position and
          digit), ``filters`` (one entry's rows against its cells' masks),
          ``propagate`` (the fixpoint, the walks' start, ``start_state``, and the public
          ``force``'s kernel), ``moves`` (a walk's moves on a node).
model   : stages 1-3 in one kernel call: the packed puzzle (``Model``), whose
          ``root()`` is the one way to a kernel's ``Root``; ``forced_answers``, many
          puzzles' entries and fixpoint in one call (what ``solve_many`` asks first).
walk/   : the depth-first walks. ``trail`` (the walk, written once: ``open_level``,
          ``step``; every walk steps with it, each with its own branching rule and
          its own work at a leaf; a count's fans each walk a level of it, with
          frames on a stack instead of recursion), ``anyorder`` (a hunt in any
          order), ``counting``, ``memo`` and ``dissect`` (counts by independent
          pieces), ``split`` (subproblems for a cluster), ``sums`` (the clues as a
          flow network, tested at the walks' nodes).
proofs/ : what refutes a branch before the search enters it: ``checks`` (the checks
          of a thrashing search: the sums, turns of clause learning and of a hunt),
          ``cdcl`` (clause learning).
search  : stage 4, the essay's fan-out in its order, checked by the proofs once it
          thrashes.

Records go to the kernels by reference (``jit.by_reference``): one pointer a call.
On the per-node path a few small kernels (``step``, ``apply_branch``, ``apply_row``, the
queue) are ``inline_kernel``: numba inlines them into their caller.

The public verbs (``kakuro``, ``count``, ``reduce``) are in ``kakuro_np.solve``.
"""
