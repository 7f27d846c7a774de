"""HTTP routes (Bot) of a guild's pages for new members: the welcome screen (GET, PATCH), onboarding
(GET, PUT) and the new member welcome (GET)."""

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
from ...core.validation import read_form
from ...events.outbox import Outbox
from ...paths import API
from ..guilds.access import require_guild_permission, require_member
from ..guilds.work import writer
from . import new_member_welcome, onboarding, welcome_screen

_MANAGE_GUILD = int(Permission.MANAGE_GUILD)
_ONBOARDING_EDITOR = int(Permission.MANAGE_GUILD | Permission.MANAGE_ROLES)


async def get_welcome_screen(request: Request) -> Response:
    """Any member while the screen is shown (WELCOME_SCREEN_ENABLED); MANAGE_GUILD otherwise."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        who = require_member(conn, guild_id, principal.user_id, state.clock.now())
        if not welcome_screen.is_enabled(conn, guild_id):
            require_guild_permission(who, _MANAGE_GUILD)
        return welcome_screen.render(conn, guild_id)

    return json_response(await in_transaction(request, work))


async def modify_welcome_screen(request: Request) -> Response:
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    form = await read_form(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        now = state.clock.now()
        require_guild_permission(require_member(conn, guild_id, principal.user_id, now), _MANAGE_GUILD)
        changes = welcome_screen.read_changes(form, conn, guild_id)
        form.done()
        return welcome_screen.apply(conn, outbox, now, guild_id, principal.user_id, changes)

    return json_response(await in_transaction(request, work))


async def get_onboarding(request: Request) -> Response:
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        require_member(conn, guild_id, principal.user_id, state.clock.now())
        return onboarding.render(conn, guild_id)

    return json_response(await in_transaction(request, work))


async def put_onboarding(request: Request) -> Response:
    """MANAGE_GUILD and MANAGE_ROLES; the fields given replace the stored ones."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    form = await read_form(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        now = state.clock.now()
        require_guild_permission(require_member(conn, guild_id, principal.user_id, now), _ONBOARDING_EDITOR)
        changes = onboarding.read_changes(form, conn, guild_id, state.ids.next)
        form.done()
        return onboarding.apply(conn, outbox, now, guild_id, principal.user_id, changes)

    return json_response(await in_transaction(request, work))


async def get_new_member_welcome(request: Request) -> Response:
    """The guild's new member welcome, or 204 when it has none."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any] | None:
        require_member(conn, guild_id, principal.user_id, state.clock.now())
        return new_member_welcome.render(conn, guild_id)

    shown = await in_transaction(request, work)
    return json_response(shown) if shown is not None else Response(status_code=204)


def routes() -> list[BaseRoute]:
    guild = API + "/guilds/{guild_id:snowflake}"
    return [
        Route(guild + "/welcome-screen", get_welcome_screen, methods=["GET"]),
        Route(guild + "/welcome-screen", modify_welcome_screen, methods=["PATCH"]),
        Route(guild + "/onboarding", get_onboarding, methods=["GET"]),
        Route(guild + "/onboarding", put_onboarding, methods=["PUT"]),
        Route(guild + "/new-member-welcome", get_new_member_welcome, methods=["GET"]),
    ]
