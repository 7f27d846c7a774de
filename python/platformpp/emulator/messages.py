"""Lobby messages: send (members only), list the most recent (≤ 200, newest first), edit and delete,
and the application's moderation metadata (bot token). Each message carries its author's lobby
``additional_name`` and the moderation metadata."""

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
from .lobbies import (
    METADATA_KEY_LEN,
    METADATA_VALUE_LEN,
    SOCIAL_SCOPE,
    expire_idle_lobbies,
    get_lobby,
    get_member,
    member_ids,
    metadata_field,
    require_member,
)
from .social import emulator_state, new_id, snowflake_param
from .users import public_user_json

API = "/api/v10"
MAX_CONTENT = 2000
MAX_LIST = 200
DEFAULT_LIST = 50
MODERATION_KEYS = 5


def message_fields(form: Form, *, content_required: bool = True) -> tuple[str | None, dict[str, str] | None]:
    """``content`` (1–2000) and ``metadata`` (string map) of a message write; shared with DMs."""
    content = form.string("content", required=content_required, min_len=1, max_len=MAX_CONTENT)
    metadata = metadata_field(form, "metadata")
    return content, metadata


def list_limit(request: Request) -> int:
    """``?limit=`` 1–200 (default 50); anything else is a 50035 naming ``limit``."""
    raw = request.query_params.get("limit")
    if raw is None:
        return DEFAULT_LIST
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_LIST:
        raise ApiError(400, errors.INVALID_FORM_BODY, "Invalid Form Body",
                       {"limit": {"_errors": [{"code": "NUMBER_TYPE_MAX" if raw.isdigit() else "NUMBER_TYPE_COERCE",
                                               "message": f"Must be an integer from 1 to {MAX_LIST}."}]}})
    return int(raw)


def author_of(conn: sqlite3.Connection, user_id: int) -> Payload:
    row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    return public_user_json(row) if row else {"id": str(user_id)}


def lobby_message_object(conn: sqlite3.Connection, row: sqlite3.Row, application_id: int) -> Payload:
    member = get_member(conn, row["lobby_id"], row["author_id"])
    message: Payload = {
        "id": str(row["id"]), "type": 0, "content": row["content"], "lobby_id": str(row["lobby_id"]),
        "channel_id": str(row["lobby_id"]), "author": author_of(conn, row["author_id"]),
        "metadata": json.loads(row["metadata"]) if row["metadata"] is not None else None,
        "moderation_metadata": json.loads(row["moderation_metadata"]),
        "timestamp": row["created_at"], "edited_timestamp": row["edited_at"], "flags": 0,
        "application_id": str(application_id),
    }
    # The name the game gave the author in this lobby (set server-side only).
    if member is not None and member["additional_name"] is not None:
        message["additional_name"] = member["additional_name"]
    return message


def _get_message(conn: sqlite3.Connection, lobby_id: int, message_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM lobby_messages WHERE id = ? AND lobby_id = ?", (message_id, lobby_id)).fetchone()
    if row is None:
        raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
    return row


async def _in_lobby(request: Request, principal: Principal, work: Any) -> Any:
    """Run ``work(conn, lobby, outbox)`` in one transaction; publish its dispatches after the commit."""
    state = emulator_state(request)
    lobby_id = snowflake_param(request, "lobby_id")
    outbox = Outbox(state)

    def call() -> Any:
        expire_idle_lobbies(state)
        with state.db.transaction() as conn:
            lobby = get_lobby(conn, lobby_id, principal.application_id)
            require_member(conn, lobby, principal)
            return work(conn, lobby, outbox)

    result = await run_in_threadpool(call)
    return result


def _to_members(conn: sqlite3.Connection, lobby: sqlite3.Row, outbox: Outbox, event: str, payload: Payload) -> None:
    outbox.add(event, to_users(lobby["application_id"], member_ids(conn, lobby["id"]), payload))


async def post_message(request: Request) -> Response:
    """POST /lobbies/{lobby_id}/messages (Bearer member): ``{content, metadata?}`` → 201 message."""
    principal = auth.require(request, kinds=("bearer",), scopes=(SOCIAL_SCOPE,))
    form = Form(await read_json(request))
    form.unknown_keys({"content", "metadata"})
    content, metadata = message_fields(form)
    form.done()

    def work(conn: sqlite3.Connection, lobby: sqlite3.Row, outbox: Outbox) -> Payload:
        message_id = new_id(emulator_state(request))
        conn.execute("INSERT INTO lobby_messages (id, lobby_id, author_id, content, metadata, created_at)"
                     " VALUES (?, ?, ?, ?, ?, ?)",
                     (message_id, lobby["id"], principal.user_id, content,
                      json.dumps(metadata) if metadata is not None else None, emulator_state(request).clock.iso()))
        message = lobby_message_object(conn, _get_message(conn, lobby["id"], message_id), lobby["application_id"])
        _to_members(conn, lobby, outbox, "LOBBY_MESSAGE_CREATE", message)
        return message

    return json_response(await _in_lobby(request, principal, work), 201)


async def list_messages(request: Request) -> Response:
    """GET /lobbies/{lobby_id}/messages?limit=1..200 (Bearer member, or the app's bot): newest first."""
    principal = auth.require(request, scopes=(SOCIAL_SCOPE,))
    limit = list_limit(request)

    def work(conn: sqlite3.Connection, lobby: sqlite3.Row, outbox: Outbox) -> list[Payload]:
        rows = conn.execute("SELECT * FROM lobby_messages WHERE lobby_id = ? ORDER BY id DESC LIMIT ?",
                            (lobby["id"], limit)).fetchall()
        return [lobby_message_object(conn, row, lobby["application_id"]) for row in rows]

    return json_response(await _in_lobby(request, principal, work))


async def patch_message(request: Request) -> Response:
    """PATCH /lobbies/{lobby_id}/messages/{message_id} (Bearer, the author): ``{content?, metadata?}``."""
    principal = auth.require(request, kinds=("bearer",), scopes=(SOCIAL_SCOPE,))
    message_id = snowflake_param(request, "message_id")
    form = Form(await read_json(request))
    form.unknown_keys({"content", "metadata"})
    content, metadata = message_fields(form, content_required=False)
    form.done()

    def work(conn: sqlite3.Connection, lobby: sqlite3.Row, outbox: Outbox) -> Payload:
        row = _get_message(conn, lobby["id"], message_id)
        if row["author_id"] != principal.user_id:
            raise ApiError(403, errors.MISSING_PERMISSIONS, "Missing Permissions: only the author can edit.")
        now = emulator_state(request).clock.iso()
        if content is not None:
            conn.execute("UPDATE lobby_messages SET content = ?, edited_at = ? WHERE id = ?", (content, now, message_id))
        if "metadata" in form.data:
            conn.execute("UPDATE lobby_messages SET metadata = ?, edited_at = ? WHERE id = ?",
                         (json.dumps(metadata) if metadata is not None else None, now, message_id))
        message = lobby_message_object(conn, _get_message(conn, lobby["id"], message_id), lobby["application_id"])
        _to_members(conn, lobby, outbox, "LOBBY_MESSAGE_UPDATE", message)
        return message

    return json_response(await _in_lobby(request, principal, work))


async def delete_message(request: Request) -> Response:
    """DELETE /lobbies/{lobby_id}/messages/{message_id} (Bearer author, or the app's bot)."""
    principal = auth.require(request, scopes=(SOCIAL_SCOPE,))
    message_id = snowflake_param(request, "message_id")

    def work(conn: sqlite3.Connection, lobby: sqlite3.Row, outbox: Outbox) -> None:
        row = _get_message(conn, lobby["id"], message_id)
        if principal.kind == "bearer" and row["author_id"] != principal.user_id:
            raise ApiError(403, errors.MISSING_PERMISSIONS, "Missing Permissions: only the author can delete.")
        audience = member_ids(conn, lobby["id"])
        conn.execute("DELETE FROM lobby_messages WHERE id = ?", (message_id,))
        outbox.add("LOBBY_MESSAGE_DELETE", to_users(lobby["application_id"], audience,
                                                    {"id": str(message_id), "lobby_id": str(lobby["id"])}))

    await _in_lobby(request, principal, work)
    return Response(status_code=204)


async def put_moderation(request: Request) -> Response:
    """PUT /lobbies/{lobby_id}/messages/{message_id}/moderation-metadata (Bot): replace the message's
    moderation metadata (≤ 5 string keys) → the message; members hear LOBBY_MESSAGE_UPDATE."""
    principal = auth.require(request, kinds=("bot",))
    message_id = snowflake_param(request, "message_id")
    moderation = moderation_body(await read_json(request))

    def work(conn: sqlite3.Connection, lobby: sqlite3.Row, outbox: Outbox) -> Payload:
        _get_message(conn, lobby["id"], message_id)
        conn.execute("UPDATE lobby_messages SET moderation_metadata = ? WHERE id = ?",
                     (json.dumps(moderation), message_id))
        message = lobby_message_object(conn, _get_message(conn, lobby["id"], message_id), lobby["application_id"])
        _to_members(conn, lobby, outbox, "LOBBY_MESSAGE_UPDATE", message)
        return message

    return json_response(await _in_lobby(request, principal, work))


def moderation_body(data: Any) -> dict[str, str]:
    """The body of a moderation-metadata PUT: an object of at most 5 string keys and values."""
    form = Form({"moderation_metadata": data})
    moderation = form.string_map("moderation_metadata", required=True, nullable=False, max_keys=MODERATION_KEYS,
                                 max_key_len=METADATA_KEY_LEN, max_value_len=METADATA_VALUE_LEN)
    form.done()
    return moderation or {}


def routes() -> list[BaseRoute]:
    return [
        Route(API + "/lobbies/{lobby_id}/messages", post_message, methods=["POST"]),
        Route(API + "/lobbies/{lobby_id}/messages", list_messages, methods=["GET"]),
        Route(API + "/lobbies/{lobby_id}/messages/{message_id}", patch_message, methods=["PATCH"]),
        Route(API + "/lobbies/{lobby_id}/messages/{message_id}", delete_message, methods=["DELETE"]),
        Route(API + "/lobbies/{lobby_id}/messages/{message_id}/moderation-metadata", put_moderation,
              methods=["PUT"]),
    ]
