"""HTTP routes of relationships: list them, and change platform or game ones (SDK users)."""

from __future__ import annotations

import sqlite3

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import errors
from ...core.auth import Principal
from ...core.errors import json_response
from ...core.http import emulator_state, in_transaction, off_loop, require_scope, snowflake_param
from ...core.routing import Route
from ...core.validation import Form, read_json
from ...events.audience import Payload
from ...events.outbox import Outbox
from ...paths import API
from .store import (
    BLOCKED,
    FRIEND,
    _views,
    announce,
    change,
    list_for,
    relationship_object,
    user_id_by_username,
)

# --- reads ------------------------------------------------------------------------------------------


# --- writes -----------------------------------------------------------------------------------------


# --- routes -----------------------------------------------------------------------------------------

async def list_relationships(request: Request) -> Response:
    """GET /users/@me/relationships (Bearer, relationships.read): platform and this game's relationships."""
    principal = require_scope(request, "relationships.read")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> list[Payload]:
        return list_for(conn, principal.application_id, principal.user_id)

    return json_response(await in_transaction(request, work))


async def _write(request: Request, table: str) -> Response:
    principal = require_scope(request, "relationships.write")
    other = snowflake_param(request, "user_id")
    if request.method == "PUT":
        form = Form(await read_json(request, allow_empty=True))
        kind = form.choice("type", (FRIEND, BLOCKED), required=False, default=FRIEND)
        form.done()
        action = "block" if kind == BLOCKED else "request"
    else:
        action = "remove"
    return await _apply(request, principal, table, other, action)


async def _apply(request: Request, principal: Principal, table: str, other: int, action: str) -> Response:
    state = emulator_state(request)
    app_id = principal.application_id if table == "game_relationships" else None

    def work(conn: sqlite3.Connection, outbox: Outbox) -> Payload | None:
        if other == principal.user_id or conn.execute("SELECT 1 FROM users WHERE id = ?", (other,)).fetchone() is None:
            raise errors.not_found(errors.UNKNOWN_USER, "User")
        before = _views(conn, principal.user_id, other)
        change(conn, table, app_id, principal.user_id, other, action, state.clock.iso())
        announce(conn, outbox, before, _views(conn, principal.user_id, other))
        return relationship_object(conn, principal.application_id, principal.user_id, other)

    result = await in_transaction(request, work)
    return json_response(result) if result is not None else Response(status_code=204)


async def _request_by_username(request: Request, table: str) -> Response:
    principal = require_scope(request, "relationships.write")
    form = Form(await read_json(request))
    username = form.string("username", min_len=1, max_len=32)
    if "discriminator" in form.data:   # legacy clients send "0" (no discriminators any more)
        form.string("discriminator", required=False, max_len=4, nullable=True)
    form.done()
    state = emulator_state(request)

    def other() -> int:
        with state.db.transaction() as conn:
            return user_id_by_username(conn, username or "")
    return await _apply(request, principal, table, await off_loop(other), "request")


async def platform_request_by_username(request: Request) -> Response:
    """POST /users/@me/relationships ``{username}``: a friend request to (or accepting the request of)
    the user with that unique username → the relationship; 404 (10013) when nobody has it."""
    return await _request_by_username(request, "relationships")


async def game_request_by_username(request: Request) -> Response:
    """POST /users/@me/game-relationships ``{username}``: the same, for this game only."""
    return await _request_by_username(request, "game_relationships")


async def platform_relationship(request: Request) -> Response:
    """PUT /users/@me/relationships/{user_id} ``{type?: 1 | 2}``: send or accept a friend request (1,
    the default) or block (2) → the relationship. DELETE: unfriend, cancel, decline or unblock → 204."""
    return await _write(request, "relationships")


async def game_relationship(request: Request) -> Response:
    """PUT|DELETE /users/@me/game-relationships/{user_id}: the same, for this game only."""
    return await _write(request, "game_relationships")


def routes() -> list[BaseRoute]:
    return [
        Route(API + "/users/@me/relationships", list_relationships, methods=["GET"]),
        Route(API + "/users/@me/relationships", platform_request_by_username, methods=["POST"]),
        Route(API + "/users/@me/game-relationships", game_request_by_username, methods=["POST"]),
        Route(API + "/users/@me/relationships/{user_id}", platform_relationship, methods=["PUT", "DELETE"]),
        Route(API + "/users/@me/game-relationships/{user_id}", game_relationship, methods=["PUT", "DELETE"]),
    ]


# --- fixtures ---------------------------------------------------------------------------------------


