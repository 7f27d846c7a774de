"""The guild routes SDK users and bots need: the caller's guilds and a guild's channels (filtered by
what the caller may see). Read-only over the tables of migration 0001."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...core import auth, errors
from ...core.auth import Principal
from ...core.errors import ApiError, json_response
from ...core.http import emulator_state, snowflake_param
from .store import base_permissions, channel_object, display_order, partial_guild, visible_channel_ids
from ...paths import API


# --- routes -----------------------------------------------------------------------------------------

# From this date (emulator clock) a bot's GET /guilds/{id}/channels omits channels it cannot view.
BOT_CHANNELS_FILTER_FROM = datetime(2026, 11, 16, tzinfo=timezone.utc)


def _caller(request: Request) -> Principal:
    """A bot, or an SDK user whose grant includes ``guilds`` (directly or via sdk.social_layer)."""
    principal = auth.require(request)
    if principal.kind == "bearer" and not ({"guilds", "sdk.social_layer"} & principal.scopes):
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access: the token lacks scope 'guilds'.")
    return principal


async def my_guilds(request: Request) -> Response:
    """GET /users/@me/guilds: the caller's guilds as partial guilds. A bot of an application using
    large bot sharding must pass ``shard`` (0 … max_concurrency − 1) and gets that shard's guilds."""
    principal = _caller(request)
    state = emulator_state(request)

    def work() -> list[dict[str, Any]]:
        with state.db.transaction() as conn:
            rows = conn.execute("SELECT g.* FROM guilds g JOIN members m ON m.guild_id = g.id"
                                " WHERE m.user_id = ? ORDER BY g.id", (principal.user_id,)).fetchall()
            if principal.kind == "bot":
                rows = _shard_filter(request, conn, principal.application_id, rows)
            return [partial_guild(row, row["owner_id"] == principal.user_id,
                                  base_permissions(conn, row["id"], principal.user_id)) for row in rows]

    return json_response(await run_in_threadpool(work))


def _shard_filter(request: Request, conn: sqlite3.Connection, application_id: int,
                  rows: list[sqlite3.Row]) -> list[sqlite3.Row]:
    app = conn.execute("SELECT large_bot_sharding, max_concurrency FROM applications WHERE id = ?",
                       (application_id,)).fetchone()
    raw = request.query_params.get("shard")
    if not app or not app["large_bot_sharding"]:
        return rows
    high = app["max_concurrency"] - 1
    if raw is None or not raw.isdigit() or int(raw) > high:
        raise ApiError(400, errors.INVALID_FORM_BODY, "Invalid Form Body", {"shard": {"_errors": [{
            "code": "BASE_TYPE_REQUIRED" if raw is None else "NUMBER_TYPE_MAX",
            "message": f"Required for large bot sharding: an integer from 0 to {high}."}]}})
    return [row for row in rows if (row["id"] >> 22) % app["max_concurrency"] == int(raw)]


async def guild_channels(request: Request) -> Response:
    """GET /guilds/{guild_id}/channels (member only), in the client's display order. SDK users see
    the channels they can view; bots see all of them until 2026-11-16 and then only viewable ones."""
    principal = _caller(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)

    def work() -> list[dict[str, Any]]:
        with state.db.transaction() as conn:
            if conn.execute("SELECT 1 FROM guilds WHERE id = ?", (guild_id,)).fetchone() is None:
                raise errors.not_found(errors.UNKNOWN_GUILD, "Guild")
            if conn.execute("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?",
                            (guild_id, principal.user_id)).fetchone() is None:
                raise ApiError(403, errors.MISSING_ACCESS, "Missing Access")
            rows = conn.execute("SELECT * FROM channels WHERE guild_id = ?", (guild_id,)).fetchall()
            if principal.kind == "bearer" or state.clock.now() >= BOT_CHANNELS_FILTER_FROM:
                visible = visible_channel_ids(conn, guild_id, principal.user_id)
                rows = [row for row in rows if row["id"] in visible]
            return display_order([channel_object(row) for row in rows])

    return json_response(await run_in_threadpool(work))


def routes() -> list[BaseRoute]:
    return [
        Route(API + "/users/@me/guilds", my_guilds, methods=["GET"]),
        Route(API + "/guilds/{guild_id}/channels", guild_channels, methods=["GET"]),
    ]
