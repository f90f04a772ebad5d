"""What the puzzles logic leaves stuck need: a probe of contradiction chains (issue 50).

For each puzzle of a set that the ladder (``techniques.climb``, every technique up to
joint possibilities) leaves stuck: every open candidate is tried in turn, the ladder
climbs from it, and a candidate whose climb ends in a contradiction is removed (a
proof: every digit the ladder removes is one no filling of that run allows). The
candidate with the shortest chain is removed, the ladder climbs again, and so on
until the puzzle is solved or no candidate leads to a contradiction. A chain's links
are the climb's steps the contradiction depends on: walking back from the last step,
each step that changed a cell of a needed step's run is needed (an upper bound on the
shortest chain; the climb's order is not the shortest). The techniques named are those
of the links.

Run: ``.venv/bin/python bench/stuck.py [--sets published samples]``
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import kakuro_np as kn
from kakuro_np.combos import ALL_DIGITS, POPCOUNT
from kakuro_np.engine.build.entries import entry_variables, packed_entries
from kakuro_np.engine.core.codes import CONTRADICTION, SOLVED, STUCK
from kakuro_np.techniques import N_TECHNIQUES, NAMES, climb
from explain import load

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATUS = {SOLVED: "solved", STUCK: "stuck", CONTRADICTION: "contradiction"}


def runs_of(puzzle):
    """The runs packed for ``climb``: ``(ent_off, ent_var, ent_sum, var_eoff, var_ent)``."""
    packed = packed_entries(puzzle)
    _, ent_var, var_eoff, var_ent = entry_variables(puzzle, packed)
    return packed.ent_off, ent_var, packed.ent_sum.astype(np.int64), var_eoff, var_ent


def ladder(runs, mask):
    """``(status, links)``: the ladder's climb on ``mask`` (in place) and, when it ends in
    a contradiction, the techniques of the steps that contradiction depends on."""
    ent_off, ent_var = runs[0], runs[1]
    status, technique, entry, _, change_off, change_var = climb(*runs, mask, -1,
                                                               N_TECHNIQUES)[:6]
    if status != CONTRADICTION:
        return status, []
    needed = {len(technique) - 1}
    for step in range(len(technique) - 1, -1, -1):
        if step in needed:
            cells = set(ent_var[ent_off[entry[step]]:ent_off[entry[step] + 1]].tolist())
            needed.update(s for s in range(step)
                          if cells & set(change_var[change_off[s]:change_off[s + 1]].tolist()))
    return status, [NAMES[technique[s]] for s in sorted(needed)]


def shortest_contradiction(runs, mask):
    """``(links, variable, digit bit)`` of the open candidate whose climb ends soonest in
    a contradiction, or None."""
    best = None
    for v in np.flatnonzero(POPCOUNT[mask] > 1):
        bits = int(mask[v])
        while bits:
            bit = bits & -bits
            bits ^= bit
            trial = mask.copy()
            trial[v] = bit
            status, links = ladder(runs, trial)
            if status == CONTRADICTION and (best is None or len(links) < len(best[0])):
                best = (links, v, bit)
    return best


def probe(puzzle):
    """``(status, chains)``: where chains of the ladder lead a puzzle the ladder leaves
    stuck, and each chain's links; None when the ladder alone solves it."""
    runs = runs_of(puzzle)
    mask = np.full(len(runs[3]) - 1, ALL_DIGITS, np.int64)
    status, _ = ladder(runs, mask)
    if status != STUCK:
        return None
    chains = []
    while status == STUCK:
        found = shortest_contradiction(runs, mask)
        if found is None:
            break
        links, v, bit = found
        chains.append(links)
        mask[v] &= ~bit
        status, _ = ladder(runs, mask)
    return STATUS[status], chains


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", nargs="+", default=["samples", "published"])
    args = ap.parse_args()
    probe(kn.read(os.path.join(ROOT, "puzzles", "k3.txt")))      # compile first
    rows = ["| set | puzzle | size | chains | links of each | techniques of the links | "
            "status | seconds |", "|---|---|---|---:|---|---|---|---:|"]
    for name in args.sets:
        items = load(name)
        stuck = 0
        for pname, p in items:
            t = time.perf_counter()
            found = probe(p)
            if found is None:
                continue
            stuck += 1
            status, chains = found
            used = sorted({link for links in chains for link in links}, key=NAMES.index)
            rows.append(f"| {name} | {pname} | {p.shape[0]}x{p.shape[1]} | {len(chains)} | "
                        f"{', '.join(str(len(c)) for c in chains)} | {', '.join(used)} | "
                        f"{status} | {time.perf_counter() - t:.2f} |")
            print(rows[-1], flush=True)
        print(f"{name}: {stuck} of {len(items)} stuck after the ladder", flush=True)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
