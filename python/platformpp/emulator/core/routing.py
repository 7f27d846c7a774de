"""A Starlette router that only tries the routes that can match a request's path.

Starlette's ``Router`` tries every route in order, one regular expression each; with well over a
hundred routes that loop was the largest cost of a request. ``IndexedRouter`` keys a request by its
path segments, each kept when some route has it as a literal segment at that position and replaced
by ``*`` otherwise (an id, say), and hands it to a ``Router`` holding, in the original order, only the
routes with as many segments (give or take a trailing slash) whose literal segments agree with the key
(a path parameter agrees with anything, ``*`` with parameters only). A route left out could never have matched, so matching, 405s and slash redirects
are exactly those of one ``Router`` over all routes; and keys stay few, whatever the ids requested."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from starlette._utils import is_async_callable
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match, Router, compile_path
from starlette.routing import Route as StarletteRoute
from starlette.types import ASGIApp, Receive, Scope, Send

from .http import off_loop

MAX_CACHED_KEYS = 4096    # a safety net: keys are bounded by the routes' literals anyway
_ANY = "*"


_COMPILED_PATH = ("path_regex", "path_format", "param_convertors")


class Route(StarletteRoute):
    """Starlette's ``Route``, compiling its path pattern when first matched rather than when made.
    Compiling the regular expressions of all ~400 routes at start cost ~90 ms, a third of the CLI's
    time to serve; a request compiles only the few candidates ``IndexedRouter`` hands it."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        if not path.startswith("/"):
            raise ValueError(f"a routed path starts with '/': {path!r}")
        super().__init__("/", endpoint, **kwargs)   # "/" is compiled once: re caches its pattern
        self.path = path
        for name in _COMPILED_PATH:
            delattr(self, name)

    def __getattr__(self, name: str) -> Any:
        # Only reached while an attribute is missing: the compiled path, until first asked for.
        if name not in _COMPILED_PATH:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self.path_regex, self.path_format, self.param_convertors = compile_path(self.path)
        return getattr(self, name)


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


def endpoint_app(endpoint: Callable[[Request], Awaitable[Response] | Response]) -> ASGIApp:
    """Starlette's ``request_response`` without its own exception handling: an exception the endpoint
    raises goes on to the application's ExceptionMiddleware, which looks up the same handlers (the
    scope's) and answers the same way, or re-raises the same way once the response has started. One
    wrapper and one ``send`` hop fewer on every request."""
    f: Callable[[Request], Awaitable[Response]] = (
        endpoint if is_async_callable(endpoint)  # type: ignore[assignment]
        else functools.partial(off_loop, endpoint))  # type: ignore[call-arg]

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        response = await f(Request(scope, receive, send))
        await response(scope, receive, send)

    return app


def _lighten(route: BaseRoute) -> None:
    """A function endpoint's route (no route middleware: its app is ``request_response``'s) gets
    ``endpoint_app`` instead."""
    if isinstance(route, StarletteRoute) and getattr(route.app, "__qualname__", "") == "request_response.<locals>.app":
        route.app = endpoint_app(route.endpoint)


# (number of path segments, capped; whether the path ends with "/"; its segments, "*" for non-literals)
Key = tuple[int, bool, tuple[str, ...]]


class IndexedRouter(Router):
    def __init__(self, routes: Sequence[BaseRoute], **kwargs: Any) -> None:
        super().__init__(list(routes), **kwargs)
        for route in self.routes:
            _lighten(route)
        self._route_segments = [_route_segments(route) for route in self.routes]
        self._depth = max((len(s) for s in self._route_segments if s is not None), default=0)
        # literals[i]: every literal segment some route has at position i
        self._literals: list[frozenset[str]] = [
            frozenset(s[i] for s in self._route_segments if s is not None and len(s) > i and s[i] is not None)
            for i in range(self._depth)]
        self._by_key: dict[Key, Router] = {}

    def _key(self, path: str) -> Key:
        segments = path.split("/")
        mapped = tuple([segment if segment in literals else _ANY for segment, literals in zip(segments, self._literals)])
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
        router = self._router_for(self._key(scope["path"]))
        # The usual case, the first candidate that matches fully, handled here as Router.app would;
        # anything else (a partial match first: a 405 or a later full match; no match: a redirect or
        # 404) by the candidates' Router itself, from the start (matching has no side effects).
        for route in router.routes:
            match, child_scope = route.matches(scope)
            if match is Match.FULL:
                scope["route"] = route
                scope.update(child_scope)
                await route.handle(scope, receive, send)
                return
            if match is Match.PARTIAL:
                break
        await router.app(scope, receive, send)
