"""Assembles the Starlette application from route modules.

Each module named in ``ROUTE_MODULES`` has ``routes() -> list[BaseRoute]`` (full paths, e.g.
``f"{API}/users/@me"``) and may have ``async def startup(state)`` / ``async def shutdown(state)``.
To add a module, add its name here."""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import ModuleType
from typing import Any

from starlette.applications import Starlette
from starlette.convertors import register_url_convertor
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from .errors import ApiError, OAuthError, json_response
from .middleware import TrafficMiddleware
from .snowflake import SnowflakeConvertor
from .state import EmulatorState

API = "/api/v10"
ADMIN = "/_emulator"

# Route paths may use ``{name:snowflake}``: ASCII digits that fit an id.
register_url_convertor("snowflake", SnowflakeConvertor())

ROUTE_MODULES: tuple[str, ...] = (
    "gateway", "social",
    "admin",
    "authorize",
    "oauth",
    "users",
    "accounts",
    "account_admin",
    "applications",
)


def _modules() -> list[ModuleType]:
    return [importlib.import_module(f".{name}", __package__) for name in ROUTE_MODULES]


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return json_response(exc.body(), exc.status, exc.headers)


async def _oauth_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, OAuthError)
    headers = {"WWW-Authenticate": 'Basic realm="oauth2"'} if exc.status == 401 else None
    return json_response(exc.body(), exc.status, headers)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    reason = {404: "Not Found", 405: "Method Not Allowed"}.get(exc.status_code, str(exc.detail))
    headers = dict(exc.headers) if exc.headers else None
    return json_response({"code": 0, "message": f"{exc.status_code}: {reason}"}, exc.status_code, headers)


async def _server_error(request: Request, exc: Exception) -> Response:
    return json_response({"code": 0, "message": "500: Internal Server Error"}, 500)


def create_app(state: EmulatorState) -> Starlette:
    modules = _modules()
    routes = [route for module in modules for route in module.routes()]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Any]]:
        state.webhooks.start()
        for module in modules:
            if hasattr(module, "startup"):
                await module.startup(state)
        try:
            yield {}
        finally:
            for module in reversed(modules):
                if hasattr(module, "shutdown"):
                    await module.shutdown(state)
            state.webhooks.stop()

    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        ApiError: _api_error, OAuthError: _oauth_error, HTTPException: _http_error, Exception: _server_error})
    app.state.emu = state
    app.state.events = state.events
    app.add_middleware(TrafficMiddleware, state=state)
    return app
