"""The package's shape: no function takes more than 8 positional parameters, and no module
imports, at its top level, a module that imports it back (directly or around a loop)."""

import ast

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


def top_level_imports(name: str, path, tree, known) -> set:
    """The package modules ``name`` imports at its top level (relative imports)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    deps = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
            deps |= {t for t in [target] + [f"{target}.{a.name}" for a in node.names]
                     if t in known}
    return deps - {name}


def test_no_function_takes_more_than_8_positional_parameters():
    over = [f"{path.name}:{node.lineno} {node.name}"
            for path, tree in modules().values() for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and len(node.args.posonlyargs) + len(node.args.args) > MOST_POSITIONAL]
    assert over == []


def test_no_import_cycle_at_the_top_level():
    found = modules()
    graph = {name: top_level_imports(name, path, tree, found)
             for name, (path, tree) in found.items()}
    # a package's __init__ may import its own submodules; a cycle through it is the
    # submodule importing the package back, which the graph holds as well
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
    assert cycles == []


def test_the_code_says_what_not_when():
    """No line of the package dates itself or names a session or an issue: history lives in
    the commits and bench/README, not in docstrings."""
    import re
    when = re.compile(r"session \d|issue \d|20\d\d-\d\d-\d\d")
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted(PACKAGE.rglob("*"))
             if path.suffix in (".py", ".md", ".js", ".html")
             for n, line in enumerate(path.read_text().splitlines(), 1) if when.search(line)]
    assert found == []
