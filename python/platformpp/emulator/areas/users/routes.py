"""``/users/@me``, ``/users/{id}`` and ``/users/@me/connections`` (with the seed's dated provider rules)."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from . import auth
from .app import API
from .errors import UNKNOWN_USER, json_response, not_found
from .state import EmulatorState

# The two game-studio connection providers whose connections the platform stops returning (seed).
GAME_STUDIO_1 = "game_studio_1"   # existing (legacy) connections returned until 2026-09-22
GAME_STUDIO_2 = "game_studio_2"   # legacy connections returned until 2026-07-10
LEGACY_CUTOFFS = {
    GAME_STUDIO_1: datetime(2026, 9, 22, tzinfo=timezone.utc),
    GAME_STUDIO_2: datetime(2026, 7, 10, tzinfo=timezone.utc),
}


def public_user_json(row: sqlite3.Row) -> dict[str, Any]:
    """The user object anyone may see (no email, no premium level)."""
    body: dict[str, Any] = {
        "id": str(row["id"]), "username": row["username"], "discriminator": row["discriminator"],
        "global_name": row["global_name"], "avatar": row["avatar"], "public_flags": row["flags"],
        "flags": row["flags"], "banner": None, "accent_color": None, "avatar_decoration_data": None,
    }
    if row["bot"]:
        body["bot"] = True
    return body


def user_row(state: EmulatorState, user_id: int) -> sqlite3.Row | None:
    return state.db.query_one("SELECT * FROM users WHERE id = ?", (user_id,))


def current_user_json(row: sqlite3.Row, principal: auth.Principal) -> dict[str, Any]:
    """``GET /users/@me``: ``premium_type`` is 0 unless the token carries ``identify.premium`` (seed)."""
    body = public_user_json(row)
    body.update({"mfa_enabled": bool(row["mfa_enabled"]), "locale": row["locale"],
                 "premium_type": row["premium_type"] if "identify.premium" in principal.scopes else 0})
    if principal.kind == "bearer" and "email" in principal.scopes:
        body.update({"email": row["email"], "verified": bool(row["verified"])})
    if row["provisional"]:
        body["is_provisional_account"] = True
    return body


def connection_visible(connection_type: str, legacy: bool, now: datetime) -> bool:
    """Seed: new connections of both game-studio providers are never returned; legacy ones only
    before their provider's cutoff date on the emulator clock."""
    cutoff = LEGACY_CUTOFFS.get(connection_type)
    if cutoff is None:
        return True
    return legacy and now < cutoff


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
