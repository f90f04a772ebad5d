"""A bounded cache of sub-problem counts for ``count()``, in flat arrays.

Glossary
--------
key   : a piece's state, packed into int64 words, that fixes its count exactly
        (``counting.piece_key`` writes it: the piece's entries, and per entry
        the sum its undecided cells must make and each cell's mask, in bit
        fields: 9 bits a mask, a fifth of the words of a word per field).
memo  : a ``Memo``: an open addressing hash table (``slot`` holds entry
        numbers, -1 when free) over keys stored back to back in ``data``;
        ``value`` is each key's count and ``capped`` says that count was cut at
        the limit it was asked with; ``wide`` is the count past int64 (see
        ``counting.wide_set``). ``fill`` holds the number of keys and of
        ``data`` words in use, whether the memo may grow, and whether it is
        full and wants to.

Making a default memo (its slots written, fresh pages mapped) costs more than counting
a published puzzle: a count borrows one (``borrowed``) and gives it back
(``give_back``), emptied in the time its keys take (``emptied``), for the next count.

The memory is fixed when the memo is made. When the table or ``data`` is
full, a memo that may not grow is emptied and starts over (a forgotten count
is only counted again); one that may grow (``growable``) keeps what it holds,
stores nothing more and says it wants room (``wants_room``): its owner makes a
larger copy (``grown``) and counts again, finding in it every count stored so
far.

Examples
--------
>>> import numpy as np
>>> m = new_memo(4, 64)
>>> key = np.array([1, 0, 0b11, 0b101])
>>> lookup(m, key)[0], store(m, key, 7, False, np.zeros(WIDE)), lookup(m, key)[0]
(-1, True, 0)
>>> int(m.value[0])
7
>>> g = growable(new_memo(2, 64))          # two keys fit
>>> [store(g, np.array([k]), k, False, np.zeros(WIDE)) for k in range(3)], wants_room(g)
([True, True, False], True)
>>> bigger = grown(g)
>>> found = lookup(bigger, np.array([1]))[0]
>>> found >= 0, wants_room(bigger), store(bigger, np.array([2]), 2, False, np.zeros(WIDE))
(True, False, True)
"""

from __future__ import annotations

import threading
from typing import NamedTuple

import numpy as np
from numba.core import types

from ..core.jit import INTS, kernel

#: Default memo: 2**17 slots (half of them for keys) and 2**22 key words (32 MiB at most,
#: touched only as keys are stored).
SLOTS_LOG2, DATA_WORDS = 17, 1 << 22
#: The largest a growable memo grows to: 2**23 slots and 2**27 key words (about 1.3 GiB
#: in all); past that it is emptied when full, like any other.
MOST_SLOTS_LOG2, MOST_DATA_WORDS = 23, 1 << 27
#: Each growth: 4 times the slots and the key words.
GROWTH_LOG2 = 2
#: Spare default memos kept for the next count (``borrowed``), and the most key words a memo
#: may hold to be kept (its pages stay mapped: a few MiB at most).
SPARES, SPARE_WORDS = 2, 1 << 16
#: Numbers per count past int64 (``counting.wide_set``): its size and its residues.
WIDE = 5


class Memo(NamedTuple):
    """Counts of pieces by key (see the module's glossary)."""
    slot: np.ndarray        #: int64, 2**k: the key's entry number at each slot, -1 free
    key_hash: np.ndarray    #: int64, per entry: the key's hash
    key_off: np.ndarray     #: int64, entries + 1: entry e's key is data[key_off[e]:key_off[e + 1]]
    data: np.ndarray        #: int64: the keys, back to back
    value: np.ndarray       #: int64, per entry: the count
    capped: np.ndarray      #: bool, per entry: the count was cut at its limit
    wide: np.ndarray        #: float64, per entry: the count past int64 (``counting.wide_set``)
    fill: np.ndarray        #: int64, 4: entries and data words in use; may grow; wants room


#: The numba type of a ``Memo`` (the argument types of kernels compiled ahead, see ``ahead``).
MEMO = types.NamedTuple((INTS, INTS, INTS, INTS, INTS, types.bool_[::1], types.float64[:, ::1],
                         INTS), Memo)


@kernel
def new_memo(slots_log2, data_words):
    """An empty memo with ``2**slots_log2`` slots and room for ``data_words`` key words."""
    n_slots = 1 << slots_log2
    n_keys = n_slots >> 1                      # keep the load at or below one half
    return Memo(np.full(n_slots, -1, np.int64), np.empty(n_keys, np.int64),
                np.zeros(n_keys + 1, np.int64), np.empty(data_words, np.int64),
                np.empty(n_keys, np.int64), np.empty(n_keys, np.bool_),
                np.empty((n_keys, WIDE), np.float64), np.zeros(4, np.int64))


#: The spare memos, emptied and growable (``borrowed``, ``give_back``).
_spares: list = []
_spares_lock = threading.Lock()


def borrowed() -> Memo:
    """A growable default memo, empty: a spare one given back by an earlier count, else a
    new one. Give it back (``give_back``) once no kernel uses it any more.

    Examples
    --------
    >>> m = borrowed()
    >>> store(m, np.array([5]), 1, False, np.zeros(WIDE)), int(m.fill[0])
    (True, 1)
    >>> emptied(m)                             # as ``give_back`` keeps it
    >>> int(m.fill[0]), lookup(m, np.array([5]))[0]
    (0, -1)
    >>> give_back(m)
    """
    with _spares_lock:
        if _spares:
            return _spares.pop()
    return growable(new_memo(SLOTS_LOG2, DATA_WORDS))


def give_back(memo: Memo) -> None:
    """Keep a memo ``borrowed`` gave for the next count, emptied, where it is of the default
    size, holds at most SPARE_WORDS key words and fewer than SPARES are kept; else
    leave it to be freed."""
    if (memo.slot.shape[0] != 1 << SLOTS_LOG2 or memo.data.shape[0] != DATA_WORDS
            or memo.fill[1] > SPARE_WORDS):
        return
    with _spares_lock:
        if len(_spares) < SPARES:
            emptied(memo)
            memo.fill[2] = 1
            _spares.append(memo)


#: The argument types of ``emptied`` (compiled ahead with the count, see ``ahead``).
EMPTIED_TYPES = (MEMO,)


@kernel
def emptied(memo):
    """Forget every key of ``memo``: its used slots are freed one by one (each found as
    ``lookup`` found it), or all at once when the keys fill an eighth of them."""
    slot, hashes, fill = memo.slot, memo.key_hash, memo.fill
    wrap = slot.shape[0] - 1
    if fill[0] * 8 > slot.shape[0]:
        slot[:] = -1
    else:
        for e in range(fill[0]):
            i = hashes[e] & wrap
            while slot[i] != e:
                i = (i + 1) & wrap
            slot[i] = -1
    fill[0] = 0
    fill[1] = 0
    fill[3] = 0


def growable(memo: Memo) -> Memo:
    """The memo, marked as one that keeps its counts when full and asks for room (see
    the module's docstring); returned for chaining."""
    memo.fill[2] = 1
    return memo


def wants_room(memo: Memo) -> bool:
    """Whether a growable memo was full when a count asked to store one more."""
    return bool(memo.fill[3])


def can_grow(memo: Memo) -> bool:
    """Whether ``grown`` would make the memo larger (it is not at MOST_SLOTS_LOG2 yet)."""
    return memo.slot.shape[0] < (1 << MOST_SLOTS_LOG2) or memo.data.shape[0] < MOST_DATA_WORDS


def grown(memo: Memo) -> Memo:
    """A copy of the memo GROWTH_LOG2 times larger in slots and key words (up to the MOST_
    sizes), holding every count it holds; growable while there is room to grow again."""
    slots_log2 = min(memo.slot.shape[0].bit_length() - 1 + GROWTH_LOG2, MOST_SLOTS_LOG2)
    words = min(memo.data.shape[0] << GROWTH_LOG2, MOST_DATA_WORDS)
    bigger = new_memo(slots_log2, words)
    copy_entries(memo, bigger)
    if can_grow(bigger):
        growable(bigger)
    return bigger


@kernel
def copy_entries(memo, into):
    """Store every entry of ``memo`` in the memo ``into`` (which has room for them)."""
    for e in range(memo.fill[0]):
        store(into, memo.data[memo.key_off[e]:memo.key_off[e + 1]], memo.value[e], memo.capped[e],
              memo.wide[e])


@kernel
def lookup(memo, key):
    """``(entry, slot, hash)``: the entry number holding ``key`` or -1, the slot where the
    search for it ended (its own, or the free one it would take), and its hash (64 bits,
    FNV-style multiply and xor-shift, kept positive)."""
    h = np.uint64(0xCBF29CE484222325)
    for i in range(key.shape[0]):
        h = (h ^ np.uint64(key[i])) * np.uint64(0x100000001B3)
        h ^= h >> np.uint64(29)
    hashed = np.int64(h & np.uint64(0x7FFFFFFFFFFFFFFF))
    slot, hashes, key_off, data = memo.slot, memo.key_hash, memo.key_off, memo.data
    wrap = slot.shape[0] - 1
    i = hashed & wrap
    while slot[i] >= 0:
        e = slot[i]
        if hashes[e] == hashed and key_off[e + 1] - key_off[e] == key.shape[0]:
            a = key_off[e]
            same = True
            for j in range(key.shape[0]):
                if data[a + j] != key[j]:
                    same = False
                    break
            if same:
                return e, i, hashed
        i = (i + 1) & wrap
    return -1, i, hashed


@kernel
def store(memo, key, count, capped, wide):
    """Record ``count`` (``wide``: the same past int64) for ``key``, overwriting it if present.

    A full memo is emptied first, unless it is growable: then False, and it wants room
    (see the module's docstring). False also when the key could not be stored even in
    an empty memo.
    """
    e, i, h = lookup(memo, key)
    slot, hashes, key_off, data, value, cut, wides, fill = memo
    if e < 0:
        if key.shape[0] > data.shape[0]:
            return False
        if fill[0] == hashes.shape[0] or fill[1] + key.shape[0] > data.shape[0]:
            if fill[2]:                     # growable: keep what it holds, ask for room
                fill[3] = 1
                return False
            slot[:] = -1
            fill[:] = 0
            i = h & (slot.shape[0] - 1)
        e = fill[0]
        for j in range(key.shape[0]):
            data[fill[1] + j] = key[j]
        key_off[e + 1] = fill[1] + key.shape[0]
        hashes[e] = h
        slot[i] = e
        fill[0] += 1
        fill[1] += key.shape[0]
    value[e] = count
    cut[e] = capped
    wides[e, :] = wide
    return True
