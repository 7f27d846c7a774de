"""The emulator's import graph, read from the source with ``ast``: no cycles, and the layout's
dependency rules (docs/emulator.md, "Where things live").

Two graphs are checked. The dependency graph has an edge for every import statement, including those
inside functions (a hidden import is still a dependency), except those under ``if TYPE_CHECKING:``
(never executed). The import-time graph has the imports that run when a module is loaded (those at
module level) plus, for every module, an edge to each package it lives in: importing ``a.b.c`` runs
``a/__init__`` and ``a/b/__init__`` first, so a package ``__init__`` that imports its neighbours puts
every module below it in a loop with them. ``from package import name`` is an edge to
``package.name`` when that is a module, else to ``package``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import platformpp.emulator
import pytest

ROOT_PACKAGE = "platformpp.emulator"
ROOT = Path(platformpp.emulator.__file__).parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([ROOT_PACKAGE, *parts])


MODULES: dict[str, Path] = {_module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_imports(tree: ast.AST, *, at_load: bool = False) -> list[ast.Import | ast.ImportFrom]:
    """The imports that can run; with ``at_load``, only those that run when the module is loaded."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if at_load and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _edges(module: str, path: Path, *, at_load: bool = False) -> set[str]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    targets: set[str] = set()
    for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8")), at_load=at_load):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
            continue
        if node.level:
            base = package.split(".")
            base = base[:len(base) - (node.level - 1)]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        for alias in node.names:
            submodule = f"{source}.{alias.name}"
            targets.add(submodule if submodule in MODULES else source)
    return {target for target in targets if target in MODULES and target != module}


GRAPH: dict[str, set[str]] = {module: _edges(module, path) for module, path in MODULES.items()}


def _packages_of(module: str) -> set[str]:
    parts = module.split(".")
    return {".".join(parts[:n]) for n in range(2, len(parts))} & MODULES.keys()


LOAD_GRAPH: dict[str, set[str]] = {module: _edges(module, path, at_load=True) | _packages_of(module)
                                   for module, path in MODULES.items()}


def _area_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[3] if len(parts) > 3 and parts[2] == "areas" else None


def _is_routes(module: str) -> bool:
    last = module.rsplit(".", 1)[-1]
    return last == "routes" or last.endswith("_routes")


def _find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}   # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_the_graph_is_read_from_every_module() -> None:
    # Guards the walk itself: known modules and edges must be there, or every check below is vacuous.
    assert f"{ROOT_PACKAGE}.gateway.hub" in GRAPH and f"{ROOT_PACKAGE}.areas.messages.store" in GRAPH
    assert f"{ROOT_PACKAGE}.events.bus" in GRAPH[f"{ROOT_PACKAGE}.gateway.hub"]
    assert f"{ROOT_PACKAGE}.areas.lobbies.store" in GRAPH[f"{ROOT_PACKAGE}.areas.messages.store"]
    # A function-level import counts; a TYPE_CHECKING one does not.
    assert f"{ROOT_PACKAGE}.server" in GRAPH[f"{ROOT_PACKAGE}.cli"]
    assert f"{ROOT_PACKAGE}.state" not in GRAPH[f"{ROOT_PACKAGE}.events.outbox"]


def test_the_cycle_finder_finds_cycles() -> None:
    assert _find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_no_import_cycles() -> None:
    cycle = _find_cycle(GRAPH)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_load_graph_counts_package_edges() -> None:
    store = f"{ROOT_PACKAGE}.areas.presence.store"
    assert {f"{ROOT_PACKAGE}.areas.presence", f"{ROOT_PACKAGE}.areas", ROOT_PACKAGE} <= LOAD_GRAPH[store]
    # A function-level import runs later, not when the module loads.
    assert f"{ROOT_PACKAGE}.server" not in LOAD_GRAPH[f"{ROOT_PACKAGE}.cli"]


def test_no_import_cycles_when_modules_load() -> None:
    cycle = _find_cycle(LOAD_GRAPH)
    assert cycle is None, "import cycle at load time: " + " -> ".join(cycle or [])


@pytest.mark.parametrize("package", sorted(m for m, path in MODULES.items()
                                          if path.name == "__init__.py" and _area_of(m) is not None))
def test_an_area_package_imports_nothing(package: str) -> None:
    # The app builder loads an area (areas/catalog.py and each area.py); the package stays empty so
    # that importing one area's store loads nothing else.
    assert _runtime_imports(ast.parse(MODULES[package].read_text(encoding="utf-8"))) == []


def test_importing_one_store_loads_only_what_it_imports() -> None:
    # Measured in a fresh interpreter: the areas loaded are those the store's own imports reach, and
    # no area's routes (a package __init__ that imported its routes would load far more).
    store = f"{ROOT_PACKAGE}.areas.presence.store"
    script = (f"import sys, {store}; "
              "print(sorted(m for m in sys.modules if m.startswith('platformpp.emulator.areas.')))")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    loaded = set(ast.literal_eval(run.stdout))
    reached: set[str] = set()
    todo = [store]
    while todo:
        module = todo.pop()
        if module not in reached:
            reached.add(module)
            todo.extend(LOAD_GRAPH[module])
    assert loaded == {m for m in reached if _area_of(m)}
    assert not any(_is_routes(m) for m in loaded)
