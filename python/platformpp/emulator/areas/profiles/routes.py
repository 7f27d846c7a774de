"""User application profiles: the game identity data from external providers that an SDK user's
account carries in a game, and the game stats widget fields (``rank_name``, ``total_wins``,
``playtime_hours`` plus developer-defined ones) that the game's backend writes to the user's
application identity profile with a bot token."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth, errors
from ...core.errors import json_response
from ...core.http import emulator_state, in_transaction, require_scope, snowflake_param
from ...core.routing import Route
from ...core.validation import Form, read_json
from ...events.outbox import Outbox
from ...paths import API
from ..presence.store import friend_ids
from .store import _fields, profile_object

MAX_FIELDS = 25
MAX_KEY = 64
MAX_TEXT = 256


def parse_stats(data: Any) -> dict[str, Any]:
    """A stats PATCH: primary fields typed, other keys developer-defined (string, number or bool);
    null removes a key. 50035 naming the field on any error, nothing applied."""
    form = Form(data)
    changes: dict[str, Any] = {}
    for key, value in form.data.items():
        if len(key) > MAX_KEY or not key:
            form.fail(key, "BASE_TYPE_BAD_LENGTH", f"Field names are 1 to {MAX_KEY} characters.")
        elif value is None:
            changes[key] = None
        elif key == "rank_name":
            changes[key] = form.string(key, max_len=MAX_TEXT)
        elif key == "total_wins":
            changes[key] = form.integer(key, minimum=0)
        elif key == "playtime_hours":
            changes[key] = form.number(key, minimum=0)
        elif isinstance(value, str) and len(value) > MAX_TEXT:
            form.fail(key, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_TEXT} or fewer in length.")
        elif not isinstance(value, (str, int, float, bool)):
            form.fail(key, "BASE_TYPE_CHOICES", "A stats field is a string, a number or a boolean.")
        else:
            changes[key] = value
    form.done()
    return changes


async def patch_stats(request: Request) -> Response:
    """PATCH /applications/@me/users/{user_id}/identity-profile (Bot): merge game stats fields."""
    principal = auth.require(request, kinds=("bot",))
    user_id = snowflake_param(request, "user_id")
    changes = parse_stats(await read_json(request))
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        if conn.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is None:
            raise errors.not_found(errors.UNKNOWN_USER, "User")
        fields = _fields(conn, principal.application_id, user_id)
        for key, value in changes.items():
            if value is None:
                fields.pop(key, None)
            else:
                fields[key] = value
        if len(fields) > MAX_FIELDS:
            form = Form({})
            form.fail("fields", "BASE_TYPE_MAX_LENGTH", f"A profile holds at most {MAX_FIELDS} fields.")
            form.done()
        conn.execute("INSERT INTO application_identity_profiles (application_id, user_id, fields, updated_at)"
                     " VALUES (?, ?, ?, ?) ON CONFLICT (application_id, user_id) DO UPDATE SET"
                     " fields = excluded.fields, updated_at = excluded.updated_at",
                     (principal.application_id, user_id, json.dumps(fields), state.clock.iso()))
        return profile_object(conn, principal.application_id, user_id)

    return json_response(await in_transaction(request, work))


async def get_stats(request: Request) -> Response:
    """GET /applications/@me/users/{user_id}/identity-profile (Bot): the user's profile in this game."""
    principal = auth.require(request, kinds=("bot",))
    user_id = snowflake_param(request, "user_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        if conn.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is None:
            raise errors.not_found(errors.UNKNOWN_USER, "User")
        return profile_object(conn, principal.application_id, user_id)

    return json_response(await in_transaction(request, work))


async def application_profiles(request: Request) -> Response:
    """GET /users/{user_id}/application-profiles (Bearer; ``@me`` or a friend): the user's profiles
    in the caller's game, as a list (empty when the user has none)."""
    principal = require_scope(request, "identify")
    raw = request.path_params["user_id"]
    user_id = principal.user_id if raw == "@me" else snowflake_param(request, "user_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> list[dict[str, Any]]:
        if user_id != principal.user_id and user_id not in friend_ids(conn, principal.application_id,
                                                                      principal.user_id):
            raise errors.ApiError(403, errors.MISSING_ACCESS, "Missing Access: only friends' profiles.")
        profile = profile_object(conn, principal.application_id, user_id)
        return [profile] if profile["identities"] or profile["stats"] else []

    return json_response(await in_transaction(request, work))


def routes() -> list[BaseRoute]:
    return [
        Route(API + "/applications/@me/users/{user_id}/identity-profile", patch_stats, methods=["PATCH"]),
        Route(API + "/applications/@me/users/{user_id}/identity-profile", get_stats, methods=["GET"]),
        Route(API + "/users/{user_id}/application-profiles", application_profiles, methods=["GET"]),
    ]
