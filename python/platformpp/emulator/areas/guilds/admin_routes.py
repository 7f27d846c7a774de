"""The guild part of the admin API (``/_emulator``): set up guilds, roles, channels, members and
overwrites, grant or revoke a member's (a bot's) role, change a role as the owner would, and turn an
application's private channel obfuscation toggle on or off. Bodies use the fixture format
(docs/emulator.md "Fixtures"); bad input answers 400 (50035) naming each bad field, in one
transaction, so nothing is half-written. Changes dispatch as the platform would.

Changes to an existing guild are written to its audit log as if a member made them (with
GUILD_AUDIT_LOG_ENTRY_CREATE and the ``X-Audit-Log-Reason`` header as the reason): the query
parameter ``actor_id`` names that member (a user or a bot), by default the guild's owner."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import errors
from ...core.errors import json_response
from ...core.http import emulator_state, snowflake_param
from ...core.permissions import MEMBER_OVERWRITE, ROLE_OVERWRITE
from ...core.routing import Route
from ...core.snowflake import parse_snowflake
from ...core.validation import Form, field_error, read_form, read_json
from ...events.outbox import Outbox
from ...paths import ADMIN
from ...wire.channel import CATEGORY, channel_json
from ...wire.member import member_json
from ...wire.role import role_json
from ..audit_log import actions
from ..audit_log import store as audit_log
from ..audit_log import trail as audit_trail
from ..integrations import store as integrations
from . import fixtures, mutations
from .dispatch import channel_event, guild_bots, to_guild
from .store import guild_object
from .work import in_transaction


def _guild(conn: sqlite3.Connection, guild_id: int) -> None:
    if conn.execute("SELECT 1 FROM guilds WHERE id = ?", (guild_id,)).fetchone() is None:
        raise errors.not_found(errors.UNKNOWN_GUILD, "Guild")


def _actor(request: Request, conn: sqlite3.Connection, guild_id: int) -> int:
    """Who the audit log names for this change: ``?actor_id=`` (a member of the guild), else the owner.
    Read before anything is written: a bad value answers 400 naming ``actor_id``."""
    raw = request.query_params.get("actor_id")
    if raw is None:
        return int(conn.execute("SELECT owner_id FROM guilds WHERE id = ?", (guild_id,)).fetchone()[0])
    actor = parse_snowflake(raw)
    if actor is None or conn.execute("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?",
                                     (guild_id, actor)).fetchone() is None:
        raise field_error("actor_id", "MEMBER_UNKNOWN", "Must be the id of a member of this guild.")
    return actor


def _member_now(conn: sqlite3.Connection, guild_id: int, user_id: int) -> dict[str, Any]:
    return member_json(mutations.existing_member_row(conn, guild_id, user_id))


async def create_guild(request: Request) -> Response:
    """POST /_emulator/guilds: one guild in the fixture format (references inside it checked); its bots
    get GUILD_CREATE."""
    state = emulator_state(request)
    body = await read_json(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        form = Form(body)
        form.done()
        given = form.snowflake("id", required=False)
        form.done()
        guild_id = given if given is not None else state.ids.next()
        form = Form({"guilds": [{**body, "id": str(guild_id)}]})
        fixtures.load_guilds(state, conn, form, "guilds")
        # Name the fields as the body has them ("name", not "guilds.0.name").
        form.errors.tree = form.errors.tree.get("guilds", {}).get("0", form.errors.tree)
        form.done()
        state.observe_stored_ids()  # ids given in the body: new snowflakes stay above them
        bots = guild_bots(conn, guild_id, state.clock.now())
        for user_id in bots.visible:
            mutations.guild_created(conn, outbox, bots, user_id)
        return guild_object(conn, guild_id)

    return json_response(await in_transaction(request, work), 201)


async def delete_guild(request: Request) -> Response:
    """DELETE /_emulator/guilds/{guild_id}: GUILD_DELETE to its bots."""
    state = emulator_state(request)
    guild_id = snowflake_param(request, "guild_id")

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        _guild(conn, guild_id)
        mutations.delete_guild(conn, outbox, state.clock.now(), guild_id)

    await in_transaction(request, work)
    return Response(status_code=204)


async def add_role(request: Request) -> Response:
    """POST /_emulator/guilds/{guild_id}/roles: a role in the fixture format; GUILD_ROLE_CREATE."""
    state = emulator_state(request)
    guild_id = snowflake_param(request, "guild_id")
    body = await read_json(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        _guild(conn, guild_id)
        actor = _actor(request, conn, guild_id)
        form = Form(body)
        role_id = fixtures.load_role(state, conn, form, guild_id)
        form.done()
        state.ids.observe(role_id)
        role = role_json(conn.execute("SELECT * FROM roles WHERE id = ?", (role_id,)).fetchone())
        to_guild(outbox, guild_bots(conn, guild_id, state.clock.now()), "GUILD_ROLE_CREATE",
                 {"guild_id": str(guild_id), "role": role})
        audit_trail.role(conn, guild_id, actor, None, role)
        return role

    return json_response(await in_transaction(request, work), 201)


async def modify_role(request: Request) -> Response:
    """PATCH /_emulator/guilds/{guild_id}/roles/{role_id}: as the owner would (no hierarchy check);
    GUILD_ROLE_UPDATE, and CHANNEL_UPDATE for bots whose sight of a channel changed."""
    state = emulator_state(request)
    guild_id = snowflake_param(request, "guild_id")
    role_id = snowflake_param(request, "role_id")
    form = await read_form(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        _guild(conn, guild_id)
        actor = _actor(request, conn, guild_id)
        if not mutations.target_exists(conn, guild_id, role_id, ROLE_OVERWRITE):
            raise errors.not_found(10011, "Role")
        before = role_json(conn.execute("SELECT * FROM roles WHERE id = ?", (role_id,)).fetchone())
        after = mutations.modify_role(conn, outbox, state.clock.now(), guild_id, role_id, form)
        audit_trail.role(conn, guild_id, actor, before, after)
        return after

    return json_response(await in_transaction(request, work))


async def add_channel(request: Request) -> Response:
    """POST /_emulator/guilds/{guild_id}/channels: a channel in the fixture format; CHANNEL_CREATE."""
    state = emulator_state(request)
    guild_id = snowflake_param(request, "guild_id")
    body = await read_json(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        _guild(conn, guild_id)
        actor = _actor(request, conn, guild_id)
        form = Form(body)
        channel_id = fixtures.load_channel(state, conn, form, guild_id)
        form.done()
        state.ids.observe(channel_id)
        row = conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone()
        _check_overwrite_targets(conn, form, row)
        if row["parent_id"] is not None:
            parent = conn.execute("SELECT type, guild_id FROM channels WHERE id = ?",
                                  (row["parent_id"],)).fetchone()
            if parent is None or parent["guild_id"] != guild_id or parent["type"] != CATEGORY:
                form.fail("parent_id", "CHANNEL_PARENT_INVALID", "Must be a category of this guild.")
        form.done()
        channel_event(outbox, guild_bots(conn, guild_id, state.clock.now()), "CHANNEL_CREATE", row)
        audit_trail.channel(conn, guild_id, actor, None, channel_json(row))
        return channel_json(row)

    return json_response(await in_transaction(request, work), 201)


def _check_overwrite_targets(conn: sqlite3.Connection, form: Form, row: sqlite3.Row) -> None:
    for index, overwrite in enumerate(json.loads(row["permission_overwrites"])):
        if not mutations.target_exists(conn, row["guild_id"], int(overwrite["id"]), int(overwrite["type"])):
            form.errors.add(("permission_overwrites", index, "id"), "UNKNOWN_OVERWRITE_TARGET",
                            "No such role (type 0) or member (type 1) in this guild.")


async def add_member(request: Request) -> Response:
    """POST /_emulator/guilds/{guild_id}/members: ``{user_id, roles?, nick?, ...}`` (fixture format);
    GUILD_MEMBER_ADD, and GUILD_CREATE to a bot that joined."""
    state = emulator_state(request)
    guild_id = snowflake_param(request, "guild_id")
    body = await read_json(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        _guild(conn, guild_id)
        actor = _actor(request, conn, guild_id)
        form = Form(body)
        user_id = fixtures.load_member(state, conn, form, guild_id)
        form.done()
        assert user_id is not None
        for index, role_id in enumerate(mutations.member_role_ids(conn, guild_id, user_id)):
            if not mutations.target_exists(conn, guild_id, role_id, ROLE_OVERWRITE) or role_id == guild_id:
                form.errors.add(("roles", index), "UNKNOWN_ROLE",
                                f"No role {role_id} to grant in this guild.")
        form.done()
        mutations.member_added(conn, outbox, state.clock.now(), guild_id, user_id)
        member = mutations.member_payload(conn, guild_id, user_id)
        # A bot is added by someone (BOT_ADD); the roles it comes with are given by them too. A user
        # joining is no one's change (as on the platform: no entry) but roles given with it are.
        if conn.execute("SELECT bot FROM users WHERE id = ?", (user_id,)).fetchone()["bot"]:
            audit_log.record(conn, guild_id=guild_id, user_id=actor, action_type=actions.BOT_ADD,
                             target_id=user_id)
            integrations.bot_added(conn, outbox, state.clock.now(), state.ids.next, guild_id, user_id, actor)
        audit_trail.member(conn, guild_id, actor, user_id, {**member, "roles": []}, member)
        return member

    return json_response(await in_transaction(request, work), 201)


async def remove_member(request: Request) -> Response:
    """DELETE /_emulator/guilds/{guild_id}/members/{user_id}: GUILD_MEMBER_REMOVE (GUILD_DELETE to a bot)."""
    state = emulator_state(request)
    guild_id = snowflake_param(request, "guild_id")
    user_id = snowflake_param(request, "user_id")

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        _guild(conn, guild_id)
        actor = _actor(request, conn, guild_id)
        _member(conn, guild_id, user_id)
        mutations.remove_member(conn, outbox, state.clock.now(), guild_id, user_id)
        audit_log.record(conn, guild_id=guild_id, user_id=actor, action_type=actions.MEMBER_KICK,
                         target_id=user_id)

    await in_transaction(request, work)
    return Response(status_code=204)


def _member(conn: sqlite3.Connection, guild_id: int, user_id: int) -> None:
    if not mutations.target_exists(conn, guild_id, user_id, MEMBER_OVERWRITE):
        raise errors.not_found(errors.UNKNOWN_MEMBER, "Member")


async def grant_role(request: Request) -> Response:
    return await _member_role(request, add=True)


async def revoke_role(request: Request) -> Response:
    return await _member_role(request, add=False)


async def _member_role(request: Request, add: bool) -> Response:
    """PUT / DELETE /_emulator/guilds/{guild_id}/members/{user_id}/roles/{role_id}: GUILD_MEMBER_UPDATE,
    and CHANNEL_UPDATE (full or obfuscated) for each channel an opted-in bot gained or lost sight of."""
    state = emulator_state(request)
    guild_id = snowflake_param(request, "guild_id")
    user_id = snowflake_param(request, "user_id")
    role_id = snowflake_param(request, "role_id")

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        _guild(conn, guild_id)
        actor = _actor(request, conn, guild_id)
        _member(conn, guild_id, user_id)
        if role_id == guild_id or not mutations.target_exists(conn, guild_id, role_id, ROLE_OVERWRITE):
            raise errors.not_found(10011, "Role")
        before = _member_now(conn, guild_id, user_id)
        mutations.set_member_role(conn, outbox, state.clock.now(), guild_id, user_id, role_id, add)
        audit_trail.member(conn, guild_id, actor, user_id, before, _member_now(conn, guild_id, user_id))
        return mutations.member_payload(conn, guild_id, user_id)

    return json_response(await in_transaction(request, work))


async def put_overwrite(request: Request) -> Response:
    """PUT /_emulator/channels/{channel_id}/permissions/{overwrite_id} ``{type, allow?, deny?}``:
    CHANNEL_UPDATE, each bot seeing the channel as it now can."""
    state = emulator_state(request)
    channel_id = snowflake_param(request, "channel_id")
    target = snowflake_param(request, "overwrite_id")
    form = await read_form(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        row = _channel(conn, channel_id)
        actor = _actor(request, conn, row["guild_id"])
        kind = form.choice("type", (ROLE_OVERWRITE, MEMBER_OVERWRITE))
        allow = mutations.read_bits(form, "allow") or 0
        deny = mutations.read_bits(form, "deny") or 0
        if kind is not None and not mutations.target_exists(conn, row["guild_id"], target, kind):
            form.fail("type", "UNKNOWN_OVERWRITE_TARGET",
                      f"No {'role' if kind == 0 else 'member'} {target} in this guild.")
        form.done()
        overwrite = {"id": str(target), "type": kind, "allow": str(allow), "deny": str(deny)}
        updated = mutations.put_overwrite(conn, outbox, state.clock.now(), row, overwrite)
        audit_trail.channel(conn, row["guild_id"], actor, channel_json(row), channel_json(updated))
        return channel_json(updated)

    return json_response(await in_transaction(request, work))


async def delete_overwrite(request: Request) -> Response:
    state = emulator_state(request)
    channel_id = snowflake_param(request, "channel_id")
    target = snowflake_param(request, "overwrite_id")

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        row = _channel(conn, channel_id)
        actor = _actor(request, conn, row["guild_id"])
        updated = mutations.delete_overwrite(conn, outbox, state.clock.now(), row, target)
        audit_trail.channel(conn, row["guild_id"], actor, channel_json(row), channel_json(updated))
        return channel_json(updated)

    return json_response(await in_transaction(request, work))


def _channel(conn: sqlite3.Connection, channel_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM channels WHERE id = ? AND guild_id IS NOT NULL",
                       (channel_id,)).fetchone()
    if row is None:
        raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
    return row


async def channel_obfuscation(request: Request) -> Response:
    """PUT /_emulator/applications/{application_id}/channel-obfuscation ``{"enabled": bool}``: the bot
    tab's private toggle. It applies to REST answers at once and to Gateway sessions identified after."""
    state = emulator_state(request)
    application_id = snowflake_param(request, "application_id")
    form = await read_form(request)
    enabled = form.boolean("enabled", required=True)
    form.done()

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        if conn.execute("UPDATE applications SET channel_obfuscation = ? WHERE id = ?",
                        (int(enabled), application_id)).rowcount == 0:
            raise errors.not_found(errors.UNKNOWN_APPLICATION, "Application")
        return {"application_id": str(application_id), "enabled": enabled}

    return json_response(await in_transaction(request, work))


def routes() -> list[BaseRoute]:
    guild = ADMIN + "/guilds/{guild_id}"
    overwrite = ADMIN + "/channels/{channel_id}/permissions/{overwrite_id}"
    return [
        Route(ADMIN + "/guilds", create_guild, methods=["POST"]),
        Route(guild, delete_guild, methods=["DELETE"]),
        Route(guild + "/roles", add_role, methods=["POST"]),
        Route(guild + "/roles/{role_id}", modify_role, methods=["PATCH"]),
        Route(guild + "/channels", add_channel, methods=["POST"]),
        Route(guild + "/members", add_member, methods=["POST"]),
        Route(guild + "/members/{user_id}", remove_member, methods=["DELETE"]),
        Route(guild + "/members/{user_id}/roles/{role_id}", grant_role, methods=["PUT"]),
        Route(guild + "/members/{user_id}/roles/{role_id}", revoke_role, methods=["DELETE"]),
        Route(overwrite, put_overwrite, methods=["PUT"]),
        Route(overwrite, delete_overwrite, methods=["DELETE"]),
        Route(ADMIN + "/applications/{application_id}/channel-obfuscation", channel_obfuscation,
              methods=["PUT"]),
    ]
