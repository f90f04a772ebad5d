"""How kernels are compiled, a clock they can read, and a guard on their cache.

Glossary
--------
kernel      : ``numba.njit(cache=True, nogil=True)``: compiled once, cached on
              disk, and run without the GIL so a caller's other threads (the
              CLI's Ctrl-C watcher, a thread pool over a collection) keep going.
inline_kernel : a kernel numba inlines into each caller (``inline="always"``):
              a few small ones on the search's per-node path (``step``,
              ``next_row``, ``apply_row``, the queue); each caller compiles its own
              copy, so a big body stays a kernel: ``force.propagate``, inlined into
              every walk, would be compiled again for each caller, while a call to
              it costs next to nothing since records go by reference. Also a level
              of kernels with one call site over a big tree (``checks.check_turns``):
              numba compiles each kernel with the whole tree of kernels it calls
              linked in and optimized again, so each such level compiles the tree
              once more.
user cache  : where the kernels are cached: by default a per-user folder,
              ``$XDG_CACHE_HOME/kakuro_np/<key>`` (``~/.cache/kakuro_np``), the key
              naming numba's version, the CPU and the sha256 of the kernels' sources
              (``kernel_sources``), so another clone, a reinstall or a wheel in another
              venv with the same sources loads the kernels compiled once, and an edit
              makes a new key (the KEEP_KEYS used last are kept). ``KAKURO_NP_CACHE_DIR``
              names another folder for the keys; empty, or with numba's own
              ``NUMBA_CACHE_DIR`` set, numba's own places are used (``__pycache__``
              beside each module, or that folder), kept fresh by the cache guard. A
              folder that cannot be written falls back to numba's places.
cache guard : numba keys each cached kernel on its own source file only, so a
              kernel whose callee in another file changed would keep stale
              machine code. On import, before any kernel is compiled or loaded,
              ``guard_cache`` hashes the kernels' sources (``kernel_sources``: each
              module that compiles a kernel and every module those import from the
              package, at their top level, followed to the end; sha256 over the
              sorted relative paths and bytes) and compares it
              with the stamp ``STAMP`` kept where numba writes the package's cache
              (``kakuro_np/__pycache__/``, or under ``NUMBA_CACHE_DIR`` when set).
              When they differ, it deletes the package's ``*.nbi`` and ``*.nbc``
              files and writes the new stamp, so every kernel compiles afresh. It
              never stops the import: a read-only install or a race with another
              process (any ``OSError``) just skips it.
cache lock  : numba's cache is not safe when two processes save kernels of one
              function at once (an index read, a data file named, the index
              written, then the data: two processes saving two signatures may
              both take the name ``.1.nbc``, and the index then points one
              signature at the other's machine code, which crashes when loaded).
              Helpers compile beside the caller and beside each other (``ahead``,
              ``kakuro-np compile``), and so do the two workers of the test suite,
              so each save holds an exclusive ``flock`` on a lock file beside the
              function's index, and each load a shared one (``lock_numba_cache``).
when_compiling : a hook for the first kernel that is not in the cache, so the
              command line can say that it compiles (once; see ``cli.COMPILING``).
borrow      : a view of a kernel's argument that is not reference-counted, for
              hot loops (numba's counts are atomic operations).
monotonic_ns: nanoseconds on the monotonic clock, readable inside kernels.
NO_DEADLINE : a deadline that never comes.
constants   : a module global a kernel reads is frozen into its machine code
              when it compiles (the cache guard recompiles after an edit); the
              numbers a caller may tune are arguments, or read by Python code at
              call time (``policy``'s first group, ``model.MAX_ROWS``, ...).
status      : what a kernel run came to: see ``codes``.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import time

import numba
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.experimental import structref
from numba.extending import intrinsic

#: The package's folder (``kakuro_np``, above ``engine/core``), whose sources the cache guard hashes.
PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
#: The cache guard's stamp: the sources' sha256, in the package's cache folder.
STAMP = "kakuro_np-sources.sha256"


#: A line that compiles a kernel: a decorator of this module's, or numba's own.
_COMPILES = re.compile(rb"^\s*@(?:kernel|inline_kernel)\b|njit\(", re.MULTILINE)
#: A top-level relative import: its dots, its module, and what it names.
_IMPORT = re.compile(rb"^from (\.+)([\w.]*) import (\([^)]*\)|[^\n]*)", re.MULTILINE)


def _imported(rel: str, match, sources: dict) -> list:
    """The package files a relative import of file ``rel`` reads (a module, or a
    package's ``__init__`` and the submodules it names)."""
    dots, module, names = (g.decode() for g in match.groups())
    base = os.path.dirname(rel)
    for _ in range(len(dots) - 1):
        base = os.path.dirname(base)
    target = os.path.join(base, *module.split(".")) if module else base
    if target + ".py" in sources:
        return [target + ".py"]
    found = [os.path.join(target, "__init__.py")]
    found += [os.path.join(target, name + ".py") for name in re.findall(r"\w+", names)]
    return [f for f in found if f in sources]


def kernel_sources(root: str = PACKAGE) -> dict:
    """The sources a compiled kernel may depend on: relative path -> bytes.

    Each ``*.py`` under ``root`` that compiles a kernel, and every package file those
    import from at their top level (callees, and the constants frozen into machine
    code), followed to the end. The play server, the formats and the command line
    are left out, so editing them keeps the compiled kernels.
    """
    sources = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__" and not d.startswith(".")]
        for f in files:
            if f.endswith(".py"):
                with open(os.path.join(folder, f), "rb") as handle:
                    sources[os.path.relpath(os.path.join(folder, f), root)] = handle.read()
    todo = [rel for rel, data in sources.items() if _COMPILES.search(data)]
    kept = {}
    while todo:
        rel = todo.pop()
        if rel not in kept:
            kept[rel] = sources[rel]
            for match in _IMPORT.finditer(sources[rel]):
                todo += _imported(rel, match, sources)
    return kept


def sources_hash(root: str = PACKAGE) -> str:
    """The sha256 of the kernels' sources (``kernel_sources``): sorted relative paths,
    each with its bytes."""
    sources = kernel_sources(root)
    digest = hashlib.sha256()
    for rel in sorted(sources):
        data = sources[rel]
        digest.update(f"{rel.replace(os.sep, '/')}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def cache_folder(folder: str, cache_dir: str | None = None) -> str:
    """Where numba caches the kernels of the sources in ``folder``.

    ``folder/__pycache__``, or, when ``NUMBA_CACHE_DIR`` is set (``cache_dir``), the
    subfolder numba names after the source folder: its name and the sha1 of its path.
    """
    if not cache_dir:
        return os.path.join(folder, "__pycache__")
    folder = os.path.abspath(folder)
    return os.path.join(cache_dir, os.path.basename(folder) + "_"
                        + hashlib.sha1(folder.encode()).hexdigest())


def delete_kernels(root: str, cache_dir: str | None) -> list:
    """Delete numba's cached kernels (``*.nbi``, ``*.nbc``) of the package at ``root`` where
    numba puts them (``cache_folder``); returns the folders that held some."""
    cleared = []
    for folder, dirs, _ in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__" and not d.startswith(".")]
        cached = cache_folder(folder, cache_dir)
        if not os.path.isdir(cached):
            continue
        cleared.append(cached)
        for name in os.listdir(cached):
            if name.endswith((".nbi", ".nbc")):
                try:
                    os.remove(os.path.join(cached, name))
                except FileNotFoundError:       # another process cleared it first
                    pass
    return cleared


def guard_cache(root: str = PACKAGE, cache_dir: str | None = None) -> bool:
    """Delete the package's cached kernels if its sources differ from the stamp's.

    Returns True when it cleared them and wrote a new stamp (the stamp was
    missing or differed), False when the stamp matched or the cache could not
    be touched.
    """
    try:
        digest = sources_hash(root)
        stamp = os.path.join(cache_folder(root, cache_dir), STAMP)
        try:
            with open(stamp, encoding="ascii") as f:
                if f.read().strip() == digest:
                    return False
        except (FileNotFoundError, UnicodeDecodeError):
            pass
        delete_kernels(root, cache_dir)
        os.makedirs(os.path.dirname(stamp), exist_ok=True)
        fresh = f"{stamp}.{os.getpid()}"
        with open(fresh, "w", encoding="ascii") as f:
            f.write(digest + "\n")
        os.replace(fresh, stamp)
        return True
    except OSError:
        return False


def lock_numba_cache() -> bool:
    """Make numba's cache saves and loads hold a file lock beside each function's index (see
    the glossary's cache lock); False where there is no ``fcntl`` (nothing changes)."""
    try:
        import fcntl
        from numba.core.caching import IndexDataCacheFile
    except ImportError:                         # not POSIX, or numba moved it
        return False
    if getattr(IndexDataCacheFile, "_kakuro_np_locked", False):
        return True

    def locked(method, how):
        def run(self, *args):
            try:
                lock = open(self._index_path + ".lock", "a")
            except OSError:                     # a read-only cache: numba saves nothing
                return method(self, *args)
            with lock:
                fcntl.flock(lock, how)
                return method(self, *args)      # closing the file drops the lock
        return run

    IndexDataCacheFile.save = locked(IndexDataCacheFile.save, fcntl.LOCK_EX)
    IndexDataCacheFile.load = locked(IndexDataCacheFile.load, fcntl.LOCK_SH)
    IndexDataCacheFile._kakuro_np_locked = True
    return True


def user_cache(own: str | None, numba_dir: str | None, environ=os.environ) -> str | None:
    """The per-user cache's folder (see the glossary): ``own`` (``KAKURO_NP_CACHE_DIR``)
    when set, none when that is empty or numba's own variable is set (``numba_dir``),
    else ``$XDG_CACHE_HOME/kakuro_np`` (``~/.cache/kakuro_np``).

    Examples
    --------
    >>> user_cache(None, None, {"XDG_CACHE_HOME": "/c"})
    '/c/kakuro_np'
    >>> user_cache("", None), user_cache(None, "/n")
    (None, None)
    """
    if own is not None:
        return os.path.abspath(os.path.expanduser(own)) if own else None
    if numba_dir:
        return None
    base = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "kakuro_np")


def cache_key(digest: str) -> str:
    """The per-user cache's folder for these kernels: numba's version, the CPU, and the
    kernels' sources (``sources_hash``, its first 16 digits)."""
    from llvmlite import binding
    return f"numba-{numba.__version__}-{binding.get_host_cpu_name()}-{digest[:16]}"


#: How many keys (versions of the kernels) the per-user cache keeps: the latest used.
KEEP_KEYS = 4


def use_user_cache(base: str, digest: str, root: str = PACKAGE) -> str | None:
    """Have numba cache the kernels of the package at ``root`` in ``base/<cache_key>/``
    (the package's folders below it), and drop the keys used least recently past
    KEEP_KEYS. Returns that folder, or None where it cannot be written or numba's
    internals moved (numba's own places then, with the cache guard)."""
    try:
        from numba.core import caching
        bases = (caching._SourceFileBackedLocatorMixin, caching._CacheLocator)
        impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
        folder = os.path.join(base, cache_key(digest))
        os.makedirs(folder, exist_ok=True)
        os.utime(folder)                                    # the latest used (KEEP_KEYS)
    except (ImportError, AttributeError, OSError):
        return None

    class UserCacheLocator(*bases):
        """numba's cache locator for the package's kernels in the per-user cache."""

        def __init__(self, py_func, py_file):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = os.path.join(folder, os.path.relpath(
                os.path.dirname(os.path.abspath(py_file)), root))

        def get_cache_path(self):
            return self._cache_path

        @classmethod
        def from_function(cls, py_func, py_file):
            if not os.path.abspath(py_file).startswith(root + os.sep):
                return None                                 # not ours: numba's places
            return super().from_function(py_func, py_file)  # None where it cannot write

    impl._locator_classes = [UserCacheLocator] + [
        c for c in impl._locator_classes if c.__name__ != "UserCacheLocator"]
    _drop_old_keys(base, KEEP_KEYS)
    return folder


def _drop_old_keys(base: str, keep: int) -> None:
    """Delete the per-user cache's keys past the ``keep`` used most recently."""
    try:
        keys = [os.path.join(base, name) for name in os.listdir(base) if name.startswith("numba-")]
        keys.sort(key=os.path.getmtime, reverse=True)
    except OSError:
        return
    for old in keys[keep:]:
        shutil.rmtree(old, ignore_errors=True)


def clear_caches(root: str = PACKAGE) -> list:
    """Delete every cached kernel of the package: in its folders (``__pycache__``), under
    ``NUMBA_CACHE_DIR`` and in the per-user cache (each key). Returns the folders
    cleared (``make clean-cache``)."""
    cleared = delete_kernels(root, None)
    if numba.config.CACHE_DIR:
        cleared += delete_kernels(root, numba.config.CACHE_DIR)
    base = user_cache(os.environ.get("KAKURO_NP_CACHE_DIR"), None)
    if base and os.path.isdir(base):
        _drop_old_keys(base, 0)
        cleared.append(base)
    return cleared


#: Where this process caches the kernels: the per-user cache's folder for their sources,
#: or None (numba's own places, kept fresh by the cache guard).
USER_CACHE = None
_base = user_cache(os.environ.get("KAKURO_NP_CACHE_DIR"), numba.config.CACHE_DIR)
if _base is not None:
    try:
        USER_CACHE = use_user_cache(_base, sources_hash(PACKAGE))
    except OSError:                                         # the sources could not be read
        pass
#: Whether this import found the kernels' sources changed and cleared their cache.
CACHE_CLEARED = USER_CACHE is None and guard_cache(PACKAGE, numba.config.CACHE_DIR)
lock_numba_cache()

def _plain_calls(dispatcher):
    """Have ``dispatcher`` compile one body for a value's type, whatever the value: a call
    from another kernel with a constant (``f(root, True)``, ``g(x, 128)``) otherwise
    compiles a specialisation of its own (``Literal[bool](True)``), beside the one for
    ``bool``, and so does every kernel below it (see the glossary's literals)."""
    typed = dispatcher.get_call_template

    def get_call_template(args, kws):
        return typed(tuple(types.unliteral(a) for a in args),
                     {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def kernel(func):
    """``numba.njit(cache=True, nogil=True)``, compiled for plain types (see the glossary)."""
    return _plain_calls(numba.njit(cache=True, nogil=True)(func))


def inline_kernel(func):
    """A kernel numba inlines into each caller (see the glossary)."""
    return _plain_calls(numba.njit(cache=True, nogil=True, inline="always")(func))


class RecordType(types.StructRef):
    """The numba type of a record passed by reference (``by_reference``): its fields get
    plain types, as ``kernel`` gives arguments."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(t)) for name, t in fields)


def by_reference(proxy, record_type, fields, readable=True) -> None:
    """Make ``proxy`` (a ``structref.StructRefProxy``) the record type ``record_type`` (a
    ``RecordType``) with ``fields``: kernels build it as ``proxy(*fields)`` and pass it
    as one pointer.

    A NamedTuple of arrays is passed by value: every call, and every copy numba makes of
    it, takes each array apart again (its fields, and theirs), so a kernel that hands big
    records on is tens of thousands of lines of IR for LLVM to optimise. By reference,
    every group of kernels compiles faster (see bench/HISTORY.md).
    With ``readable``, Python reads each field through a small kernel of its own, compiled
    when first read in a process (the tests read them; the solver does not).

    Examples
    --------
    >>> from kakuro_np.engine.walk.anyorder import Hunter
    >>> isinstance(Hunter.weight, property)
    True
    """
    structref.register(record_type)
    structref.define_proxy(proxy, record_type, list(fields))
    for name in fields if readable else ():
        setattr(proxy, name, property(_field_reader(name)))


def _field_reader(name: str):
    """A function that reads field ``name`` of a record passed by reference, through a kernel
    made and compiled when it is first called (importing the package stays quick)."""
    made = []

    def read(record):
        if not made:
            scope = {}
            exec(f"def read(record):\n    return record.{name}\n", scope)
            made.append(numba.njit(scope["read"]))
        return made[0](record)
    return read


#: Argument types of the kernels compiled ahead (``ahead``): int64 scalars, int64 vectors
#: (offsets, variables, masks) and int8 table rows, each C-ordered and writable.
INT, INTS, ROWS = types.int64, types.int64[::1], types.int8[:, ::1]
#: The numba type of an index's row numbers (``force.build_index``).
INT32S = types.int32[::1]
FLOATS = types.float64[::1]


def when_compiling(say):
    """Call ``say()`` once, when a kernel of the package not found in the cache starts
    compiling. Returns the listener (``numba.core.event.unregister`` takes it back)."""
    from numba.core import event

    class FirstCompile(event.Listener):
        said = False

        def on_start(self, ev):
            py_func = getattr(ev.data.get("dispatcher"), "py_func", None)
            if not self.said and (getattr(py_func, "__module__", None) or "").startswith(
                    __package__.split(".")[0] + "."):
                self.said = True
                say()

        def on_end(self, ev):
            pass

    listener = FirstCompile()
    event.register("numba:compile", listener)
    return listener


NO_DEADLINE = np.iinfo(np.int64).max


_CLOCK_ID = getattr(time, "CLOCK_MONOTONIC", None)

if _CLOCK_ID is not None:
    @intrinsic
    def _clock_gettime_ns(typingctx):
        """``clock_gettime(CLOCK_MONOTONIC)`` in nanoseconds, called straight from compiled
        code."""
        sig = types.int64()

        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            timespec = ir.LiteralStructType([i64, i64])
            slot = cgutils.alloca_once(builder, timespec)
            fnty = ir.FunctionType(ir.IntType(32), [ir.IntType(32), timespec.as_pointer()])
            fn = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
            builder.call(fn, [ir.Constant(ir.IntType(32), _CLOCK_ID), slot])
            sec = builder.load(cgutils.gep_inbounds(builder, slot, 0, 0))
            nsec = builder.load(cgutils.gep_inbounds(builder, slot, 0, 1))
            return builder.add(builder.mul(sec, ir.Constant(i64, 1_000_000_000)), nsec)
        return sig, codegen
else:  # pragma: no cover - platforms without clock_gettime
    _clock_gettime_ns = None


@kernel
def monotonic_ns():
    """Nanoseconds on the monotonic clock (the clock of ``time.monotonic_ns``): from
    ``clock_gettime``, or where there is none, from Python (the branch not taken is
    pruned when the kernel compiles)."""
    if _clock_gettime_ns is None:   # pragma: no cover - platforms without clock_gettime
        with numba.objmode(t="int64"):
            t = time.monotonic_ns()
        return t
    return _clock_gettime_ns()


@intrinsic
def borrow(typingctx, array):
    """A view of ``array`` that is not reference-counted, for a hot loop.

    numba counts references atomically each time a kernel passes an array to a call
    or takes a field of a record, and in a loop over small calls those counts can
    cost more than the work. The view has no owner, so borrow only a kernel's own
    arguments and the arrays of the records it was given (its caller holds them until
    it returns, and no kernel reassigns a record's field; an array the kernel made is
    freed after its last use, whatever views of it remain), and never return a view
    or keep it in a record that outlives the call. A kernel that needs scratch arrays
    makes them and hands them to one that borrows them.

    Examples
    --------
    >>> import numba
    >>> @numba.njit
    ... def first(a):
    ...     view = borrow(a)
    ...     view[0] = 7
    ...     return view.sum()
    >>> a = np.arange(4)
    >>> int(first(a)), a.tolist()
    (13, [7, 1, 2, 3])
    """
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, args):
        return _array_view(context, builder, array, args[0])
    return array(array), codegen


def _array_view(context, builder, array_type, value):
    """``value`` (an array of ``array_type``) as a view with no owner (``borrow``)."""
    source = context.make_array(array_type)(context, builder, value=value)
    view = context.make_array(array_type)(context, builder)
    for name in ("nitems", "itemsize", "data", "shape", "strides"):
        setattr(view, name, getattr(source, name))
    view.meminfo = cgutils.get_null_value(view.meminfo.type)
    view.parent = cgutils.get_null_value(view.parent.type)
    return view._getvalue()


@inline_kernel
def copy_into(dst, src):
    """Copy the 1-d ``src`` into the start of the 1-d ``dst``, item by item.

    A loop rather than ``dst[:n] = src``: the slice assignment compiles numpy's
    shape checks and their error messages into the first run.
    Inlined where it is called: it runs twice per search node.
    """
    for i in range(src.shape[0]):
        dst[i] = src[i]


@kernel
def grow(a, n):
    """A copy of ``a`` with room for ``n`` items along its first axis (the new ones 0)."""
    b = np.zeros((n,) + a.shape[1:], a.dtype)
    copy_into(b.reshape(b.size), a.reshape(a.size))
    return b


#: Shell sort's gaps (Ciura's), largest first; past the largest, gaps grow by 9/4.
_GAPS = np.array([701, 301, 132, 57, 23, 10, 4, 1], np.int64)


@kernel
def sort_ints(a, lo, hi):
    """Sort ``a[lo:hi]`` in place, ascending (Shell sort with Ciura's gaps).

    The search sorts a table's few live rows at each node; ``np.sort`` would
    compile a quicksort for each array type into the first run.
    """
    n = hi - lo
    gap = _GAPS[0]
    while gap * 9 // 4 < n:
        gap = gap * 9 // 4
    g = 0
    while g < _GAPS.shape[0]:           # the extended gaps, largest first, then Ciura's
        if gap <= _GAPS[0]:
            gap = _GAPS[g]
            g += 1
            if gap >= n:
                continue
        for i in range(lo + gap, hi):   # insertion sort of each gap-strided run
            x = a[i]
            j = i
            while j >= lo + gap and a[j - gap] > x:
                a[j] = a[j - gap]
                j -= gap
            a[j] = x
        if gap > _GAPS[0]:
            gap = gap * 4 // 9


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
    return time.monotonic_ns() + int(min(timeout, 1e9) * 1e9)     # a huge int too
