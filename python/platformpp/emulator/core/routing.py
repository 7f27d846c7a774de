"""A Starlette router that only tries the routes that can match a request's path.

Starlette's ``Router`` tries every route in order, one regular expression each; with well over a
hundred routes that loop was the largest cost of a request. ``IndexedRouter`` keys a request by its
path segments, each kept when some route has it as a literal segment at that position and replaced
by ``*`` otherwise (an id, say), and hands it to a ``Router`` holding, in the original order, only the
routes with as many segments (give or take a trailing slash) whose literal segments agree with the key
(a path parameter agrees with anything, ``*`` with parameters only). A route left out could never have matched, so matching, 405s and slash redirects
are exactly those of one ``Router`` over all routes; and keys stay few, whatever the ids requested."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from starlette.routing import BaseRoute, Router
from starlette.types import Receive, Scope, Send

MAX_CACHED_KEYS = 4096    # a safety net: keys are bounded by the routes' literals anyway
_ANY = "*"


def _route_segments(route: BaseRoute) -> tuple[str | None, ...] | None:
    """The route's path segments, None for a parameter; None for a route that may match any path (no
    path, or a ``{name:path}`` parameter that spans segments)."""
    path = getattr(route, "path", None)
    if not isinstance(path, str) or ":path}" in path:
        return None
    return tuple(None if "{" in segment else segment for segment in path.split("/"))


def _may_match(route_segments: tuple[str | None, ...] | None, key: Key) -> bool:
    if route_segments is None:
        return True
    count, trailing_slash, segments = key
    length = len(route_segments)
    # same number of segments, or one more or fewer through a trailing slash (Starlette's redirect)
    if not (length == count or (length == count + 1 and route_segments[-1] == "")
            or (length == count - 1 and trailing_slash)):
        return False
    return all(r is None or r == k for r, k in zip(route_segments, segments))


# (number of path segments, capped; whether the path ends with "/"; its segments, "*" for non-literals)
Key = tuple[int, bool, tuple[str, ...]]


class IndexedRouter(Router):
    def __init__(self, routes: Sequence[BaseRoute], **kwargs: Any) -> None:
        super().__init__(list(routes), **kwargs)
        self._route_segments = [_route_segments(route) for route in self.routes]
        self._depth = max((len(s) for s in self._route_segments if s is not None), default=0)
        # literals[i]: every literal segment some route has at position i
        self._literals: list[frozenset[str]] = [
            frozenset(s[i] for s in self._route_segments if s is not None and len(s) > i and s[i] is not None)
            for i in range(self._depth)]
        self._by_key: dict[Key, Router] = {}

    def _key(self, path: str) -> Key:
        segments = path.split("/")
        mapped = tuple(segment if segment in literals else _ANY for segment, literals in zip(segments, self._literals))
        # longer paths than any route (plus a trailing slash) all share one count: none of them can match
        return min(len(segments), self._depth + 2), path.endswith("/"), mapped

    def _router_for(self, key: Key) -> Router:
        router = self._by_key.get(key)
        if router is None:
            routes = [route for route, segments in zip(self.routes, self._route_segments) if _may_match(segments, key)]
            router = Router(routes, redirect_slashes=self.redirect_slashes, default=self.default)
            if len(self._by_key) < MAX_CACHED_KEYS:
                self._by_key[key] = router
        return router

    async def app(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await super().app(scope, receive, send)   # lifespan
            return
        scope.setdefault("router", self)
        await self._router_for(self._key(scope["path"])).app(scope, receive, send)
