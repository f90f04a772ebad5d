"""How kernels are compiled and what they share (``engine/core/jit.py``): the small kernels,
the clock, deadlines, borrowed views, plain calls and the sources the cache guard hashes."""

import math
import time
from decimal import Decimal
from fractions import Fraction

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba.core import event, types
from numba.core.errors import TypingError

from kakuro_np.engine.core import jit
from kakuro_np.engine.core.jit import (NO_DEADLINE, borrow, copy_into, deadline_ns, grow,
                                       monotonic_ns, sort_ints)
from conftest import examples

INT64 = st.integers(-2**63, 2**63 - 1)


# -- sort_ints ---------------------------------------------------------------------------

@settings(max_examples=examples(200))
@given(st.lists(INT64, max_size=60), st.data())
def test_sort_ints_sorts_the_slice_it_is_given_and_leaves_the_rest(values, data):
    lo = data.draw(st.integers(0, len(values)))
    hi = data.draw(st.integers(lo, len(values)))
    a = np.array(values, np.int64)
    sort_ints(a, np.int64(lo), np.int64(hi))
    assert a[lo:hi].tolist() == sorted(values[lo:hi])
    assert a[:lo].tolist() == values[:lo] and a[hi:].tolist() == values[hi:]


@settings(max_examples=examples(30))
@given(st.integers(0, 5000), st.integers(1, 2**63 - 1), st.integers(0, 2**32 - 1))
def test_sort_ints_sorts_long_slices_past_the_largest_gap(n, spread, seed):
    # past 701 * 9 / 4 = 1577 items (and 3548) the gaps grow beyond Ciura's
    rng = np.random.default_rng(seed)
    a = rng.integers(-spread, spread, n + 6, dtype=np.int64, endpoint=True)
    before = a.copy()
    sort_ints(a, np.int64(3), np.int64(n + 3))
    assert np.array_equal(a[3:n + 3], np.sort(before[3:n + 3]))
    assert np.array_equal(a[:3], before[:3]) and np.array_equal(a[n + 3:], before[n + 3:])


def test_sort_ints_of_an_empty_or_reversed_slice():
    a = np.arange(10, 0, -1, dtype=np.int64)
    sort_ints(a, np.int64(4), np.int64(4))
    assert a.tolist() == list(range(10, 0, -1))
    sort_ints(a, np.int64(0), np.int64(10))
    assert a.tolist() == list(range(1, 11))


# -- grow and copy_into ----------------------------------------------------------------------

@settings(max_examples=examples(100))
@given(st.lists(INT64, max_size=40), st.integers(0, 40))
def test_grow_keeps_the_items_and_zeroes_the_new_ones(values, extra):
    a = np.array(values, np.int64)
    b = grow(a, np.int64(len(values) + extra))
    assert b.dtype == np.int64 and b.shape == (len(values) + extra,)
    assert b[:len(values)].tolist() == values and not b[len(values):].any()
    assert not np.shares_memory(a, b)


@settings(max_examples=examples(60))
@given(st.integers(0, 12), st.integers(0, 12), st.integers(0, 2**32 - 1))
def test_growing_table_rows_keeps_each_row_whole(n, extra, seed):
    rows = np.random.default_rng(seed).integers(-128, 128, (n, 9), dtype=np.int8)
    made = grow(rows, np.int64(n + extra))
    assert made.dtype == np.int8 and made.shape == (n + extra, 9)
    assert np.array_equal(made[:n], rows) and not made[n:].any()


@settings(max_examples=examples(100))
@given(st.lists(INT64, max_size=30), st.lists(INT64, max_size=30))
def test_copy_into_writes_the_start_of_its_destination(src, rest):
    dst = np.array([0] * len(src) + rest, np.int64) + 1
    tail = dst[len(src):].copy()
    copy_into(dst, np.array(src, np.int64))
    assert dst[:len(src)].tolist() == src and np.array_equal(dst[len(src):], tail)


# -- borrow ----------------------------------------------------------------------------------

@numba.njit
def _write_through_a_borrowed_view(a, i, x):
    """Write ``x`` at ``i`` through a borrowed view of ``a``: its length, stride and sum."""
    view = borrow(a)
    view[i] = x
    return view.shape[0], view.strides[0], view.sum()


@settings(max_examples=examples(60))
@given(st.lists(st.integers(-1000, 1000), min_size=1, max_size=30), st.data())
def test_a_borrowed_view_shares_its_arguments_memory(values, data):
    i = data.draw(st.integers(0, len(values) - 1))
    x = data.draw(st.integers(-1000, 1000))
    a = np.array(values, np.int64)
    n, stride, total = _write_through_a_borrowed_view(a, np.int64(i), np.int64(x))
    values[i] = x
    assert a.tolist() == values                   # the write reached the argument
    assert (n, stride, total) == (len(values), 8, sum(values))


def test_a_borrowed_view_of_a_strided_array_keeps_its_strides():
    base = np.arange(10, dtype=np.int64)
    n, stride, total = _write_through_a_borrowed_view(base[1::3], np.int64(2), np.int64(100))
    assert (n, stride) == (3, 24)
    assert base.tolist() == [0, 1, 2, 3, 4, 5, 6, 100, 8, 9]
    assert total == 1 + 4 + 100


def test_only_an_array_can_be_borrowed():
    with pytest.raises(TypingError):
        numba.njit(lambda x: borrow(x))(np.int64(3))


# -- plain calls -------------------------------------------------------------------------------

def test_a_kernel_called_with_constants_compiles_for_their_plain_types():
    def add(x, flag, step):
        return x + step if flag else x

    callee = jit._plain_calls(numba.njit(add))

    @numba.njit
    def caller(x):
        return callee(x, True, 128) + callee(x, False, 3)

    assert caller(np.int64(1)) == 130
    assert callee.signatures == [(types.int64, types.boolean, types.int64)]


# -- the clock and deadlines -----------------------------------------------------------------

def test_the_kernels_clock_is_pythons_monotonic_clock():
    before = time.monotonic_ns()
    first = monotonic_ns()
    second = monotonic_ns()
    after = time.monotonic_ns()
    assert before <= first <= second <= after


def test_no_deadline_is_the_largest_int64():
    assert NO_DEADLINE == np.iinfo(np.int64).max
    assert deadline_ns(None) == NO_DEADLINE and type(deadline_ns(None)) is int


TIMEOUTS = st.one_of(st.integers(0, 10**12), st.floats(0, 1e12), st.integers(10**300, 10**400),
                     st.integers(0, 10**6).map(np.int64), st.floats(0, 1e6).map(np.float64),
                     st.floats(0, 1e6, width=32).map(np.float32), st.just(math.inf))


@settings(max_examples=examples(100))
@given(TIMEOUTS)
def test_a_deadline_is_its_timeout_from_now_capped_at_a_billion_seconds(timeout):
    wait = int(min(timeout, 1e9) * 1e9)
    before = time.monotonic_ns()
    deadline = deadline_ns(timeout)
    after = time.monotonic_ns()
    assert type(deadline) is int
    assert before + wait <= deadline <= after + wait
    assert deadline < NO_DEADLINE                 # it fits an int64 and still comes


NOT_TIMEOUTS = st.one_of(st.integers(max_value=-1), st.floats(max_value=-1e-300),
                         st.just(math.nan), st.just(-math.inf), st.booleans(),
                         st.sampled_from([np.bool_(True), np.int64(-1), np.float64("nan")]),
                         st.text(max_size=3), st.sampled_from(["1", b"1", [1], 1j,
                                                               Decimal(1), Fraction(1, 2)]))


@settings(max_examples=examples(100))
@given(NOT_TIMEOUTS)
def test_a_timeout_that_is_not_seconds_or_none_is_refused(timeout):
    with pytest.raises(ValueError, match="timeout must be a number of seconds >= 0 or None"):
        deadline_ns(timeout)


# -- the compiling notice and the cache lock ------------------------------------------------

def _function_of(module, name):
    """A new function ``name(x) = x + 1`` whose ``__module__`` is ``module``."""
    scope = {"__name__": module}
    exec(f"def {name}(x):\n    return x + 1\n", scope)
    return scope[name]


def test_the_compiling_notice_is_said_once_and_only_for_the_packages_kernels():
    said = []
    listener = jit.when_compiling(lambda: said.append(1))
    try:
        assert numba.njit(_function_of("kakuro_np_fork.engine.core.probe", "a"))(1) == 2
        assert said == []                         # another package's kernel
        assert numba.njit(_function_of("kakuro_np.engine.core.probe", "b"))(1) == 2
        assert said == [1]
        assert numba.njit(_function_of("kakuro_np.engine.core.probe", "c"))(2) == 3
        assert said == [1]                        # once, however many compile
    finally:
        event.unregister("numba:compile", listener)


def test_the_compiling_notice_is_said_for_a_kernel_anywhere_in_the_package():
    said = []
    listener = jit.when_compiling(lambda: said.append(1))
    try:
        assert numba.njit(_function_of("kakuro_np.solve_probe", "d"))(1) == 2
        assert said == [1]
    finally:
        event.unregister("numba:compile", listener)


def test_locking_numbas_cache_twice_wraps_its_saves_and_loads_once():
    from numba.core.caching import IndexDataCacheFile
    assert jit.lock_numba_cache()                 # locked on import already
    save, load = IndexDataCacheFile.save, IndexDataCacheFile.load
    assert jit.lock_numba_cache()
    assert (IndexDataCacheFile.save, IndexDataCacheFile.load) == (save, load)


# -- the sources the cache guard hashes -------------------------------------------------------

#: A package of files: which compile a kernel, and what each imports, at its top level or not.
TREE = {
    "kernels.py": "from .group import (named, other)\nfrom .up import x\n\n"
                  "def lazy():\n    from .lazy import y\n\n@kernel\ndef k():\n    pass\n",
    "group/__init__.py": "",
    "group/named.py": "A = 1\n",
    "group/other.py": "B = 2\n",
    "group/unnamed.py": "C = 3\n",
    "up.py": "from .chain import z\n",
    "chain.py": "Z = 4\n",
    "lazy.py": "Y = 5\n",
    "plain.py": "from .chain import z\n",
    "deep/__init__.py": "",
    "deep/inner.py": "import numba\nf = numba.njit(lambda v: v)\nfrom ..far import w\n",
    "far.py": "W = 6\n",
    "__pycache__/cached.py": "@kernel\ndef stale():\n    pass\n",
}
KEPT = {"kernels.py", "group/__init__.py", "group/named.py", "group/other.py", "up.py",
        "chain.py", "deep/inner.py", "far.py"}


@pytest.fixture
def tree(tmp_path):
    """``TREE`` written under ``tmp_path``."""
    for rel, text in TREE.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return tmp_path


def test_the_kernels_sources_follow_top_level_relative_imports_to_the_end(tree):
    sources = jit.kernel_sources(str(tree))
    assert set(sources) == KEPT
    assert all(sources[rel] == (tree / rel).read_bytes() for rel in KEPT)


def test_the_sources_hash_changes_with_a_kept_file_its_name_and_nothing_else(tree):
    first = jit.sources_hash(str(tree))
    assert len(first) == 64 and first == jit.sources_hash(str(tree))
    (tree / "plain.py").write_text("EDITED = 1\n")
    (tree / "lazy.py").write_text("EDITED = 1\n")
    assert jit.sources_hash(str(tree)) == first     # no kernel reads them
    (tree / "chain.py").write_text("Z = 5\n")
    edited = jit.sources_hash(str(tree))
    assert edited != first
    kept = sorted(jit.kernel_sources(str(tree)).values())
    (tree / "kernels.py").rename(tree / "renamed.py")    # the same bytes under another name
    assert sorted(jit.kernel_sources(str(tree)).values()) == kept
    assert jit.sources_hash(str(tree)) not in (first, edited)
