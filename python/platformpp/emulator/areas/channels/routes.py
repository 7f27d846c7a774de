"""The guild channel routes. Reads need VIEW_CHANNEL (50001 without); changes need MANAGE_CHANNELS,
and setting overwrites MANAGE_ROLES too, granting only bits the bot holds (50013). A bot whose
application turned channel obfuscation on sees the channels it cannot view obfuscated; from
2026-11-16 GET /guilds/{id}/channels leaves them out (the seed; no early opt-in)."""

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
from ...core.permissions import MEMBER_OVERWRITE, ROLE_OVERWRITE, Permission
from ...core.routing import Route
from ...core.validation import Form, read_form, read_json
from ...events.outbox import Outbox
from ...paths import API
from ...wire.channel import channel_json, obfuscated_channel_json
from ..audit_log import trail as audit_trail
from ..guilds import mutations
from ..guilds.access import (
    Standing,
    grantable,
    missing_access,
    permissions_in,
    require_channel_permission,
    require_guild_permission,
    require_member,
    visible_channel_ids,
)
from ..guilds.dispatch import app_obfuscates
from ..guilds.store import BOT_CHANNELS_FILTER_FROM, display_order
from ..guilds.work import in_transaction, reader, writer
from ..lobbies.linking import sdk_channel_fields
from ..private_channels import store as private_channels
from ..threads import edits as thread_edits
from ..threads.store import is_thread


def _channel(conn: sqlite3.Connection, channel_id: int, *, overwrites: bool = False) -> sqlite3.Row:
    """A guild channel (10003 otherwise); ``overwrites``: one that has them (a thread has its parent's: 50024)."""
    row = conn.execute("SELECT * FROM channels WHERE id = ? AND guild_id IS NOT NULL",
                       (channel_id,)).fetchone()
    if row is None:
        raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
    if overwrites and is_thread(row):
        raise ApiError(400, 50024, "Cannot execute action on this channel type")
    return row


def _overwrite_bits(who: Standing, changes: dict[str, Any]) -> None:
    """Setting overwrites needs MANAGE_ROLES, and only bits the bot holds may be allowed or denied."""
    if "permission_overwrites" not in changes:
        return
    require_guild_permission(who, Permission.MANAGE_ROLES)
    for overwrite in json.loads(changes["permission_overwrites"]):
        grantable(who, int(overwrite["allow"]) | int(overwrite["deny"]))


async def list_channels(request: Request) -> Response:
    """GET /guilds/{guild_id}/channels in the client's display order. SDK users see what their
    client lists (a category counts when a child is viewable); bots get every channel (obfuscated
    where they cannot view it, if their app opted in) until 2026-11-16, then only those they can
    view, a category by its own VIEW_CHANNEL."""
    principal = reader(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> list[dict[str, Any]]:
        who = require_member(conn, guild_id, principal.user_id, state.clock.now())
        rows = conn.execute("SELECT * FROM channels WHERE guild_id = ? AND type NOT IN (10, 11, 12)",
                            (guild_id,)).fetchall()   # threads are listed by the thread routes
        if principal.kind == "bearer":
            visible = visible_channel_ids(conn, who, categories_by_children=True)
            # SDK users also learn what linking a lobby to each channel would mean (lobbies/linking.py).
            return display_order([channel_json(row) | sdk_channel_fields(conn, who, row)
                                  for row in rows if row["id"] in visible])
        visible = visible_channel_ids(conn, who, categories_by_children=False)
        if state.clock.now() >= BOT_CHANNELS_FILTER_FROM:
            return display_order([channel_json(row) for row in rows if row["id"] in visible])
        obfuscate = app_obfuscates(conn, principal.application_id)
        return display_order([obfuscated_channel_json(row) if obfuscate and row["id"] not in visible
                              else channel_json(row) for row in rows])

    return json_response(await in_transaction(request, work))


async def create_channel(request: Request) -> Response:
    """POST /guilds/{guild_id}/channels: MANAGE_CHANNELS; 201 with the channel; CHANNEL_CREATE."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    form = await read_form(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        now = state.clock.now()
        who = require_member(conn, guild_id, principal.user_id, now)
        require_guild_permission(who, Permission.MANAGE_CHANNELS)
        changes = mutations.channel_changes(conn, form, guild_id, creating=True, next_id=state.ids.next)
        form.done()
        _overwrite_bits(who, changes)
        row = mutations.create_channel(conn, outbox, now, guild_id, new_id(state), changes)
        audit_trail.channel(conn, guild_id, principal.user_id, None, channel_json(row))
        return _as_seen(conn, principal.application_id, who, row)

    return json_response(await in_transaction(request, work), 201)


def _as_seen(conn: sqlite3.Connection, application_id: int, who: Standing,
             row: sqlite3.Row) -> dict[str, Any]:
    if app_obfuscates(conn, application_id) and not permissions_in(who, row) & Permission.VIEW_CHANNEL:
        return obfuscated_channel_json(row)
    return channel_json(row)


async def channel_positions(request: Request) -> Response:
    """PATCH /guilds/{guild_id}/channels: ``[{id, position?, parent_id?, lock_permissions?}]``;
    MANAGE_CHANNELS; 204; CHANNEL_UPDATE for each channel that moved."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    body = await read_json(request)
    form = Form({"channels": body})
    items = form.array("channels", min_items=1) or []

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        now = state.clock.now()
        who = require_member(conn, guild_id, principal.user_id, now)
        require_guild_permission(who, Permission.MANAGE_CHANNELS)
        planned: list[tuple[int, dict[str, Any]]] = []
        for index, raw in enumerate(items):
            item = form.item("channels", index, raw)
            channel_id = item.snowflake("id")
            changes: dict[str, Any] = {}
            if channel_id is not None and conn.execute("SELECT 1 FROM channels WHERE id = ? AND guild_id = ?",
                                                       (channel_id, guild_id)).fetchone() is None:
                item.fail("id", "UNKNOWN_CHANNEL", "Not a channel of this guild.")
            if item.data.get("position") is not None:
                changes["position"] = item.integer("position", minimum=0)
            if "parent_id" in item.data:
                sub = Form({"parent_id": item.data["parent_id"]}, form.errors, item.path)
                changes.update(mutations.channel_changes(conn, sub, guild_id, creating=False,
                                                         kind_now=_kind(conn, channel_id)))
            if item.boolean("lock_permissions") and changes.get("parent_id"):
                parent = conn.execute("SELECT permission_overwrites FROM channels WHERE id = ?",
                                      (changes["parent_id"],)).fetchone()
                changes["permission_overwrites"] = parent["permission_overwrites"]
            if channel_id is not None:
                planned.append((channel_id, changes))
        form.done()
        for channel_id, changes in planned:
            if changes:
                before = channel_json(_channel(conn, channel_id))
                audit_trail.channel(conn, guild_id, principal.user_id, before,
                                    channel_json(mutations.modify_channel(conn, outbox, now, channel_id, changes)))

    await in_transaction(request, work)
    return Response(status_code=204)


def _kind(conn: sqlite3.Connection, channel_id: int | None) -> int | None:
    row = conn.execute("SELECT type FROM channels WHERE id = ?", (channel_id,)).fetchone()
    return row["type"] if row else None


async def get_channel(request: Request) -> Response:
    """GET /channels/{channel_id}: a guild channel the caller can view, or a group DM the caller is a
    recipient of (50001 otherwise). A bot whose application turned channel obfuscation on gets a guild
    channel it cannot view obfuscated (200), as GET /guilds/{id}/channels shows it."""
    principal = reader(request)
    channel_id = snowflake_param(request, "channel_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        private = private_channels.get_private(conn, channel_id)
        if private is not None:
            return _private(conn, private, principal.user_id)
        row = _channel(conn, channel_id)
        if is_thread(row):
            return thread_edits.get(conn, outbox, state.clock.now(), row, principal.user_id)
        who = require_member(conn, row["guild_id"], principal.user_id, state.clock.now())
        if not permissions_in(who, row) & Permission.VIEW_CHANNEL:
            # Opted in (the app's private toggle: Identify's capability cannot reach REST), a bot sees
            # a channel it cannot view obfuscated, as in every other answer carrying channels.
            if principal.kind == "bot" and app_obfuscates(conn, principal.application_id):
                return obfuscated_channel_json(row)
            raise missing_access()
        return channel_json(row)

    return json_response(await in_transaction(request, work))


def _private(conn: sqlite3.Connection, row: sqlite3.Row, user_id: int) -> dict[str, Any]:
    """A DM or group DM, to its recipients only."""
    if user_id not in {u["id"] for u in private_channels.recipients_of(conn, row["id"])}:
        raise missing_access()
    return private_channels.channel_as_seen(conn, row, user_id)


async def patch_channel(request: Request) -> Response:
    """PATCH /channels/{channel_id}: MANAGE_CHANNELS in the channel; CHANNEL_UPDATE."""
    principal = writer(request)
    channel_id = snowflake_param(request, "channel_id")
    state = emulator_state(request)
    form = await read_form(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        now = state.clock.now()
        row = _channel(conn, channel_id)
        if is_thread(row):
            return thread_edits.modify(conn, outbox, now, row, principal.user_id, form)
        who = require_member(conn, row["guild_id"], principal.user_id, now)
        require_channel_permission(who, row, Permission.MANAGE_CHANNELS)
        changes = mutations.channel_changes(conn, form, row["guild_id"], creating=False, kind_now=row["type"],
                                            next_id=state.ids.next, current_tags=row["available_tags"])
        if "type" in changes and changes["type"] != row["type"] and {changes["type"], row["type"]} != {0, 5}:
            form.fail("type", "CHANNEL_TYPE_INVALID",
                      "Only text and announcement channels convert into each other.")
        form.done()
        _overwrite_bits(who, changes)
        updated = mutations.modify_channel(conn, outbox, now, channel_id, changes)
        audit_trail.channel(conn, row["guild_id"], principal.user_id, channel_json(row), channel_json(updated))
        return _as_seen(conn, principal.application_id, who, updated)

    return json_response(await in_transaction(request, work))


async def delete_channel(request: Request) -> Response:
    """DELETE /channels/{channel_id}: MANAGE_CHANNELS; answers the deleted channel; CHANNEL_DELETE."""
    principal = writer(request)
    channel_id = snowflake_param(request, "channel_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        now = state.clock.now()
        row = _channel(conn, channel_id)
        if is_thread(row):
            return thread_edits.remove(conn, outbox, now, row, principal.user_id)
        who = require_member(conn, row["guild_id"], principal.user_id, now)
        require_channel_permission(who, row, Permission.MANAGE_CHANNELS)
        mutations.delete_channel(conn, outbox, now, row)
        audit_trail.channel(conn, row["guild_id"], principal.user_id, channel_json(row), None)
        return channel_json(row)

    return json_response(await in_transaction(request, work))


async def put_overwrite(request: Request) -> Response:
    """PUT /channels/{channel_id}/permissions/{overwrite_id} ``{type, allow?, deny?}``: MANAGE_ROLES;
    204; CHANNEL_UPDATE (and so, for an opted-in bot that gains or loses VIEW_CHANNEL, the full or
    obfuscated channel)."""
    principal = writer(request)
    channel_id = snowflake_param(request, "channel_id")
    target = snowflake_param(request, "overwrite_id")
    state = emulator_state(request)
    form = await read_form(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        now = state.clock.now()
        row = _channel(conn, channel_id, overwrites=True)
        who = require_member(conn, row["guild_id"], principal.user_id, now)
        require_channel_permission(who, row, Permission.MANAGE_ROLES)
        kind = form.choice("type", (ROLE_OVERWRITE, MEMBER_OVERWRITE))
        allow = mutations.read_bits(form, "allow") or 0
        deny = mutations.read_bits(form, "deny") or 0
        if kind is not None and not mutations.target_exists(conn, row["guild_id"], target, kind):
            form.fail("type", "UNKNOWN_OVERWRITE_TARGET",
                      f"No {'role' if kind == 0 else 'member'} {target} in this guild.")
        form.done()
        grantable(who, allow | deny)
        updated = mutations.put_overwrite(conn, outbox, now, row, {"id": str(target), "type": kind,
                                                                   "allow": str(allow), "deny": str(deny)})
        audit_trail.channel(conn, row["guild_id"], principal.user_id, channel_json(row), channel_json(updated))

    await in_transaction(request, work)
    return Response(status_code=204)


async def delete_overwrite(request: Request) -> Response:
    """DELETE /channels/{channel_id}/permissions/{overwrite_id}: MANAGE_ROLES; 204; CHANNEL_UPDATE."""
    principal = writer(request)
    channel_id = snowflake_param(request, "channel_id")
    target = snowflake_param(request, "overwrite_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        now = state.clock.now()
        row = _channel(conn, channel_id, overwrites=True)
        who = require_member(conn, row["guild_id"], principal.user_id, now)
        require_channel_permission(who, row, Permission.MANAGE_ROLES)
        updated = mutations.delete_overwrite(conn, outbox, now, row, target)
        audit_trail.channel(conn, row["guild_id"], principal.user_id, channel_json(row), channel_json(updated))

    await in_transaction(request, work)
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    guild = API + "/guilds/{guild_id}/channels"
    channel = API + "/channels/{channel_id}"
    return [
        Route(guild, list_channels, methods=["GET"]),
        Route(guild, create_channel, methods=["POST"]),
        Route(guild, channel_positions, methods=["PATCH"]),
        Route(channel, get_channel, methods=["GET"]),
        Route(channel, patch_channel, methods=["PATCH"]),
        Route(channel, delete_channel, methods=["DELETE"]),
        Route(channel + "/permissions/{overwrite_id}", put_overwrite, methods=["PUT"]),
        Route(channel + "/permissions/{overwrite_id}", delete_overwrite, methods=["DELETE"]),
    ]
