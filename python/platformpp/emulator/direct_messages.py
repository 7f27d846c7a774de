"""Game direct messages between two users of one application, in the lobby message style:
``/users/{user_id}/messages`` is the caller's conversation with ``user_id``. Both participants' SDK
sessions hear DM_MESSAGE_CREATE / DM_MESSAGE_UPDATE / DM_MESSAGE_DELETE; nobody else does."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from . import auth, errors
from .auth import Principal
from .bus import Outbox, Payload, to_users
from .errors import ApiError, Form, json_response, read_json
from .messages import author_of, list_limit, message_fields, moderation_body
from .social import emulator_state, new_id, require_scope, snowflake_param

API = "/api/v10"
CANNOT_MESSAGE_USER = 50007
READ_SCOPE = "dm_channels.messages.read"
WRITE_SCOPE = "dm_channels.messages.write"


def dm_message_object(row: sqlite3.Row, conn: sqlite3.Connection) -> Payload:
    return {
        "id": str(row["id"]), "type": 0, "content": row["content"], "author": author_of(conn, row["author_id"]),
        "recipient_id": str(row["recipient_id"]),
        "metadata": json.loads(row["metadata"]) if row["metadata"] is not None else None,
        "moderation_metadata": json.loads(row["moderation_metadata"]), "timestamp": row["created_at"],
        "edited_timestamp": row["edited_at"], "flags": 0, "application_id": str(row["application_id"]),
    }


def is_game_user(conn: sqlite3.Connection, application_id: int, user_id: int) -> bool:
    """A user of the game: has granted the application, or is one of its provisional accounts."""
    return conn.execute(
        "SELECT 1 FROM authorizations WHERE application_id = ? AND user_id = ? UNION ALL"
        " SELECT 1 FROM users WHERE id = ? AND provisional = 1 AND provisional_application_id = ?",
        (application_id, user_id, user_id, application_id)).fetchone() is not None


def blocked_between(conn: sqlite3.Connection, application_id: int, a: int, b: int) -> bool:
    return conn.execute(
        "SELECT 1 FROM relationships WHERE type = 2 AND ((user_id = ? AND other_id = ?) OR (user_id = ? AND other_id = ?))"
        " UNION ALL SELECT 1 FROM game_relationships WHERE application_id = ? AND type = 2"
        " AND ((user_id = ? AND other_id = ?) OR (user_id = ? AND other_id = ?))",
        (a, b, b, a, application_id, a, b, b, a)).fetchone() is not None


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _get(conn: sqlite3.Connection, application_id: int, pair: tuple[int, int], message_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM dm_messages WHERE id = ? AND application_id = ? AND user_low = ?"
                       " AND user_high = ?", (message_id, application_id, *pair)).fetchone()
    if row is None:
        raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
    return row


async def _conversation(request: Request, principal: Principal, other_id: int, work: Any) -> Any:
    """Run ``work(conn, pair, outbox)`` in one transaction, publishing after the commit."""
    state = emulator_state(request)
    outbox = Outbox(state)

    def call() -> Any:
        with state.db.transaction() as conn:
            if conn.execute("SELECT 1 FROM users WHERE id = ?", (other_id,)).fetchone() is None:
                raise errors.not_found(errors.UNKNOWN_USER, "User")
            return work(conn, _pair(principal.user_id, other_id), outbox)

    result = await run_in_threadpool(call)
    return result


def _announce(outbox: Outbox, application_id: int, pair: tuple[int, int], event: str, payload: Payload) -> None:
    outbox.add(event, to_users(application_id, pair, payload))


async def post_dm(request: Request) -> Response:
    """POST /users/{user_id}/messages (Bearer): ``{content, metadata?}`` → 201 message."""
    principal = require_scope(request, WRITE_SCOPE)
    other_id = snowflake_param(request, "user_id")
    form = Form(await read_json(request))
    form.unknown_keys({"content", "metadata"})
    content, metadata = message_fields(form)
    form.done()
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, pair: tuple[int, int], outbox: Outbox) -> Payload:
        app_id = principal.application_id
        if other_id == principal.user_id or not is_game_user(conn, app_id, other_id) \
                or blocked_between(conn, app_id, principal.user_id, other_id):
            raise ApiError(403, CANNOT_MESSAGE_USER, "Cannot send messages to this user")
        message_id = new_id(state)
        conn.execute("INSERT INTO dm_messages (id, application_id, author_id, recipient_id, user_low, user_high,"
                     " content, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (message_id, app_id, principal.user_id, other_id, *pair, content,
                      json.dumps(metadata) if metadata is not None else None, state.clock.iso()))
        message = dm_message_object(_get(conn, app_id, pair, message_id), conn)
        _announce(outbox, app_id, pair, "DM_MESSAGE_CREATE", message)
        return message

    return json_response(await _conversation(request, principal, other_id, work), 201)


async def list_dms(request: Request) -> Response:
    """GET /users/{user_id}/messages?limit=1..200 (Bearer): the conversation, newest first."""
    principal = require_scope(request, READ_SCOPE)
    other_id = snowflake_param(request, "user_id")
    limit = list_limit(request)

    def work(conn: sqlite3.Connection, pair: tuple[int, int], outbox: Outbox) -> list[Payload]:
        rows = conn.execute("SELECT * FROM dm_messages WHERE application_id = ? AND user_low = ? AND user_high = ?"
                            " ORDER BY id DESC LIMIT ?", (principal.application_id, *pair, limit)).fetchall()
        return [dm_message_object(row, conn) for row in rows]

    return json_response(await _conversation(request, principal, other_id, work))


async def patch_dm(request: Request) -> Response:
    """PATCH /users/{user_id}/messages/{message_id} (Bearer, the author): ``{content?, metadata?}``."""
    principal = require_scope(request, WRITE_SCOPE)
    other_id = snowflake_param(request, "user_id")
    message_id = snowflake_param(request, "message_id")
    form = Form(await read_json(request))
    form.unknown_keys({"content", "metadata"})
    content, metadata = message_fields(form, content_required=False)
    form.done()
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, pair: tuple[int, int], outbox: Outbox) -> Payload:
        row = _get(conn, principal.application_id, pair, message_id)
        if row["author_id"] != principal.user_id:
            raise ApiError(403, errors.MISSING_PERMISSIONS, "Missing Permissions: only the author can edit.")
        now = state.clock.iso()
        if content is not None:
            conn.execute("UPDATE dm_messages SET content = ?, edited_at = ? WHERE id = ?", (content, now, message_id))
        if "metadata" in form.data:
            conn.execute("UPDATE dm_messages SET metadata = ?, edited_at = ? WHERE id = ?",
                         (json.dumps(metadata) if metadata is not None else None, now, message_id))
        message = dm_message_object(_get(conn, principal.application_id, pair, message_id), conn)
        _announce(outbox, principal.application_id, pair, "DM_MESSAGE_UPDATE", message)
        return message

    return json_response(await _conversation(request, principal, other_id, work))


async def delete_dm(request: Request) -> Response:
    """DELETE /users/{user_id}/messages/{message_id} (Bearer, the author)."""
    principal = require_scope(request, WRITE_SCOPE)
    other_id = snowflake_param(request, "user_id")
    message_id = snowflake_param(request, "message_id")

    def work(conn: sqlite3.Connection, pair: tuple[int, int], outbox: Outbox) -> None:
        row = _get(conn, principal.application_id, pair, message_id)
        if row["author_id"] != principal.user_id:
            raise ApiError(403, errors.MISSING_PERMISSIONS, "Missing Permissions: only the author can delete.")
        conn.execute("DELETE FROM dm_messages WHERE id = ?", (message_id,))
        _announce(outbox, principal.application_id, pair, "DM_MESSAGE_DELETE",
                  {"id": str(message_id), "author_id": str(row["author_id"]),
                   "recipient_id": str(row["recipient_id"])})

    await _conversation(request, principal, other_id, work)
    return Response(status_code=204)


async def put_dm_moderation(request: Request) -> Response:
    """PUT /users/{user_id}/messages/{message_id}/moderation-metadata (Bot): the message must be one of
    ``user_id``'s in this application; both participants hear DM_MESSAGE_UPDATE."""
    principal = auth.require(request, kinds=("bot",))
    user_id = snowflake_param(request, "user_id")
    message_id = snowflake_param(request, "message_id")
    moderation = moderation_body(await read_json(request))
    state = emulator_state(request)
    outbox = Outbox(state)

    def call() -> Payload:
        with state.db.transaction() as conn:
            row = conn.execute("SELECT * FROM dm_messages WHERE id = ? AND application_id = ?"
                               " AND (author_id = ? OR recipient_id = ?)",
                               (message_id, principal.application_id, user_id, user_id)).fetchone()
            if row is None:
                raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
            conn.execute("UPDATE dm_messages SET moderation_metadata = ? WHERE id = ?",
                         (json.dumps(moderation), message_id))
            pair = (row["user_low"], row["user_high"])
            message = dm_message_object(_get(conn, principal.application_id, pair, message_id), conn)
            _announce(outbox, principal.application_id, pair, "DM_MESSAGE_UPDATE", message)
            return message

    message = await run_in_threadpool(call)
    return json_response(message)


def routes() -> list[BaseRoute]:
    return [
        Route(API + "/users/{user_id}/messages", post_dm, methods=["POST"]),
        Route(API + "/users/{user_id}/messages", list_dms, methods=["GET"]),
        Route(API + "/users/{user_id}/messages/{message_id}", patch_dm, methods=["PATCH"]),
        Route(API + "/users/{user_id}/messages/{message_id}", delete_dm, methods=["DELETE"]),
        Route(API + "/users/{user_id}/messages/{message_id}/moderation-metadata", put_dm_moderation,
              methods=["PUT"]),
    ]
