"""A Starlette router that only tries the routes that can match a request's path.

Starlette's ``Router`` tries every route in order, one regular expression each; with well over a
hundred routes that loop was the largest cost of a request. ``IndexedRouter`` keys requests by their
first path segments (``/api/v10/users`` of ``/api/v10/users/@me``) and hands each to a ``Router``
holding, in the original order, only the routes whose literal segments agree with that key (a path
parameter agrees with anything). A route left out could never have matched, so matching, 405s and
slash redirects are exactly those of one ``Router`` over all routes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from starlette.routing import BaseRoute, Router
from starlette.types import Receive, Scope, Send

KEY_SEGMENTS = 4          # "", "api", "v10", "users"
MAX_CACHED_KEYS = 1024    # paths are chosen by clients: beyond this, unseen keys are not remembered


def _segments(path: str) -> tuple[str, ...]:
    return tuple(path.split("/")[:KEY_SEGMENTS])


def _route_segments(route: BaseRoute) -> tuple[str | None, ...] | None:
    """The route's first segments, None for a parameter; None when the route has no path (matches anything)."""
    path = getattr(route, "path", None)
    if not isinstance(path, str):
        return None
    return tuple(None if "{" in segment else segment for segment in path.split("/")[:KEY_SEGMENTS])


def _may_match(route_segments: tuple[str | None, ...] | None, key: tuple[str, ...]) -> bool:
    if route_segments is None:
        return True
    return all(r is None or r == k for r, k in zip(route_segments, key))


class IndexedRouter(Router):
    def __init__(self, routes: Sequence[BaseRoute], **kwargs: Any) -> None:
        super().__init__(list(routes), **kwargs)
        self._route_segments = [_route_segments(route) for route in self.routes]
        self._by_key: dict[tuple[str, ...], Router] = {}

    def _router_for(self, key: tuple[str, ...]) -> Router:
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
        await self._router_for(_segments(scope["path"])).app(scope, receive, send)
