"""The guild routes: the caller's guilds, one guild (get, modify), leaving a guild."""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import ApiError, json_response
from ...core.http import emulator_state, query_bool, query_int, query_snowflake, snowflake_param
from ...core.permissions import Permission, base_permissions
from ...core.routing import Route
from ...core.validation import field_error, read_form
from ...events.outbox import Outbox
from ...paths import API
from ..audit_log import trail as audit_trail
from . import mutations
from .access import require_guild_permission, require_member, standing
from .store import guild_object, member_count, partial_guild
from .work import in_transaction, reader, writer


async def my_guilds(request: Request) -> Response:
    """GET /users/@me/guilds: the caller's guilds as partial guilds, by id: ``after`` / ``before`` a
    guild id (the last ``limit`` before it), ``limit`` 1–200 (200); ``with_counts=true`` adds the
    approximate counts. A bot of an application using large bot sharding must pass ``shard``
    (0 … max_concurrency − 1) and gets that shard's guilds."""
    principal = reader(request)
    now = emulator_state(request).clock.now()
    after, before = query_snowflake(request, "after"), query_snowflake(request, "before")
    limit = query_int(request, "limit", minimum=1, maximum=200, default=200)
    with_counts = query_bool(request, "with_counts")

    def work(conn: sqlite3.Connection, _: Outbox) -> list[dict[str, Any]]:
        rows = conn.execute("SELECT g.* FROM guilds g JOIN members m ON m.guild_id = g.id"
                            " WHERE m.user_id = ? AND g.id > ? AND g.id < ? ORDER BY g.id",
                            (principal.user_id, after or 0, before or (1 << 63) - 1)).fetchall()
        if principal.kind == "bot":
            rows = _shard_filter(request, conn, principal.application_id, rows)
        rows = rows[-limit:] if before is not None and after is None else rows[:limit]
        result = []
        for row in rows:
            who = standing(conn, row["id"], principal.user_id, now)
            bits = base_permissions(who.context) if who else 0
            guild = partial_guild(row, row["owner_id"] == principal.user_id, bits)
            if with_counts:
                guild.update(approximate_member_count=member_count(conn, row["id"]),
                             approximate_presence_count=0)
            result.append(guild)
        return result

    return json_response(await in_transaction(request, work))


def _shard_filter(request: Request, conn: sqlite3.Connection, application_id: int,
                  rows: list[sqlite3.Row]) -> list[sqlite3.Row]:
    app = conn.execute("SELECT large_bot_sharding, max_concurrency FROM applications WHERE id = ?",
                       (application_id,)).fetchone()
    if not app or not app["large_bot_sharding"]:
        return rows
    high = app["max_concurrency"] - 1
    if "shard" not in request.query_params:
        raise field_error("shard", "BASE_TYPE_REQUIRED", f"Required for large bot sharding: an integer from 0 to {high}.")
    shard = query_int(request, "shard", minimum=0, maximum=high, default=0)
    return [row for row in rows if (row["id"] >> 22) % app["max_concurrency"] == shard]


async def get_guild(request: Request) -> Response:
    """GET /guilds/{guild_id} (members only); ``with_counts=true`` adds the approximate counts."""
    principal = reader(request)
    guild_id = snowflake_param(request, "guild_id")
    now = emulator_state(request).clock.now()
    with_counts = query_bool(request, "with_counts")

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        require_member(conn, guild_id, principal.user_id, now)
        guild = guild_object(conn, guild_id)
        if with_counts:
            count = member_count(conn, guild_id)
            guild.update(approximate_member_count=count, approximate_presence_count=0)
        return guild

    return json_response(await in_transaction(request, work))


async def patch_guild(request: Request) -> Response:
    """PATCH /guilds/{guild_id}: MANAGE_GUILD; GUILD_UPDATE."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    form = await read_form(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        who = require_member(conn, guild_id, principal.user_id, state.clock.now())
        require_guild_permission(who, Permission.MANAGE_GUILD)
        before = guild_object(conn, guild_id)
        after = mutations.modify_guild(conn, outbox, state.clock.now(), guild_id, form)
        audit_trail.guild(conn, guild_id, principal.user_id, before, after)
        return after

    return json_response(await in_transaction(request, work))


async def leave_guild(request: Request) -> Response:
    """DELETE /users/@me/guilds/{guild_id}: the bot leaves (the owner cannot)."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        who = require_member(conn, guild_id, principal.user_id, state.clock.now())
        if who.is_owner:
            raise ApiError(400, mutations.INVALID_GUILD, "Invalid Guild: the owner cannot leave")
        mutations.remove_member(conn, outbox, state.clock.now(), guild_id, principal.user_id)

    await in_transaction(request, work)
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    return [
        Route(API + "/users/@me/guilds", my_guilds, methods=["GET"]),
        Route(API + "/users/@me/guilds/{guild_id}", leave_guild, methods=["DELETE"]),
        Route(API + "/guilds/{guild_id}", get_guild, methods=["GET"]),
        Route(API + "/guilds/{guild_id}", patch_guild, methods=["PATCH"]),
    ]
