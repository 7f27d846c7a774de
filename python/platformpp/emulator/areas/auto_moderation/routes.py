"""HTTP routes of auto moderation rules (Bot): ``GET / POST /guilds/{guild_id}/auto-moderation/rules`` and
``GET / PATCH / DELETE /guilds/{guild_id}/auto-moderation/rules/{rule_id}``; store.py holds the rules."""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth
from ...core.errors import json_response
from ...core.http import emulator_state, in_transaction, snowflake_param
from ...core.routing import Route
from ...core.validation import Form, read_json
from ...events.outbox import Outbox
from ...paths import API
from . import store
from .rules import read_rule


async def list_rules(request: Request) -> Response:
    principal = auth.require(request, kinds=("bot",))
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    return json_response(await in_transaction(request, lambda conn, outbox: store.list_rules(
        state, conn, guild_id=guild_id, user_id=principal.user_id)))


async def create_rule(request: Request) -> Response:
    """POST ``{name, event_type, trigger_type, trigger_metadata?, actions?, enabled?, exempt_roles?,
    exempt_channels?}`` → 200, the rule."""
    principal = auth.require(request, kinds=("bot",))
    guild_id = snowflake_param(request, "guild_id")
    form = Form(await read_json(request))
    fields = read_rule(form, partial=False)
    form.done()
    state = emulator_state(request)
    return json_response(await in_transaction(request, lambda conn, outbox: store.create(
        state, conn, outbox, guild_id=guild_id, user_id=principal.user_id, fields=fields)))


async def get_rule(request: Request) -> Response:
    principal = auth.require(request, kinds=("bot",))
    guild_id, rule_id = snowflake_param(request, "guild_id"), snowflake_param(request, "rule_id")
    state = emulator_state(request)
    return json_response(await in_transaction(request, lambda conn, outbox: store.get(
        state, conn, guild_id=guild_id, user_id=principal.user_id, rule_id=rule_id)))


async def modify_rule(request: Request) -> Response:
    """PATCH: any field but ``trigger_type`` (which cannot change) → 200, the rule."""
    principal = auth.require(request, kinds=("bot",))
    guild_id, rule_id = snowflake_param(request, "guild_id"), snowflake_param(request, "rule_id")
    data = await read_json(request)
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        store.require_manager(state, conn, guild_id, principal.user_id)
        trigger_type = store.trigger_type_of(conn, guild_id, rule_id)
        if trigger_type is None:
            store.get_row(conn, guild_id, rule_id)   # the 404
        form = Form(data)
        fields = read_rule(form, partial=True, trigger_type=trigger_type)
        form.done()
        return store.modify(state, conn, outbox, guild_id=guild_id, user_id=principal.user_id, rule_id=rule_id,
                            fields=fields)

    return json_response(await in_transaction(request, work))


async def delete_rule(request: Request) -> Response:
    principal = auth.require(request, kinds=("bot",))
    guild_id, rule_id = snowflake_param(request, "guild_id"), snowflake_param(request, "rule_id")
    state = emulator_state(request)
    await in_transaction(request, lambda conn, outbox: store.delete(
        state, conn, outbox, guild_id=guild_id, user_id=principal.user_id, rule_id=rule_id))
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    collection = API + "/guilds/{guild_id:snowflake}/auto-moderation/rules"
    one = collection + "/{rule_id:snowflake}"
    return [
        Route(collection, list_rules, methods=["GET"]),
        Route(collection, create_rule, methods=["POST"]),
        Route(one, get_rule, methods=["GET"]),
        Route(one, modify_rule, methods=["PATCH"]),
        Route(one, delete_rule, methods=["DELETE"]),
    ]
