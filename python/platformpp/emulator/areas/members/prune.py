"""Prune: members inactive for ``days`` (their last activity, or their join, before now - days on the
emulator clock) are removed; members holding any role are kept unless every role they hold is one
of ``include_roles``. Bots and the owner are never pruned."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta

from ...core.clock import format_instant
from ...events.outbox import Outbox
from ..audit_log import actions
from ..audit_log import store as audit_log
from ..guilds import mutations


def prunable(conn: sqlite3.Connection, guild_id: int, now: datetime, days: int,
             include_roles: set[int]) -> list[int]:
    cutoff = format_instant(now - timedelta(days=days))
    owner = conn.execute("SELECT owner_id FROM guilds WHERE id = ?", (guild_id,)).fetchone()["owner_id"]
    rows = conn.execute("SELECT m.user_id, m.roles FROM members m JOIN users u ON u.id = m.user_id"
                        " WHERE m.guild_id = ? AND u.bot = 0 AND m.user_id != ?"
                        " AND COALESCE(m.last_active_at, m.joined_at) < ? ORDER BY m.user_id",
                        (guild_id, owner, cutoff)).fetchall()
    return [row["user_id"] for row in rows if {int(r) for r in json.loads(row["roles"])} <= include_roles]


def prune(conn: sqlite3.Connection, outbox: Outbox, now: datetime, *, guild_id: int, actor_id: int, days: int,
          include_roles: set[int]) -> int:
    """Removes them (GUILD_MEMBER_REMOVE each) and writes one MEMBER_PRUNE entry."""
    removed = prunable(conn, guild_id, now, days, include_roles)
    for user_id in removed:
        mutations.remove_member(conn, outbox, now, guild_id, user_id)
    audit_log.record(conn, guild_id=guild_id, user_id=actor_id, action_type=actions.MEMBER_PRUNE,
                     options={"delete_member_days": days, "members_removed": len(removed)})
    return len(removed)
