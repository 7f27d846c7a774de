"""HTTP routes of guild templates: read one by its code (no authentication needed), and the guild's own
template, listed, created, synced, renamed and deleted by a bot with MANAGE_GUILD."""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import json_response
from ...core.http import emulator_state, in_transaction, snowflake_param
from ...core.permissions import Permission
from ...core.routing import Route
from ...core.validation import Form, read_form
from ...events.outbox import Outbox
from ...paths import API
from ..guilds.access import require_guild_permission, require_member
from ..guilds.work import writer
from . import store
from .store import DESCRIPTION_MAX, NAME_MAX


def read_fields(form: Form, *, creating: bool) -> dict[str, Any]:
    """``name`` 1–100 (required to create) and ``description`` 0–120 or null; other fields are ignored."""
    values: dict[str, Any] = {}
    if creating or "name" in form.data:
        values["name"] = form.string("name", min_len=1, max_len=NAME_MAX)
    if "description" in form.data:
        values["description"] = form.string("description", required=False, nullable=True, max_len=DESCRIPTION_MAX)
    return values


async def template_by_code(request: Request) -> Response:
    """GET /guilds/templates/{code}: any caller, signed in or not."""
    code = request.path_params["code"]

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        return store.render(conn, store.by_code(conn, code))

    return json_response(await in_transaction(request, work))


def _as_manager(request: Request, conn: sqlite3.Connection, user_id: int) -> int:
    guild_id = snowflake_param(request, "guild_id")
    who = require_member(conn, guild_id, user_id, emulator_state(request).clock.now())
    require_guild_permission(who, int(Permission.MANAGE_GUILD))
    return guild_id


async def list_templates(request: Request) -> Response:
    principal = writer(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> list[dict[str, Any]]:
        return store.listed(conn, _as_manager(request, conn, principal.user_id))

    return json_response(await in_transaction(request, work))


async def create_template(request: Request) -> Response:
    principal = writer(request)
    form = await read_form(request)
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        guild_id = _as_manager(request, conn, principal.user_id)
        values = read_fields(form, creating=True)
        form.done()
        return store.create(conn, guild_id=guild_id, creator_id=principal.user_id, name=values["name"],
                            description=values.get("description"), now=state.clock.iso())

    return json_response(await in_transaction(request, work))


async def sync_template(request: Request) -> Response:
    principal = writer(request)
    code = request.path_params["code"]
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        row = store.by_code(conn, code, _as_manager(request, conn, principal.user_id))
        return store.sync(conn, row, state.clock.iso())

    return json_response(await in_transaction(request, work))


async def modify_template(request: Request) -> Response:
    principal = writer(request)
    code = request.path_params["code"]
    form = await read_form(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        row = store.by_code(conn, code, _as_manager(request, conn, principal.user_id))
        values = read_fields(form, creating=False)
        form.done()
        return store.modify(conn, row, values)

    return json_response(await in_transaction(request, work))


async def delete_template(request: Request) -> Response:
    principal = writer(request)
    code = request.path_params["code"]

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        row = store.by_code(conn, code, _as_manager(request, conn, principal.user_id))
        return store.delete(conn, row)

    return json_response(await in_transaction(request, work))


def routes() -> list[BaseRoute]:
    mine = API + "/guilds/{guild_id:snowflake}/templates"
    return [
        Route(API + "/guilds/templates/{code}", template_by_code, methods=["GET"]),
        Route(mine, list_templates, methods=["GET"]),
        Route(mine, create_template, methods=["POST"]),
        Route(mine + "/{code}", sync_template, methods=["PUT"]),
        Route(mine + "/{code}", modify_template, methods=["PATCH"]),
        Route(mine + "/{code}", delete_template, methods=["DELETE"]),
    ]
