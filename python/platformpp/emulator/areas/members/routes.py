"""The member routes. Listing members needs the app's GUILD_MEMBERS intent flag (50001 without);
changing a member follows the role hierarchy (the target's highest role, and each role granted or
removed, must be below the bot's highest role; nobody acts on the owner)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth, errors
from ...core.auth import resolve_access_token
from ...core.clock import format_instant
from ...core.errors import ApiError, json_response
from ...core.http import emulator_state, query_int, query_snowflake, snowflake_param
from ...core.permissions import ALL, Permission
from ...core.routing import Route
from ...core.validation import Form, read_form
from ...events.outbox import Outbox
from ...paths import API
from ...wire.member import member_json, own_member_json
from ..audit_log import actions as audit_actions
from ..audit_log import store as audit_log
from ..audit_log import trail as audit_trail
from ..cdn import store as cdn
from ..cdn.images import Upload
from ..guilds import mutations
from ..guilds.access import (
    Standing,
    missing_access,
    require_above,
    require_guild_permission,
    require_member,
    standing,
)
from ..guilds.mutations import read_image
from ..guilds.store import existing_member_row, member_row, members_of
from ..guilds.work import in_transaction, reader, writer
from ..voice_states.moderation import apply_member_voice_flags

# Application flags that enable the GUILD_MEMBERS privileged intent (GATEWAY_GUILD_MEMBERS[_LIMITED]).
GUILD_MEMBERS_FLAGS = (1 << 14) | (1 << 15)


def _member(conn: sqlite3.Connection, guild_id: int, user_id: int) -> sqlite3.Row:
    return existing_member_row(conn, guild_id, user_id)


def _may_act_on(who: Standing, target: Standing) -> None:
    """The hierarchy: not on the owner, and only on members whose highest role is below the bot's."""
    if target.is_owner and not who.is_owner:
        raise ApiError(403, errors.MISSING_PERMISSIONS, "Missing Permissions: the owner is above everyone")
    if target.context.user_id != who.context.user_id:
        require_above(who, target.highest_position, "the member's highest role")


async def list_members(request: Request) -> Response:
    """GET /guilds/{guild_id}/members?limit=1..1000&after=: by user id."""
    principal = reader(request)
    guild_id = snowflake_param(request, "guild_id")
    now = emulator_state(request).clock.now()
    limit = query_int(request, "limit", minimum=1, maximum=1000, default=1)
    after = query_snowflake(request, "after") or 0

    def work(conn: sqlite3.Connection, _: Outbox) -> list[dict[str, Any]]:
        require_member(conn, guild_id, principal.user_id, now)
        if principal.kind == "bot":
            app = conn.execute("SELECT flags FROM applications WHERE id = ?",
                               (principal.application_id,)).fetchone()
            if not app or not app["flags"] & GUILD_MEMBERS_FLAGS:
                raise ApiError(403, errors.MISSING_ACCESS,
                               "Missing Access: the GUILD_MEMBERS intent is not enabled")
        return members_of(conn, guild_id, limit, after)

    return json_response(await in_transaction(request, work))


async def search_members(request: Request) -> Response:
    """GET /guilds/{guild_id}/members/search?query=&limit=: members whose username, global name or
    nickname starts with ``query`` (case-insensitive), by user id."""
    principal = reader(request)
    guild_id = snowflake_param(request, "guild_id")
    now = emulator_state(request).clock.now()
    form = Form(dict(request.query_params))
    query = (form.string("query", min_len=1, max_len=100) or "").lower()
    form.done()
    limit = query_int(request, "limit", minimum=1, maximum=1000, default=1)

    def work(conn: sqlite3.Connection, _: Outbox) -> list[dict[str, Any]]:
        require_member(conn, guild_id, principal.user_id, now)
        found = [m for m in members_of(conn, guild_id)
                 if any((name or "").lower().startswith(query)
                        for name in (m["user"]["username"], m["user"]["global_name"], m["nick"]))]
        return found[:limit]

    return json_response(await in_transaction(request, work))


async def get_member(request: Request) -> Response:
    principal = reader(request)
    guild_id = snowflake_param(request, "guild_id")
    user_id = snowflake_param(request, "user_id")
    now = emulator_state(request).clock.now()

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        require_member(conn, guild_id, principal.user_id, now)
        return member_json(_member(conn, guild_id, user_id))

    return json_response(await in_transaction(request, work))


async def my_member(request: Request) -> Response:
    """GET /users/@me/guilds/{guild_id}/member: the user's own member (scope ``guilds.members.read``, or
    the social SDK's, which the guild routes accept for SDK users)."""
    principal = auth.require(request, kinds=("bearer",))
    if not {"guilds.members.read", "sdk.social_layer"} & principal.scopes:
        raise ApiError(403, errors.MISSING_ACCESS,
                       "Missing Access: the token lacks scope 'guilds.members.read'.")
    guild_id = snowflake_param(request, "guild_id")
    now = emulator_state(request).clock.now()

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        require_member(conn, guild_id, principal.user_id, now)
        return member_json(_member(conn, guild_id, principal.user_id))

    return json_response(await in_transaction(request, work))


async def patch_member(request: Request) -> Response:
    """PATCH /guilds/{guild_id}/members/{user_id}: ``nick`` (MANAGE_NICKNAMES, or CHANGE_NICKNAME on
    oneself), ``roles`` (MANAGE_ROLES), ``communication_disabled_until`` (MODERATE_MEMBERS; not on an
    administrator), ``mute`` / ``deaf`` (MUTE_MEMBERS / DEAFEN_MEMBERS); GUILD_MEMBER_UPDATE."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    user_id = snowflake_param(request, "user_id")
    state = emulator_state(request)
    form = await read_form(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        now = state.clock.now()
        who = require_member(conn, guild_id, principal.user_id, now)
        _member(conn, guild_id, user_id)
        target = standing(conn, guild_id, user_id, now)
        assert target is not None
        changes: dict[str, Any] = {}
        needed = 0
        if "nick" in form.data:
            changes["nick"] = form.string("nick", required=False, nullable=True, max_len=32) or None
            own = user_id == principal.user_id
            needed |= Permission.CHANGE_NICKNAME if own else Permission.MANAGE_NICKNAMES
        if "roles" in form.data:
            changes["roles"] = _checked_roles(conn, form, who, guild_id, user_id)
            needed |= Permission.MANAGE_ROLES
        present, until = mutations.read_timeout(form, now)
        if present:
            changes["communication_disabled_until"] = until
            needed |= Permission.MODERATE_MEMBERS
            if target.base == ALL and until is not None:
                raise ApiError(403, errors.MISSING_PERMISSIONS,
                               "Missing Permissions: the owner and administrators cannot be timed out")
        for field, bit in (("mute", Permission.MUTE_MEMBERS), ("deaf", Permission.DEAFEN_MEMBERS)):
            if field in form.data:
                changes[field] = int(form.boolean(field))
                needed |= bit
        if form.data.get("channel_id") is not None:
            form.fail("channel_id", "VOICE_NOT_MODELLED",
                      "Moving members between voice channels is not modelled.")
        form.done()
        require_guild_permission(who, needed)
        if needed & ~Permission.CHANGE_NICKNAME:
            _may_act_on(who, target)
        before = member_json(_member(conn, guild_id, user_id))
        updated = mutations.modify_member(conn, outbox, now, guild_id, user_id, changes)
        apply_member_voice_flags(conn, outbox, state, guild_id, user_id, changes)
        audit_trail.member(conn, guild_id, principal.user_id, user_id, before, updated)
        return {k: v for k, v in updated.items() if k != "guild_id"}

    return json_response(await in_transaction(request, work))


def _checked_roles(conn: sqlite3.Connection, form: Form, who: Standing, guild_id: int,
                   user_id: int) -> list[int]:
    raw = form.array("roles", required=False, max_items=350) or []
    current = set(mutations.member_role_ids(conn, guild_id, user_id))
    wanted: list[int] = []
    for index, value in enumerate(raw):
        role_id = form.coerce_snowflake("roles", value)
        if role_id is None:
            continue
        row = conn.execute("SELECT position, managed FROM roles WHERE id = ? AND guild_id = ?",
                           (role_id, guild_id)).fetchone()
        if row is None or role_id == guild_id:
            form.errors.add((*form.path, "roles", index), "UNKNOWN_ROLE",
                            f"No role {role_id} to grant in this guild.")
            continue
        if role_id not in wanted:
            wanted.append(role_id)
    for role_id in current.symmetric_difference(wanted):
        row = conn.execute("SELECT position, managed FROM roles WHERE id = ?", (role_id,)).fetchone()
        if row is None:
            continue
        if row["managed"]:
            raise ApiError(403, errors.MISSING_PERMISSIONS,
                           "Missing Permissions: a managed role is not granted by hand")
        require_above(who, row["position"], f"role {role_id}")
    return wanted


async def patch_me(request: Request) -> Response:
    """PATCH /guilds/{guild_id}/members/@me ``{nick?, avatar?, banner?, bio?}``: the bot's own member."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    form = await read_form(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        now = state.clock.now()
        who = require_member(conn, guild_id, principal.user_id, now)
        changes: dict[str, Any] = {}
        uploads: dict[str, Upload] = {}
        if "nick" in form.data:
            changes["nick"] = form.string("nick", required=False, nullable=True, max_len=32) or None
        for field in ("avatar", "banner"):
            if field in form.data:
                changes[field] = read_image(form, field, uploads)
        if "bio" in form.data:
            changes["bio"] = form.string("bio", required=False, nullable=True, max_len=190)
        form.done()
        if "nick" in changes:
            require_guild_permission(who, Permission.CHANGE_NICKNAME)
        before = own_member_json(_member(conn, guild_id, principal.user_id))
        # The images, as uploaded, served back at the CDN's member avatar and banner paths.
        for field, path_of in (("avatar", cdn.member_avatar_path), ("banner", cdn.member_banner_path)):
            if field in uploads:
                cdn.save(conn, path_of(guild_id, principal.user_id, uploads[field].hash), uploads[field], now)
        mutations.modify_member(conn, outbox, now, guild_id, principal.user_id, changes)
        audit_trail.member(conn, guild_id, principal.user_id, principal.user_id, before,
                           own_member_json(_member(conn, guild_id, principal.user_id)))
        return own_member_json(_member(conn, guild_id, principal.user_id))

    return json_response(await in_transaction(request, work))


async def put_member_role(request: Request) -> Response:
    return await _member_role(request, add=True)


async def delete_member_role(request: Request) -> Response:
    return await _member_role(request, add=False)


async def _member_role(request: Request, add: bool) -> Response:
    """PUT / DELETE /guilds/{guild_id}/members/{user_id}/roles/{role_id}: MANAGE_ROLES, the role below
    the bot's highest; 204; GUILD_MEMBER_UPDATE."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    user_id = snowflake_param(request, "user_id")
    role_id = snowflake_param(request, "role_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        now = state.clock.now()
        who = require_member(conn, guild_id, principal.user_id, now)
        require_guild_permission(who, Permission.MANAGE_ROLES)
        _member(conn, guild_id, user_id)
        role = conn.execute("SELECT position, managed FROM roles WHERE id = ? AND guild_id = ?",
                            (role_id, guild_id)).fetchone()
        if role is None or role_id == guild_id:
            raise errors.not_found(10011, "Role")
        require_above(who, role["position"], "the role")
        if role["managed"]:
            raise ApiError(403, errors.MISSING_PERMISSIONS,
                           "Missing Permissions: a managed role is not granted by hand")
        before = member_json(_member(conn, guild_id, user_id))
        mutations.set_member_role(conn, outbox, now, guild_id, user_id, role_id, add)
        audit_trail.member(conn, guild_id, principal.user_id, user_id, before,
                           member_json(_member(conn, guild_id, user_id)))

    await in_transaction(request, work)
    return Response(status_code=204)


async def kick_member(request: Request) -> Response:
    """DELETE /guilds/{guild_id}/members/{user_id}: KICK_MEMBERS and the hierarchy; 204;
    GUILD_MEMBER_REMOVE (and GUILD_DELETE to a kicked bot)."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    user_id = snowflake_param(request, "user_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        now = state.clock.now()
        who = require_member(conn, guild_id, principal.user_id, now)
        require_guild_permission(who, Permission.KICK_MEMBERS)
        _member(conn, guild_id, user_id)
        target = standing(conn, guild_id, user_id, now)
        if target is None:
            raise missing_access()
        _may_act_on(who, target)
        mutations.remove_member(conn, outbox, now, guild_id, user_id)
        audit_log.record(conn, guild_id=guild_id, user_id=principal.user_id,
                         action_type=audit_actions.MEMBER_KICK, target_id=user_id)

    await in_transaction(request, work)
    return Response(status_code=204)


async def add_member(request: Request) -> Response:
    """PUT /guilds/{guild_id}/members/{user_id} ``{access_token, nick?, roles?, mute?, deaf?}``: adds the
    user through an access token of the bot's application carrying ``guilds.join`` (the bot needs
    CREATE_INSTANT_INVITE, and MANAGE_NICKNAMES / MANAGE_ROLES / MUTE_MEMBERS / DEAFEN_MEMBERS for the
    other fields). 201 with the member; 204 when already a member; GUILD_MEMBER_ADD."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    user_id = snowflake_param(request, "user_id")
    state = emulator_state(request)
    form = await read_form(request)
    token = form.string("access_token", min_len=1, max_len=10240)
    form.done()
    grant = resolve_access_token(state, token or "")
    if grant is None or grant.user_id != user_id or grant.application_id != principal.application_id \
            or "guilds.join" not in grant.scopes:
        form.fail("access_token", "ACCESS_TOKEN_INVALID",
                  "Must be a valid access token of this application for this user, with scope guilds.join.")
        form.done()

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any] | None:
        now = state.clock.now()
        who = require_member(conn, guild_id, principal.user_id, now)
        if member_row(conn, guild_id, user_id) is not None:
            return None
        needed = int(Permission.CREATE_INSTANT_INVITE)
        roles: list[int] = []
        if "roles" in form.data:
            roles = _checked_roles(conn, form, who, guild_id, user_id)
            needed |= Permission.MANAGE_ROLES
        nick = form.string("nick", required=False, nullable=True, max_len=32) or None
        if nick is not None:
            needed |= Permission.MANAGE_NICKNAMES
        mute, deaf = form.boolean("mute"), form.boolean("deaf")
        needed |= (Permission.MUTE_MEMBERS if mute else 0) | (Permission.DEAFEN_MEMBERS if deaf else 0)
        form.done()
        require_guild_permission(who, needed)
        conn.execute("INSERT INTO members (guild_id, user_id, nick, roles, joined_at, mute, deaf)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?)",
                     (guild_id, user_id, nick, json.dumps([str(r) for r in roles]), format_instant(now),
                      int(mute), int(deaf)))
        mutations.member_added(conn, outbox, now, guild_id, user_id)
        return member_json(_member(conn, guild_id, user_id))

    member = await in_transaction(request, work)
    return Response(status_code=204) if member is None else json_response(member, 201)


def routes() -> list[BaseRoute]:
    base = API + "/guilds/{guild_id}/members"
    return [
        Route(base, list_members, methods=["GET"]),
        Route(base + "/@me", patch_me, methods=["PATCH"]),
        Route(base + "/search", search_members, methods=["GET"]),
        Route(base + "/{user_id}", get_member, methods=["GET"]),
        Route(base + "/{user_id}", add_member, methods=["PUT"]),
        Route(base + "/{user_id}", patch_member, methods=["PATCH"]),
        Route(base + "/{user_id}", kick_member, methods=["DELETE"]),
        Route(base + "/{user_id}/roles/{role_id}", put_member_role, methods=["PUT"]),
        Route(base + "/{user_id}/roles/{role_id}", delete_member_role, methods=["DELETE"]),
        Route(API + "/users/@me/guilds/{guild_id}/member", my_member, methods=["GET"]),
    ]
