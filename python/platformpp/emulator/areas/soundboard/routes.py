"""HTTP routes of the soundboard (Bot): the built-in sounds, a guild's sounds, and playing a sound in
a voice channel; store.py holds the rules."""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth
from ...core.errors import json_response
from ...core.http import emulator_state, in_transaction, snowflake_param
from ...core.routing import Route
from ...core.validation import Form, read_json
from ...events.outbox import Outbox
from ...paths import API
from ..channel_messages.guild_member_call import run_as_guild_member
from . import store
from .listing import DEFAULT_SOUNDS, guild_sounds, sound_json

# What a ``sound`` string may be before it is decoded: twice a 512 KiB sound as base64, so that a file
# somewhat too large is refused for its size in bytes (the clearer rule) rather than its length.
SOUND_MAX_CHARS = 2 * (4 * store.MAX_SOUND_BYTES // 3 + 64)


def read_fields(form: Form, *, creating: bool) -> dict[str, Any]:
    """The columns a create or a modify sets (only the given ones for a modify); errors on ``form``."""
    values: dict[str, Any] = {}
    if creating or "name" in form.data:
        values["name"] = form.string("name", min_len=2, max_len=32)
    if "volume" in form.data:
        values["volume"] = form.number("volume", required=False, minimum=0, maximum=1, default=1.0)
    if "emoji_id" in form.data:
        values["emoji_id"] = form.snowflake("emoji_id", required=False, nullable=True)
    if "emoji_name" in form.data:
        values["emoji_name"] = form.string("emoji_name", required=False, nullable=True, min_len=1, max_len=32)
    return values


async def default_sounds(request: Request) -> Response:
    auth.require(request, kinds=("bot",))
    return json_response(list(DEFAULT_SOUNDS))


async def list_sounds(request: Request) -> Response:
    return json_response({"items": await run_as_guild_member(
        request, lambda conn, outbox, guild_id, user_id: guild_sounds(conn, guild_id))})


async def get_sound(request: Request) -> Response:
    sound_id = snowflake_param(request, "sound_id")
    return json_response(await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: sound_json(
        conn, store.get_row(conn, guild_id, sound_id))))


async def create_sound(request: Request) -> Response:
    """POST /guilds/{guild_id}/soundboard-sounds ``{name (2–32), sound (data URI), volume? (0–1),
    emoji_id?, emoji_name?}`` → 201."""
    form = Form(await read_json(request))
    fields = read_fields(form, creating=True)
    raw = form.string("sound", max_len=SOUND_MAX_CHARS)
    form.done()
    sound = store.read_sound(str(raw))
    state = emulator_state(request)
    return json_response(await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: store.create(
        state, conn, outbox, guild_id=guild_id, user_id=user_id, fields=fields, sound=sound)), 201)


async def modify_sound(request: Request) -> Response:
    sound_id = snowflake_param(request, "sound_id")
    form = Form(await read_json(request))
    changes = read_fields(form, creating=False)
    form.done()
    state = emulator_state(request)
    return json_response(await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: store.modify(
        state, conn, outbox, guild_id=guild_id, user_id=user_id, sound_id=sound_id, changes=changes)))


async def delete_sound(request: Request) -> Response:
    sound_id = snowflake_param(request, "sound_id")
    state = emulator_state(request)
    await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: store.delete(
        state, conn, outbox, guild_id=guild_id, user_id=user_id, sound_id=sound_id))
    return Response(status_code=204)


async def send_sound(request: Request) -> Response:
    """POST /channels/{channel_id}/send-soundboard-sound ``{sound_id, source_guild_id?}`` → 204."""
    principal = auth.require(request, kinds=("bot",))
    channel_id = snowflake_param(request, "channel_id")
    form = Form(await read_json(request))
    sound_id = form.snowflake("sound_id")
    source_guild_id = form.snowflake("source_guild_id", required=False, nullable=True)
    form.done()
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        store.send(state, conn, outbox, channel_id=channel_id, user_id=principal.user_id, sound_id=int(sound_id or 0),
                   source_guild_id=source_guild_id)

    await in_transaction(request, work)
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    sounds = API + "/guilds/{guild_id:snowflake}/soundboard-sounds"
    sound = sounds + "/{sound_id:snowflake}"
    return [
        Route(API + "/soundboard-default-sounds", default_sounds, methods=["GET"]),
        Route(sounds, list_sounds, methods=["GET"]),
        Route(sounds, create_sound, methods=["POST"]),
        Route(sound, get_sound, methods=["GET"]),
        Route(sound, modify_sound, methods=["PATCH"]),
        Route(sound, delete_sound, methods=["DELETE"]),
        Route(API + "/channels/{channel_id:snowflake}/send-soundboard-sound", send_sound, methods=["POST"]),
    ]
