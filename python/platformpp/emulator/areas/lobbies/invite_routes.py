"""Lobby channel invites: single-use guild invites, valid one hour on the emulator clock, to the
lobby's linked channel — for the calling member (``@me``, Bearer) or for a member (Bot). The invite
is used with ``POST /invites/{code}`` by the user it was made for, which makes them a guild member."""

from __future__ import annotations

import json
import secrets
import sqlite3
import string
from datetime import timedelta
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...core import auth, errors
from ...core.clock import format_instant, parse_instant
from ...core.errors import ApiError, json_response
from ...core.http import emulator_state, snowflake_param
from ...paths import API
from .routes import member_target
from .store import get_lobby, get_member

UNKNOWN_INVITE = 10006
VALIDITY = timedelta(hours=1)
_ALPHABET = string.ascii_letters + string.digits


def invite_object(conn: sqlite3.Connection, row: sqlite3.Row) -> dict[str, Any]:
    channel = conn.execute("SELECT id, name, type, guild_id FROM channels WHERE id = ?", (row["channel_id"],)).fetchone()
    guild = conn.execute("SELECT * FROM guilds WHERE id = ?", (channel["guild_id"],)).fetchone()
    columns = guild.keys()
    return {
        "code": row["code"], "type": 0, "expires_at": row["expires_at"], "max_age": 3600, "max_uses": 1,
        "uses": 1 if row["used_at"] else 0, "temporary": False, "lobby_id": str(row["lobby_id"]),
        "guild_id": str(guild["id"]),
        # the invite's partial guild; the emulator's guilds have no splash, banner, vanity URL or boosts
        "guild": {"id": str(guild["id"]), "name": guild["name"], "icon": guild["icon"], "splash": None,
                  "banner": None, "description": guild["description"], "features": json.loads(guild["features"]),
                  "verification_level": guild["verification_level"] if "verification_level" in columns else 0,
                  "vanity_url_code": None, "nsfw_level": 0, "nsfw": False, "premium_subscription_count": 0},
        "channel": {"id": str(channel["id"]), "name": channel["name"], "type": channel["type"]},
        "target_user_id": str(row["target_user_id"]),
    }


async def create_invite(request: Request) -> Response:
    """POST /lobbies/{lobby_id}/members/@me/invites (Bearer member) or /members/{user_id}/invites (Bot)
    → ``{code}``."""
    principal, target = member_target(request)
    lobby_id = snowflake_param(request, "lobby_id")
    state = emulator_state(request)

    def work() -> dict[str, str]:
        with state.db.transaction() as conn:
            lobby = get_lobby(conn, lobby_id, principal.application_id)
            if get_member(conn, lobby_id, target) is None:
                raise errors.not_found(errors.UNKNOWN_MEMBER, "Member")
            if lobby["linked_channel_id"] is None:
                raise ApiError(400, errors.UNKNOWN_CHANNEL, "The lobby has no linked channel to invite to.")
            code = "".join(secrets.choice(_ALPHABET) for _ in range(10))
            now = state.clock.now()
            conn.execute("INSERT INTO lobby_invites (code, lobby_id, channel_id, inviter_id, target_user_id,"
                         " created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (code, lobby_id, lobby["linked_channel_id"], principal.user_id, target,
                          format_instant(now), format_instant(now + VALIDITY)))
            return {"code": code}

    return json_response(await run_in_threadpool(work))


def _usable(conn: sqlite3.Connection, code: str, now: Any) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM lobby_invites WHERE code = ?", (code,)).fetchone()
    if row is None or row["used_at"] is not None or parse_instant(row["expires_at"]) <= now:
        raise errors.not_found(UNKNOWN_INVITE, "Invite")
    return row


async def get_invite(request: Request) -> Response:
    """GET /invites/{code}: the invite while it is unused and unexpired, else 404 10006."""
    state = emulator_state(request)
    code = str(request.path_params["code"])

    def work() -> dict[str, Any]:
        with state.db.transaction() as conn:
            return invite_object(conn, _usable(conn, code, state.clock.now()))

    return json_response(await run_in_threadpool(work))


async def accept_invite(request: Request) -> Response:
    """POST /invites/{code} (Bearer, the invite's user): join the guild; the invite is used up."""
    principal = auth.require(request, kinds=("bearer",))
    state = emulator_state(request)
    code = str(request.path_params["code"])

    def work() -> dict[str, Any]:
        with state.db.transaction() as conn:
            row = _usable(conn, code, state.clock.now())
            if row["target_user_id"] != principal.user_id:
                raise ApiError(403, errors.MISSING_ACCESS, "Missing Access: this invite is for another user.")
            now = state.clock.iso()
            guild_id = conn.execute("SELECT guild_id FROM channels WHERE id = ?", (row["channel_id"],)).fetchone()[0]
            conn.execute("INSERT OR IGNORE INTO members (guild_id, user_id, joined_at) VALUES (?, ?, ?)",
                         (guild_id, principal.user_id, now))
            conn.execute("UPDATE lobby_invites SET used_at = ? WHERE code = ?", (now, code))
            return invite_object(conn, conn.execute("SELECT * FROM lobby_invites WHERE code = ?", (code,)).fetchone())

    return json_response(await run_in_threadpool(work))


def routes() -> list[BaseRoute]:
    return [
        Route(API + "/lobbies/{lobby_id}/members/{user_id}/invites", create_invite, methods=["POST"]),
        Route(API + "/invites/{code}", get_invite, methods=["GET"]),
        Route(API + "/invites/{code}", accept_invite, methods=["POST"]),
    ]
