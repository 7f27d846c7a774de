"""The guild integration routes (Bot, MANAGE_GUILD): list the guild's integrations, delete one (which
removes its bot from the guild)."""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import json_response
from ...core.http import emulator_state, snowflake_param
from ...core.permissions import Permission
from ...core.routing import Route
from ...events.outbox import Outbox
from ...paths import API
from ..guilds.access import require_guild_permission, require_member
from ..guilds.work import in_transaction, writer
from . import store


async def list_integrations(request: Request) -> Response:
    """GET /guilds/{guild_id}/integrations: MANAGE_GUILD; in the order the bots joined."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> list[dict[str, Any]]:
        who = require_member(conn, guild_id, principal.user_id, state.clock.now())
        require_guild_permission(who, Permission.MANAGE_GUILD)
        store.ensure_bot_integrations(conn, state.ids.next, guild_id)
        rows = conn.execute("SELECT * FROM guild_integrations WHERE guild_id = ? ORDER BY created_at, id",
                            (guild_id,))
        return [store.integration_json(conn, row) for row in rows.fetchall()]

    return json_response(await in_transaction(request, work))


async def delete_integration(request: Request) -> Response:
    """DELETE /guilds/{guild_id}/integrations/{integration_id}: MANAGE_GUILD; 404 / 10005 when unknown."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    integration_id = snowflake_param(request, "integration_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        now = state.clock.now()
        who = require_member(conn, guild_id, principal.user_id, now)
        require_guild_permission(who, Permission.MANAGE_GUILD)
        store.ensure_bot_integrations(conn, state.ids.next, guild_id)
        store.delete(conn, outbox, now, store.get(conn, guild_id, integration_id), principal.user_id)

    await in_transaction(request, work)
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    guild = API + "/guilds/{guild_id}"
    return [
        Route(guild + "/integrations", list_integrations, methods=["GET"]),
        Route(guild + "/integrations/{integration_id}", delete_integration, methods=["DELETE"]),
    ]
