"""Reading scheduled events as wire objects: what the event routes and GUILD_CREATE's
``guild_scheduled_events`` show. Imports only ``wire``, so that the guild model and the Gateway can
read events without loading this area's routes (see areas/expressions/listing.py)."""

from __future__ import annotations

import sqlite3

from ...events.audience import Payload
from ...wire.message import scheduled_event_json
from ...wire.user import public_user_json


def creator(conn: sqlite3.Connection, user_id: int | None) -> Payload | None:
    row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone() if user_id else None
    return public_user_json(row) if row else None


def render(conn: sqlite3.Connection, row: sqlite3.Row, with_user_count: bool = False) -> Payload:
    count = None
    if with_user_count:
        count = conn.execute("SELECT COUNT(*) FROM guild_scheduled_event_users WHERE event_id = ?",
                             (row["id"],)).fetchone()[0]
    return scheduled_event_json(row, creator(conn, row["creator_id"]), count)


def guild_events(conn: sqlite3.Connection, guild_id: int) -> list[Payload]:
    """Every scheduled event of the guild (GUILD_CREATE), oldest first."""
    return [render(conn, row) for row in conn.execute(
        "SELECT * FROM guild_scheduled_events WHERE guild_id = ? ORDER BY id", (guild_id,))]
