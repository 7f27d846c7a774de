"""HTTP routes of polls: the voters of an answer and ending a poll (Bot), and the admin API that makes
a user vote or take a vote back as that user would in the platform's client (the same rules and
dispatches). Thin: authenticate, read the request, run ``store`` in one transaction."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth, errors
from ...core.errors import json_response
from ...core.http import emulator_state, query_int, query_snowflake, snowflake_param
from ...core.routing import Route
from ...events.outbox import Outbox
from ...paths import ADMIN, API
from ..channel_messages.store import Author
from ..guilds.work import in_transaction
from . import store

MAX_ANSWER_ID = 10


def _ids(request: Request) -> tuple[int, int, int]:
    answer_id = snowflake_param(request, "answer_id")
    if not 1 <= answer_id <= MAX_ANSWER_ID:
        raise errors.not_found(errors.UNKNOWN_MESSAGE, "Poll answer")
    return snowflake_param(request, "channel_id"), snowflake_param(request, "message_id"), answer_id


def _bot(request: Request) -> Author:
    principal = auth.require(request, kinds=("bot",))
    return Author(principal.user_id, True, principal.application_id)


async def answer_voters(request: Request) -> Response:
    """GET /channels/{channel_id}/polls/{message_id}/answers/{answer_id}?after=&limit=1..100 (25)."""
    reader = _bot(request)
    channel_id, message_id, answer_id = _ids(request)
    after = query_snowflake(request, "after")
    limit = query_int(request, "limit", default=store.DEFAULT_VOTERS, minimum=1, maximum=store.MAX_VOTERS)
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> Any:
        now = state.clock.now()
        store.finalize_due(conn, outbox, state.ids.next, now)
        return store.voters(conn, now, reader, channel_id=channel_id, message_id=message_id, answer_id=answer_id,
                            after=after, limit=limit)

    return json_response(await in_transaction(request, work))


async def expire_poll(request: Request) -> Response:
    """POST /channels/{channel_id}/polls/{message_id}/expire: the poll's author ends it now."""
    author = _bot(request)
    channel_id, message_id = snowflake_param(request, "channel_id"), snowflake_param(request, "message_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> Any:
        now = state.clock.now()
        store.finalize_due(conn, outbox, state.ids.next, now)
        return store.expire(conn, outbox, state.ids.next, now, author, channel_id=channel_id, message_id=message_id)

    return json_response(await in_transaction(request, work))


def _user_votes(adding: bool) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        """PUT / DELETE /_emulator/channels/{channel_id}/polls/{message_id}/answers/{answer_id}/voters/{user_id}:
        the user votes for the answer / takes the vote back → 204."""
        channel_id, message_id, answer_id = _ids(request)
        user_id = snowflake_param(request, "user_id")
        state = emulator_state(request)
        change = store.vote if adding else store.unvote

        def work(conn: sqlite3.Connection, outbox: Outbox) -> Any:
            now = state.clock.now()
            if conn.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is None:
                raise errors.not_found(errors.UNKNOWN_USER, "User")
            store.finalize_due(conn, outbox, state.ids.next, now)
            change(conn, outbox, now, channel_id=channel_id, message_id=message_id, user_id=user_id,
                   answer_id=answer_id)

        await in_transaction(request, work)
        return Response(status_code=204)

    return endpoint


def routes() -> list[BaseRoute]:
    poll = "/channels/{channel_id:snowflake}/polls/{message_id:snowflake}"
    voter = f"{ADMIN}{poll}/answers/{{answer_id}}/voters/{{user_id:snowflake}}"
    return [
        Route(f"{API}{poll}/answers/{{answer_id}}", answer_voters, methods=["GET"]),
        Route(f"{API}{poll}/expire", expire_poll, methods=["POST"]),
        Route(voter, _user_votes(True), methods=["PUT"]),
        Route(voter, _user_votes(False), methods=["DELETE"]),
    ]
