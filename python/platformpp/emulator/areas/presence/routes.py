"""HTTP routes of presence: set and clear the caller's rich presence, read a friend's presence."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import errors
from ...core.errors import ApiError, json_response
from ...core.http import emulator_state, in_transaction, off_loop, require_scope, snowflake_param
from ...core.routing import Route
from ...core.validation import Form, read_json
from ...events.audience import Payload
from ...events.outbox import Outbox
from ...paths import API
from . import invites
from .store import (
    CUSTOM_STATUS,
    _write,
    friend_ids,
    parse_activity,
    presence_object,
    set_activity,
    set_status,
)

# What a user may choose as their online status (SDK SetOnlineStatus); "invisible" looks offline to others.
CHOSEN_STATUSES = ("online", "idle", "dnd", "invisible")

if TYPE_CHECKING:
    from ...state import EmulatorState


async def put_activity(request: Request) -> Response:
    """PUT /users/@me/activity (Bearer, activities.write): set the caller's rich presence in this game."""
    principal = require_scope(request, "activities.write")
    form = Form(await read_json(request))
    activity = parse_activity(form)
    form.done()
    state = emulator_state(request)

    def work() -> Payload:
        def change(conn: sqlite3.Connection) -> None:
            now = state.clock.iso()
            if conn.execute("SELECT 1 FROM presences WHERE user_id = ?", (principal.user_id,)).fetchone() is None:
                set_status(conn, principal.user_id, "online", now)
            set_activity(conn, principal.user_id, principal.application_id, activity, now)
        _write(state, principal.user_id, change)
        return presence_object_of(state, principal.user_id)

    return json_response(await off_loop(work))


async def delete_activity(request: Request) -> Response:
    """DELETE /users/@me/activity[?type=4] (Bearer, activities.write): clear the caller's rich presence
    in this game, or with ``type=4`` the custom status."""
    principal = require_scope(request, "activities.write")
    state = emulator_state(request)
    custom = request.query_params.get("type") == str(CUSTOM_STATUS)

    def work() -> None:
        def change(conn: sqlite3.Connection) -> None:
            if custom:
                conn.execute("DELETE FROM custom_statuses WHERE user_id = ?", (principal.user_id,))
            else:
                set_activity(conn, principal.user_id, principal.application_id, None, state.clock.iso())
        _write(state, principal.user_id, change)

    await off_loop(work)
    return Response(status_code=204)


async def patch_settings(request: Request) -> Response:
    """PATCH /users/@me/settings ``{status}`` (Bearer, activities.write): the user's chosen online status
    (online, idle, dnd, invisible), announced to friends as any presence change → ``{status}``."""
    principal = require_scope(request, "activities.write")
    form = Form(await read_json(request))
    status = form.choice("status", CHOSEN_STATUSES)
    form.done()
    state = emulator_state(request)

    def work() -> None:
        _write(state, principal.user_id, lambda conn: set_status(conn, principal.user_id, status, state.clock.iso()))
    await off_loop(work)
    return json_response({"status": status})


async def post_activity_invite(request: Request) -> Response:
    """POST /users/@me/activity-invites ``{user_id, type: 1 | 5, content?}`` (Bearer, activities.write): an
    invite to the caller's party (1) or a request to join the user's party (5), to a friend → the invite."""
    principal = require_scope(request, "activities.write")
    form = Form(await read_json(request))
    recipient = form.snowflake("user_id")
    kind = form.choice("type", (invites.JOIN, invites.JOIN_REQUEST))
    content = form.string("content", required=False, max_len=1024, default="")
    form.done()
    state = emulator_state(request)
    outbox = Outbox(state)

    def work() -> Payload:
        return invites.send(state, outbox, principal.application_id, principal.user_id, recipient or 0, kind,
                            content or "")
    return json_response(await off_loop(work))


async def accept_activity_invite(request: Request) -> Response:
    """POST /users/@me/activity-invites/{message_id}/accept (Bearer, activities.write): the recipient of an
    invite → ``{join_secret}`` while the sender still shows that party; 400 (and the invite turns
    invalid, ACTIVITY_INVITE_UPDATE) otherwise."""
    principal = require_scope(request, "activities.write")
    message_id = snowflake_param(request, "message_id")
    state = emulator_state(request)
    outbox = Outbox(state)

    def work() -> Payload:
        return invites.accept(state, outbox, principal.application_id, principal.user_id, message_id)
    return json_response(await off_loop(work))


async def get_presence(request: Request) -> Response:
    """GET /users/{user_id}/presence (Bearer, presences.read): the caller's own or a friend's presence."""
    principal = require_scope(request, "presences.read")
    raw = request.path_params["user_id"]
    user_id = principal.user_id if raw == "@me" else snowflake_param(request, "user_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> Payload:
        if user_id != principal.user_id and user_id not in friend_ids(conn, principal.application_id,
                                                                      principal.user_id):
            raise ApiError(403, errors.MISSING_ACCESS, "Missing Access: only friends' presence is visible.")
        return presence_object(conn, user_id)

    return json_response(await in_transaction(request, work))


def presence_object_of(state: EmulatorState, user_id: int) -> Payload:
    with state.db.transaction() as conn:
        return presence_object(conn, user_id)


def routes() -> list[BaseRoute]:
    return [
        Route(API + "/users/@me/activity", put_activity, methods=["PUT"]),
        Route(API + "/users/@me/activity", delete_activity, methods=["DELETE"]),
        Route(API + "/users/{user_id}/presence", get_presence, methods=["GET"]),
        Route(API + "/users/@me/settings", patch_settings, methods=["PATCH"]),
        Route(API + "/users/@me/activity-invites", post_activity_invite, methods=["POST"]),
        Route(API + "/users/@me/activity-invites/{message_id}/accept", accept_activity_invite, methods=["POST"]),
    ]
