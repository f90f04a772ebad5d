"""Stage 3, force: drop table rows that a crossing entry rules out, until nothing changes.

Modules
-------
index     : the big tables' rows by position and digit.
filters   : one entry's rows against its cells' masks.
propagate : filtering until nothing changes; the walks' start.
moves     : a walk's moves on a node (pick an entry, apply a row or a digit).

Glossary
--------
projection : the digit set of one column of a table (what the entry still
             allows in that cell).
mask       : a cell's candidates: the AND of the projections of its entries.
alive rows : entry ``k``'s live rows are ``perm[tab_off[k]:tab_off[k] + nalive[k]]``
             (a sparse set: a dropped row is swapped past the end of the live
             block, so restoring ``nalive`` undoes every drop made since);
             but a lazy table's (``perms``: a permutation table with more than
             LAZY_ROWS live rows) are the rows its cells' masks allow, and its
             block is not kept (``list_lazy`` lists them there).
queue      : entries whose cells' masks changed and must be filtered again.

The fixpoint is the same whatever order entries are filtered in, so the
kernel's queue reaches the essay's ``force^:_`` tables exactly.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..build.jposs import compact_cells, split_tables
from ..core.state import tables_model
from .filters import list_lazy
from .index import INDEX_MAX_ENTRIES, INDEX_MIN, build_index
from .moves import apply_digit, apply_row, live_rows, pick_entry
from .propagate import force_rows, propagate, start_state

__all__ = ["INDEX_MAX_ENTRIES", "INDEX_MIN", "apply_digit", "apply_row", "build_index", "force",
           "force_rows", "list_lazy", "live_rows", "pack_tables", "pick_entry", "propagate",
           "start_state"]


def pack_tables(cells, tables):
    """``(rows, tab_off)`` for a list of ``(n_k, len_k)`` tables (rows padded to 9)."""
    tab_off = np.zeros(len(tables) + 1, np.int64)
    rows = np.zeros((sum(len(t) for t in tables), 9), np.int8)
    for k, (c, t) in enumerate(zip(cells, tables)):
        t = np.asarray(t, np.int8).reshape(-1, len(c))
        if t.size and (t.min() < 1 or t.max() > 9):
            raise ValueError(f"table {k} holds a digit outside 1-9")
        tab_off[k + 1] = tab_off[k] + len(t)
        rows[tab_off[k]:tab_off[k + 1], :len(c)] = t
    return rows, tab_off


def force(cells: Sequence[np.ndarray], tables: Sequence[np.ndarray],
          until_fixed: bool = False) -> list[np.ndarray]:
    """Drop the rows of each table that some crossing table rules out.

    Parameters
    ----------
    cells : list of int arrays
        Cell indices of each entry, as from ``entries``.
    tables : list of (n_k, len_k) int arrays
        Joint possibilities, as from ``jposs``.
    until_fixed : bool
        False: one round, the essay's ``force``. True: repeat until nothing
        changes (``force^:_``), in one numba loop.

    Returns
    -------
    list of (m_k, len_k) int8 arrays
        The rows kept, in their original order.

    Examples
    --------
    >>> cells = [[0, 1], [0, 2]]
    >>> [t.tolist() for t in force(cells, [[[1, 3], [3, 1]], [[1, 2], [2, 1]]])]
    [[[1, 3]], [[1, 2]]]
    """
    if len(cells) != len(tables):
        raise ValueError(f"{len(cells)} entries but {len(tables)} tables")
    ent_off, ent_var, _ = compact_cells(cells)
    rows, tab_off = pack_tables(cells, tables)
    alive = force_rows(tables_model(ent_off, ent_var, rows, tab_off).root(), bool(until_fixed))
    keep = np.flatnonzero(alive)
    new_off = np.searchsorted(keep, tab_off)
    return split_tables(rows[keep], new_off, ent_off)
