"""Which operations of the published schema the emulator implements (read from the app's routes), and
that every one of them is checked by a conformance test (a ``@pytest.mark.covers`` in some
``test_conformance_*.py`` of this folder; the ``client`` fixture then validates its answers)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from openapi_schema import API_PREFIX, PublishedApi, UnknownOperation
from platformpp.emulator import app as _app  # noqa: F401  (registers the {id:snowflake} path convertor)
from platformpp.emulator.areas.catalog import AREAS
from platformpp.emulator.gateway.routes import routes as gateway_routes
from schema_hook import published_api
from starlette.routing import Route

HERE = Path(__file__).resolve().parent


def implemented_operations(api: PublishedApi) -> set[str]:
    """``"METHOD /template"`` of every published operation some route of the emulator serves."""
    found = set()
    for route in [*gateway_routes(), *(route for area in AREAS for route in area.routes())]:
        if not isinstance(route, Route) or not route.path.startswith(API_PREFIX + "/"):
            continue
        sample = re.sub(r"\{[^}]+\}", "1", route.path)   # any id: the template is what matters
        for method in sorted((route.methods or set()) - {"HEAD"}):
            try:
                found.add(api.operation(method, sample).key)
            except UnknownOperation:
                continue   # the social SDK's own routes are not in the published schema
    return found


def declared_coverage() -> dict[str, list[str]]:
    """Operation key → the conformance tests that declare they check it."""
    covered: dict[str, list[str]] = {}
    for path in sorted(HERE.glob("test_conformance_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef):
                continue
            for decorator in node.decorator_list:
                if isinstance(decorator, ast.Call) and ast.unparse(decorator.func) == "pytest.mark.covers":
                    for arg in decorator.args:
                        assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), ast.unparse(arg)
                        covered.setdefault(arg.value, []).append(f"{path.name}::{node.name}")
    return covered


def test_every_implemented_operation_is_checked_by_a_conformance_test() -> None:
    api = published_api()
    implemented = implemented_operations(api)
    assert len(implemented) >= 30   # the users, applications, OAuth2, lobbies and Gateway operations at least
    missing = sorted(implemented - set(declared_coverage()))
    assert not missing, f"implemented but not checked by any test_conformance_*.py: {missing}"


def test_declared_operations_exist_in_the_schema_and_the_emulator() -> None:
    api = published_api()
    published = {operation.key for _, operation in api.operations}
    implemented = implemented_operations(api)
    declared = declared_coverage()
    assert declared, "no conformance test declares what it covers"
    assert not sorted(set(declared) - published), "declared operations the schema does not publish"
    assert not sorted(set(declared) - implemented), "declared operations the emulator does not serve"


def test_the_route_reader_finds_known_operations() -> None:
    implemented = implemented_operations(published_api())
    assert {"GET /users/@me", "GET /users/{user_id}", "PATCH /applications/@me", "GET /gateway/bot",
            "POST /lobbies/{lobby_id}/messages"} <= implemented
    assert not any(key.startswith("GET /users/{user_id}/presence") for key in implemented)
