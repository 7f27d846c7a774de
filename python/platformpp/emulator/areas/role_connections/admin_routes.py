"""Admin routes of role connections: set a user's connection without an OAuth2 token, link a role
to an application's connection with required values, read which linked roles a member qualifies
for, and have a member take a linked role (what the platform's client lets a user do, only when
they qualify)."""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import errors
from ...core.errors import ApiError, json_response
from ...core.http import emulator_state, in_transaction, snowflake_param
from ...core.routing import Route
from ...core.validation import Form, read_json
from ...events.audience import Payload
from ...events.outbox import Outbox
from ...paths import ADMIN
from ..guilds import mutations
from . import store


def _row(conn: sqlite3.Connection, sql: str, key: tuple[int, ...], code: int, what: str) -> None:
    if conn.execute(sql, key).fetchone() is None:
        raise errors.not_found(code, what)


async def put_user_connection(request: Request) -> Response:
    """PUT /_emulator/users/{user_id}/applications/{application_id}/role-connection, the body of
    ``PUT /users/@me/applications/{id}/role-connection`` → the connection."""
    user_id, application_id = snowflake_param(request, "user_id"), snowflake_param(request, "application_id")
    form = Form(await read_json(request, allow_empty=True))
    update = store.read_connection(form)
    form.done()

    def work(conn: sqlite3.Connection, _: Outbox) -> Payload:
        _row(conn, "SELECT 1 FROM users WHERE id = ?", (user_id,), errors.UNKNOWN_USER, "User")
        _row(conn, "SELECT 1 FROM applications WHERE id = ?", (application_id,), errors.UNKNOWN_APPLICATION,
             "Application")
        return store.put_connection(conn, application_id, user_id, update)

    return json_response(await in_transaction(request, work))


async def put_role_link(request: Request) -> Response:
    """PUT /_emulator/guilds/{guild_id}/roles/{role_id}/connection ``{application_id, requirements?:
    {key: integer}}`` → ``{role_id, application_id, requirements}``; the role's ``tags`` gain
    ``guild_connections``."""
    guild_id, role_id = snowflake_param(request, "guild_id"), snowflake_param(request, "role_id")
    form = Form(await read_json(request))
    application_id = form.snowflake("application_id")
    requirements = form.data.get("requirements") or {}
    if not isinstance(requirements, dict):
        form.fail("requirements", "DICT_TYPE_CONVERT", "Must be an object of integers.")
    form.done()

    def work(conn: sqlite3.Connection, _: Outbox) -> Payload:
        _row(conn, "SELECT 1 FROM roles WHERE id = ? AND guild_id = ? AND id != guild_id", (role_id, guild_id),
             store.UNKNOWN_ROLE, "Role")
        _row(conn, "SELECT 1 FROM applications WHERE id = ?", (application_id,), errors.UNKNOWN_APPLICATION,
             "Application")
        store.link_role(conn, form, role_id, application_id, requirements)
        form.done()
        return {"role_id": str(role_id), "application_id": str(application_id),
                "requirements": store.requirements_of(conn, role_id)}

    return json_response(await in_transaction(request, work))


async def delete_role_link(request: Request) -> Response:
    guild_id, role_id = snowflake_param(request, "guild_id"), snowflake_param(request, "role_id")

    def work(conn: sqlite3.Connection, _: Outbox) -> None:
        _row(conn, "SELECT 1 FROM roles WHERE id = ? AND guild_id = ?", (role_id, guild_id), store.UNKNOWN_ROLE, "Role")
        store.require_linked(conn, role_id)
        store.unlink_role(conn, role_id)

    await in_transaction(request, work)
    return Response(status_code=204)


async def member_linked_roles(request: Request) -> Response:
    """GET /_emulator/guilds/{guild_id}/members/{user_id}/linked-roles → the guild's linked roles, each
    with ``qualifies`` for the member."""
    guild_id, user_id = snowflake_param(request, "guild_id"), snowflake_param(request, "user_id")
    state = emulator_state(request)
    return json_response(await in_transaction(request, lambda conn, _: store.linked_roles(
        conn, guild_id, user_id, state.clock.now())))


async def take_linked_role(request: Request) -> Response:
    """PUT /_emulator/guilds/{guild_id}/members/{user_id}/linked-roles/{role_id}: the member adds the
    linked role to themselves → the member (GUILD_MEMBER_UPDATE); 403 / 50013 when they do not meet
    its requirements, nothing changed."""
    guild_id, user_id = snowflake_param(request, "guild_id"), snowflake_param(request, "user_id")
    role_id = snowflake_param(request, "role_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        _row(conn, "SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?", (guild_id, user_id),
             errors.UNKNOWN_MEMBER, "Member")
        _row(conn, "SELECT 1 FROM roles WHERE id = ? AND guild_id = ?", (role_id, guild_id), store.UNKNOWN_ROLE, "Role")
        store.require_linked(conn, role_id)
        now = state.clock.now()
        if not store.qualifies(conn, role_id, user_id, now):
            raise ApiError(403, errors.MISSING_PERMISSIONS,
                           "Missing Permissions: the member's connection does not meet the role's requirements.")
        mutations.set_member_role(conn, outbox, now, guild_id, user_id, role_id, True)
        return mutations.member_payload(conn, guild_id, user_id)

    return json_response(await in_transaction(request, work))


def routes() -> list[BaseRoute]:
    guild = ADMIN + "/guilds/{guild_id:snowflake}"
    return [
        Route(ADMIN + "/users/{user_id:snowflake}/applications/{application_id:snowflake}/role-connection",
              put_user_connection, methods=["PUT"]),
        Route(guild + "/roles/{role_id:snowflake}/connection", put_role_link, methods=["PUT"]),
        Route(guild + "/roles/{role_id:snowflake}/connection", delete_role_link, methods=["DELETE"]),
        Route(guild + "/members/{user_id:snowflake}/linked-roles", member_linked_roles, methods=["GET"]),
        Route(guild + "/members/{user_id:snowflake}/linked-roles/{role_id:snowflake}", take_linked_role,
              methods=["PUT"]),
    ]
