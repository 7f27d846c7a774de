"""Bans (get, list, ban with delete_message_seconds, unban, bulk ban) and prune (count, begin).

Banning needs BAN_MEMBERS (bulk ban also MANAGE_GUILD) and the hierarchy over a member target.
Prune needs ADMINISTRATOR when the guild has the feature PRUNE_REQUIRES_ADMIN, otherwise MANAGE_GUILD
and KICK_MEMBERS (seed, Endpoints)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import errors
from ...core.audit_reason import current_reason
from ...core.errors import ApiError, json_response
from ...core.http import emulator_state, query_int, query_snowflake, snowflake_param
from ...core.permissions import Permission
from ...core.routing import Route
from ...core.validation import Form, read_json
from ...events.outbox import Outbox
from ...paths import API
from ..channel_messages.attachments import remove_files
from ..guilds.access import Standing, require_above, require_guild_permission, require_member, standing
from ..guilds.work import in_transaction, writer
from . import bans, prune

BULK_BAN_FAILED = 500000
MAX_BULK_BAN = 200
MAX_DELETE_SECONDS = 7 * 86400


def _bannable(conn: sqlite3.Connection, who: Standing, guild_id: int, user_id: int, now: Any) -> bool:
    """False for a user the actor may not ban (no such user, the owner, themselves, or a member at or
    above the actor's highest role)."""
    if conn.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is None:
        return False
    target = standing(conn, guild_id, user_id, now)
    if target is None:
        return True
    if target.is_owner or user_id == who.context.user_id:
        return False
    return who.is_owner or target.highest_position < who.highest_position


def _delete_seconds(form: Form) -> int:
    seconds = form.integer("delete_message_seconds", required=False, minimum=0, maximum=MAX_DELETE_SECONDS)
    days = form.integer("delete_message_days", required=False, minimum=0, maximum=7)
    return seconds if seconds is not None else (days or 0) * 86400


async def put_ban(request: Request) -> Response:
    principal = writer(request)
    guild_id, user_id = snowflake_param(request, "guild_id"), snowflake_param(request, "user_id")
    state = emulator_state(request)
    form = Form(await read_json(request, allow_empty=True))
    seconds = _delete_seconds(form)
    form.done()

    def work(conn: sqlite3.Connection, outbox: Outbox) -> list[int]:
        now = state.clock.now()
        who = require_member(conn, guild_id, principal.user_id, now)
        require_guild_permission(who, Permission.BAN_MEMBERS)
        if conn.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is None:
            raise errors.not_found(errors.UNKNOWN_USER, "User")
        target = standing(conn, guild_id, user_id, now)
        if target is not None:
            if target.is_owner:
                raise ApiError(403, errors.MISSING_PERMISSIONS,
                               "Missing Permissions: the owner cannot be banned")
            if user_id != principal.user_id:
                require_above(who, target.highest_position, "the member's highest role")
        return bans.ban(conn, outbox, now, guild_id=guild_id, user_id=user_id, actor_id=principal.user_id,
                        reason=current_reason(), delete_message_seconds=seconds)

    remove_files(state, await in_transaction(request, work))
    return Response(status_code=204)


async def delete_ban(request: Request) -> Response:
    principal = writer(request)
    guild_id, user_id = snowflake_param(request, "guild_id"), snowflake_param(request, "user_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        now = state.clock.now()
        who = require_member(conn, guild_id, principal.user_id, now)
        require_guild_permission(who, Permission.BAN_MEMBERS)
        bans.unban(conn, outbox, now, guild_id=guild_id, user_id=user_id, actor_id=principal.user_id)

    await in_transaction(request, work)
    return Response(status_code=204)


async def get_ban(request: Request) -> Response:
    principal = writer(request)
    guild_id, user_id = snowflake_param(request, "guild_id"), snowflake_param(request, "user_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        require_guild_permission(require_member(conn, guild_id, principal.user_id, state.clock.now()),
                                 Permission.BAN_MEMBERS)
        return bans.get_ban(conn, guild_id, user_id)

    return json_response(await in_transaction(request, work))


async def list_bans(request: Request) -> Response:
    """GET /guilds/{guild_id}/bans?limit=1..1000&before=&after=: by user id."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    limit = query_int(request, "limit", minimum=1, maximum=1000, default=1000)
    before, after = query_snowflake(request, "before"), query_snowflake(request, "after")

    def work(conn: sqlite3.Connection, _: Outbox) -> list[dict[str, Any]]:
        require_guild_permission(require_member(conn, guild_id, principal.user_id, state.clock.now()),
                                 Permission.BAN_MEMBERS)
        return bans.list_bans(conn, guild_id, limit=limit, before=before, after=after)

    return json_response(await in_transaction(request, work))


async def bulk_ban(request: Request) -> Response:
    """POST /guilds/{guild_id}/bulk-ban ``{user_ids: 1-200, delete_message_seconds?}``: BAN_MEMBERS and
    MANAGE_GUILD; ``{banned_users, failed_users}`` (already banned, unknown or protected users fail);
    400 / 500000 when none could be banned."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    form = Form(await read_json(request))
    raw = form.array("user_ids", min_items=1, max_items=MAX_BULK_BAN) or []
    user_ids: list[int] = []
    items = Form({}, form.errors, (*form.path, "user_ids"))
    for index, value in enumerate(raw):
        user_id = items.coerce_snowflake(index, value)
        if user_id is not None and user_id not in user_ids:
            user_ids.append(user_id)
    seconds = form.integer("delete_message_seconds", required=False, minimum=0,
                           maximum=MAX_DELETE_SECONDS) or 0
    form.done()

    def work(conn: sqlite3.Connection, outbox: Outbox) -> tuple[dict[str, list[str]], list[int]]:
        now = state.clock.now()
        who = require_member(conn, guild_id, principal.user_id, now)
        require_guild_permission(who, Permission.BAN_MEMBERS | Permission.MANAGE_GUILD)
        banned: list[str] = []
        failed: list[str] = []
        removed: list[int] = []
        for user_id in user_ids:
            if not _bannable(conn, who, guild_id, user_id, now) or bans.is_banned(conn, guild_id, user_id):
                failed.append(str(user_id))
                continue
            removed += bans.ban(conn, outbox, now, guild_id=guild_id, user_id=user_id,
                                actor_id=principal.user_id, reason=current_reason(),
                                delete_message_seconds=seconds)
            banned.append(str(user_id))
        if not banned:
            raise ApiError(400, BULK_BAN_FAILED, "Failed to ban users")
        return {"banned_users": banned, "failed_users": failed}, removed

    answer, removed = await in_transaction(request, work)
    remove_files(state, removed)
    return json_response(answer)


def _include_roles(form: Form, raw: Any) -> set[int]:
    """``include_roles``: an array of role ids, or (query) one comma-separated string."""
    if raw is None:
        return set()
    values = raw.split(",") if isinstance(raw, str) else raw
    if not isinstance(values, list) or len(values) > 100:
        form.fail("include_roles", "BASE_TYPE_BAD_ARRAY", "Must be at most 100 role ids.")
        return set()
    items = Form({}, form.errors, (*form.path, "include_roles"))
    roles = set()
    for index, value in enumerate(values):
        if value not in ("", None):
            role_id = items.coerce_snowflake(index, value)
            if role_id is not None:
                roles.add(role_id)
    return roles


def _require_prune(conn: sqlite3.Connection, guild_id: int, user_id: int, now: Any) -> None:
    who = require_member(conn, guild_id, user_id, now)
    features = json.loads(conn.execute("SELECT features FROM guilds WHERE id = ?", (guild_id,)).fetchone()[0])
    if "PRUNE_REQUIRES_ADMIN" in features:
        require_guild_permission(who, Permission.ADMINISTRATOR)
    else:
        require_guild_permission(who, Permission.MANAGE_GUILD | Permission.KICK_MEMBERS)


async def prune_count(request: Request) -> Response:
    """GET /guilds/{guild_id}/prune?days=1..30 (7)&include_roles=a,b: ``{pruned}`` (nothing removed)."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    days = query_int(request, "days", minimum=1, maximum=30, default=7)
    form = Form(dict(request.query_params))
    include = _include_roles(form, form.data.get("include_roles"))
    form.done()

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        now = state.clock.now()
        _require_prune(conn, guild_id, principal.user_id, now)
        return {"pruned": len(prune.prunable(conn, guild_id, now, days, include))}

    return json_response(await in_transaction(request, work))


async def begin_prune(request: Request) -> Response:
    """POST /guilds/{guild_id}/prune ``{days?, compute_prune_count?, include_roles?}``: ``{pruned}``
    (null when compute_prune_count is false)."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    form = Form(await read_json(request, allow_empty=True))
    days = form.integer("days", required=False, minimum=1, maximum=30) or 7
    compute = form.boolean("compute_prune_count", default=True)
    include = _include_roles(form, form.data.get("include_roles"))
    form.done()

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        now = state.clock.now()
        _require_prune(conn, guild_id, principal.user_id, now)
        pruned = prune.prune(conn, outbox, now, guild_id=guild_id, actor_id=principal.user_id, days=days,
                             include_roles=include)
        return {"pruned": pruned if compute else None}

    return json_response(await in_transaction(request, work))


def routes() -> list[BaseRoute]:
    guild = API + "/guilds/{guild_id}"
    return [
        Route(guild + "/bans", list_bans, methods=["GET"]),
        Route(guild + "/bans/{user_id}", get_ban, methods=["GET"]),
        Route(guild + "/bans/{user_id}", put_ban, methods=["PUT"]),
        Route(guild + "/bans/{user_id}", delete_ban, methods=["DELETE"]),
        Route(guild + "/bulk-ban", bulk_ban, methods=["POST"]),
        Route(guild + "/prune", prune_count, methods=["GET"]),
        Route(guild + "/prune", begin_prune, methods=["POST"]),
    ]
