"""Voice over HTTP: a guild's voice states (get; stage fields by patch), voice regions, and the voice
channel status (``PUT /channels/{id}/voice-status``, audit entries 192/193)."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import errors
from ...core.clock import format_instant, parse_instant
from ...core.errors import ApiError, json_response
from ...core.http import emulator_state, off_loop, snowflake_param
from ...core.permissions import Permission
from ...core.routing import Route
from ...core.validation import Form, field_error, read_json
from ...events.outbox import Outbox
from ...paths import API
from ...wire.channel import STAGE, VOICE_LIKE
from ..audit_log import store as audit_log
from ..audit_log.actions import VOICE_CHANNEL_STATUS_DELETE, VOICE_CHANNEL_STATUS_UPDATE
from ..guilds.access import missing_access, missing_permissions, permissions_in, require_member
from ..guilds.work import in_transaction, reader, writer
from . import calls, store

UNKNOWN_VOICE_STATE = 10065
# The emulator serves voice from this machine: one region, the optimal one.
REGIONS = [{"id": "emulator", "name": "Emulator (loopback)", "optimal": True, "deprecated": False,
            "custom": False}]


def _unknown_voice_state() -> ApiError:
    return errors.not_found(UNKNOWN_VOICE_STATE, "Voice State")


def _own(request: Request) -> bool:
    return "user_id" not in request.path_params   # the /@me route


def _user_param(request: Request, principal_user_id: int) -> int:
    return principal_user_id if _own(request) else snowflake_param(request, "user_id")


async def get_voice_state(request: Request) -> Response:
    """GET /guilds/{guild_id}/voice-states/@me | {user_id}: the member's voice state (10065 when not
    in a call of the guild); the caller must be a member who can view that channel."""
    principal = reader(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        who = require_member(conn, guild_id, principal.user_id, state.clock.now())
        row = store.get_voice_state(conn, guild_id, _user_param(request, principal.user_id))
        if row is None:
            raise _unknown_voice_state()
        channel = conn.execute("SELECT * FROM channels WHERE id = ?", (row["channel_id"],)).fetchone()
        if row["user_id"] != principal.user_id and not permissions_in(who, channel) & Permission.VIEW_CHANNEL:
            raise _unknown_voice_state()
        return store.voice_state_json(conn, row)

    return json_response(await in_transaction(request, work))


def _stage_form(form: Form, *, own: bool, now: datetime) -> tuple[int | None, dict[str, Any]]:
    channel_id = form.snowflake("channel_id", required=False)
    changes: dict[str, Any] = {}
    if "suppress" in form.data:
        if not isinstance(form.data["suppress"], bool):
            form.fail("suppress", "BASE_TYPE_BOOLEAN", "Must be either true or false.")
        else:
            changes["suppress"] = int(form.data["suppress"])
    if own and "request_to_speak_timestamp" in form.data:
        raw = form.string("request_to_speak_timestamp", required=False, nullable=True)
        if raw is not None:
            try:
                instant = parse_instant(raw)
            except ValueError:
                form.fail("request_to_speak_timestamp", "DATE_TIME_TYPE_PARSE", "Must be an ISO-8601 timestamp.")
            else:
                if instant < now.replace(microsecond=0):
                    form.fail("request_to_speak_timestamp", "BASE_TYPE_BAD_VALUE",
                              "Must be the present or a future time.")
                changes["request_to_speak_timestamp"] = raw
        elif not form.errors:
            changes["request_to_speak_timestamp"] = None
    return channel_id, changes


async def patch_voice_state(request: Request) -> Response:
    """PATCH /guilds/{guild_id}/voice-states/@me | {user_id} (stage channels): ``channel_id`` must be
    the stage channel the user is in; un-suppressing needs MUTE_MEMBERS (anyone may suppress
    themselves), requesting to speak needs REQUEST_TO_SPEAK (clearing it does not), and changing
    another member needs MUTE_MEMBERS. Suppressing clears the request to speak; un-suppressing another
    user (not a bot) sets it to now (an invitation to speak). 204; VOICE_STATE_UPDATE."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    own = _own(request)
    form = Form(await read_json(request))

    def work(conn: sqlite3.Connection, outbox: Outbox) -> tuple[store.Place, int, dict[str, bool]]:
        now = state.clock.now()
        who = require_member(conn, guild_id, principal.user_id, now)
        channel_id, changes = _stage_form(form, own=own, now=now)
        form.done()
        row = store.get_voice_state(conn, guild_id, _user_param(request, principal.user_id))
        channel = conn.execute("SELECT * FROM channels WHERE id = ? AND guild_id = ?",
                               (channel_id, guild_id)).fetchone() if channel_id is not None else None
        if channel is None or channel["type"] not in VOICE_LIKE:
            raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
        if row is None or row["channel_id"] != channel_id:
            raise _unknown_voice_state()
        if channel["type"] != STAGE:
            raise field_error("channel_id", "CHANNEL_TYPE_INVALID", "Must be a stage channel.")
        have = permissions_in(who, channel)
        if not have & Permission.VIEW_CHANNEL:
            raise missing_access()
        needed = 0
        if not own or changes.get("suppress") == 0:
            needed |= Permission.MUTE_MEMBERS
        if changes.get("request_to_speak_timestamp") is not None:
            needed |= Permission.REQUEST_TO_SPEAK
        if have & needed != needed:
            raise missing_permissions(needed & ~have)
        # Moved to the audience, a request to speak is dropped; a user (not a bot) a moderator brings up
        # is invited: their request to speak is set to now until they accept.
        if changes.get("suppress") == 1:
            changes["request_to_speak_timestamp"] = None
        elif changes.get("suppress") == 0 and not own and not conn.execute(
                "SELECT bot FROM users WHERE id = ?", (row["user_id"],)).fetchone()["bot"]:
            changes["request_to_speak_timestamp"] = format_instant(now)
        row = store.set_stage_fields(conn, outbox, state, row, changes)
        return store.Place(row["server_id"], row["channel_id"]), row["user_id"], store.relay_flags(conn, state, row)

    place, user_id, flags = await in_transaction(request, work)
    # Un-suppressed speakers are forwarded by the relay from now on (suppressed ones no longer).
    await off_loop(calls.refresh, state, place, user_id, flags)
    return Response(status_code=204)


async def put_voice_status(request: Request) -> Response:
    """PUT /channels/{channel_id}/voice-status ``{status}`` (≤ 500 characters; empty or null clears):
    SET_VOICE_CHANNEL_STATUS, and MANAGE_CHANNELS too unless the bot is in that channel's call. 204;
    VOICE_CHANNEL_STATUS_UPDATE; audit entry 192 (set: ``options.channel_id, status``) or 193 (cleared:
    ``options.channel_id``)."""
    principal = writer(request)
    channel_id = snowflake_param(request, "channel_id")
    state = emulator_state(request)
    form = Form(await read_json(request))

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        channel = conn.execute("SELECT * FROM channels WHERE id = ? AND guild_id IS NOT NULL",
                               (channel_id,)).fetchone()
        if channel is None:
            raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
        guild_id = channel["guild_id"]
        who = require_member(conn, guild_id, principal.user_id, state.clock.now())
        if "status" not in form.data:
            form.fail("status", "BASE_TYPE_REQUIRED", "This field is required")
        status = form.string("status", required=False, nullable=True, max_len=store.STATUS_MAX_LENGTH)
        form.done()
        if channel["type"] not in VOICE_LIKE:
            raise field_error("channel_id", "CHANNEL_TYPE_INVALID", "Must be a voice or stage channel.")
        have = permissions_in(who, channel)
        connected = conn.execute("SELECT 1 FROM voice_states WHERE channel_id = ? AND user_id = ?",
                                 (channel_id, principal.user_id)).fetchone() is not None
        if not have & Permission.VIEW_CHANNEL:
            raise missing_access()
        needed = Permission.SET_VOICE_CHANNEL_STATUS | (0 if connected else Permission.MANAGE_CHANNELS)
        if have & needed != needed:
            raise missing_permissions(needed & ~have)
        store.set_status(conn, outbox, state, guild_id, channel_id, status)
        action = VOICE_CHANNEL_STATUS_UPDATE if status else VOICE_CHANNEL_STATUS_DELETE
        # The platform's entry info names the channel in both (clients read options.channel_id).
        audit_log.record(conn, guild_id=guild_id, user_id=principal.user_id, action_type=action,
                         target_id=channel_id, options={"channel_id": channel_id, "status": status or None})

    await in_transaction(request, work)
    return Response(status_code=204)


async def voice_state(request: Request) -> Response:
    return await (get_voice_state(request) if request.method == "GET" else patch_voice_state(request))


async def list_voice_regions(request: Request) -> Response:
    """GET /voice/regions."""
    reader(request)
    return json_response(REGIONS)


async def guild_voice_regions(request: Request) -> Response:
    """GET /guilds/{guild_id}/regions: the guild's members only."""
    principal = reader(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> list[dict[str, Any]]:
        require_member(conn, guild_id, principal.user_id, state.clock.now())
        return REGIONS

    return json_response(await in_transaction(request, work))


def routes() -> list[BaseRoute]:
    return [
        Route(f"{API}/guilds/{{guild_id:snowflake}}/voice-states/@me", voice_state, methods=["GET", "PATCH"]),
        Route(f"{API}/guilds/{{guild_id:snowflake}}/voice-states/{{user_id:snowflake}}", voice_state,
              methods=["GET", "PATCH"]),
        Route(f"{API}/channels/{{channel_id:snowflake}}/voice-status", put_voice_status, methods=["PUT"]),
        Route(f"{API}/voice/regions", list_voice_regions, methods=["GET"]),
        Route(f"{API}/guilds/{{guild_id:snowflake}}/regions", guild_voice_regions, methods=["GET"]),
    ]
