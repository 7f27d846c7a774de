"""The indexed router tries only routes that can match; it must choose exactly what Starlette's plain
router over all routes chooses (first full match, else first partial match: a 405), for every route
of the emulator with any ids, and for paths no route serves."""

from __future__ import annotations

import random
import re

import httpx
from platformpp.emulator import Emulator, app as _app  # noqa: F401  (registers the snowflake convertor)
from platformpp.emulator import areas, gateway
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
    routes = [*gateway.routes(), *(route for area in areas.AREAS for route in area.routes())]
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
