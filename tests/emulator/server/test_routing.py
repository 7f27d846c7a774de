"""The indexed router tries only routes that can match; it must choose exactly what Starlette's plain
router over all routes chooses (first full match, else first partial match: a 405), for every route
of the emulator with any ids, and for paths no route serves."""

from __future__ import annotations

import random
import re

import httpx
from platformpp.emulator import Emulator, app as _app  # noqa: F401  (registers the snowflake convertor)
from platformpp.emulator.areas.catalog import AREAS
from platformpp.emulator.gateway.routes import routes as gateway_routes
from platformpp.emulator.core.routing import IndexedRouter
from starlette.routing import Match

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def _choice(routes: list, method: str, path: str) -> tuple[int | None, int | None]:
    """(index of the first fully matching route, of the first partial one), as Router.app decides."""
    scope = {"type": "http", "method": method, "path": path, "root_path": "", "headers": []}
    partial = None
    for route in routes:
        match, _ = route.matches(scope)
        if match is Match.FULL:
            return id(route), partial
        if match is Match.PARTIAL and partial is None:
            partial = id(route)
    return None, partial


def _sample_paths(routes: list, rng: random.Random) -> list[str]:
    paths = ["/", "/api", "/api/v10", "/api/v10/", "/api/v10/nothing/here", "/gateway", "/gateway/", "/_emulator/reset",
             "/api/v10/users/@me/", "/api/v10/users/abc", "/api/v10/channels/1/messages/", "/oauth2/authorize"]
    for route in routes:
        template = getattr(route, "path", "")
        for _ in range(3):
            paths.append(re.sub(r"\{[^}]+\}", lambda _: str(rng.choice([1, 42, rng.getrandbits(60)])), template))
        paths.append(template.replace("{", "").replace("}", ""))   # literal braces: a parameter's name as text
    return paths


def test_indexed_router_chooses_what_the_plain_router_chooses() -> None:
    routes = [*gateway_routes(), *(route for area in AREAS for route in area.routes())]
    indexed = IndexedRouter(routes)
    rng = random.Random(7)
    checked = 0
    for path in _sample_paths(routes, rng):
        candidates = indexed._router_for(indexed._key(path)).routes
        assert len(candidates) <= len(routes)
        for method in METHODS:
            assert _choice(candidates, method, path) == _choice(routes, method, path), (method, path)
            checked += 1
    assert checked > 1000
    # and it does narrow: an id-bearing path is checked against a handful of routes, not all of them
    assert len(indexed._router_for(indexed._key("/api/v10/users/@me")).routes) < len(routes) // 4
    assert len(indexed._by_key) < 400   # ids do not make new keys


def test_routes_answer_through_the_indexed_router(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with httpx.Client(base_url=emu.base_url, follow_redirects=False) as http:
        assert http.get("/api/v10/users/@me").status_code == 401
        assert http.delete("/api/v10/users/@me").status_code == 405
        assert http.get("/api/v10/no/such/route").status_code == 404
        redirected = http.get("/api/v10/users/@me/")   # Starlette's slash redirect, as before
        assert redirected.status_code == 307 and redirected.headers["location"].endswith("/api/v10/users/@me")


def test_endpoints_raise_to_the_exception_middleware_with_the_same_answers(platformpp_emulator: Emulator) -> None:
    """Function endpoints run without Starlette's per-route exception wrapper (core/routing.py
    ``endpoint_app``); what they raise is answered by the application's handlers all the same."""
    app = _app.create_app(platformpp_emulator.state)
    lightened = [route for route in app.router.routes if getattr(route, "app", None) is not None
                 and getattr(route.app, "__qualname__", "") == "endpoint_app.<locals>.app"]
    assert len(lightened) > 100
    assert not [route for route in app.router.routes
                if getattr(getattr(route, "app", None), "__qualname__", "") == "request_response.<locals>.app"]
    with httpx.Client(base_url=platformpp_emulator.base_url) as http:
        unknown = http.post("/api/v10/interactions/1/nope/callback", json={"type": 4, "data": {"content": "x"}})
        assert (unknown.status_code, unknown.json()) == (404, {"code": 10062, "message": "Unknown interaction"})
        assert unknown.headers["content-type"] == "application/json"
        bad = http.post("/api/v10/interactions/1/nope/callback", content=b"{", headers={"content-type": "application/json"})
        assert (bad.status_code, bad.json()["code"]) == (400, 50109)
        wrong_method = http.get("/api/v10/interactions/1/nope/callback")
        assert wrong_method.status_code == 405 and wrong_method.json() == {"code": 0, "message": "405: Method Not Allowed"}
