"""Admin API of a guild's pages for new members (``/_emulator``): set the welcome screen or onboarding as
the guild's owner would (the same checks, dispatches and audit entries, without a bot's permissions), and
set or remove the new member welcome, which the published API cannot write."""

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
from . import new_member_welcome, onboarding, welcome_screen


def _owner(conn: sqlite3.Connection, guild_id: int) -> int:
    row = conn.execute("SELECT owner_id FROM guilds WHERE id = ?", (guild_id,)).fetchone()
    if row is None:
        raise errors.not_found(errors.UNKNOWN_GUILD, "Guild")
    return int(row["owner_id"])


async def set_welcome_screen(request: Request) -> Response:
    """PUT /_emulator/guilds/{guild_id}/welcome-screen: the PATCH body → the welcome screen."""
    guild_id = snowflake_param(request, "guild_id")
    form = await read_form(request)
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        owner = _owner(conn, guild_id)
        changes = welcome_screen.read_changes(form, conn, guild_id)
        form.done()
        return welcome_screen.apply(conn, outbox, state.clock.now(), guild_id, owner, changes)

    return json_response(await in_transaction(request, work))


async def set_onboarding(request: Request) -> Response:
    """PUT /_emulator/guilds/{guild_id}/onboarding: the PUT body → the onboarding."""
    guild_id = snowflake_param(request, "guild_id")
    form = await read_form(request)
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        owner = _owner(conn, guild_id)
        changes = onboarding.read_changes(form, conn, guild_id, state.ids.next)
        form.done()
        return onboarding.apply(conn, outbox, state.clock.now(), guild_id, owner, changes)

    return json_response(await in_transaction(request, work))


async def set_new_member_welcome(request: Request) -> Response:
    """PUT /_emulator/guilds/{guild_id}/new-member-welcome ``{enabled?, welcome_message?,
    new_member_actions?, resource_channels?}`` → what GET then answers."""
    guild_id = snowflake_param(request, "guild_id")
    form = await read_form(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any] | None:
        _owner(conn, guild_id)
        settings = new_member_welcome.read_settings(form, conn, guild_id)
        form.done()
        new_member_welcome.save(conn, guild_id, settings)
        return new_member_welcome.render(conn, guild_id)

    return json_response(await in_transaction(request, work))


async def remove_new_member_welcome(request: Request) -> Response:
    """DELETE /_emulator/guilds/{guild_id}/new-member-welcome → 204 (GET answers 204 again)."""
    guild_id = snowflake_param(request, "guild_id")

    def work(conn: sqlite3.Connection, _: Outbox) -> None:
        _owner(conn, guild_id)
        conn.execute("DELETE FROM guild_new_member_welcome WHERE guild_id = ?", (guild_id,))

    await in_transaction(request, work)
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    guild = ADMIN + "/guilds/{guild_id:snowflake}"
    return [
        Route(guild + "/welcome-screen", set_welcome_screen, methods=["PUT"]),
        Route(guild + "/onboarding", set_onboarding, methods=["PUT"]),
        Route(guild + "/new-member-welcome", set_new_member_welcome, methods=["PUT"]),
        Route(guild + "/new-member-welcome", remove_new_member_welcome, methods=["DELETE"]),
    ]
