"""HTTP routes of DMs and group DMs (Bot): ``POST /users/@me/channels`` (a DM with ``recipient_id``,
or a group DM from users' ``access_tokens`` with ``nicks``) and ``PUT/DELETE
/channels/{channel_id}/recipients/{user_id}``. Thin: authenticate, read the body, run ``store``."""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth
from ...core.errors import json_response
from ...core.http import emulator_state, snowflake_param
from ...core.routing import Route
from ...core.snowflake import snowflake_value
from ...core.validation import Form, read_form
from ...events.outbox import Outbox
from ...paths import API
from ..guilds.work import in_transaction, writer
from . import store

GROUP_DM_SCOPE = "gdm.join"
MAX_NICK = 32


def _token_user(state: Any, form: Form, path: tuple[str | int, ...], token: Any, application_id: int) -> int | None:
    """The user of an OAuth2 access token of this application granting ``gdm.join`` (a field error
    otherwise; the token itself is never repeated)."""
    principal = auth.resolve_access_token(state, token) if isinstance(token, str) and token else None
    if principal is None or principal.application_id != application_id or GROUP_DM_SCOPE not in principal.scopes:
        form.errors.add(path, "ACCESS_TOKEN_INVALID",
                        f"Must be an access token of a user of this application granting {GROUP_DM_SCOPE}.")
        return None
    return principal.user_id


def _nick(form: Form, path: tuple[str | int, ...], value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > MAX_NICK:
        form.errors.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be a string of at most {MAX_NICK} characters.")
        return None
    return value


async def create_private_channel(request: Request) -> Response:
    """POST /users/@me/channels: ``{recipient_id}`` → the DM of the bot and that user (made once,
    the same channel after); ``{access_tokens, nicks?}`` → a new group DM of those users, owned by
    the bot, with the application's id (every recipient hears CHANNEL_CREATE)."""
    principal = auth.require(request, kinds=("bot",))
    state = emulator_state(request)
    form = await read_form(request)
    tokens = form.data.get("access_tokens")
    if tokens is None:
        recipient_id = form.snowflake("recipient_id")
        form.done()
        assert recipient_id is not None

        def open_dm(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
            row = store.open_dm(conn, state.ids.next, principal.user_id, recipient_id)
            return store.channel_as_seen(conn, row, principal.user_id)

        return json_response(await in_transaction(request, open_dm))
    members: dict[int, str | None] = {}
    for index, token in enumerate(form.array("access_tokens", max_items=store.MAX_GROUP_RECIPIENTS) or []):
        user_id = _token_user(state, form, ("access_tokens", index), token, principal.application_id)
        if user_id is not None:
            members[user_id] = None
    nicks = form.data.get("nicks")
    if nicks is not None and not isinstance(nicks, dict):
        form.fail("nicks", "DICT_TYPE_CONVERT", "Must be an object of user ids to nicknames.")
    for key, value in (nicks or {}).items() if isinstance(nicks, dict) else ():
        user_id = snowflake_value(key)
        if user_id is None:
            form.errors.add(("nicks", key), "NUMBER_TYPE_COERCE", "Keys must be user ids.")
        nick = _nick(form, ("nicks", key), value)
        if user_id in members:
            members[user_id] = nick
    form.done()

    def create_group(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        row = store.create_group(conn, outbox, state.ids.next, application_id=principal.application_id,
                                 owner_id=principal.user_id, members=members)
        return store.channel_as_seen(conn, row, principal.user_id)

    return json_response(await in_transaction(request, create_group))


async def add_recipient(request: Request) -> Response:
    """PUT /channels/{channel_id}/recipients/{user_id}: ``{access_token, nick?}`` (the user's token of
    this application granting gdm.join) → 201 with the group DM; 204 when already a recipient."""
    principal = writer(request)
    channel_id, user_id = snowflake_param(request, "channel_id"), snowflake_param(request, "user_id")
    state = emulator_state(request)
    form = await read_form(request)
    token_user = _token_user(state, form, ("access_token",), form.data.get("access_token"), principal.application_id)
    if token_user is not None and token_user != user_id:
        form.fail("access_token", "ACCESS_TOKEN_INVALID", "Must be an access token of the user being added.")
    nick = _nick(form, ("nick",), form.data.get("nick"))
    form.done()
    channel = await in_transaction(request, lambda conn, outbox: store.add_recipient(
        conn, outbox, channel_id=channel_id, caller_id=principal.user_id, application_id=principal.application_id,
        user_id=user_id, nick=nick))
    return json_response(channel, 201) if channel is not None else Response(status_code=204)


async def remove_recipient(request: Request) -> Response:
    """DELETE /channels/{channel_id}/recipients/{user_id} → 204."""
    principal = writer(request)
    channel_id, user_id = snowflake_param(request, "channel_id"), snowflake_param(request, "user_id")
    await in_transaction(request, lambda conn, outbox: store.remove_recipient(
        conn, outbox, channel_id=channel_id, caller_id=principal.user_id, application_id=principal.application_id,
        user_id=user_id))
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    recipient = API + "/channels/{channel_id:snowflake}/recipients/{user_id:snowflake}"
    return [
        Route(API + "/users/@me/channels", create_private_channel, methods=["POST"]),
        Route(recipient, add_recipient, methods=["PUT"]),
        Route(recipient, remove_recipient, methods=["DELETE"]),
    ]
