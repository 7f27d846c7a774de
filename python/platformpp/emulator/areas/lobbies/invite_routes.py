"""Lobby channel invites: single-use guild invites, valid one hour on the emulator clock, to the
lobby's linked channel — for the calling member (``@me``, Bearer) or for a member (Bot). The invite
is used with ``POST /invites/{code}`` by the user it was made for, which makes them a guild member
(the invites area answers ``/invites/{code}`` for every kind of invite)."""

from __future__ import annotations

import sqlite3
from datetime import timedelta

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import errors
from ...core.auth import Principal
from ...core.clock import format_instant
from ...core.errors import ApiError, json_response
from ...core.http import emulator_state, in_transaction, snowflake_param
from ...core.routing import Route
from ...events.outbox import Outbox
from ...paths import API
from ..invites.store import new_code
from .routes import member_target
from .store import get_lobby, get_member

VALIDITY = timedelta(hours=1)


async def create_invite(request: Request) -> Response:
    """POST /lobbies/{lobby_id}/members/@me/invites (Bearer member) or /members/{user_id}/invites (Bot)
    → ``{code}``."""
    principal, target = member_target(request)
    return await invite_for(request, principal, target)


async def invite_for(request: Request, principal: Principal, target: int) -> Response:
    """An invite for member ``target`` of the lobby of the path, made by ``principal`` → ``{code}``."""
    lobby_id = snowflake_param(request, "lobby_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, str]:
        lobby = get_lobby(conn, lobby_id, principal.application_id)
        if get_member(conn, lobby_id, target) is None:
            raise errors.not_found(errors.UNKNOWN_MEMBER, "Member")
        if lobby["linked_channel_id"] is None:
            raise ApiError(400, errors.UNKNOWN_CHANNEL, "The lobby has no linked channel to invite to.")
        code = new_code()
        now = state.clock.now()
        conn.execute("INSERT INTO lobby_invites (code, lobby_id, channel_id, inviter_id, target_user_id,"
                     " created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                     (code, lobby_id, lobby["linked_channel_id"], principal.user_id, target,
                      format_instant(now), format_instant(now + VALIDITY)))
        return {"code": code}

    return json_response(await in_transaction(request, work))


def routes() -> list[BaseRoute]:
    return [
        Route(API + "/lobbies/{lobby_id}/members/{user_id}/invites", create_invite, methods=["POST"]),
    ]
