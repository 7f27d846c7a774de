"""HTTP routes of guild channel messages (Bot): messages, bulk delete, reactions, pins, typing,
Search Guild Messages, and the attachment files themselves (served from the emulator's base URL).
Thin: authenticate, read the request, run the store's work in one transaction, answer."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute

from ...core import auth, errors
from ...core.clock import format_instant, parse_instant
from ...core.errors import ApiError, json_response
from ...core.http import emulator_state, in_transaction, query_int, query_snowflake, snowflake_param
from ...core.permissions import Permission
from ...core.routing import Route
from ...core.uploads import read_payload_and_files
from ...core.validation import Form, field_error, read_json
from ...events.outbox import Outbox
from ...paths import API
from ..private_channels import messages as private_messages
from . import channel_rules, pins, search, search_query, store
from .access import bot_members_viewing, channel_access, guild_permissions
from .attachments import Writer, file_path, remove_files
from .audience import GUILD_MESSAGE_TYPING, GuildBots
from .body import read_message_input
from .store import Author

_MESSAGE = "{message_id:snowflake}"


def _bot(request: Request) -> Author:
    principal = auth.require(request, kinds=("bot",))
    return Author(principal.user_id, True, principal.application_id)


# --- messages ----------------------------------------------------------------------------------------------

async def create_message(request: Request) -> Response:
    """POST /channels/{channel_id}/messages: JSON, or multipart with payload_json and files[n]."""
    author = _bot(request)
    channel_id = snowflake_param(request, "channel_id")
    data, files = await read_payload_and_files(request)
    body = read_message_input(data, editing=False)
    state = emulator_state(request)
    writer = Writer(state)
    base_url = str(request.base_url)
    try:
        message = await in_transaction(request, lambda conn, outbox: store.create(
            state, conn, outbox, writer, channel_id=channel_id, author=author, body=body, files=files,
            base_url=base_url))
    except BaseException:
        writer.discard()
        raise
    return json_response(message)


async def list_messages(request: Request) -> Response:
    """GET /channels/{channel_id}/messages?before|after|around=&limit=1..100 (newest first)."""
    reader = _bot(request)
    channel_id = snowflake_param(request, "channel_id")
    anchors = {name: query_snowflake(request, name) for name in ("before", "after", "around")}
    if sum(value is not None for value in anchors.values()) > 1:
        raise field_error("around", "BASE_TYPE_CHOICES", "Only one of before, after and around may be given.")
    limit = query_int(request, "limit", minimum=1, maximum=store.MAX_LIST, default=store.DEFAULT_LIST)
    state = emulator_state(request)
    return json_response(await in_transaction(request, lambda conn, outbox: store.list_messages(
        state, conn, reader, channel_id, limit=limit, **anchors)))


async def get_message(request: Request) -> Response:
    reader = _bot(request)
    channel_id, message_id = snowflake_param(request, "channel_id"), snowflake_param(request, "message_id")
    state = emulator_state(request)
    return json_response(await in_transaction(request, lambda conn, outbox: store.get_message(
        state, conn, reader, channel_id, message_id)))


async def edit_message(request: Request) -> Response:
    editor = _bot(request)
    channel_id, message_id = snowflake_param(request, "channel_id"), snowflake_param(request, "message_id")
    data, files = await read_payload_and_files(request)
    body = read_message_input(data, editing=True)
    state = emulator_state(request)
    writer = Writer(state)
    base_url = str(request.base_url)
    try:
        message, removed = await in_transaction(request, lambda conn, outbox: store.edit(
            state, conn, outbox, writer, channel_id=channel_id, editor=editor, message_id=message_id, body=body,
            files=files, base_url=base_url))
    except BaseException:
        writer.discard()
        raise
    remove_files(state, removed)
    return json_response(message)


async def delete_message(request: Request) -> Response:
    caller = _bot(request)
    channel_id, message_id = snowflake_param(request, "channel_id"), snowflake_param(request, "message_id")
    state = emulator_state(request)
    removed = await in_transaction(request, lambda conn, outbox: store.delete(
        state, conn, outbox, channel_id=channel_id, caller=caller, message_id=message_id))
    remove_files(state, removed)
    return Response(status_code=204)


async def bulk_delete(request: Request) -> Response:
    """POST /channels/{channel_id}/messages/bulk-delete ``{messages: [2..100 distinct ids]}``."""
    caller = _bot(request)
    channel_id = snowflake_param(request, "channel_id")
    form = Form(await read_json(request))
    raw = form.array("messages", min_items=2, max_items=100) or []
    ids = [form.coerce_snowflake("messages", value) for value in raw]
    if len(set(ids)) != len(ids):
        form.fail("messages", "BASE_TYPE_UNIQUE", "Message ids must be distinct.")
    form.done()
    state = emulator_state(request)
    removed = await in_transaction(request, lambda conn, outbox: store.bulk_delete(
        state, conn, outbox, channel_id=channel_id, caller=caller, message_ids=[i for i in ids if i is not None]))
    remove_files(state, removed)
    return Response(status_code=204)


# --- reactions ---------------------------------------------------------------------------------------------

def _reaction_ids(request: Request) -> tuple[int, int, str]:
    return (snowflake_param(request, "channel_id"), snowflake_param(request, "message_id"),
            str(request.path_params["emoji"]))


async def add_reaction(request: Request) -> Response:
    caller = _bot(request)
    channel_id, message_id, emoji = _reaction_ids(request)
    state = emulator_state(request)
    await in_transaction(request, lambda conn, outbox: channel_rules.reactions_for(conn, channel_id).add(
        state, conn, outbox, channel_id=channel_id, message_id=message_id, user_id=caller.user_id, raw_emoji=emoji))
    return Response(status_code=204)


async def remove_own_reaction(request: Request) -> Response:
    caller = _bot(request)
    channel_id, message_id, emoji = _reaction_ids(request)
    state = emulator_state(request)
    await in_transaction(request, lambda conn, outbox: channel_rules.reactions_for(conn, channel_id).remove(
        state, conn, outbox, channel_id=channel_id, message_id=message_id, caller_id=caller.user_id,
        user_id=caller.user_id, raw_emoji=emoji))
    return Response(status_code=204)


async def remove_user_reaction(request: Request) -> Response:
    caller = _bot(request)
    channel_id, message_id, emoji = _reaction_ids(request)
    user_id = snowflake_param(request, "user_id")
    state = emulator_state(request)
    await in_transaction(request, lambda conn, outbox: channel_rules.reactions_for(conn, channel_id).remove(
        state, conn, outbox, channel_id=channel_id, message_id=message_id, caller_id=caller.user_id,
        user_id=user_id, raw_emoji=emoji))
    return Response(status_code=204)


async def reaction_users(request: Request) -> Response:
    caller = _bot(request)
    channel_id, message_id, emoji = _reaction_ids(request)
    after = query_snowflake(request, "after")
    limit = query_int(request, "limit", minimum=1, maximum=100, default=25)
    if request.query_params.get("type", "0") not in ("0", "1"):
        raise field_error("type", "BASE_TYPE_CHOICES", "Value must be one of [0, 1].")
    state = emulator_state(request)
    if request.query_params.get("type") == "1":   # the emulator has no burst (super) reactions
        return json_response([])
    reacted = await in_transaction(request, lambda conn, outbox: channel_rules.reactions_for(conn, channel_id).users(
        state, conn, channel_id=channel_id, message_id=message_id, caller_id=caller.user_id, raw_emoji=emoji,
        after=after, limit=limit))
    return json_response(reacted)


async def remove_emoji_reactions(request: Request) -> Response:
    caller = _bot(request)
    channel_id, message_id, emoji = _reaction_ids(request)
    state = emulator_state(request)
    await in_transaction(request, lambda conn, outbox: channel_rules.reactions_for(conn, channel_id).remove_all(
        state, conn, outbox, channel_id=channel_id, message_id=message_id, caller_id=caller.user_id,
        raw_emoji=emoji))
    return Response(status_code=204)


async def remove_all_reactions(request: Request) -> Response:
    caller = _bot(request)
    channel_id, message_id = snowflake_param(request, "channel_id"), snowflake_param(request, "message_id")
    state = emulator_state(request)
    await in_transaction(request, lambda conn, outbox: channel_rules.reactions_for(conn, channel_id).remove_all(
        state, conn, outbox, channel_id=channel_id, message_id=message_id, caller_id=caller.user_id,
        raw_emoji=None))
    return Response(status_code=204)


# --- pins ----------------------------------------------------------------------------------------------------

async def list_pins(request: Request) -> Response:
    """GET /channels/{channel_id}/messages/pins?before=<ISO-8601>&limit=1..50 → {items, has_more}."""
    reader = _bot(request)
    channel_id = snowflake_param(request, "channel_id")
    before = request.query_params.get("before")
    if before is not None:
        try:
            before = format_instant(parse_instant(before))
        except ValueError:
            raise field_error("before", "DATE_TYPE_CONVERT", "Must be an ISO-8601 date-time.") from None
    limit = query_int(request, "limit", minimum=1, maximum=50, default=50)
    state = emulator_state(request)
    items, has_more = await in_transaction(request, lambda conn, outbox: channel_rules.pins_for(
        conn, channel_id).list_pins(state, conn, reader, channel_id, before=before, limit=limit))
    return json_response({"items": items, "has_more": has_more})


async def list_pins_deprecated(request: Request) -> Response:
    """GET /channels/{channel_id}/pins: the pinned messages (the older form)."""
    reader = _bot(request)
    channel_id = snowflake_param(request, "channel_id")
    state = emulator_state(request)
    items, _ = await in_transaction(request, lambda conn, outbox: channel_rules.pins_for(conn, channel_id).list_pins(
        state, conn, reader, channel_id, before=None, limit=pins.MAX_PINS))
    return json_response([item["message"] for item in items])


def _pin(pinned: bool) -> Callable[[Request], Any]:
    async def endpoint(request: Request) -> Response:
        caller = _bot(request)
        channel_id, message_id = snowflake_param(request, "channel_id"), snowflake_param(request, "message_id")
        state = emulator_state(request)
        await in_transaction(request, lambda conn, outbox: channel_rules.pins_for(conn, channel_id).set_pinned(
            state, conn, outbox, channel_id=channel_id, caller=caller, message_id=message_id, pinned=pinned))
        return Response(status_code=204)
    return endpoint


# --- typing ------------------------------------------------------------------------------------------------

async def typing(request: Request) -> Response:
    """POST /channels/{channel_id}/typing (SEND_MESSAGES): TYPING_START to the bots that can view it → 204."""
    caller = _bot(request)
    channel_id = snowflake_param(request, "channel_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        now = state.clock.now()
        private = private_messages.private_channel(conn, channel_id)
        if private is not None:   # a DM or group DM
            private_messages.typing(conn, outbox, private, user_id=caller.user_id, timestamp=int(state.clock.timestamp()))
            return
        access = channel_access(conn, channel_id, caller.user_id, now)
        access.require(int(Permission.SEND_MESSAGES))
        outbox.add("TYPING_START", GuildBots(access.guild_id, GUILD_MESSAGE_TYPING, {
            "channel_id": str(channel_id), "guild_id": str(access.guild_id), "user_id": str(caller.user_id),
            "timestamp": int(state.clock.timestamp())},
            bot_members_viewing(conn, access.channel, now)))

    await in_transaction(request, work)
    return Response(status_code=204)


# --- search ------------------------------------------------------------------------------------------------

async def search_messages(request: Request) -> Response:
    """GET /guilds/{guild_id}/messages/search: needs the MESSAGE_CONTENT intent (app flags) and, per
    channel, READ_MESSAGE_HISTORY; 202 / 110000 while the guild is not indexed."""
    caller = _bot(request)
    guild_id = snowflake_param(request, "guild_id")
    query = search_query.parse(request.query_params)
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> tuple[int, dict[str, Any]]:
        now = state.clock.now()
        guild_permissions(conn, guild_id, caller.user_id, now)
        if not store.app_reads_content(conn, caller.application_id):
            raise ApiError(403, errors.MISSING_ACCESS,
                           "Missing Access: searching messages needs the MESSAGE_CONTENT intent.")
        if not search.is_ready(conn, guild_id):
            state.db.on_commit(lambda: search.schedule(state, guild_id))
            return 202, {"message": "Index not yet available. Try again later", "code": search.INDEX_NOT_READY,
                         "documents_indexed": search.documents_indexed(conn, guild_id),
                         "retry_after": search.RETRY_AFTER_S}
        channels = search_query.searchable_channels(conn, guild_id, caller.user_id, query, now)
        rows, total = search_query.run(conn, guild_id, channels, query)
        # Each result is a group of one: the matching message (``hit``); the emulator adds no context.
        messages = [[{**message, "hit": True}] for message in store.render_many(conn, rows, caller.user_id)]
        return 200, {"messages": messages, "total_results": total, "doing_deep_historical_index": False,
                     "documents_indexed": search.documents_indexed(conn, guild_id)}

    status, body = await in_transaction(request, work)
    return json_response(body, status)


# --- attachment files ----------------------------------------------------------------------------------

async def attachment_file(request: Request) -> Response:
    """GET /attachments/{channel_id}/{attachment_id}/{filename}: the stored bytes."""
    state = emulator_state(request)
    attachment_id = snowflake_param(request, "attachment_id")
    channel_id = snowflake_param(request, "channel_id")
    row = state.db.query_one(
        "SELECT a.filename, a.content_type FROM message_attachments a JOIN channel_messages m ON m.id = a.message_id"
        " WHERE a.id = ? AND m.channel_id = ?", (attachment_id, channel_id))
    path = file_path(state, attachment_id)
    if row is None or row["filename"] != request.path_params["filename"] or not path.exists():
        raise ApiError(404, 0, "404: Not Found")
    return FileResponse(path, media_type=row["content_type"] or "application/octet-stream")


def routes() -> list[BaseRoute]:
    channel = API + "/channels/{channel_id:snowflake}"
    message = f"{channel}/messages/{_MESSAGE}"
    reaction = message + "/reactions/{emoji}"
    return [
        Route(channel + "/messages", create_message, methods=["POST"]),
        Route(channel + "/messages", list_messages, methods=["GET"]),
        Route(channel + "/messages/bulk-delete", bulk_delete, methods=["POST"]),
        Route(channel + "/messages/pins", list_pins, methods=["GET"]),
        Route(f"{channel}/messages/pins/{_MESSAGE}", _pin(True), methods=["PUT"]),
        Route(f"{channel}/messages/pins/{_MESSAGE}", _pin(False), methods=["DELETE"]),
        Route(channel + "/pins", list_pins_deprecated, methods=["GET"]),
        Route(f"{channel}/pins/{_MESSAGE}", _pin(True), methods=["PUT"]),
        Route(f"{channel}/pins/{_MESSAGE}", _pin(False), methods=["DELETE"]),
        Route(message, get_message, methods=["GET"]),
        Route(message, edit_message, methods=["PATCH"]),
        Route(message, delete_message, methods=["DELETE"]),
        Route(message + "/reactions", remove_all_reactions, methods=["DELETE"]),
        Route(reaction + "/@me", add_reaction, methods=["PUT"]),
        Route(reaction + "/@me", remove_own_reaction, methods=["DELETE"]),
        Route(reaction + "/{user_id:snowflake}", remove_user_reaction, methods=["DELETE"]),
        Route(reaction, reaction_users, methods=["GET"]),
        Route(reaction, remove_emoji_reactions, methods=["DELETE"]),
        Route(channel + "/typing", typing, methods=["POST"]),
        Route(API + "/guilds/{guild_id:snowflake}/messages/search", search_messages, methods=["GET"]),
        Route("/attachments/{channel_id:snowflake}/{attachment_id:snowflake}/{filename}", attachment_file,
              methods=["GET"]),
    ]
