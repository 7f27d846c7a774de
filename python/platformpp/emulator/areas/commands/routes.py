"""HTTP routes of application commands: global and guild commands (Bot token of the application:
create, list, get, edit, delete, bulk overwrite) and their per-guild permissions (read with the bot
token; edited with a user's Bearer token carrying ``applications.commands.permissions.update``, by a
member who may manage the guild and its roles, as on the platform)."""

from __future__ import annotations

import sqlite3

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth, errors
from ...core.errors import ApiError, json_response
from ...core.http import emulator_state, in_transaction, query_bool, snowflake_param
from ...core.permissions import Permission
from ...core.routing import Route
from ...core.scopes import expand
from ...core.validation import Form, read_json
from ...events.outbox import Outbox
from ...paths import API
from ..guilds.access import require_member
from . import store
from .validation import read_command

PERMISSIONS_SCOPE = "applications.commands.permissions.update"


def _scope(request: Request, *, reading_permissions: bool = False) -> tuple[int, int]:
    """(application_id, guild_id or 0) of the path, for the application's own bot."""
    principal = auth.require(request, kinds=("bot", "bearer") if reading_permissions else ("bot",))
    application_id = snowflake_param(request, "application_id")
    if principal.application_id != application_id:
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access")
    guild_id = snowflake_param(request, "guild_id") if "guild_id" in request.path_params else store.GLOBAL
    return application_id, guild_id


async def list_commands(request: Request) -> Response:
    application_id, guild_id = _scope(request)
    with_localizations = query_bool(request, "with_localizations")

    def work(conn: sqlite3.Connection, outbox: Outbox) -> list:
        store.require_scope(conn, application_id, guild_id)
        return store.list_commands(conn, application_id, guild_id, with_localizations=with_localizations)

    return json_response(await in_transaction(request, work))


async def create_command(request: Request) -> Response:
    application_id, guild_id = _scope(request)
    form = Form(await read_json(request))
    command = read_command(form, guild=guild_id != store.GLOBAL)
    form.done()
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> tuple:
        store.require_scope(conn, application_id, guild_id)
        return store.upsert(state, conn, application_id, guild_id, command)

    body, created = await in_transaction(request, work)
    return json_response(body, 201 if created else 200)


async def get_command(request: Request) -> Response:
    application_id, guild_id = _scope(request)
    command_id = snowflake_param(request, "command_id")

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict:
        store.require_scope(conn, application_id, guild_id)
        return store.command_json(store.get_row(conn, application_id, guild_id, command_id))

    return json_response(await in_transaction(request, work))


async def edit_command(request: Request) -> Response:
    application_id, guild_id = _scope(request)
    command_id = snowflake_param(request, "command_id")
    raw = await read_json(request)
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict:
        store.require_scope(conn, application_id, guild_id)
        row = store.get_row(conn, application_id, guild_id, command_id)
        form = Form(raw)
        command = read_command(form, guild=guild_id != store.GLOBAL, partial=store.current_body(row))
        form.done()
        return store.edit(state, conn, row, command)

    return json_response(await in_transaction(request, work))


async def delete_command(request: Request) -> Response:
    application_id, guild_id = _scope(request)
    command_id = snowflake_param(request, "command_id")

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        store.require_scope(conn, application_id, guild_id)
        store.delete(conn, store.get_row(conn, application_id, guild_id, command_id))

    await in_transaction(request, work)
    return Response(status_code=204)


async def bulk_overwrite(request: Request) -> Response:
    application_id, guild_id = _scope(request)
    raw = await read_json(request)
    if not isinstance(raw, list):
        raise ApiError(400, errors.INVALID_FORM_BODY, "Invalid Form Body",
                       {"_errors": [{"code": "LIST_TYPE_CONVERT", "message": "Must be an array."}]})
    form = Form({"commands": raw})
    commands = [read_command(form.item("commands", index, item), guild=guild_id != store.GLOBAL)
                for index, item in enumerate(raw)]
    if form.errors:   # paths are the array's indexes, as the platform reports them
        raise ApiError(400, errors.INVALID_FORM_BODY, "Invalid Form Body", form.errors.tree["commands"])
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> list:
        store.require_scope(conn, application_id, guild_id)
        return store.bulk_overwrite(state, conn, application_id, guild_id, commands)

    return json_response(await in_transaction(request, work))


# --- permissions -----------------------------------------------------------------------------------------

async def list_permissions(request: Request) -> Response:
    application_id, guild_id = _scope(request, reading_permissions=True)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> list:
        store.require_scope(conn, application_id, guild_id)
        return store.list_permissions(conn, application_id, guild_id)

    return json_response(await in_transaction(request, work))


async def get_permissions(request: Request) -> Response:
    application_id, guild_id = _scope(request, reading_permissions=True)
    command_id = snowflake_param(request, "command_id")

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict:
        store.require_scope(conn, application_id, guild_id)
        return store.get_permissions(conn, application_id, guild_id, command_id)

    return json_response(await in_transaction(request, work))


def _read_permissions(raw: object) -> list[dict]:
    form = Form(raw)
    result = []
    for index, item in enumerate(form.array("permissions", max_items=store.MAX_PERMISSIONS) or []):
        entry = form.item("permissions", index, item)
        target = entry.snowflake("id")
        kind = entry.choice("type", (store.PERMISSION_ROLE, store.PERMISSION_USER, store.PERMISSION_CHANNEL))
        allowed = entry.boolean("permission", required=True)
        result.append({"id": str(target), "type": kind, "permission": allowed})
    form.done()
    return result


async def set_permissions(request: Request) -> Response:
    """PUT .../commands/{command_id}/permissions: a user's Bearer token with the permissions scope."""
    principal = auth.require(request, kinds=("bot", "bearer"))
    if principal.kind == "bot":
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access: bots cannot edit command permissions; "
                       f"use a user's Bearer token with {PERMISSIONS_SCOPE}.")
    if PERMISSIONS_SCOPE not in expand(principal.scopes):
        raise ApiError(403, errors.MISSING_ACCESS, f"Missing Access: the token lacks scope {PERMISSIONS_SCOPE!r}.")
    application_id = snowflake_param(request, "application_id")
    if principal.application_id != application_id:
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access")
    guild_id = snowflake_param(request, "guild_id")
    command_id = snowflake_param(request, "command_id")
    permissions = _read_permissions(await read_json(request))
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict:
        store.require_scope(conn, application_id, guild_id)
        member = require_member(conn, guild_id, principal.user_id, state.clock.now())
        needed = int(Permission.MANAGE_GUILD | Permission.MANAGE_ROLES)
        if member.base & needed != needed:
            raise ApiError(403, errors.MISSING_PERMISSIONS, "Missing Permissions: MANAGE_GUILD, MANAGE_ROLES")
        return store.set_permissions(conn, outbox, application_id, guild_id, command_id, permissions)

    return json_response(await in_transaction(request, work))


def routes() -> list[BaseRoute]:
    app = API + "/applications/{application_id:snowflake}"
    guild = app + "/guilds/{guild_id:snowflake}"
    command = "/commands/{command_id:snowflake}"
    result: list[BaseRoute] = [
        Route(guild + "/commands/permissions", list_permissions, methods=["GET"]),
        Route(guild + command + "/permissions", get_permissions, methods=["GET"]),
        Route(guild + command + "/permissions", set_permissions, methods=["PUT"]),
    ]
    for base in (app, guild):
        result += [
            Route(base + "/commands", list_commands, methods=["GET"]),
            Route(base + "/commands", create_command, methods=["POST"]),
            Route(base + "/commands", bulk_overwrite, methods=["PUT"]),
            Route(base + command, get_command, methods=["GET"]),
            Route(base + command, edit_command, methods=["PATCH"]),
            Route(base + command, delete_command, methods=["DELETE"]),
        ]
    return result
