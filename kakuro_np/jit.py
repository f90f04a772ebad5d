"""How kernels are compiled, and a clock they can read.

Glossary
--------
kernel      : ``numba.njit(cache=True, nogil=True)``: compiled once, cached on
              disk, and run without the GIL so a caller's other threads (the
              CLI's Ctrl-C watcher, a thread pool over a collection) keep going.
monotonic_ns: nanoseconds on the monotonic clock, readable inside kernels.
NO_DEADLINE : a deadline that never comes.
status      : what a kernel run came to: ``OK``, ``CONTRADICTION`` (no
              solution), ``OVER_BUDGET`` (tables past ``max_rows``) or
              ``TIMED_OUT`` (the deadline passed).
"""

from __future__ import annotations

import time

import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

kernel = numba.njit(cache=True, nogil=True)

NO_DEADLINE = np.iinfo(np.int64).max
OK, CONTRADICTION, OVER_BUDGET, TIMED_OUT = 0, 1, 2, 3
_CLOCK_ID = getattr(time, "CLOCK_MONOTONIC", None)

if _CLOCK_ID is not None:
    @intrinsic
    def _clock_gettime_ns(typingctx, clock_id):
        """``clock_gettime(clock_id)`` in nanoseconds, called straight from compiled code."""
        sig = types.int64(types.int64)

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            timespec = ir.LiteralStructType([i64, i64])
            slot = cgutils.alloca_once(builder, timespec)
            fnty = ir.FunctionType(ir.IntType(32), [ir.IntType(32), timespec.as_pointer()])
            fn = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
            builder.call(fn, [builder.trunc(args[0], ir.IntType(32)), slot])
            sec = builder.load(cgutils.gep_inbounds(builder, slot, 0, 0))
            nsec = builder.load(cgutils.gep_inbounds(builder, slot, 0, 1))
            return builder.add(builder.mul(sec, ir.Constant(i64, 1_000_000_000)), nsec)
        return sig, codegen

    _ID = np.int64(_CLOCK_ID)

    @kernel
    def monotonic_ns():
        """Nanoseconds on the monotonic clock (the clock of ``time.monotonic_ns``)."""
        return _clock_gettime_ns(_ID)
else:  # pragma: no cover - platforms without clock_gettime
    @kernel
    def monotonic_ns():
        """Nanoseconds on the monotonic clock (the clock of ``time.monotonic_ns``)."""
        with numba.objmode(t="int64"):
            t = time.monotonic_ns()
        return t


@kernel
def grow(a, n):
    """A copy of ``a`` with room for ``n`` items along its first axis (the new ones 0)."""
    b = np.zeros((n,) + a.shape[1:], a.dtype)
    b[:a.shape[0]] = a
    return b


@kernel
def grow_unset(a, n):
    """Like ``grow``, but the new items are not set.

    Memory not yet written is not resident, so an array grown ahead of need
    costs only what is used.
    """
    b = np.empty((n,) + a.shape[1:], a.dtype)
    b[:a.shape[0]] = a
    return b


def deadline_ns(timeout) -> int:
    """The monotonic time at which ``timeout`` seconds from now run out (None: never).

    Examples
    --------
    >>> deadline_ns(None) == NO_DEADLINE, deadline_ns(1.0) > time.monotonic_ns()
    (True, True)
    """
    if timeout is None:
        return int(NO_DEADLINE)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float, np.integer, np.floating)) \
            or not timeout >= 0:
        raise ValueError(f"timeout must be a number of seconds >= 0 or None, got {timeout!r}")
    return time.monotonic_ns() + int(min(float(timeout), 1e9) * 1e9)
