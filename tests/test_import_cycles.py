"""No import cycles anywhere in the product: imports run one way (faces → services → pipelines →
steps → sources, guard, llm, conversations, styles). Imports inside functions and type-only imports
count too: a cycle hidden in a function or behind TYPE_CHECKING is still two modules that need
each other."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("agents", "newsdesk", "conversations", "styles")


def product_modules() -> dict[str, Path]:
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imported_names(module: str, path: Path, modules: dict[str, Path]) -> list[str]:
    """Every module an import statement of this file names, resolved for relative imports.

    `from package import submodule` names the submodule, not the package's __init__ (a parent
    package is always imported first; that is no dependency of the importer on its re-exports).
    """
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, *([node.module] if node.module else [])])
            names += [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names
            ]
    return names


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    def owner(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {module: set() for module in modules}
    for module, path in modules.items():
        for name in imported_names(module, path, modules):
            target = owner(name)
            if target and target != module:
                graph[module].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_two_product_modules_import_each_other() -> None:
    assert cycles(import_graph(product_modules())) == []


def test_a_cycle_through_a_function_level_import_is_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}

    assert cycles(graph) == [["a", "b", "c"]]


def test_a_one_way_chain_is_no_cycle() -> None:
    assert cycles({"faces": {"services"}, "services": {"steps"}, "steps": set()}) == []
