"""Starting up: a light import, no import cycle, and a kernel cache that survives a clone and
cannot go stale.

The cache tests run a copy of the package in fresh interpreters, since a kernel
is compiled (or loaded from the cache) once per process.
"""

import ast
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

import kakuro_np as kn
from kakuro_np import cli
from kakuro_np.engine.core import jit
from conftest import PUZZLES, ROOT

PACKAGE = ROOT / "kakuro_np"
SUBCOMMANDS = ["solve", "reduce", "check", "convert", "render", "kc", "explain", "hint", "grade",
               "stats"]


def child(code, cwd, env=None):
    """Run ``code`` in a fresh interpreter that imports ``kakuro_np`` from ``cwd``."""
    # a copy of the package caches in its own folders (numba's), never in the user's cache
    own = {"KAKURO_NP_CACHE_DIR": ""} if pathlib.Path(cwd) != ROOT else {}
    env = {**os.environ, "PYTHONPATH": str(cwd), **own, **(env or {})}
    if env.get("NUMBA_CACHE_DIR") == "":
        del env["NUMBA_CACHE_DIR"]
    out = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out


# -- a light import --------------------------------------------------------------

def test_help_and_kc_do_not_load_numba():
    code = """if True:
        import contextlib, io, sys
        import kakuro_np, kakuro_np.cli as cli
        print("import", "numba" in sys.modules)
        for argv in [["--help"]] + [[sub, "--help"] for sub in SUBCOMMANDS]:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
                cli.main(argv)
        print("help", "numba" in sys.modules)
        cli.main(["kc", "18", "4"])
        print("kc", "numba" in sys.modules)
    """.replace("SUBCOMMANDS", repr(SUBCOMMANDS))
    out = child(code, ROOT).stdout.splitlines()
    assert out == ["import False", "help False",
                   "18 in 4: 1269  1278  1359  1368  1458  1467  2349  2358  2367  2457  3456",
                   "kc False"]


def test_python_m_help_does_not_load_numba():
    code = """if True:
        import contextlib, io, runpy, sys
        sys.argv = ["kakuro-np", "--help"]
        with contextlib.redirect_stdout(io.StringIO()) as shown, contextlib.suppress(SystemExit):
            runpy.run_module("kakuro_np", run_name="__main__", alter_sys=True)
        print("usage: kakuro-np" in shown.getvalue(), "numba" in sys.modules)
    """
    assert child(code, ROOT).stdout.split() == ["True", "False"]


def test_every_public_name_loads_and_keeps_its_name():
    # Importing a submodule first (kakuro_np.solve imports kakuro_np.engine.build.entries, ...)
    # must not turn kn.entries, kn.force, kn.explain... into modules.
    code = """if True:
        import kakuro_np.solve, kakuro_np.checking, kakuro_np.grading, kakuro_np.search_space
        import pickle
        import kakuro_np as kn
        from kakuro_np import *
        assert pickle.loads(pickle.dumps(kn.entries)) is kn.entries
        names = [n for n in kn.__all__ if type(getattr(kn, n)).__name__ == "module"]
        cells, sums = kn.entries("puzzles/k3.txt")       # text, at the public layer
        print(names, len(sums), kn.explain.__module__, kn.formats.FORMATS[0], callable(force))
    """
    assert child(code, ROOT).stdout.split() == ["[]", "40", "kakuro_np.explanation", "jboxed", "True"]


def test_import_of_a_module_gives_the_module():
    # No module is named like a public verb: ``import kakuro_np.grading as g`` is the module,
    # and the verbs stay functions beside it.
    modules = sorted(p.stem for p in PACKAGE.glob("*.py") if not p.stem.startswith("_"))
    assert not set(modules) & set(kn.__all__)
    code = f"""if True:
        import importlib, types
        import kakuro_np as kn
        import kakuro_np.grading as grading
        for name in {modules!r}:
            assert isinstance(importlib.import_module("kakuro_np." + name), types.ModuleType)
            assert isinstance(getattr(kn, name), types.ModuleType), name
        print(grading.Grade is kn.Grade, callable(kn.grade), callable(kn.explain))
    """
    assert child(code, ROOT).stdout.split() == ["True", "True", "True"]


def test_the_lazy_names_match_the_type_checking_imports():
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    block = next(node for node in tree.body if isinstance(node, ast.If)
                 and ast.unparse(node.test) == "TYPE_CHECKING")
    imported = {alias.name: node.module for node in block.body for alias in node.names}
    assert imported == kn._HOME and sorted(kn.__all__) == sorted(kn._HOME)
    assert all(getattr(kn, name) is not None for name in kn.__all__)


def test_str_of_a_puzzle_is_the_essay_box_drawing():
    p = kn.read(PUZZLES / "k0.txt")
    assert str(p) == kn.boxed(p) and str(p).startswith("┌────┬───┬───┬───┬───┐\n│x   │x  │")


# -- no import cycle ---------------------------------------------------------------

def _modules(root=PACKAGE):
    """``{dotted name: path}`` of every module of the package."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _is_type_checking(node):
    return isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING",
                                                                   "typing.TYPE_CHECKING")


def _imports(name, path, modules):
    """The package's modules that module ``name`` imports, at any level of its code
    (functions too), except under ``if TYPE_CHECKING``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()

    def visit(node):
        if _is_type_checking(node):
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            for alias in node.names:           # from . import formats: a submodule
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in modules else base)
        for child_node in ast.iter_child_nodes(node):
            visit(child_node)

    visit(ast.parse(path.read_text(), str(path)))
    return {m for m in found if m in modules and m != name}


def import_graph(root=PACKAGE):
    modules = _modules(root)
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def find_cycle(graph):
    """One cycle of ``graph`` as a list of nodes (first = last), or None."""
    state = {}

    def dfs(node, path):
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = dfs(nxt, path + [nxt])
                if cycle:
                    return cycle
        state[node] = "done"
        return None

    for start in sorted(graph):
        if start not in state:
            cycle = dfs(start, [start])
            if cycle:
                return cycle
    return None


def test_the_cycle_finder_finds_cycles_and_skips_type_checking(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from typing import TYPE_CHECKING\n"
                                     "if TYPE_CHECKING:\n    from .a import f\n")
    (pkg / "a.py").write_text("from .b import g\n")
    (pkg / "b.py").write_text("def g():\n    from . import a\n")
    graph = import_graph(pkg)
    assert graph == {"pkg": set(), "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.a"}}
    assert find_cycle(graph) == ["pkg.a", "pkg.b", "pkg.a"]
    (pkg / "b.py").write_text("def g():\n    pass\n")
    assert find_cycle(import_graph(pkg)) is None


def test_no_import_cycle():
    assert find_cycle(import_graph()) is None


def test_below_the_readers_nothing_reads_text():
    graph = import_graph()

    def reaches(start):
        seen, todo = set(), [start]
        while todo:
            for nxt in graph[todo.pop()] - seen:
                seen.add(nxt)
                todo.append(nxt)
        return seen

    # A Puzzle draws itself in a notebook (``_repr_svg_``): it may reach the pictures
    # (svg, render), which write and read nothing, but never the readers.
    assert not reaches("kakuro_np.puzzle") & {"kakuro_np.formats"}
    for low in {"kakuro_np.tokens", "kakuro_np.engine.build.entries"} & set(graph):
        assert not reaches(low) & {"kakuro_np.formats", "kakuro_np.render", "kakuro_np.drawing"}, low


# -- the cache guard -----------------------------------------------------------------

#: A kernel in its own file whose callee, ``jit.grow``, lives in another.
PROBE = '''
import numpy as np

from .engine.core.jit import grow, kernel


@kernel
def probe():
    return grow(np.zeros(1, np.int64), 3)[2]
'''
GROW_ZEROS = "b = np.zeros((n,) + a.shape[1:], a.dtype)"
GROW_SEVENS = "b = np.full((n,) + a.shape[1:], 7, a.dtype)"
RUN_PROBE = ("import kakuro_np.cli as cli; cli._say_when_compiling(); cli._say_when_compiling(); "
             "import kakuro_np._probe as p; print(p.probe())")


def copy_package(folder):
    """``folder`` with a copy of the package's sources, without its cache, and with
    ``_probe.py``."""
    shutil.copytree(PACKAGE, folder / "kakuro_np",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    (folder / "kakuro_np" / "_probe.py").write_text(PROBE)
    return folder


@pytest.fixture
def copy(tmp_path):
    """A copy of the package's sources, without its cache, and with ``_probe.py``."""
    return copy_package(tmp_path)


def probe(copy, env=None):
    """``(what the probe returns, whether the run said it was compiling)`` in a fresh process."""
    out = child(RUN_PROBE, copy, env)
    assert out.stderr in ("", cli.COMPILING + "\n"), out.stderr      # said once at most
    return int(out.stdout), out.stderr != ""


def edit_grow(pkg):
    """Make ``jit.grow`` fill new items with 7 instead of 0."""
    source = (pkg / "engine" / "core" / "jit.py").read_text()
    assert source.count(GROW_ZEROS) == 1, "jit.grow changed: update GROW_ZEROS"
    (pkg / "engine" / "core" / "jit.py").write_text(source.replace(GROW_ZEROS, GROW_SEVENS))


def test_an_edited_callee_in_another_file_takes_effect(copy):
    pkg = copy / "kakuro_np"
    env = {"NUMBA_CACHE_DIR": ""}                                # numba's default: __pycache__
    stamp = pkg / "__pycache__" / jit.STAMP
    assert probe(copy, env) == (0, True)                          # compiled, and said so
    old = stamp.read_text()
    assert old.strip() == jit.sources_hash(str(pkg))
    assert list(stamp.parent.glob("_probe.probe-*.nbi")), "the probe is cached beside the stamp"
    edit_grow(pkg)
    # Without the guard (its stamp forged to match the edit) numba loads the probe's
    # stale machine code, since the probe's own file did not change.
    stamp.write_text(jit.sources_hash(str(pkg)) + "\n")
    assert probe(copy, env) == (0, False)
    # With the guard, the edit takes effect, and the kernels are compiled once more.
    stamp.write_text(old)
    assert probe(copy, env) == (7, True)
    assert stamp.read_text().strip() == jit.sources_hash(str(pkg))


def test_the_guard_follows_numba_cache_dir(copy):
    cache_dir = copy / "numba-cache"
    env = {"NUMBA_CACHE_DIR": str(cache_dir)}
    assert probe(copy, env) == (0, True)
    folder = pathlib.Path(jit.cache_folder(str(copy / "kakuro_np"), str(cache_dir)))
    assert (folder / jit.STAMP).exists() and list(folder.glob("_probe.probe-*.nbi"))
    assert not (copy / "kakuro_np" / "__pycache__" / jit.STAMP).exists()
    edit_grow(copy / "kakuro_np")
    assert probe(copy, env) == (7, True)
    assert probe(copy, env) == (7, False)                         # cached from now on


def test_the_user_cache_survives_a_clone_and_an_edit_is_a_new_key(tmp_path):
    cache = tmp_path / "user-cache"
    env = {"KAKURO_NP_CACHE_DIR": str(cache)}
    first, second = copy_package(tmp_path / "a"), copy_package(tmp_path / "b")
    assert probe(first, env) == (0, True)                         # compiled
    assert probe(second, env) == (0, False)                       # another clone: loaded
    keys = sorted(p.name for p in cache.iterdir())
    assert len(keys) == 1 and keys[0].startswith("numba-")
    assert list((cache / keys[0]).rglob("_probe.probe-*.nbi"))
    assert not list((first / "kakuro_np").rglob("*.nbi"))          # nothing in the tree
    edit_grow(second / "kakuro_np")
    assert probe(second, env) == (7, True)                        # edited: a new key
    assert probe(first, env) == (0, False)                        # the first key kept
    assert len(list(cache.iterdir())) == 2


def test_a_user_cache_that_cannot_be_written_falls_back_to_numba_places(copy):
    blocked = copy / "a-file"
    blocked.write_text("not a folder")
    assert probe(copy, {"KAKURO_NP_CACHE_DIR": str(blocked)}) == (0, True)
    assert list((copy / "kakuro_np" / "__pycache__").glob("_probe.probe-*.nbi"))


def test_the_user_cache_keeps_the_keys_used_last(tmp_path):
    for i, name in enumerate(["numba-a", "numba-b", "numba-c", "other"]):
        (tmp_path / name).mkdir()
        os.utime(tmp_path / name, (1000 + i, 1000 + i))
    jit._drop_old_keys(str(tmp_path), 2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["numba-b", "numba-c", "other"]


def test_where_the_kernels_are_cached_follows_the_variables(tmp_path):
    assert jit.user_cache(None, None, {"XDG_CACHE_HOME": str(tmp_path)}) == str(
        tmp_path / "kakuro_np")
    assert jit.user_cache(str(tmp_path), "/numba") == str(tmp_path)   # ours first
    assert jit.user_cache("", None) is None and jit.user_cache(None, "/numba") is None
    assert jit.cache_key("ab" * 32).endswith("-" + "ab" * 8)


def test_the_guard_clears_only_numba_files_and_only_when_the_sources_change(copy):
    pkg = copy / "kakuro_np"
    cache = pkg / "__pycache__"
    cache.mkdir()
    for name in ("solve.search-1.py311.nbi", "solve.search-1.py311.0.nbc", "solve.cpython-311.pyc"):
        (cache / name).write_text("x")
    assert jit.guard_cache(str(pkg)) is True
    assert sorted(p.name for p in cache.iterdir()) == [jit.STAMP, "solve.cpython-311.pyc"]
    (cache / "force.fixpoint-9.py311.nbi").write_text("x")
    assert jit.guard_cache(str(pkg)) is False                # same sources: the cache stays
    assert (cache / "force.fixpoint-9.py311.nbi").exists()
    (pkg / "play" / "server.py").write_text((pkg / "play" / "server.py").read_text() + "\n# edited\n")
    assert jit.guard_cache(str(pkg)) is False                # no kernel reads the play server
    assert (cache / "force.fixpoint-9.py311.nbi").exists()
    (pkg / "combos.py").write_text((pkg / "combos.py").read_text() + "\n# edited\n")
    assert jit.guard_cache(str(pkg)) is True                  # kernels import its constants
    assert not (cache / "force.fixpoint-9.py311.nbi").exists()


def test_the_kernels_sources_are_those_that_compile_and_what_they_import():
    sources = jit.kernel_sources()
    for rel in ("engine/force/propagate.py", "engine/force/__init__.py", "engine/core/jit.py", "techniques.py", "combos.py", "errors.py"):
        assert rel in sources                  # compiles kernels, or kernels import from it
    for rel in ("play/server.py", "formats/text.py", "cli.py", "batch.py", "drawing.py"):
        assert rel not in sources              # no kernel can read these


def test_the_guard_never_stops_an_import(copy):
    pkg = copy / "kakuro_np"
    blocked = copy / "a-file"
    blocked.write_text("not a folder")
    assert jit.guard_cache(str(pkg), cache_dir=str(blocked)) is False      # cannot write there
    (pkg / "__pycache__").mkdir()
    (pkg / "__pycache__" / jit.STAMP).write_bytes(b"\xff\xfe not a hash")
    assert jit.guard_cache(str(pkg)) is True                               # garbage is stale


def test_numba_cache_dir_is_where_numba_puts_it(tmp_path):
    from numba.core.caching import _CacheLocator
    folder = str(PACKAGE)
    assert jit.cache_folder(folder) == os.path.join(folder, "__pycache__")
    assert jit.cache_folder(folder, str(tmp_path)) == os.path.join(
        str(tmp_path), _CacheLocator.get_suitable_cache_subpath(str(PACKAGE / "jit.py")))


# -- saying what a first run does ------------------------------------------------------

def test_bad_input_on_a_cold_cache_is_still_one_line(copy):
    bad = copy / "bad.txt"
    bad.write_text("x ; x ; x\nx ; _ ; _\n")                 # found by the (uncached) scan kernel
    out = subprocess.run([sys.executable, "-m", "kakuro_np", "solve", str(bad)], cwd=copy,
                         env={**os.environ, "PYTHONPATH": str(copy)}, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert "no across clue" in out.stderr


@pytest.mark.slow
def test_a_first_solve_answers_from_the_essay_or_says_it_compiles(copy):
    env = {**os.environ, "PYTHONPATH": str(copy), "KAKURO_NP_CACHE_DIR": ""}
    env.pop("NUMBA_CACHE_DIR", None)
    k2 = [sys.executable, "-m", "kakuro_np", "solve", str(PUZZLES / "k2.txt")]
    first = subprocess.run(k2, cwd=copy, env=env, capture_output=True, text=True, timeout=600)
    assert first.returncode == 0 and first.stderr == ""          # the essay answered at once
    block = copy / "block.txt"                  # tables past first_run.MOST_ROWS: the engine
    block.write_text("\n".join(["x" + " ; 45 0" * 9] + ["0 45" + " ; _" * 9] * 9) + "\n")
    run = [sys.executable, "-m", "kakuro_np", "solve", "--limit", "1", str(block)]
    first = subprocess.run(run, cwd=copy, env=env, capture_output=True, text=True, timeout=600)
    assert first.returncode == 0 and first.stderr == cli.COMPILING + "\n"
    again = subprocess.run(run, cwd=copy, env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and again.stderr == "" and again.stdout == first.stdout


def test_two_processes_saving_one_kernel_keep_each_signatures_code(tmp_path, monkeypatch):
    """numba picks a saved signature's data file from the index it read: two saves at once
    (helpers beside the caller, the suite's two workers) both took ``.1.nbc``, and the index
    then gave one signature the other's machine code. With the cache lock each save reads
    the index the last one wrote. Two threads stand for the processes (``flock`` holds
    between open files, as between processes); a slow index write widens the window."""
    import threading
    import time
    from numba.core.caching import IndexDataCacheFile
    assert jit.lock_numba_cache()
    real_save_index = IndexDataCacheFile._save_index

    def slow_save_index(self, overloads):
        time.sleep(0.2)
        real_save_index(self, overloads)

    monkeypatch.setattr(IndexDataCacheFile, "_save_index", slow_save_index)
    files = [IndexDataCacheFile(str(tmp_path), "probe.probe-1", ("stamp", 1)) for _ in range(2)]
    saves = [threading.Thread(target=f.save, args=((f"signature {i}",), f"code {i}"))
             for i, f in enumerate(files)]
    for t in saves:
        t.start()
    for t in saves:
        t.join()
    fresh = IndexDataCacheFile(str(tmp_path), "probe.probe-1", ("stamp", 1))
    assert [fresh.load((f"signature {i}",)) for i in range(2)] == ["code 0", "code 1"]


def test_the_compiling_notice_survives_kernels_of_no_module():
    """numba compiles functions made by ``exec`` (a record's constructor, from
    ``structref``), whose ``__module__`` is None: the notice passes over them."""
    import numba
    from numba.core import event
    said = []
    listener = jit.when_compiling(lambda: said.append(1))
    try:
        scope = {}
        exec("def nameless(x):\n    return x + 1\n", scope)
        assert scope["nameless"].__module__ is None
        assert numba.njit(scope["nameless"])(1) == 2
        assert said == []
    finally:
        event.unregister("numba:compile", listener)
