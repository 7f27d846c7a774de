"""Admin API of auto moderation (``/_emulator``): a member with MANAGE_GUILD sets up a rule, as that user
would (the same checks, errors, dispatch and audit entry)."""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import json_response
from ...core.http import emulator_state, in_transaction, snowflake_param
from ...core.routing import Route
from ...core.validation import Form, read_json
from ...events.outbox import Outbox
from ...paths import ADMIN
from . import store
from .rules import read_rule


async def user_creates_rule(request: Request) -> Response:
    """POST /_emulator/guilds/{guild_id}/auto-moderation/rules ``{user_id, ...rule create fields}`` → 200,
    the rule."""
    guild_id = snowflake_param(request, "guild_id")
    form = Form(await read_json(request))
    user_id = form.snowflake("user_id")
    fields = read_rule(form, partial=False)
    form.done()
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        return store.create(state, conn, outbox, guild_id=guild_id, user_id=int(user_id or 0), fields=fields)

    return json_response(await in_transaction(request, work))


def routes() -> list[BaseRoute]:
    return [Route(ADMIN + "/guilds/{guild_id:snowflake}/auto-moderation/rules", user_creates_rule, methods=["POST"])]
