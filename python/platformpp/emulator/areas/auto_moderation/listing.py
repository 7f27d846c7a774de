"""Reading auto moderation rules as wire objects (what the routes answer and the rule dispatches
carry), and which bots hear about them. Imports nothing of the area's routes."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime

from ...core.permissions import Permission
from ...events.audience import Payload, Viewer
from ...events.outbox import Outbox
from ..guilds.access import standing
from ..guilds.dispatch import guild_bots

AUTO_MODERATION_CONFIGURATION = 1 << 20
AUTO_MODERATION_EXECUTION = 1 << 21
MESSAGE_CONTENT_INTENT = 1 << 15


def rule_json(row: sqlite3.Row) -> Payload:
    return {"id": str(row["id"]), "guild_id": str(row["guild_id"]), "creator_id": str(row["creator_id"]),
            "name": row["name"], "event_type": row["event_type"], "trigger_type": row["trigger_type"],
            "trigger_metadata": json.loads(row["trigger_metadata"]), "actions": json.loads(row["actions"]),
            "enabled": bool(row["enabled"]),
            "exempt_roles": [str(i) for i in json.loads(row["exempt_roles"])],
            "exempt_channels": [str(i) for i in json.loads(row["exempt_channels"])]}


def to_managers(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild_id: int, event: str, intent: int,
                payload: Payload, *, content_free: Payload | None = None) -> None:
    """``event`` for the guild's bots holding MANAGE_GUILD (ADMINISTRATOR and ownership grant it), on
    sessions with ``intent``. ``content_free``: what a session without MESSAGE_CONTENT gets instead."""
    bots = guild_bots(conn, guild_id, now)
    managers = set()
    for user_id in bots.visible:
        who = standing(conn, guild_id, user_id, now)
        if who is not None and who.base & Permission.MANAGE_GUILD:
            managers.add(user_id)

    def render(viewer: Viewer) -> Payload | None:
        if viewer.user_id not in managers or not bots.admits(viewer, intent):
            return None
        if content_free is not None and not viewer.intents & MESSAGE_CONTENT_INTENT:
            return content_free
        return payload
    outbox.add(event, render)



def referenced_rules(conn: sqlite3.Connection, guild_id: int, rule_ids: set[int]) -> list[Payload]:
    """The audit log's ``auto_moderation_rules``: those of ``rule_ids`` that still exist."""
    marks = ", ".join("?" * len(rule_ids))
    rows = conn.execute(f"SELECT * FROM auto_moderation_rules WHERE guild_id = ? AND id IN ({marks}) ORDER BY id",
                        (guild_id, *sorted(rule_ids))).fetchall()
    return [rule_json(row) for row in rows]
