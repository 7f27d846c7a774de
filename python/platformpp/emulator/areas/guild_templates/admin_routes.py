"""Admin API of guild templates (``/_emulator``): give a guild its template without a bot's permissions,
with a chosen code, creator and usage count."""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import errors
from ...core.errors import json_response
from ...core.http import emulator_state, in_transaction, snowflake_param
from ...core.routing import Route
from ...core.validation import read_form
from ...events.outbox import Outbox
from ...paths import ADMIN
from .fixtures import add_template


async def add(request: Request) -> Response:
    """POST /_emulator/guilds/{guild_id}/templates ``{name, description?, code?, creator_id?,
    usage_count?}`` → 201, the template; 400 / 50035 naming a bad field (30031 already has one)."""
    guild_id = snowflake_param(request, "guild_id")
    form = await read_form(request)
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any] | None:
        if conn.execute("SELECT 1 FROM guilds WHERE id = ?", (guild_id,)).fetchone() is None:
            raise errors.not_found(errors.UNKNOWN_GUILD, "Guild")
        created = add_template(state, conn, form, guild_id)
        form.done()
        return created

    return json_response(await in_transaction(request, work), 201)


def routes() -> list[BaseRoute]:
    return [Route(ADMIN + "/guilds/{guild_id:snowflake}/templates", add, methods=["POST"])]
