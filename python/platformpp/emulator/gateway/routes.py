"""HTTP and WebSocket routes of the Gateway: discovery (``GET /gateway``, ``GET /gateway/bot``), the
WebSocket endpoint itself, and the admin controls under ``/_emulator/gateway``."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, WebSocketRoute
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from ..core import auth, errors
from ..core.errors import ApiError, json_response
from ..core.http import emulator_state
from ..core.routing import Route
from ..core.validation import Form, read_json
from ..events.audience import Payload, Viewer
from ..paths import ADMIN, API, GATEWAY
from .connection import Connection
from .hub import get_hub
from .protocol import Close

ADMIN_GATEWAY = f"{ADMIN}/gateway"


def _gateway_url(request: Request) -> str:
    scheme = "wss" if request.url.scheme == "https" else "ws"
    return f"{scheme}://{request.url.netloc}{GATEWAY}"


async def get_gateway(request: Request) -> Response:
    """GET /gateway: ``{url}``; no authentication, as on the platform."""
    return json_response({"url": _gateway_url(request)})


async def get_gateway_bot(request: Request) -> Response:
    """GET /gateway/bot (Bot): ``{url, shards, session_start_limit}``."""
    principal = auth.require(request, kinds=("bot",))
    state = emulator_state(request)
    app = state.db.query_one("SELECT shards, max_concurrency FROM applications WHERE id = ?",
                             (principal.application_id,))
    if app is None:
        raise ApiError(401, errors.INVALID_TOKEN, "Invalid authentication token provided.")
    limit = get_hub(state).session_start_limit(principal.application_id, app["max_concurrency"])
    return json_response({"url": _gateway_url(request), "shards": app["shards"], "session_start_limit": limit})


class GatewaySocket:
    """The Gateway's WebSocket endpoint, a plain ASGI app: Starlette's ``WebSocket`` does the handshake,
    receiving and closing, and the connection writes frames with the ASGI ``send`` itself (the hot
    path: one call per frame, without a wrapper's state checks)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        ws = WebSocket(scope, receive, send)
        await Connection(ws, get_hub(ws.app.state.emu), send).run()


gateway_socket = GatewaySocket()


# --- admin -------------------------------------------------------------------------------------------

def _settings_json(request: Request) -> dict[str, Any]:
    hub = get_hub(emulator_state(request))
    s = hub.settings
    return {
        "heartbeat_interval_ms": s.heartbeat_interval_ms, "heartbeat_grace": s.heartbeat_grace,
        "resume_window_s": s.resume_window_s, "replay_buffer": s.replay_buffer,
        "sessions": [{"session_id": x.id, "kind": x.viewer.kind, "user_id": str(x.viewer.user_id),
                      "application_id": str(x.viewer.application_id), "seq": x.seq,
                      "connected": x.connection is not None} for x in hub.store.all()],
    }


async def get_admin(request: Request) -> Response:
    """GET /_emulator/gateway: settings and the sessions (connected or awaiting a Resume)."""
    return json_response(_settings_json(request))


async def put_admin(request: Request) -> Response:
    """PUT /_emulator/gateway: change settings (all fields optional; applies to new connections)."""
    form = Form(await read_json(request))
    interval = form.integer("heartbeat_interval_ms", required=False, minimum=50, maximum=600_000)
    grace = form.number("heartbeat_grace", required=False, minimum=1.0, maximum=10.0)
    window = form.number("resume_window_s", required=False, minimum=0, maximum=86_400)
    buffer = form.integer("replay_buffer", required=False, minimum=1, maximum=100_000)
    form.done()
    settings = get_hub(emulator_state(request)).settings
    if interval is not None:
        settings.heartbeat_interval_ms = interval
    if grace is not None:
        settings.heartbeat_grace = grace
    if window is not None:
        settings.resume_window_s = window
    if buffer is not None:
        settings.replay_buffer = buffer
    return json_response(_settings_json(request))


async def _select(request: Request) -> tuple[Form, list[Any]]:
    """Sessions named by ``session_id`` and/or ``user_id`` (neither: all sessions)."""
    form = Form(await read_json(request, allow_empty=True))
    session_id = form.string("session_id", required=False, min_len=1, max_len=64)
    user_id = form.snowflake("user_id", required=False)
    return form, get_hub(emulator_state(request)).sessions_matching(session_id, user_id)


async def drop(request: Request) -> Response:
    """POST /_emulator/gateway/drop ``{session_id?, user_id?}``: drop the sockets (close 4000); the
    sessions stay resumable. Answers ``{dropped: n}``."""
    form, sessions = await _select(request)
    form.done()
    live = [s for s in sessions if s.connection is not None]
    for session in live:
        session.connection.request_close(Close.UNKNOWN_ERROR, "connection dropped by the emulator")
    return json_response({"dropped": len(live)})


async def reconnect(request: Request) -> Response:
    """POST /_emulator/gateway/reconnect ``{session_id?, user_id?}``: send op 7 Reconnect, then close 4000."""
    form, sessions = await _select(request)
    form.done()
    live = [s for s in sessions if s.connection is not None]
    for session in live:
        session.connection.request_reconnect()
    return json_response({"reconnected": len(live)})


async def invalidate(request: Request) -> Response:
    """POST /_emulator/gateway/invalidate ``{session_id?, user_id?, resumable?}``: send op 9 Invalid
    Session with ``d = resumable``; unless resumable, the session ends."""
    form, sessions = await _select(request)
    resumable = form.boolean("resumable", default=False)
    form.done()
    hub = get_hub(emulator_state(request))
    for session in sessions:
        connection = session.connection
        if not resumable:
            hub.end_session(session)
        if connection is not None:
            connection.request_invalid_session(resumable)
    return json_response({"invalidated": len(sessions)})


async def authorize_request(request: Request) -> Response:
    """POST /_emulator/gateway/authorize-request ``{user_id, application_id?}``: publish an
    AUTHORIZE_REQUEST dispatch ``{application_id}`` to that user's SDK-user sessions (of one
    application, if given), as when an authorization starts from a client entry point. Sessions
    awaiting a Resume get it on Resume. Answers ``{delivered: n}``."""
    form = Form(await read_json(request))
    user_id = form.snowflake("user_id")
    application_id = form.snowflake("application_id", required=False)
    form.done()

    def render(viewer: Viewer) -> Payload | None:
        if viewer.kind != "bearer" or viewer.user_id != user_id:
            return None
        if application_id is not None and viewer.application_id != application_id:
            return None
        return {"application_id": str(viewer.application_id)}

    delivered = get_hub(emulator_state(request)).fan_out("AUTHORIZE_REQUEST", render)
    return json_response({"delivered": delivered})


def routes() -> list[BaseRoute]:
    return [
        Route(f"{API}/gateway", get_gateway, methods=["GET"]),
        Route(f"{API}/gateway/bot", get_gateway_bot, methods=["GET"]),
        WebSocketRoute(GATEWAY, gateway_socket),
        WebSocketRoute(f"{GATEWAY}/", gateway_socket),
        Route(ADMIN_GATEWAY, get_admin, methods=["GET"]),
        Route(ADMIN_GATEWAY, put_admin, methods=["PUT"]),
        Route(f"{ADMIN_GATEWAY}/drop", drop, methods=["POST"]),
        Route(f"{ADMIN_GATEWAY}/reconnect", reconnect, methods=["POST"]),
        Route(f"{ADMIN_GATEWAY}/invalidate", invalidate, methods=["POST"]),
        Route(f"{ADMIN_GATEWAY}/authorize-request", authorize_request, methods=["POST"]),
    ]

