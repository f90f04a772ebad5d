"""What refutes the branches fan-out thrashes on: clause learning, or the sums?

On the open grids of ``open_grids.py``, walk down the essay's first path
(forced moves, then the first row of the smallest table, as ``kn.kakuro``
goes) and collect the nodes that forced moves leave open but the sums test
(``engine/walk/sums``: one max-flow) refutes. Each such node is given to CP-SAT
three ways: as it comes (presolve and its linear relaxation), without the
linear relaxation (``linearization_level=0``: clause learning on its own), and
without presolve. If clause learning were what made CP-SAT fast on these grids,
the second would be as quick as the first.

Run: ``.venv/bin/python bench/why_sums.py [--nodes N] [--cap S]``
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import kakuro_np.solve as solve
from kakuro_np.engine.force import pick_entry, start_state
from kakuro_np.engine.walk.sums import network_of, sums_feasible
from kakuro_np.engine.walk.trail import WALKED, open_level, step, trail_for

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from open_grids import open_grids  # noqa: E402


def refuted_nodes(m, most):
    """Up to ``most`` nodes (their masks) on the essay's walk that forced moves leave open and
    the sums refute, with their depths."""
    emptied, tables, live = start_state(m.root(), True)
    if emptied >= 0:
        return []
    net = network_of(tables, len(m.mask), True)
    trail = trail_for(tables, live, False)
    out = []
    at_node, visited = True, 0
    while len(out) < most and visited < 20000:
        if at_node:
            k = pick_entry(live.nalive)
            if k < 0:
                break                                  # a solution: the walk is done
            open_level(trail, tables, live, k, True)
        emptied = step(trail, tables, live, 0)
        visited += 1
        if emptied == WALKED:
            break
        at_node = emptied < 0
        if at_node and not sums_feasible(net, live.mask):
            out.append((trail.top[0], live.mask.copy()))
            at_node = False                            # cut: go on with the next row
    return out


def cpsat_node(m, mask, cap, **params):
    """``(status, seconds, conflicts)`` of CP-SAT on the node ``mask`` of model ``m``."""
    from ortools.sat.python import cp_model
    model = cp_model.CpModel()
    x = [model.new_int_var_from_domain(
        cp_model.Domain.from_values([d + 1 for d in range(9) if mask[v] >> d & 1]), f"x{v}")
        for v in range(len(mask))]
    for k in range(len(m.ent_off) - 1):
        cells = m.ent_var[m.ent_off[k]:m.ent_off[k + 1]]
        if len(cells) < 2:
            continue
        model.add_all_different([x[v] for v in cells])
        model.add(sum(x[v] for v in cells) == int(m.ent_sum[k]))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = cap
    for name, value in params.items():
        setattr(solver.parameters, name, value)
    t = time.perf_counter()
    status = solver.solve(model)
    return solver.status_name(status), time.perf_counter() - t, solver.num_conflicts


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=3, help="refuted nodes per grid")
    ap.add_argument("--cap", type=float, default=30.0, help="seconds per CP-SAT run")
    args = ap.parse_args(argv)
    print("| grid | depth | undecided cells | sums test | CP-SAT | CP-SAT, no linear relaxation "
          "| CP-SAT, no presolve |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, p in open_grids()[:-1]:                     # the 30x100 grid is too slow here
        m = solve.model(p)
        net = network_of(start_state(m.root(), True)[1], len(m.mask), True)
        for d, mask in refuted_nodes(m, args.nodes):
            t = time.perf_counter()
            assert not sums_feasible(net, mask)
            ours = time.perf_counter() - t
            open_cells = int(sum(bin(int(v)).count("1") > 1 for v in mask))
            runs = [cpsat_node(m, mask, args.cap),
                    cpsat_node(m, mask, args.cap, linearization_level=0),
                    cpsat_node(m, mask, args.cap, cp_model_presolve=False)]
            shown = [f"{s} {t:.3f} s, {c:,} conflicts" for s, t, c in runs]
            print(f"| {name} | {d} | {open_cells} | {ours * 1e6:.0f} us | "
                  + " | ".join(shown) + " |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
