"""Admin API of threads (``/_emulator``): a user starts a thread or a forum post, joins or leaves a
thread, as that user would (the same permissions, errors and dispatches). Bad input is a 400 / 50035
naming the field; nothing is half-written."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import errors
from ...core.errors import ApiError, json_response
from ...core.http import base_url_of, emulator_state, snowflake_param
from ...core.routing import Route
from ...core.validation import Form, read_form
from ...events.outbox import Outbox
from ...paths import ADMIN
from ..channel_messages.attachments import Writer
from ..channel_messages.store import Author
from ..guilds.work import in_transaction
from . import store
from .edits import start_thread, viewable_thread

Handler = Callable[[Request], Awaitable[Response]]


def _user(conn: sqlite3.Connection, user_id: int | None, field: str) -> Author:
    row = conn.execute("SELECT id, bot FROM users WHERE id = ?", (user_id,)).fetchone()
    if row is None:
        raise ApiError(400, errors.INVALID_FORM_BODY, "Invalid Form Body",
                       {field: {"_errors": [{"code": "USER_UNKNOWN", "message": f"No user {user_id}."}]}})
    return Author(row["id"], bool(row["bot"]))


async def user_starts_thread(request: Request) -> Response:
    """POST /_emulator/channels/{channel_id}/threads ``{author_id, ...thread create fields}`` → 201, the
    thread (a post with its ``message``), exactly as if the user had started it."""
    channel_id = snowflake_param(request, "channel_id")
    form = await read_form(request)
    author_id = form.snowflake("author_id")
    form.done()
    body = Form({key: value for key, value in form.data.items() if key != "author_id"})
    state = emulator_state(request)
    writer = Writer(state)
    base_url = base_url_of(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        author = _user(conn, author_id, "author_id")
        return start_thread(state, conn, outbox, writer, channel_id=channel_id, author=author, form=body,
                            files=[], base_url=base_url)

    try:
        return json_response(await in_transaction(request, work), 201)
    except BaseException:
        writer.discard()
        raise


def _membership(join: bool) -> Handler:
    async def handler(request: Request) -> Response:
        """PUT / DELETE /_emulator/channels/{channel_id}/thread-members/{user_id}: the user joins / leaves
        an open thread they can view → 204 (THREAD_MEMBERS_UPDATE)."""
        thread_id = snowflake_param(request, "channel_id")
        user_id = snowflake_param(request, "user_id")
        state = emulator_state(request)

        def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
            now = state.clock.now()
            _user(conn, user_id, "user_id")
            thread = store.get_thread(conn, thread_id)
            store.archive_due(conn, outbox, now, thread["guild_id"])
            if join:   # joining needs sight of the thread; leaving does not
                thread, _ = viewable_thread(conn, thread_id, user_id, now)
            if thread["thread_archived"]:
                raise store.archived_error()
            (store.add_member if join else store.remove_member)(conn, outbox, now, thread, user_id)

        await in_transaction(request, work)
        return Response(status_code=204)
    return handler


def routes() -> list[BaseRoute]:
    channel = ADMIN + "/channels/{channel_id}"
    return [
        Route(channel + "/threads", user_starts_thread, methods=["POST"]),
        Route(channel + "/thread-members/{user_id}", _membership(True), methods=["PUT"]),
        Route(channel + "/thread-members/{user_id}", _membership(False), methods=["DELETE"]),
    ]
