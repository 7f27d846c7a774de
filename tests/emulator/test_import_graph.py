"""The emulator's import graph, read from the source with ``ast``: no cycles, and the layout's
dependency rules (docs/emulator.md, "Where things live").

Edges are every import statement, including those inside functions (a hidden import is still a
dependency), except those under ``if TYPE_CHECKING:`` (never executed). ``from package import name``
is an edge to ``package.name`` when that is a module, else to ``package``. Importing a submodule
also runs its parent packages' ``__init__``; those implicit edges are not counted, because a package's
``__init__`` only aggregates what is below it (``areas/__init__.py`` lists the areas) and no module
imports the package it lives in (checked below).
"""

from __future__ import annotations

import ast
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


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _edges(module: str, path: Path) -> set[str]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    targets: set[str] = set()
    for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
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


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_imports_the_package_it_lives_in(module: str) -> None:
    ancestors = {module.rsplit(".", n)[0] for n in range(1, module.count(".") - 1)}
    assert not GRAPH[module] & ancestors, f"{module} imports its own package: {sorted(GRAPH[module] & ancestors)}"


def test_areas_never_import_another_areas_routes() -> None:
    bad = sorted((module, target) for module, targets in GRAPH.items() for target in targets
                 if _area_of(module) and _area_of(target) and _area_of(module) != _area_of(target)
                 and _is_routes(target))
    assert bad == []


def test_areas_never_import_the_gateway_the_app_or_the_state() -> None:
    # The Gateway depends on areas (their stores), never the reverse; areas reach the running
    # emulator through the ``EmulatorState`` they are given (imported for type checking only).
    upper = tuple(f"{ROOT_PACKAGE}.{name}" for name in ("gateway", "app", "server", "state", "cli"))
    bad = sorted((module, target) for module, targets in GRAPH.items() if _area_of(module)
                 for target in targets if target.startswith(upper))
    assert bad == []


def test_the_gateway_never_imports_area_routes() -> None:
    bad = sorted((module, target) for module, targets in GRAPH.items()
                 if module.startswith(f"{ROOT_PACKAGE}.gateway") for target in targets
                 if _area_of(target) and _is_routes(target))
    assert bad == []


@pytest.mark.parametrize("layer", ["core", "wire", "events"])
def test_lower_layers_import_no_area_gateway_or_app(layer: str) -> None:
    upper = tuple(f"{ROOT_PACKAGE}.{name}" for name in ("areas", "gateway", "app", "state", "server"))
    bad = sorted((module, target) for module, targets in GRAPH.items()
                 if module.startswith(f"{ROOT_PACKAGE}.{layer}") for target in targets
                 if target.startswith(upper))
    assert bad == []


def test_nothing_is_loaded_by_a_name_string() -> None:
    offenders = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = ast.unparse(node.func)
                if name in ("importlib.import_module", "import_module", "__import__"):
                    offenders.append(f"{module}: {name}")
    assert offenders == []
