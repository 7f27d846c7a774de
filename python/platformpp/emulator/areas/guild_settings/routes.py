"""The guild settings routes (Bot): the vanity URL, the guild preview, incident actions, and join
requests (list, approve or reject)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import errors
from ...core.errors import json_response
from ...core.http import emulator_state, query_int, query_snowflake, snowflake_param
from ...core.permissions import Permission
from ...core.routing import Route
from ...core.validation import field_error, read_form
from ...events.outbox import Outbox
from ...paths import API
from ...wire.guild import vanity_url_code
from ..expressions import listing as expressions
from ..guilds.access import missing_permissions, require_guild_permission, require_member, standing
from ..guilds.dispatch import guild_bots, to_guild
from ..guilds.store import guild_object
from ..guilds.work import in_transaction, writer
from ..invites.store import counts
from . import incidents, join_requests, reviews

DISCOVERABLE = "DISCOVERABLE"
# Reviewing join requests: either permission will do (the platform's moderators hold one or the other).
REVIEWERS = int(Permission.KICK_MEMBERS | Permission.MANAGE_GUILD)


async def vanity_url(request: Request) -> Response:
    """GET /guilds/{guild_id}/vanity-url: MANAGE_GUILD; ``code`` only with the VANITY_URL feature."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        who = require_member(conn, guild_id, principal.user_id, state.clock.now())
        require_guild_permission(who, Permission.MANAGE_GUILD)
        row = conn.execute("SELECT * FROM guilds WHERE id = ?", (guild_id,)).fetchone()
        code = vanity_url_code(row)
        return {"code": code, "uses": row["vanity_url_uses"] if code is not None else 0}

    return json_response(await in_transaction(request, work))


async def preview(request: Request) -> Response:
    """GET /guilds/{guild_id}/preview: a member's guild, or any DISCOVERABLE guild (else 10004)."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        row = conn.execute("SELECT * FROM guilds WHERE id = ?", (guild_id,)).fetchone()
        features = json.loads(row["features"]) if row is not None else []
        if row is None or (DISCOVERABLE not in features
                           and standing(conn, guild_id, principal.user_id, state.clock.now()) is None):
            raise errors.not_found(errors.UNKNOWN_GUILD, "Guild")
        return {"id": str(row["id"]), "name": row["name"], "icon": row["icon"], "splash": None,
                "discovery_splash": None, "home_header": None, "description": row["description"],
                "features": features, **counts(conn, guild_id),
                "emojis": expressions.emojis(conn, guild_id, with_user=False),
                "stickers": expressions.stickers(conn, guild_id, with_user=False)}

    return json_response(await in_transaction(request, work))


async def incident_actions(request: Request) -> Response:
    """PUT /guilds/{guild_id}/incident-actions ``{invites_disabled_until?, dms_disabled_until?}``:
    MANAGE_GUILD; each at most 24 hours ahead; an absent field is null (the PUT replaces both);
    GUILD_UPDATE with the new ``incidents_data``."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    form = await read_form(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        now = state.clock.now()
        who = require_member(conn, guild_id, principal.user_id, now)
        require_guild_permission(who, Permission.MANAGE_GUILD)
        values = {name: incidents.read_until(form, name, now) for name in incidents.FIELDS}
        form.done()
        conn.execute("UPDATE guilds SET invites_disabled_until = ?, dms_disabled_until = ? WHERE id = ?",
                     (values["invites_disabled_until"], values["dms_disabled_until"], guild_id))
        to_guild(outbox, guild_bots(conn, guild_id, now), "GUILD_UPDATE", guild_object(conn, guild_id))
        return values

    return json_response(await in_transaction(request, work))


def _require_reviewer(conn: sqlite3.Connection, guild_id: int, user_id: int, now: Any) -> None:
    who = require_member(conn, guild_id, user_id, now)
    if not who.base & REVIEWERS:
        raise missing_permissions(int(Permission.KICK_MEMBERS))


async def list_join_requests(request: Request) -> Response:
    """GET /guilds/{guild_id}/requests?status=&limit=1..100&before=&after=: KICK_MEMBERS or
    MANAGE_GUILD; ``after`` pages forwards (oldest first, the default), ``before`` backwards;
    ``total`` counts every request with that status."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    status = request.query_params.get("status")
    if status is not None and status not in join_requests.STATUSES:
        raise field_error("status", "BASE_TYPE_CHOICES", f"Value must be one of {list(join_requests.STATUSES)}.")
    limit = query_int(request, "limit", default=100, minimum=1, maximum=100)
    before, after = query_snowflake(request, "before"), query_snowflake(request, "after")

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        _require_reviewer(conn, guild_id, principal.user_id, state.clock.now())
        where = "guild_id = ?"
        params: list[Any] = [guild_id]
        if status is not None:
            where += " AND status = ?"
            params.append(status)
        total = conn.execute(f"SELECT COUNT(*) FROM guild_join_requests WHERE {where}", params).fetchone()[0]
        if before is not None and after is None:
            rows = conn.execute(f"SELECT * FROM guild_join_requests WHERE {where} AND id < ? ORDER BY id DESC"
                                " LIMIT ?", (*params, before, limit)).fetchall()[::-1]
        else:
            bounds = " AND id > ?" + (" AND id < ?" if before is not None else "")
            extra = [after or 0, *([before] if before is not None else [])]
            rows = conn.execute(f"SELECT * FROM guild_join_requests WHERE {where}{bounds} ORDER BY id LIMIT ?",
                                (*params, *extra, limit)).fetchall()
        return {"guild_join_requests": [join_requests.request_json(conn, row) for row in rows], "total": total}

    return json_response(await in_transaction(request, work))


async def action_join_request(request: Request) -> Response:
    """PATCH /guilds/{guild_id}/requests/{request_id} ``{action: APPROVED | REJECTED, rejection_reason?}``
    (≤ 160): KICK_MEMBERS or MANAGE_GUILD; a request already actioned is refused."""
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    request_id = snowflake_param(request, "request_id")
    state = emulator_state(request)
    form = await read_form(request)
    action = form.choice("action", join_requests.ACTIONS)
    reason = form.string("rejection_reason", required=False, nullable=True, max_len=160)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        now = state.clock.now()
        _require_reviewer(conn, guild_id, principal.user_id, now)
        form.done()
        row = join_requests.get(conn, guild_id, request_id)
        updated = reviews.review(conn, outbox, now, row, action=action, reason=reason,
                                 moderator_id=principal.user_id)
        return join_requests.request_json(conn, updated)

    return json_response(await in_transaction(request, work))


def routes() -> list[BaseRoute]:
    guild = API + "/guilds/{guild_id}"
    return [
        Route(guild + "/vanity-url", vanity_url, methods=["GET"]),
        Route(guild + "/preview", preview, methods=["GET"]),
        Route(guild + "/incident-actions", incident_actions, methods=["PUT"]),
        Route(guild + "/requests", list_join_requests, methods=["GET"]),
        Route(guild + "/requests/{request_id}", action_join_request, methods=["PATCH"]),
    ]
