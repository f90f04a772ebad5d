"""The package's shape: no function takes more than 8 positional parameters, no module
imports a module that imports it back (directly or around a loop, at the top level or
inside a function), and the engine's stages import one way."""

import ast
import re

from conftest import ROOT

PACKAGE = ROOT / "kakuro_np"
MOST_POSITIONAL = 8


def modules() -> dict:
    """Dotted name -> parsed module, for every source file of the package."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = (path, ast.parse(path.read_text()))
    return found


def _runs(node) -> bool:
    """False for an ``if TYPE_CHECKING:`` block: its imports are for type checkers only."""
    return not (isinstance(node, ast.If) and isinstance(node.test, ast.Name)
                and node.test.id == "TYPE_CHECKING")


def _statements(tree):
    """Every statement of a module that may run, in functions and classes too."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        todo += [child for child in ast.iter_child_nodes(node) if _runs(child)]


def package_imports(name: str, path, tree, known, top_level_only=False) -> set:
    """The package modules ``name`` imports: anywhere it may run (in functions too, not in
    an ``if TYPE_CHECKING:`` block), or with ``top_level_only`` at its top level.
    ``from . import sub`` imports ``sub``; ``from . import name`` a name of the package."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    deps = set()
    for node in (tree.body if top_level_only else _statements(tree)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            subs = {f"{target}.{a.name}" for a in node.names} & set(known)
            if len(subs) < len(node.names) and target in known:
                deps.add(target)
            deps |= subs
        elif isinstance(node, ast.Import):
            deps |= {a.name for a in node.names} & set(known)
    return deps - {name}


def cycles_of(graph: dict) -> list:
    """The import circles of ``graph`` (name -> the names it imports), each as a path."""
    done, cycles = set(), []

    def visit(name, path):
        for dep in sorted(graph[name]):
            if dep in path:
                cycles.append(path[path.index(dep):] + [dep])
            elif dep not in done:
                visit(dep, path + [dep])
        done.add(name)

    for name in sorted(graph):
        if name not in done:
            visit(name, [name])
    return cycles


#: The engine's stages, in the order the data flows (``kakuro_np/engine/__init__.py``):
#: each imports only those before it.
ENGINE_STAGES = ("core", "build", "force", "model", "walk", "proofs", "search")
#: What the engine takes from the package outside it.
ENGINE_BASE = {"kakuro_np.combos", "kakuro_np.errors", "kakuro_np.puzzle"}


def stage_of(name: str) -> str | None:
    """The engine stage of module ``name`` (None outside the engine)."""
    parts = name.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "engine" else None


def test_no_function_takes_more_than_8_positional_parameters():
    over = [f"{path.name}:{node.lineno} {node.name}"
            for path, tree in modules().values() for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and len(node.args.posonlyargs) + len(node.args.args) > MOST_POSITIONAL]
    assert over == []


def test_no_import_cycle_at_the_top_level():
    found = modules()
    # a package's __init__ may import its own submodules; a cycle through it is the
    # submodule importing the package back, which the graph holds as well
    assert cycles_of({name: package_imports(name, path, tree, found, top_level_only=True)
                      for name, (path, tree) in found.items()}) == []


def test_no_import_cycle_counting_imports_inside_functions():
    found = modules()
    assert cycles_of({name: package_imports(name, path, tree, found)
                      for name, (path, tree) in found.items()}) == []


def test_the_engine_stages_import_one_way():
    """Each engine stage imports only the stages before it, inside functions too, and
    the package outside the engine only through its base (combos, errors, puzzle)."""
    found = modules()
    upward, outside = [], []
    for name, (path, tree) in found.items():
        stage = stage_of(name)
        if stage is None:
            continue
        for dep in package_imports(name, path, tree, found):
            other = stage_of(dep)
            if other is None and dep not in ENGINE_BASE and dep != "kakuro_np.engine":
                outside.append(f"{name} -> {dep}")
            elif other is not None and stage in ENGINE_STAGES and (
                    other not in ENGINE_STAGES
                    or ENGINE_STAGES.index(other) > ENGINE_STAGES.index(stage)):
                upward.append(f"{name} -> {dep}")
    assert upward == [] and outside == []


def test_the_engine_names_no_module_above_it_even_in_a_string():
    """Not by import, nor as the dotted name ``ahead`` would import (the modules above the
    engine declare their own groups of kernels: ``ahead.declare``)."""
    named = []
    for name, (path, tree) in modules().items():
        if stage_of(name) is None:
            continue
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and re.fullmatch(r"kakuro_np\.[\w.]+", node.value)
                    and not node.value.startswith("kakuro_np.engine")
                    and node.value not in ENGINE_BASE):
                named.append(f"{name}: {node.value}")
    assert named == []


def test_every_engine_module_has_a_stage():
    assert {stage_of(name) for name in modules()} - {None} == set(ENGINE_STAGES)


def test_the_code_says_what_not_when():
    """No line of the package dates itself, names a session or an issue, points at the
    measurements of bench/README or quotes a timing before and after a change: history
    lives in the commits, CHANGELOG.md and bench/HISTORY.md, not in docstrings."""
    import re
    when = re.compile(r"session \d|issue \d|20\d\d-\d\d-\d\d|bench/README"
                      r"|\d(\.\d+)? ?(s|ms|µs) ?(->|→) ?\d")
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted(PACKAGE.rglob("*"))
             if path.suffix in (".py", ".md", ".js", ".html")
             for n, line in enumerate(path.read_text().splitlines(), 1) if when.search(line)]
    assert found == []


def test_kakuro_reads_as_the_pipeline():
    """``kakuro()``'s body is at most 30 lines and calls the stages in order: the model
    (entries, tables, forced moves) and then the fan-out."""
    path, tree = modules()["kakuro_np.solve"]
    verb = next(node for node in tree.body
                if isinstance(node, ast.FunctionDef) and node.name == "kakuro")
    body = verb.body[1:] if isinstance(verb.body[0], ast.Expr) else verb.body
    assert body[-1].end_lineno - body[0].lineno + 1 <= 30
    called = [node.func.id for statement in body for node in ast.walk(statement)
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)]
    assert called.index("model") < called.index("fan_out") < called.index("on_grid")


#: The most kernels the package may define (issue 67: each costs compile time on a cold
#: cache and reading time; a kernel that only wraps another is folded into its callers).
MOST_KERNELS = 120


def kernel_definitions() -> dict:
    """``{"module.name": its ast.FunctionDef}`` of every ``@kernel`` and ``@inline_kernel``."""
    return {f"{name}.{node.name}": node for name, (_, tree) in modules().items()
            for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
            and any((d.func if isinstance(d, ast.Call) else d).id in ("kernel", "inline_kernel")
                    for d in node.decorator_list
                    if isinstance(d.func if isinstance(d, ast.Call) else d, ast.Name))}


def test_the_package_defines_at_most_most_kernels():
    """Every ``@kernel`` and ``@inline_kernel`` definition counts (numba compiles each)."""
    assert len(kernel_definitions()) <= MOST_KERNELS, f"{len(kernel_definitions())} kernels"


def test_no_kernel_only_wraps_another():
    """A kernel whose body (its docstring aside) is one ``return f(...)`` is folded into its
    callers: each kernel costs a compile (issue 67)."""
    wrappers = []
    for name, node in kernel_definitions().items():
        body = [s for s in node.body
                if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if len(body) == 1 and isinstance(body[0], ast.Return) and isinstance(body[0].value,
                                                                             ast.Call):
            wrappers.append(name)
    assert wrappers == []
