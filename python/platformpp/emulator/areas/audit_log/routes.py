"""``GET /guilds/{guild_id}/audit-logs``: VIEW_AUDIT_LOG; filters user_id, target_id, action_type,
before, after, limit (1-100, default 50); the entries with the users, webhooks, scheduled events and
auto moderation rules (and the unmodelled integrations, threads and commands, always empty) they refer to."""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import json_response
from ...core.http import emulator_state, query_int, query_snowflake, snowflake_param
from ...core.permissions import Permission
from ...core.routing import Route
from ...core.validation import field_error
from ...events.outbox import Outbox
from ...paths import API
from ...wire.message import scheduled_event_json
from ...wire.user import public_user_json
from ..auto_moderation.listing import referenced_rules
from ..guilds.access import require_guild_permission, require_member
from ..guilds.work import in_transaction, writer
from . import actions, store

# Entries whose target is a user (member moderation): their targets are listed in ``users``.
USER_TARGETS = {actions.MEMBER_KICK, actions.MEMBER_BAN_ADD, actions.MEMBER_BAN_REMOVE, actions.MEMBER_UPDATE,
                actions.MEMBER_ROLE_UPDATE, 26, 27, 28}
RULE_TARGETS = {actions.AUTO_MODERATION_RULE_CREATE, actions.AUTO_MODERATION_RULE_UPDATE,
                actions.AUTO_MODERATION_RULE_DELETE}
EVENT_TARGETS = {actions.GUILD_SCHEDULED_EVENT_CREATE, actions.GUILD_SCHEDULED_EVENT_UPDATE,
                 actions.GUILD_SCHEDULED_EVENT_DELETE}
PUBLISHED_TYPES = frozenset({
    1, *range(10, 16), *range(20, 29), 30, 31, 32, 40, 41, 42, 50, 51, 52, 60, 61, 62, 72, 73, 74, 75, 80, 81,
    82, 83, 84, 85, 90, 91, 92, 100, 101, 102, 110, 111, 112, 121, 130, 131, 132, *range(140, 147), 150, 151,
    163, 164, 165, 166, 167, 190, 191, 192, 193, 211})


async def list_entries(request: Request) -> Response:
    principal = writer(request)
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    user_id, target_id = query_snowflake(request, "user_id"), query_snowflake(request, "target_id")
    before, after = query_snowflake(request, "before"), query_snowflake(request, "after")
    action_type = query_int(request, "action_type", minimum=1, maximum=1000, default=0) or None
    if action_type is not None and action_type not in PUBLISHED_TYPES:
        raise field_error("action_type", "ENUM_TYPE_COERCE",
                          f"Value {action_type} is not a valid audit log action type.")
    limit = query_int(request, "limit", minimum=1, maximum=100, default=50)

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        who = require_member(conn, guild_id, principal.user_id, state.clock.now())
        require_guild_permission(who, Permission.VIEW_AUDIT_LOG)
        rows = store.entries(conn, guild_id, user_id=user_id, target_id=target_id, action_type=action_type,
                             before=before, after=after, limit=limit)
        return {"audit_log_entries": [store.entry_json(row) for row in rows],
                **_references(conn, guild_id, rows), "webhooks": [], "integrations": [], "threads": [],
                "application_commands": [],
                "auto_moderation_rules": referenced_rules(conn, guild_id, {
                    row["target_id"] for row in rows if row["action_type"] in RULE_TARGETS})}

    return json_response(await in_transaction(request, work))


def _references(conn: sqlite3.Connection, guild_id: int, rows: list[sqlite3.Row]) -> dict[str, Any]:
    user_ids = {row["user_id"] for row in rows if row["user_id"] is not None}
    user_ids |= {row["target_id"] for row in rows if row["action_type"] in USER_TARGETS and row["target_id"]}
    user_marks = ", ".join("?" * len(user_ids))
    users = [public_user_json(user) for user in conn.execute(
        f"SELECT * FROM users WHERE id IN ({user_marks}) ORDER BY id", sorted(user_ids))]
    event_ids = sorted({row["target_id"] for row in rows if row["action_type"] in EVENT_TARGETS})
    marks = ", ".join("?" * len(event_ids))
    found = conn.execute(f"SELECT * FROM guild_scheduled_events WHERE guild_id = ? AND id IN ({marks})",
                         (guild_id, *event_ids))
    events = [scheduled_event_json(event, _creator(conn, event["creator_id"]), None)
              for event in found.fetchall()]
    return {"users": users, "guild_scheduled_events": events}


def _creator(conn: sqlite3.Connection, user_id: int | None) -> dict[str, Any] | None:
    row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone() if user_id else None
    return public_user_json(row) if row else None


def routes() -> list[BaseRoute]:
    return [Route(API + "/guilds/{guild_id}/audit-logs", list_entries, methods=["GET"])]
