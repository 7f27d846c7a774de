"""Reading stage instances as wire objects: what the routes answer, the dispatches carry and
GUILD_CREATE lists. Imports nothing of the area's routes, so the Gateway can read it."""

from __future__ import annotations

import sqlite3

from ...events.audience import Payload


def instance_json(row: sqlite3.Row) -> Payload:
    event_id = row["guild_scheduled_event_id"]
    return {"id": str(row["id"]), "guild_id": str(row["guild_id"]), "channel_id": str(row["channel_id"]),
            "topic": row["topic"], "privacy_level": row["privacy_level"], "discoverable_disabled": False,
            "guild_scheduled_event_id": None if event_id is None else str(event_id)}


def guild_stage_instances(conn: sqlite3.Connection, guild_id: int) -> list[Payload]:
    """GUILD_CREATE's ``stage_instances``."""
    rows = conn.execute("SELECT * FROM stage_instances WHERE guild_id = ? ORDER BY id", (guild_id,)).fetchall()
    return [instance_json(row) for row in rows]
