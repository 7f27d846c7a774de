"""Admin API of guild channel messages (``/_emulator``): make a user post, react or pin as that user
would (the same permission, slowmode and dated rules, the same dispatches), and mark a guild "not
indexed yet" for search. Bad input is a 400 / 50035 naming the field; nothing is half-written."""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import errors
from ...core.errors import ApiError, json_response
from ...core.http import emulator_state, off_loop, snowflake_param
from ...core.routing import Route
from ...core.validation import Form, field_error, read_json
from ...events.outbox import Outbox
from ...paths import ADMIN
from . import channel_rules, search, store
from .attachments import Writer
from .body import read_message_input
from .store import Author

MAX_INDEX_DELAY_S = 3600


def _field_error(name: str, code: str, message: str) -> ApiError:
    return field_error(name, code, message)


def _user(conn: sqlite3.Connection, user_id: int | None, field: str) -> Author:
    row = conn.execute("SELECT id, bot FROM users WHERE id = ?", (user_id,)).fetchone()
    if row is None:
        raise _field_error(field, "USER_UNKNOWN", f"No user {user_id}.")
    return Author(row["id"], bool(row["bot"]))


def _split_user(data: Any, field: str) -> tuple[int | None, dict[str, Any]]:
    """Take ``field`` (a snowflake, required) out of the body; the rest is the platform's body."""
    form = Form(data)
    form.done()
    user_id = form.snowflake(field)
    form.done()
    return user_id, {key: value for key, value in form.data.items() if key != field}


async def user_posts(request: Request) -> Response:
    """POST /_emulator/channels/{channel_id}/messages ``{author_id, ...message create fields}`` →
    the message, exactly as if the user had sent it."""
    channel_id = snowflake_param(request, "channel_id")
    author_id, rest = _split_user(await read_json(request), "author_id")
    body = read_message_input(rest, editing=False)
    state = emulator_state(request)
    outbox = Outbox(state)
    writer = Writer(state)

    def work() -> Any:
        with state.db.transaction() as conn:
            author = _user(conn, author_id, "author_id")
            return store.create(state, conn, outbox, writer, channel_id=channel_id, author=author, body=body,
                                files=[], base_url=str(request.base_url))

    return json_response(await off_loop(work))


async def user_reacts(request: Request) -> Response:
    """PUT /_emulator/channels/{channel_id}/messages/{message_id}/reactions ``{user_id, emoji}`` → 204."""
    channel_id, message_id = snowflake_param(request, "channel_id"), snowflake_param(request, "message_id")
    form = Form(await read_json(request))
    user_id = form.snowflake("user_id")
    emoji = form.string("emoji", min_len=1, max_len=64)
    form.done()
    state = emulator_state(request)
    outbox = Outbox(state)

    def work() -> None:
        with state.db.transaction() as conn:
            user = _user(conn, user_id, "user_id")
            rules = channel_rules.reactions_for(conn, channel_id)
            rules.add(state, conn, outbox, channel_id=channel_id, message_id=message_id, user_id=user.user_id,
                      raw_emoji=str(emoji))

    await off_loop(work)
    return Response(status_code=204)


def _user_pins(pinned: bool) -> Any:
    async def endpoint(request: Request) -> Response:
        """PUT / DELETE /_emulator/channels/{channel_id}/pins/{message_id} ``{user_id}`` → 204."""
        channel_id, message_id = snowflake_param(request, "channel_id"), snowflake_param(request, "message_id")
        form = Form(await read_json(request))
        user_id = form.snowflake("user_id")
        form.done()
        state = emulator_state(request)
        outbox = Outbox(state)

        def work() -> None:
            with state.db.transaction() as conn:
                user = _user(conn, user_id, "user_id")
                rules = channel_rules.pins_for(conn, channel_id)
                rules.set_pinned(state, conn, outbox, channel_id=channel_id, caller=user, message_id=message_id,
                                 pinned=pinned)

        await off_loop(work)
        return Response(status_code=204)
    return endpoint


async def search_index(request: Request) -> Response:
    """POST /_emulator/guilds/{guild_id}/search-index ``{indexed: false, index_after_s?: 0..3600}``
    marks the guild "not indexed yet" (its job runs ``index_after_s`` later, default 1);
    ``{indexed: true}`` runs the job now → ``{guild_id, indexed, documents_indexed}``."""
    guild_id = snowflake_param(request, "guild_id")
    form = Form(await read_json(request))
    indexed = form.boolean("indexed", required=True)
    delay = form.number("index_after_s", required=False, minimum=0, maximum=MAX_INDEX_DELAY_S, default=1.0)
    if indexed and "index_after_s" in form.data:
        form.fail("index_after_s", "BASE_TYPE_BAD_COMBINATION", "Only with indexed: false.")
    form.done()
    state = emulator_state(request)

    def work() -> dict[str, Any]:
        if state.db.query_one("SELECT 1 FROM guilds WHERE id = ?", (guild_id,)) is None:
            raise errors.not_found(errors.UNKNOWN_GUILD, "Guild")
        if indexed:
            documents = search.rebuild(state, guild_id)
        else:
            with state.db.transaction() as conn:
                search.mark_not_indexed(state, conn, guild_id, delay or 0.0)
                documents = search.documents_indexed(conn, guild_id)
        return {"guild_id": str(guild_id), "indexed": indexed, "documents_indexed": documents}

    return json_response(await off_loop(work))


def routes() -> list[BaseRoute]:
    channel = ADMIN + "/channels/{channel_id:snowflake}"
    return [
        Route(channel + "/messages", user_posts, methods=["POST"]),
        Route(channel + "/messages/{message_id:snowflake}/reactions", user_reacts, methods=["PUT"]),
        Route(channel + "/pins/{message_id:snowflake}", _user_pins(True), methods=["PUT"]),
        Route(channel + "/pins/{message_id:snowflake}", _user_pins(False), methods=["DELETE"]),
        Route(ADMIN + "/guilds/{guild_id:snowflake}/search-index", search_index, methods=["POST"]),
    ]
