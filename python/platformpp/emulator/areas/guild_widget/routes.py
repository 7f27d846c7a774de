"""The guild widget routes: its settings (Bot, MANAGE_GUILD) and the public widget.json and widget.png
(no authentication: anyone may embed them; 403 / 50004 while the widget is off)."""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import json_response
from ...core.http import base_url_of, emulator_state, off_loop, snowflake_param
from ...core.permissions import Permission
from ...core.routing import Route
from ...core.validation import field_error, read_form
from ...events.outbox import Outbox
from ...paths import API
from ..audit_log import actions
from ..audit_log import store as audit_log
from ..guilds.access import require_guild_permission, require_member
from ..guilds.dispatch import guild_bots, to_guild
from ..guilds.store import guild_object
from ..guilds.work import in_transaction, writer
from ..invites import expiry
from . import image, store


async def widget_settings(request: Request) -> Response:
    """GET /guilds/{guild_id}/widget: MANAGE_GUILD."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        who = require_member(conn, guild_id, principal.user_id, state.clock.now())
        require_guild_permission(who, Permission.MANAGE_GUILD)
        return store.settings_json(store.guild_row(conn, guild_id))

    return json_response(await in_transaction(request, work))


async def modify_widget(request: Request) -> Response:
    """PATCH /guilds/{guild_id}/widget ``{enabled?, channel_id?}`` (null keeps / clears): MANAGE_GUILD;
    the channel is one of the guild's; GUILD_UPDATE and an audit entry (1) naming what changed."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    form = await read_form(request)
    enabled = form.boolean("enabled") if form.data.get("enabled") is not None else None   # null: unchanged
    channel_given = "channel_id" in form.data
    channel_id = form.snowflake("channel_id", required=False, nullable=True)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        now = state.clock.now()
        who = require_member(conn, guild_id, principal.user_id, now)
        require_guild_permission(who, Permission.MANAGE_GUILD)
        form.done()
        if channel_id is not None and conn.execute("SELECT 1 FROM channels WHERE id = ? AND guild_id = ?",
                                                   (channel_id, guild_id)).fetchone() is None:
            raise field_error("channel_id", "CHANNEL_INVALID", "Not a channel of this guild.")
        before = store.settings_json(store.guild_row(conn, guild_id))
        changes: dict[str, Any] = {}
        if enabled is not None:
            changes["widget_enabled"] = int(enabled)
        if channel_given:
            changes["widget_channel_id"] = channel_id
        if changes:
            conn.execute(f"UPDATE guilds SET {', '.join(f'{c} = ?' for c in changes)} WHERE id = ?",
                         (*changes.values(), guild_id))
        after = store.settings_json(store.guild_row(conn, guild_id))
        shown = audit_log.diff({"widget_enabled": before["enabled"], "widget_channel_id": before["channel_id"]},
                               {"widget_enabled": after["enabled"], "widget_channel_id": after["channel_id"]})
        if shown:
            audit_log.record(conn, guild_id=guild_id, user_id=principal.user_id, action_type=actions.GUILD_UPDATE,
                             target_id=guild_id, changes=shown)
            to_guild(outbox, guild_bots(conn, guild_id, now), "GUILD_UPDATE", guild_object(conn, guild_id))
        return after

    return json_response(await in_transaction(request, work))


async def widget(request: Request) -> Response:
    """GET /guilds/{guild_id}/widget.json: anyone."""
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    base_url = base_url_of(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        now = state.clock.now()
        return store.widget_json(conn, outbox, now, store.enabled_guild(conn, guild_id), base_url)

    body = await in_transaction(request, work)
    await off_loop(lambda: expiry.arm(state))   # a new widget invite may be the next to expire
    return json_response(body)


async def widget_image(request: Request) -> Response:
    """GET /guilds/{guild_id}/widget.png?style=shield|banner1..banner4 (shield by default): anyone."""
    guild_id = snowflake_param(request, "guild_id")
    style = request.query_params.get("style", "shield")
    if style not in image.SIZES:
        raise field_error("style", "BASE_TYPE_CHOICES", f"Value must be one of {list(image.SIZES)}.")

    def work(conn: sqlite3.Connection, _: Outbox) -> tuple[str, int]:
        guild = store.enabled_guild(conn, guild_id)
        return guild["name"], len(store.online_members(conn, guild_id))

    name, online = await in_transaction(request, work)
    png = await off_loop(lambda: image.render(style, name, online))
    return Response(png, media_type="image/png")


def routes() -> list[BaseRoute]:
    guild = API + "/guilds/{guild_id}"
    return [
        Route(guild + "/widget", widget_settings, methods=["GET"]),
        Route(guild + "/widget", modify_widget, methods=["PATCH"]),
        Route(guild + "/widget.json", widget, methods=["GET"]),
        Route(guild + "/widget.png", widget_image, methods=["GET"]),
    ]
