"""HTTP routes of guild emoji and stickers (Bot). Members list and read; creating, modifying and
deleting follow store.py's permission rules."""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import json_response
from ...core.http import emulator_state, snowflake_param
from ...core.routing import Route
from ...core.uploads import read_multipart
from ...core.validation import Form, read_json
from ...events.outbox import Outbox
from ...paths import API
from ..channel_messages.guild_member_call import run_as_guild_member
from . import store


def _roles(form: Form) -> list[int] | None:
    raw = form.array("roles", required=False, max_items=250) if form.data.get("roles") is not None else None
    if raw is None:
        return None
    return [r for r in (form.coerce_snowflake("roles", value) for value in raw) if r is not None]


# --- emoji -------------------------------------------------------------------------------------------------

async def list_emojis(request: Request) -> Response:
    return json_response(await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: store.emojis(conn, guild_id)))


async def get_emoji(request: Request) -> Response:
    emoji_id = snowflake_param(request, "emoji_id")

    def work(conn: sqlite3.Connection, outbox: Outbox, guild_id: int, user_id: int) -> Any:
        row = store.get_emoji_row(conn, guild_id, emoji_id)
        return next(e for e in store.emojis(conn, guild_id) if e["id"] == str(row["id"]))

    return json_response(await run_as_guild_member(request, work))


async def create_emoji(request: Request) -> Response:
    """POST /guilds/{guild_id}/emojis ``{name (2–32 of A-Z a-z 0-9 _), image (data URI), roles?}`` → 201."""
    form = Form(await read_json(request))
    name = form.string("name", min_len=2, max_len=32)
    if name is not None and not store.EMOJI_NAME.match(name):
        form.fail("name", "BASE_TYPE_BAD_NAME", "Only letters, digits and underscores.")
    image = form.string("image", max_len=4 * store.EMOJI_MAX_BYTES)
    roles = _roles(form) or []
    form.done()
    state = emulator_state(request)
    return json_response(await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: store.create_emoji(
        state, conn, outbox, guild_id=guild_id, user_id=user_id, name=str(name), image=str(image), roles=roles)), 201)


async def modify_emoji(request: Request) -> Response:
    emoji_id = snowflake_param(request, "emoji_id")
    form = Form(await read_json(request))
    name = form.string("name", required=False, min_len=2, max_len=32)
    if name is not None and not store.EMOJI_NAME.match(name):
        form.fail("name", "BASE_TYPE_BAD_NAME", "Only letters, digits and underscores.")
    roles = _roles(form)
    form.done()
    state = emulator_state(request)
    return json_response(await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: store.modify_emoji(
        state, conn, outbox, guild_id=guild_id, user_id=user_id, emoji_id=emoji_id, name=name, roles=roles)))


async def delete_emoji(request: Request) -> Response:
    emoji_id = snowflake_param(request, "emoji_id")
    state = emulator_state(request)
    await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: store.delete_emoji(
        state, conn, outbox, guild_id=guild_id, user_id=user_id, emoji_id=emoji_id))
    return Response(status_code=204)


# --- stickers ----------------------------------------------------------------------------------------------

def _sticker_fields(form: Form, *, required: bool) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    name = form.string("name", required=required, min_len=2, max_len=30)
    tags = form.string("tags", required=required, min_len=1, max_len=200)
    description = form.string("description", required=False, max_len=100, nullable=True)
    if name is not None:
        changes["name"] = name
    if tags is not None:
        changes["tags"] = tags
    if "description" in form.data:
        if description is not None and 0 < len(description) < 2:
            form.fail("description", "BASE_TYPE_BAD_LENGTH", "Must be empty or between 2 and 100 in length.")
        changes["description"] = description or None
    return changes


async def list_stickers(request: Request) -> Response:
    return json_response(await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: store.stickers(conn, guild_id)))


async def get_sticker(request: Request) -> Response:
    sticker_id = snowflake_param(request, "sticker_id")

    def work(conn: sqlite3.Connection, outbox: Outbox, guild_id: int, user_id: int) -> Any:
        row = store.get_sticker_row(conn, guild_id, sticker_id)
        return next(s for s in store.stickers(conn, guild_id) if s["id"] == str(row["id"]))

    return json_response(await run_as_guild_member(request, work))


async def create_sticker(request: Request) -> Response:
    """POST /guilds/{guild_id}/stickers, multipart: ``name``, ``tags``, ``description?``, ``file``
    (PNG, APNG, GIF or Lottie JSON, at most 512 KiB) → 201."""
    multipart = await read_multipart(request, file_limit=store.STICKER_MAX_BYTES)
    form = Form(dict(multipart.fields))
    fields = _sticker_fields(form, required=True)
    upload = multipart.files.get("file")
    format_type = None
    if upload is None:
        form.fail("file", "BASE_TYPE_REQUIRED", "This field is required")
    else:
        format_type = store.STICKER_FORMATS.get(upload.content_type or "")
        if format_type is None:
            form.fail("file", "STICKER_FORMAT_INVALID", "Must be a PNG, APNG, GIF or Lottie JSON file.")
    form.done()
    assert upload is not None and format_type is not None
    state = emulator_state(request)
    return json_response(await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: store.create_sticker(
        state, conn, outbox, guild_id=guild_id, user_id=user_id, name=fields["name"], tags=fields["tags"],
        description=fields.get("description"), format_type=format_type, size=len(upload.data))), 201)


async def modify_sticker(request: Request) -> Response:
    sticker_id = snowflake_param(request, "sticker_id")
    form = Form(await read_json(request))
    changes = _sticker_fields(form, required=False)
    form.done()
    state = emulator_state(request)
    return json_response(await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: store.modify_sticker(
        state, conn, outbox, guild_id=guild_id, user_id=user_id, sticker_id=sticker_id, changes=changes)))


async def delete_sticker(request: Request) -> Response:
    sticker_id = snowflake_param(request, "sticker_id")
    state = emulator_state(request)
    await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: store.delete_sticker(
        state, conn, outbox, guild_id=guild_id, user_id=user_id, sticker_id=sticker_id))
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    guild = API + "/guilds/{guild_id:snowflake}"
    return [
        Route(guild + "/emojis", list_emojis, methods=["GET"]),
        Route(guild + "/emojis", create_emoji, methods=["POST"]),
        Route(guild + "/emojis/{emoji_id:snowflake}", get_emoji, methods=["GET"]),
        Route(guild + "/emojis/{emoji_id:snowflake}", modify_emoji, methods=["PATCH"]),
        Route(guild + "/emojis/{emoji_id:snowflake}", delete_emoji, methods=["DELETE"]),
        Route(guild + "/stickers", list_stickers, methods=["GET"]),
        Route(guild + "/stickers", create_sticker, methods=["POST"]),
        Route(guild + "/stickers/{sticker_id:snowflake}", get_sticker, methods=["GET"]),
        Route(guild + "/stickers/{sticker_id:snowflake}", modify_sticker, methods=["PATCH"]),
        Route(guild + "/stickers/{sticker_id:snowflake}", delete_sticker, methods=["DELETE"]),
    ]
