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


def exception_json(row: sqlite3.Row) -> Payload:
    """A recurrence exception: one occurrence moved (its start and end times) or canceled."""
    return {"event_id": str(row["event_id"]), "event_exception_id": str(row["exception_id"]),
            "scheduled_start_time": row["scheduled_start_time"], "scheduled_end_time": row["scheduled_end_time"],
            "is_canceled": bool(row["is_canceled"])}


def exceptions_of(conn: sqlite3.Connection, event_id: int) -> list[Payload]:
    """The event's exceptions, in the order of the occurrences they change."""
    return [exception_json(row) for row in conn.execute(
        "SELECT * FROM guild_scheduled_event_exceptions WHERE event_id = ? ORDER BY exception_id", (event_id,))]


def render(conn: sqlite3.Connection, row: sqlite3.Row, with_user_count: bool = False) -> Payload:
    count = None
    if with_user_count:
        count = conn.execute("SELECT COUNT(*) FROM guild_scheduled_event_users WHERE event_id = ?",
                             (row["id"],)).fetchone()[0]
    return scheduled_event_json(row, creator(conn, row["creator_id"]), count, exceptions_of(conn, row["id"]))


def guild_events(conn: sqlite3.Connection, guild_id: int) -> list[Payload]:
    """Every scheduled event of the guild (GUILD_CREATE), oldest first."""
    return [render(conn, row) for row in conn.execute(
        "SELECT * FROM guild_scheduled_events WHERE guild_id = ? ORDER BY id", (guild_id,))]
