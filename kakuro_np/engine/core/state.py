"""The records the kernels share: the model and its root, the tables, and the node.

Glossary
--------
Root   : a puzzle's tables as the public verbs hand them to the kernels: the
         entries' variables, the cell masks (changed in place: pass a copy),
         the rows, where each entry's rows start, and the index of the big
         tables' rows, built once per model, or empty to have each start build
         it, and the masks the tables are the fixpoint of (the model's: a start
         from them has nothing to force), or none (``force.start_state``).
         ``Model.root()`` is the one maker of a Root.
Model  : a puzzle packed for the kernels (``model.build``), or given tables
         (``tables_model``).
Tables : what the table build made, read only from then on: the entries'
         variables (``ent_off``, ``ent_var``), each variable's entries
         (``var_eoff``, ``var_ent``) and its place among their cells
         (``var_slot``), the table rows (``rows``, int8, padded to 9
         columns), where each entry's rows start (``tab_off``), and the
         index of the big tables' rows by position and digit (``idx_off``,
         ``idx_row``; see ``force.build_index``), and the digit set of each
         permutation table kept without its rows (``perm_set``; see ``perms``).
Live   : the node the search stands on, changed in place: the live rows of each
         table (``perm``, ``pos``, ``nalive``; see ``force``), each cell's
         candidate ``mask``, the queue of entries to filter again
         (``queue``, ``inq``, ``qstate``; see ``workqueue``), empty between
         steps, the digits each queued entry's cells lost since it was last
         filtered (``gone``, 0 between steps) and a live row last seen for each
         position and digit of an indexed table (``support``, a hint), and a
         row of 9 the filters work in (``proj``).

``Tables`` and ``Live`` are passed by reference (``jit.by_reference``): a call hands
on one pointer, not each array. No kernel reassigns a field: a kernel that grows an
array makes a new record. Kernels with a hot loop copy the fields they use into
locals first, as views that are not reference-counted (``jit.borrow``). ``Root`` stays
a named tuple, made only by ``Model.root``.

Examples
--------
>>> import numpy as np
>>> from kakuro_np.engine.force import start_state
>>> m = tables_model(np.array([0, 2]), np.array([0, 1]),
...                  np.array([[1, 2] + [0] * 7, [2, 1] + [0] * 7], np.int8), np.array([0, 2]))
>>> emptied, tables, live = start_state(m.root(), True)
>>> int(emptied), int(live.nalive[0]), tables.var_ent.tolist()
(-1, 2, [0, 0])
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.core import types
from numba.experimental import structref

from .jit import INT32S, INTS, ROWS, RecordType, by_reference


class Root(NamedTuple):
    """A puzzle's tables at the root of the search (see the glossary)."""
    ent_off: np.ndarray     #: int64, E + 1: entry k's cells are ent_var[ent_off[k]:ent_off[k + 1]]
    ent_var: np.ndarray     #: int64: the variable of each entry cell
    mask: np.ndarray        #: int64, V: each cell's candidate digits as bits (changed in place)
    rows: np.ndarray        #: int8, R x 9: every table's rows, padded with 0
    tab_off: np.ndarray     #: int64, E + 1: entry k's rows are rows[tab_off[k]:tab_off[k + 1]]
    idx_off: np.ndarray     #: int64, 81 E + 1 or 0: the index (as in ``Tables``), or none yet
    idx_row: np.ndarray     #: int32: the index's rows
    fit_mask: np.ndarray    #: int64, V or 0: masks the tables are the fixpoint of, or none


class Model(NamedTuple):
    """A puzzle packed for the kernels (``model.build`` makes it); ``root()`` is the one
    way to the ``Root`` a kernel starts from."""
    puzzle: object
    packed: object
    status: int
    culprit: int
    var_cell: np.ndarray
    ent_off: np.ndarray
    ent_var: np.ndarray
    ent_sum: np.ndarray
    mask: np.ndarray
    rows: np.ndarray
    tab_off: np.ndarray
    idx_off: np.ndarray     #: the index of the big tables' rows (``force.build_index``),
    idx_row: np.ndarray     #: built once here instead of at every kernel's start
    fit_mask: np.ndarray    #: the masks the build left, whose fixpoint the tables are

    def root(self) -> Root:
        """The tables for a kernel, with a fresh copy of the masks (kernels change them)."""
        return Root(self.ent_off, self.ent_var, self.mask.copy(), self.rows, self.tab_off,
                    self.idx_off, self.idx_row, self.fit_mask)


def tables_model(ent_off, ent_var, rows, tab_off) -> Model:
    """A model of given tables over variables ``0..V-1`` (no puzzle, no index): every
    digit allowed, nothing forced yet."""
    V = int(ent_var.max()) + 1 if len(ent_var) else 0
    none = np.zeros(0, np.int64)
    return Model(None, None, 0, -1, np.arange(V), ent_off, ent_var, none,
                 np.full(V, 0x1FF, np.int64), rows, tab_off, none,
                 np.zeros(0, np.int32), none)


class TablesType(RecordType):
    """The numba type of a ``Tables``."""


class Tables(structref.StructRefProxy):
    """The puzzle as the kernels share it, fixed once the tables are built."""


by_reference(Tables, TablesType, (     # its fields, passed by reference (``jit.by_reference``)
    "ent_off",      # int64, E + 1: entry k's cells are ent_var[ent_off[k]:ent_off[k + 1]]
    "ent_var",      # int64: the variable of each entry cell
    "var_eoff",     # int64, V + 1: variable v's entries are var_ent[var_eoff[v]:...]
    "var_ent",      # int64: the entries of each variable
    "var_slot",     # int64: where each var_ent's variable is in ent_var
    "rows",         # int8, R x 9: every table's rows, padded with 0
    "tab_off",      # int64, E + 1: where each entry's rows start in ``perm``
    "idx_off",      # int64, 81 E + 1: entry k's rows with digit d at position p are
    "idx_row",      # int32: idx_row[idx_off[81 k + 9 p + d - 1]:...] (big tables only)
    "perm_set",     # int64, E: the digit set of a table kept lazily, else 0 (``perms``)
))


class LiveType(RecordType):
    """The numba type of a ``Live``."""


class Live(structref.StructRefProxy):
    """The node the search stands on; kernels change it in place."""


by_reference(Live, LiveType, (     # its fields, passed by reference (``jit.by_reference``)
    "perm",         # int32, R: rows in blocks per entry, live ones first
    "pos",          # int32, R: where each row stands in ``perm``
    "nalive",       # int64, E: live rows per entry (-1: no table yet)
    "mask",         # int64, V: each cell's candidate digits as bits
    "queue",        # int64, E: ring buffer of entries to filter again
    "inq",          # bool, E: which entries wait in ``queue``
    "qstate",       # int64, 2: the queue's head and size
    "gone",         # int64, per ent_var slot: digits lost since the entry was filtered
    "support",      # int32, 81 E: a row once live per entry, position and digit
    "proj",         # int64, 9: the row the filters project a table's columns into
))


#: The numba type of a ``Root`` (the argument types of kernels compiled ahead, see ``ahead``).
ROOT = types.NamedTuple((INTS, INTS, INTS, ROWS, INTS, INTS, INT32S, INTS), Root)
