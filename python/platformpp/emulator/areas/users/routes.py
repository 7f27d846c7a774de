"""``/users/@me`` (read; a bot edits its own), ``/users/{id}`` and ``/users/@me/connections`` (with the
seed's dated provider rules)."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth
from ...core.errors import UNKNOWN_USER, json_response, not_found
from ...core.http import emulator_state, in_transaction
from ...core.routing import Route
from ...core.validation import Form, read_json
from ...events.audience import Payload, Viewer
from ...events.outbox import Outbox
from ...paths import API
from ...wire.user import public_user_json
from ..cdn import store as cdn
from ..cdn.images import Upload
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


def _own_sessions(user_id: int, payload: Payload) -> Any:
    def render(viewer: Viewer) -> Payload | None:
        return payload if viewer.kind == "bot" and viewer.user_id == user_id else None
    return render


async def patch_me(request: Request) -> Response:
    """``PATCH /users/@me`` (bots) ``{username?, avatar?, banner?}``: a username of 2-32 characters no one
    else has, images as data URIs (null clears one). The images are served at the CDN's avatar and
    banner paths; USER_UPDATE goes to the bot's own Gateway sessions."""
    principal = auth.require(request, kinds=("bot",))
    state = emulator_state(request)
    form = Form(await read_json(request))
    changes: dict[str, Any] = {}
    uploads: dict[str, Upload] = {}
    if "username" in form.data:
        changes["username"] = form.string("username", min_len=2, max_len=32)
    for field in ("avatar", "banner"):
        if field in form.data:
            upload = cdn.read_image(form, field)
            changes[field] = None if upload is None else upload.hash
            if upload is not None:
                uploads[field] = upload
    form.done()

    def work(conn: sqlite3.Connection, outbox: Outbox) -> Payload:
        name = changes.get("username")
        if name is not None and conn.execute(
                "SELECT 1 FROM users WHERE username = ? AND id != ? AND provisional = 0"
                " AND merged_into IS NULL",
                (name, principal.user_id)).fetchone() is not None:
            taken = Form({})
            taken.fail("username", "USERNAME_ALREADY_TAKEN", "Username is unavailable. Try another.")
            taken.done()
        now = state.clock.now()
        for field, path_of in (("avatar", cdn.user_avatar_path), ("banner", cdn.user_banner_path)):
            if field in uploads:
                cdn.save(conn, path_of(principal.user_id, uploads[field].hash), uploads[field], now)
        for column, value in changes.items():   # column names come from the fixed fields above
            conn.execute(f"UPDATE users SET {column} = ? WHERE id = ?", (value, principal.user_id))
        row = conn.execute("SELECT * FROM users WHERE id = ?", (principal.user_id,)).fetchone()
        if row is None:
            raise not_found(UNKNOWN_USER, "User")
        body = current_user_json(row, principal)
        if changes:
            outbox.add("USER_UPDATE", _own_sessions(principal.user_id, body))
        return body

    return json_response(await in_transaction(request, work))


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
        Route(f"{API}/users/@me", patch_me, methods=["PATCH"]),
        Route(f"{API}/users/@me/connections", get_my_connections, methods=["GET"]),
        Route(f"{API}/users/{{user_id:snowflake}}", get_user, methods=["GET"]),
    ]
