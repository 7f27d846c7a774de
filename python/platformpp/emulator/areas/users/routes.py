"""``/users/@me``, ``/users/{id}`` and ``/users/@me/connections`` (with the seed's dated provider rules)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...core import auth
from ...core.errors import UNKNOWN_USER, json_response, not_found
from ...paths import API
from ...wire.user import public_user_json
from .store import connection_visible, current_user_json, user_row

if TYPE_CHECKING:
    from ...state import EmulatorState


async def get_me(request: Request) -> Response:
    principal = auth.require(request, scopes=("identify",))
    state: EmulatorState = request.app.state.emu
    row = user_row(state, principal.user_id)
    if row is None:
        raise not_found(UNKNOWN_USER, "User")
    return json_response(current_user_json(row, principal))


async def get_user(request: Request) -> Response:
    auth.require(request)
    state: EmulatorState = request.app.state.emu
    row = user_row(state, int(request.path_params["user_id"]))
    if row is None:
        raise not_found(UNKNOWN_USER, "User")
    return json_response(public_user_json(row))


async def get_my_connections(request: Request) -> Response:
    principal = auth.require(request, kinds=("bearer",), scopes=("connections",))
    state: EmulatorState = request.app.state.emu
    now = state.clock.now()
    rows = state.db.query("SELECT * FROM connections WHERE user_id = ? ORDER BY type, id", (principal.user_id,))
    return json_response([
        {"id": row["id"], "name": row["name"], "type": row["type"], "verified": bool(row["verified"]),
         "revoked": bool(row["revoked"]), "visibility": row["visibility"], "friend_sync": bool(row["friend_sync"]),
         "show_activity": bool(row["show_activity"]), "two_way_link": bool(row["two_way_link"]),
         "integrations": []}
        for row in rows if connection_visible(row["type"], bool(row["legacy"]), now)])


def routes() -> list[BaseRoute]:
    return [
        Route(f"{API}/users/@me", get_me, methods=["GET"]),
        Route(f"{API}/users/@me/connections", get_my_connections, methods=["GET"]),
        Route(f"{API}/users/{{user_id:snowflake}}", get_user, methods=["GET"]),
    ]
