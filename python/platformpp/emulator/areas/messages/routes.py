"""HTTP routes of lobby messages (``/lobbies/{lobby_id}/messages``: members talk; the game's bot may
list, delete and moderate) and game direct messages (``/users/{user_id}/messages``: the caller's
conversation with ``user_id``). Both are thin: they authenticate, validate the body and pick the
``Thread``; ``store`` does the rest the same way for both."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth, errors
from ...core.auth import Principal
from ...core.errors import json_response
from ...core.http import emulator_state, off_loop, query_int, require_scope, snowflake_param
from ...core.routing import Route
from ...core.validation import Form, read_json
from ...events.outbox import Outbox
from ...paths import API
from ..lobbies.store import (
    METADATA_KEY_LEN,
    METADATA_VALUE_LEN,
    SOCIAL_SCOPE,
    expire_idle_lobbies,
    get_lobby,
    metadata_field,
    require_member,
)
from . import store
from .channel_bridge import lobby_message_to_channel
from .store import DEFAULT_LIST, MAX_CONTENT, MAX_LIST, MODERATION_KEYS, DirectThread, LobbyThread, Thread

READ_SCOPE = "dm_channels.messages.read"
WRITE_SCOPE = "dm_channels.messages.write"
T = TypeVar("T")


# --- request parsing, shared -------------------------------------------------------------------------

class MessageBody:
    """``{content, metadata?}`` of a post (content required) or an edit (both optional)."""

    def __init__(self, form: Form, *, content_required: bool) -> None:
        self.content = form.string("content", required=content_required, min_len=1, max_len=MAX_CONTENT)
        self.metadata = metadata_field(form, "metadata")
        self.metadata_given = "metadata" in form.data
        form.done()

    @classmethod
    async def read(cls, request: Request, *, content_required: bool) -> MessageBody:
        return cls(Form(await read_json(request)), content_required=content_required)


def moderation_body(data: Any) -> dict[str, str]:
    """The body of a moderation-metadata PUT: an object of at most 5 string keys and values."""
    form = Form({"moderation_metadata": data})
    moderation = form.string_map("moderation_metadata", required=True, nullable=False, max_keys=MODERATION_KEYS,
                                 max_key_len=METADATA_KEY_LEN, max_value_len=METADATA_VALUE_LEN)
    form.done()
    return moderation or {}


# --- where a request's messages live ----------------------------------------------------------------------

async def _in_lobby(request: Request, principal: Principal,
                    work: Callable[[sqlite3.Connection, Thread, Outbox], T]) -> T:
    """Run ``work`` on the lobby's thread in one transaction (members only, or the game's bot);
    its dispatches go out after the commit."""
    state = emulator_state(request)
    lobby_id = snowflake_param(request, "lobby_id")
    outbox = Outbox(state)

    def call() -> T:
        expire_idle_lobbies(state)
        with state.db.transaction() as conn:
            lobby = get_lobby(conn, lobby_id, principal.application_id)
            require_member(conn, lobby, principal)
            return work(conn, LobbyThread(lobby["application_id"], lobby["id"]), outbox)

    return await off_loop(call)


async def _in_conversation(request: Request, principal: Principal,
                           work: Callable[[sqlite3.Connection, DirectThread, Outbox], T]) -> T:
    """Run ``work`` on the caller's conversation with ``{user_id}`` in one transaction."""
    state = emulator_state(request)
    other_id = snowflake_param(request, "user_id")
    outbox = Outbox(state)

    def call() -> T:
        with state.db.transaction() as conn:
            if conn.execute("SELECT 1 FROM users WHERE id = ?", (other_id,)).fetchone() is None:
                raise errors.not_found(errors.UNKNOWN_USER, "User")
            return work(conn, DirectThread.between(principal.application_id, principal.user_id, other_id), outbox)

    return await off_loop(call)


# --- lobby messages ----------------------------------------------------------------------------------------

async def post_lobby_message(request: Request) -> Response:
    """POST /lobbies/{lobby_id}/messages (Bearer member): ``{content, metadata?}`` → 201 message."""
    principal = auth.require(request, kinds=("bearer",), scopes=(SOCIAL_SCOPE,))
    body = await MessageBody.read(request, content_required=True)
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, thread: LobbyThread, outbox: Outbox) -> Any:
        message = store.post(conn, thread, outbox, message_id=state.ids.next(), author_id=principal.user_id,
                             content=body.content, metadata=body.metadata, now=state.clock.iso())
        # In a lobby linked to a guild channel, the message is written there too (channel_bridge.py).
        lobby_message_to_channel(conn, outbox, thread.lobby_id, message, state.clock.now())
        return message

    return json_response(await _in_lobby(request, principal, work), 201)


async def list_lobby_messages(request: Request) -> Response:
    """GET /lobbies/{lobby_id}/messages?limit=1..200 (Bearer member, or the app's bot): newest first."""
    principal = auth.require(request, scopes=(SOCIAL_SCOPE,))
    limit = query_int(request, "limit", minimum=1, maximum=MAX_LIST, default=DEFAULT_LIST)
    return json_response(await _in_lobby(request, principal,
                                         lambda conn, thread, outbox: store.recent(conn, thread, limit)))


async def patch_lobby_message(request: Request) -> Response:
    """PATCH /lobbies/{lobby_id}/messages/{message_id} (Bearer, the author): ``{content?, metadata?}``."""
    principal = auth.require(request, kinds=("bearer",), scopes=(SOCIAL_SCOPE,))
    return await _edit(request, principal, _in_lobby)


async def delete_lobby_message(request: Request) -> Response:
    """DELETE /lobbies/{lobby_id}/messages/{message_id} (Bearer author, or the app's bot)."""
    principal = auth.require(request, scopes=(SOCIAL_SCOPE,))
    return await _delete(request, principal, _in_lobby)


async def put_lobby_moderation(request: Request) -> Response:
    """PUT /lobbies/{lobby_id}/messages/{message_id}/moderation-metadata (Bot): replace the message's
    moderation metadata (≤ 5 string keys) → 204 as the published schema says; members hear
    LOBBY_MESSAGE_UPDATE with the message."""
    principal = auth.require(request, kinds=("bot",))
    message_id = snowflake_param(request, "message_id")
    moderation = moderation_body(await read_json(request))
    await _in_lobby(request, principal, lambda conn, thread, outbox: store.moderate(
        conn, thread, outbox, message_id=message_id, moderation=moderation))
    return Response(status_code=204)


# --- direct messages -----------------------------------------------------------------------------------------

async def post_direct_message(request: Request) -> Response:
    """POST /users/{user_id}/messages (Bearer): ``{content, metadata?}`` → 201 message."""
    principal = require_scope(request, WRITE_SCOPE)
    other_id = snowflake_param(request, "user_id")
    body = await MessageBody.read(request, content_required=True)
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, thread: DirectThread, outbox: Outbox) -> Any:
        store.require_can_message(conn, thread, principal.user_id, other_id)
        return store.post(conn, thread, outbox, message_id=state.ids.next(), author_id=principal.user_id,
                          content=body.content, metadata=body.metadata, now=state.clock.iso())

    return json_response(await _in_conversation(request, principal, work), 201)


async def list_direct_messages(request: Request) -> Response:
    """GET /users/{user_id}/messages?limit=1..200 (Bearer): the conversation, newest first."""
    principal = require_scope(request, READ_SCOPE)
    snowflake_param(request, "user_id")
    limit = query_int(request, "limit", minimum=1, maximum=MAX_LIST, default=DEFAULT_LIST)
    return json_response(await _in_conversation(request, principal,
                                                lambda conn, thread, outbox: store.recent(conn, thread, limit)))


async def patch_direct_message(request: Request) -> Response:
    """PATCH /users/{user_id}/messages/{message_id} (Bearer, the author): ``{content?, metadata?}``."""
    principal = require_scope(request, WRITE_SCOPE)
    snowflake_param(request, "user_id")
    return await _edit(request, principal, _in_conversation)


async def delete_direct_message(request: Request) -> Response:
    """DELETE /users/{user_id}/messages/{message_id} (Bearer, the author)."""
    principal = require_scope(request, WRITE_SCOPE)
    snowflake_param(request, "user_id")
    return await _delete(request, principal, _in_conversation)


async def put_direct_moderation(request: Request) -> Response:
    """PUT /users/{user_id}/messages/{message_id}/moderation-metadata (Bot): the message must be one of
    ``user_id``'s in this application; both participants hear DM_MESSAGE_UPDATE."""
    principal = auth.require(request, kinds=("bot",))
    user_id = snowflake_param(request, "user_id")
    message_id = snowflake_param(request, "message_id")
    moderation = moderation_body(await read_json(request))
    state = emulator_state(request)
    outbox = Outbox(state)

    def call() -> Any:
        with state.db.transaction() as conn:
            thread = store.find_direct_message(conn, principal.application_id, user_id, message_id)
            return store.moderate(conn, thread, outbox, message_id=message_id, moderation=moderation)

    return json_response(await off_loop(call))


async def put_pair_moderation(request: Request) -> Response:
    """PUT /partner-sdk/dms/{user_id_1}/{user_id_2}/messages/{message_id}/moderation-metadata (Bot): the
    same as the lobby route for a message of the two users' conversation in this application (either
    order of the two ids) → 204; both participants hear DM_MESSAGE_UPDATE."""
    principal = auth.require(request, kinds=("bot",))
    first, second = snowflake_param(request, "user_id_1"), snowflake_param(request, "user_id_2")
    message_id = snowflake_param(request, "message_id")
    moderation = moderation_body(await read_json(request))
    state = emulator_state(request)
    outbox = Outbox(state)
    thread = DirectThread.between(principal.application_id, first, second)

    def call() -> None:
        with state.db.transaction() as conn:
            store.moderate(conn, thread, outbox, message_id=message_id, moderation=moderation)

    await off_loop(call)
    return Response(status_code=204)


async def message_summaries(request: Request) -> Response:
    """GET /users/@me/messages/summaries (Bearer): the caller's direct message conversations in the
    game, ``[{user_id, last_message_id}]`` newest first (an emulator route: the published schema has
    no path for the SDK's GetUserMessageSummaries)."""
    principal = require_scope(request, READ_SCOPE)
    state = emulator_state(request)

    def call() -> list[dict[str, str]]:
        with state.db.transaction() as conn:
            return store.summaries(conn, principal.application_id, principal.user_id)

    return json_response(await off_loop(call))


# --- the same for both --------------------------------------------------------------------------------------

async def _edit(request: Request, principal: Principal, within: Any) -> Response:
    message_id = snowflake_param(request, "message_id")
    body = await MessageBody.read(request, content_required=False)
    state = emulator_state(request)
    return json_response(await within(request, principal, lambda conn, thread, outbox: store.edit(
        conn, thread, outbox, message_id=message_id, editor=principal, content=body.content,
        metadata=body.metadata, metadata_given=body.metadata_given, now=state.clock.iso())))


async def _delete(request: Request, principal: Principal, within: Any) -> Response:
    message_id = snowflake_param(request, "message_id")
    await within(request, principal, lambda conn, thread, outbox: store.delete(
        conn, thread, outbox, message_id=message_id, caller=principal))
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    lobby, direct = API + "/lobbies/{lobby_id}/messages", API + "/users/{user_id}/messages"
    return [
        Route(API + "/users/@me/messages/summaries", message_summaries, methods=["GET"]),
        Route(lobby, post_lobby_message, methods=["POST"]),
        Route(lobby, list_lobby_messages, methods=["GET"]),
        Route(lobby + "/{message_id}", patch_lobby_message, methods=["PATCH"]),
        Route(lobby + "/{message_id}", delete_lobby_message, methods=["DELETE"]),
        Route(lobby + "/{message_id}/moderation-metadata", put_lobby_moderation, methods=["PUT"]),
        Route(direct, post_direct_message, methods=["POST"]),
        Route(direct, list_direct_messages, methods=["GET"]),
        Route(direct + "/{message_id}", patch_direct_message, methods=["PATCH"]),
        Route(direct + "/{message_id}", delete_direct_message, methods=["DELETE"]),
        Route(direct + "/{message_id}/moderation-metadata", put_direct_moderation, methods=["PUT"]),
        Route(API + "/partner-sdk/dms/{user_id_1}/{user_id_2}/messages/{message_id}/moderation-metadata",
              put_pair_moderation, methods=["PUT"]),
    ]
