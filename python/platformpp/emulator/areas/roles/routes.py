"""The role routes. Changes need MANAGE_ROLES and follow the role hierarchy: a bot acts only on roles
strictly below its highest role, grants only permissions it holds, and cannot touch @everyone's
position or a managed role (50013)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import errors
from ...core.errors import ApiError, json_response
from ...core.http import emulator_state, new_id, snowflake_param
from ...core.permissions import Permission
from ...core.routing import Route
from ...core.validation import Form, field_error, read_form, read_json
from ...events.outbox import Outbox
from ...paths import API
from ...wire.role import role_json
from ..audit_log import trail as audit_trail
from ..guilds import mutations
from ..guilds.access import Standing, grantable, require_above, require_guild_permission, require_member
from ..guilds.store import roles_of
from ..guilds.work import in_transaction, reader, writer

UNKNOWN_ROLE = 10011


def _role(conn: sqlite3.Connection, guild_id: int, role_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM roles WHERE id = ? AND guild_id = ?", (role_id, guild_id)).fetchone()
    if row is None:
        raise errors.not_found(UNKNOWN_ROLE, "Role")
    return row


def _manager(conn: sqlite3.Connection, request: Request, guild_id: int, user_id: int) -> Standing:
    who = require_member(conn, guild_id, user_id, emulator_state(request).clock.now())
    require_guild_permission(who, Permission.MANAGE_ROLES)
    return who


async def list_roles(request: Request) -> Response:
    principal = reader(request)
    guild_id = snowflake_param(request, "guild_id")
    now = emulator_state(request).clock.now()

    def work(conn: sqlite3.Connection, _: Outbox) -> list[dict[str, Any]]:
        require_member(conn, guild_id, principal.user_id, now)
        return roles_of(conn, guild_id)

    return json_response(await in_transaction(request, work))


async def get_role(request: Request) -> Response:
    principal = reader(request)
    guild_id = snowflake_param(request, "guild_id")
    role_id = snowflake_param(request, "role_id")
    now = emulator_state(request).clock.now()

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        require_member(conn, guild_id, principal.user_id, now)
        return role_json(_role(conn, guild_id, role_id))

    return json_response(await in_transaction(request, work))


async def create_role(request: Request) -> Response:
    """POST /guilds/{guild_id}/roles: GUILD_ROLE_CREATE."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    form = await read_json(request, allow_empty=True)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        who = _manager(conn, request, guild_id, principal.user_id)
        checked = Form(form)
        grantable(who, mutations.requested_bits(checked.data, "permissions"))
        created = mutations.create_role(conn, outbox, state.clock.now(), guild_id, new_id(state), checked)
        audit_trail.role(conn, guild_id, principal.user_id, None, created)
        return created

    return json_response(await in_transaction(request, work))


async def patch_role(request: Request) -> Response:
    """PATCH /guilds/{guild_id}/roles/{role_id}: GUILD_ROLE_UPDATE (and CHANNEL_UPDATEs for bots whose
    sight of a channel changed)."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    role_id = snowflake_param(request, "role_id")
    state = emulator_state(request)
    form = await read_form(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        who = _manager(conn, request, guild_id, principal.user_id)
        role = _role(conn, guild_id, role_id)
        if role_id != guild_id:
            require_above(who, role["position"], "the role")
        elif not who.is_owner and who.highest_position <= 0:
            raise ApiError(403, errors.MISSING_PERMISSIONS,
                           "Missing Permissions: a role is needed to edit @everyone")
        grantable(who, mutations.requested_bits(form.data, "permissions"))
        if role["managed"] and "name" in form.data:
            form.fail("name", "ROLE_MANAGED", "The name of a managed role cannot change.")
        updated = mutations.modify_role(conn, outbox, state.clock.now(), guild_id, role_id, form)
        audit_trail.role(conn, guild_id, principal.user_id, role_json(role), updated)
        return updated

    return json_response(await in_transaction(request, work))


async def delete_role(request: Request) -> Response:
    """DELETE /guilds/{guild_id}/roles/{role_id}: 204; GUILD_ROLE_DELETE."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    role_id = snowflake_param(request, "role_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        who = _manager(conn, request, guild_id, principal.user_id)
        role = _role(conn, guild_id, role_id)
        if role_id == guild_id:
            raise field_error("role_id", "ROLE_EVERYONE", "The @everyone role cannot be deleted.")
        require_above(who, role["position"], "the role")
        if role["managed"]:
            raise ApiError(403, errors.MISSING_PERMISSIONS,
                           "Missing Permissions: a managed role cannot be deleted")
        mutations.delete_role(conn, outbox, state.clock.now(), guild_id, role_id)
        audit_trail.role(conn, guild_id, principal.user_id, role_json(role), None)

    await in_transaction(request, work)
    return Response(status_code=204)


async def role_positions(request: Request) -> Response:
    """PATCH /guilds/{guild_id}/roles ``[{id, position}]``: every moved role, and its new place, must be
    below the bot's highest role; answers all roles; GUILD_ROLE_UPDATE per moved role."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    form = Form({"roles": await read_json(request)})
    items = form.array("roles", min_items=1) or []

    def work(conn: sqlite3.Connection, outbox: Outbox) -> list[dict[str, Any]]:
        who = _manager(conn, request, guild_id, principal.user_id)
        positions: dict[int, int] = {}
        highest: list[int] = []
        for index, raw in enumerate(items):
            item = form.item("roles", index, raw)
            role_id = item.snowflake("id")
            position = item.integer("position", minimum=1)
            if role_id is None or position is None:
                continue
            row = conn.execute("SELECT position FROM roles WHERE id = ? AND guild_id = ?",
                               (role_id, guild_id)).fetchone()
            if row is None or role_id == guild_id:
                item.fail("id", "UNKNOWN_ROLE", "Not a movable role of this guild.")
                continue
            positions[role_id] = position
            highest.append(max(row["position"], position))
        form.done()
        for position in highest:
            require_above(who, position, "the role or its new position")
        before = {role["id"]: role for role in roles_of(conn, guild_id)}
        after = mutations.set_role_positions(conn, outbox, state.clock.now(), guild_id, positions)
        for role in after:
            audit_trail.role(conn, guild_id, principal.user_id, before[role["id"]], role)   # only moved ones
        return after

    return json_response(await in_transaction(request, work))


async def member_counts(request: Request) -> Response:
    """GET /guilds/{guild_id}/roles/member-counts: ``{role_id: members holding it}`` for every role but
    @everyone (which every member holds)."""
    principal = reader(request)
    guild_id = snowflake_param(request, "guild_id")
    now = emulator_state(request).clock.now()

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, int]:
        require_member(conn, guild_id, principal.user_id, now)
        rows = conn.execute("SELECT id FROM roles WHERE guild_id = ? AND id != ?", (guild_id, guild_id))
        counts = {str(row["id"]): 0 for row in rows}
        for member in conn.execute("SELECT roles FROM members WHERE guild_id = ?", (guild_id,)):
            for role_id in json.loads(member["roles"]):
                if role_id in counts:
                    counts[role_id] += 1
        return counts

    return json_response(await in_transaction(request, work))


def routes() -> list[BaseRoute]:
    base = API + "/guilds/{guild_id}/roles"
    return [
        Route(base, list_roles, methods=["GET"]),
        Route(base, create_role, methods=["POST"]),
        Route(base, role_positions, methods=["PATCH"]),
        Route(base + "/member-counts", member_counts, methods=["GET"]),
        Route(base + "/{role_id}", get_role, methods=["GET"]),
        Route(base + "/{role_id}", patch_role, methods=["PATCH"]),
        Route(base + "/{role_id}", delete_role, methods=["DELETE"]),
    ]
