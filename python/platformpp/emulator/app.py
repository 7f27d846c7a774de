"""Builds the ASGI application: the Gateway's routes, then every area's (``areas.AREAS``, in order),
the error handlers that give every failure the platform's error body, and the traffic middleware
(faults, rate limits, request log, the admin secret)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.convertors import register_url_convertor
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from .areas.catalog import AREAS
from .areas.voice_states import calls as voice_calls
from .core.errors import ApiError, OAuthError, json_response
from .core.middleware import TrafficMiddleware
from .core.routing import IndexedRouter
from .core.snowflake import SnowflakeConvertor
from .gateway.hub import get_hub
from .gateway.routes import routes as gateway_routes
from .inspector.routes import routes as inspector_routes
from .ipc.admin_routes import routes as ipc_routes
from .ipc.lifecycle import start_desktop_client, stop_desktop_client

if TYPE_CHECKING:
    from .state import EmulatorState


# Route paths may use ``{name:snowflake}``: ASCII digits that fit an id.
register_url_convertor("snowflake", SnowflakeConvertor())

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
    routes = [*gateway_routes(), *ipc_routes(), *inspector_routes(), *(route for area in AREAS for route in area.routes())]

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Any]]:
        # The Gateway listens for resets and revoked grants from the start, and areas subscribe to
        # each other's events, before any request is served.
        state.webhooks.start()
        get_hub(state)   # the Gateway subscribes to the bus and answers who is connected
        for area in AREAS:
            if area.startup is not None:
                area.startup(state)
        # The desktop client's IPC socket, when a desktop user is signed in (docs/emulator-ipc.md).
        await start_desktop_client(state)
        # The voice service (docs/emulator-voice.md) serves while the emulator does.
        voice_calls.start_service(state)
        try:
            yield {}
        finally:
            voice_calls.stop_service(state)
            await stop_desktop_client(state)
            state.webhooks.stop()

    app = Starlette(lifespan=lifespan, exception_handlers={
        ApiError: _api_error, OAuthError: _oauth_error, HTTPException: _http_error, Exception: _server_error})
    # The same routes, matched in the same order, trying only those that can match (core/routing.py).
    app.router = IndexedRouter(routes, lifespan=lifespan)
    app.state.emu = state
    app.add_middleware(TrafficMiddleware, state=state)
    return app
