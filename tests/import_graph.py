"""The import graph of a source tree, read statically, and the circles in it (issue 22).

A circle (``a`` imports ``b`` imports ``a``) means one concept is split across modules or lives
in the wrong one; it also makes import order matter. The graph is built from the syntax tree,
never by importing anything, and counts every import statement wherever it stands: at module
level, inside a function (a function-local import that dodges a circle is still a circle), under
``if TYPE_CHECKING:``, and ``importlib.import_module("literal")`` calls.

Modules are named the way Python would import them from ``root`` (a ``sys.path`` entry): the
dotted path of each ``.py`` file under ``tree``, a package's ``__init__.py`` under the package's
name. An import names the module it loads: ``from a.b import c`` is an edge to ``a.b.c`` when that
is a module of the tree, else to ``a.b``; names outside the tree (the standard library,
dependencies) are ignored. Loading ``a.b`` also runs ``a/__init__.py``; that implicit edge to a
parent package is not counted (as in grimp/import-linter).

Used by ``tests/test_import_graph.py``: to cover another tree, add its (root, tree) there.
"""

from __future__ import annotations

import ast
from pathlib import Path

Graph = dict[str, set[str]]


def module_name(root: Path, path: Path) -> str:
    """``root/a/b/c.py`` -> ``a.b.c``; ``root/a/b/__init__.py`` -> ``a.b``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(tree: ast.AST, name: str, is_package: bool) -> list[tuple[str, list[str]]]:
    """Every import as (dotted module, names taken from it): ``import a.b`` is ``("a.b", [])``,
    ``from a import b, c`` is ``("a", ["b", "c"])`` (``b`` may be a submodule)."""
    package = name.split(".") if is_package else name.split(".")[:-1]
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((module, [alias.name for alias in node.names]))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append((node.args[0].value, []))
    return found


def import_graph(root: Path, tree: Path) -> Graph:
    """``{module: modules of the tree it imports}`` for every ``.py`` file under ``tree``."""
    files = {module_name(root, p): p for p in sorted(tree.rglob("*.py"))}
    graph: Graph = {}
    for name, path in files.items():
        syntax = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        edges = set()
        for module, names in _imports(syntax, name, path.name == "__init__.py"):
            submodules = {f"{module}.{n}" for n in names} & files.keys()
            edges |= submodules
            if module in files and (not names or len(submodules) < len(names)):
                edges.add(module)  # ``import module`` or a name defined in the module itself
        edges.discard(name)
        graph[name] = edges
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """One circle per strongly connected component of more than one module, as a closed path
    ``[a, b, ..., a]`` starting at the component's first module in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def visit(start: str) -> None:  # Tarjan's algorithm, iterative (no recursion limit)
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            step = next(successors, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(_circle(graph, c) for c in components)


def _circle(graph: Graph, component: set[str]) -> list[str]:
    """A shortest closed path through the component's first module (breadth-first)."""
    start = min(component)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for step in sorted(graph[node] & component):
                if step == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if step not in came_from:
                    came_from[step] = node
                    following.append(step)
        frontier = following
    raise AssertionError(f"{sorted(component)} is not strongly connected")


def describe(circle: list[str]) -> str:
    return " -> ".join(circle)
