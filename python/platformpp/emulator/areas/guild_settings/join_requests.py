"""Join requests behind member verification. In a guild with the ``MEMBER_VERIFICATION_GATE_ENABLED``
feature a user who joins (an invite, the admin API) is a member with ``pending: true`` and a SUBMITTED
join request; a moderator approves it (the member is no longer pending: GUILD_MEMBER_UPDATE) or rejects
it (the member is removed: GUILD_MEMBER_REMOVE). Bots of the guild holding the GUILD_MEMBERS intent get
GUILD_JOIN_REQUEST_CREATE / UPDATE ``{guild_id, request, status}`` and GUILD_JOIN_REQUEST_DELETE
``{guild_id, id, user_id}`` (the user withdrew, or left while pending)."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from typing import Any

from ...core import errors
from ...core.clock import format_instant
from ...core.snowflake import make_snowflake
from ...events.outbox import Outbox
from ...wire.user import public_user_json
from ..guilds.dispatch import GUILD_MEMBERS_INTENT, guild_bots, to_guild

GATE_FEATURE = "MEMBER_VERIFICATION_GATE_ENABLED"
STATUSES = ("STARTED", "SUBMITTED", "REJECTED", "APPROVED")
ACTIONS = ("APPROVED", "REJECTED")
# No public source names the codes of these two refusals: the general code, with a message that says it.
UNKNOWN_JOIN_REQUEST = errors.GENERAL
ALREADY_ACTIONED = errors.GENERAL


def _user(conn: sqlite3.Connection, user_id: int | None) -> dict[str, Any] | None:
    row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone() if user_id else None
    return public_user_json(row) if row is not None else None


def request_json(conn: sqlite3.Connection, row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": str(row["id"]), "guild_id": str(row["guild_id"]), "user_id": str(row["user_id"]),
        "user": _user(conn, row["user_id"]), "created_at": row["created_at"], "reviewed_at": row["reviewed_at"],
        "application_status": row["status"], "rejection_reason": row["rejection_reason"],
        "form_responses": json.loads(row["form_responses"]),
        "actioned_by_user": _user(conn, row["actioned_by"]),
    }


def get(conn: sqlite3.Connection, guild_id: int, request_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM guild_join_requests WHERE id = ? AND guild_id = ?",
                       (request_id, guild_id)).fetchone()
    if row is None:
        raise errors.not_found(UNKNOWN_JOIN_REQUEST, "Join Request")
    return row


def announce(conn: sqlite3.Connection, outbox: Outbox, now: datetime, event: str, row: sqlite3.Row) -> None:
    payload: dict[str, Any]
    if event == "GUILD_JOIN_REQUEST_DELETE":
        payload = {"guild_id": str(row["guild_id"]), "id": str(row["id"]), "user_id": str(row["user_id"])}
    else:
        payload = {"guild_id": str(row["guild_id"]), "request": request_json(conn, row), "status": row["status"]}
    to_guild(outbox, guild_bots(conn, row["guild_id"], now), event, payload, intent=GUILD_MEMBERS_INTENT)


def _new_id(conn: sqlite3.Connection, now: datetime) -> int:
    """A snowflake of the join instant (the store has no id generator here; the next free one)."""
    candidate = make_snowflake(int(now.timestamp() * 1000))
    while conn.execute("SELECT 1 FROM guild_join_requests WHERE id = ?", (candidate,)).fetchone():
        candidate += 1
    return candidate


def create(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild_id: int, user_id: int, *,
           status: str = "SUBMITTED", request_id: int | None = None,
           form_responses: list[Any] | None = None) -> sqlite3.Row:
    request_id = request_id if request_id is not None else _new_id(conn, now)
    conn.execute("INSERT INTO guild_join_requests (id, guild_id, user_id, status, form_responses, created_at)"
                 " VALUES (?, ?, ?, ?, ?, ?)",
                 (request_id, guild_id, user_id, status, json.dumps(form_responses or []), format_instant(now)))
    row = get(conn, guild_id, request_id)
    announce(conn, outbox, now, "GUILD_JOIN_REQUEST_CREATE", row)
    return row


def member_joining(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild_id: int, user_id: int) -> None:
    """Called when a member row was just inserted, before the join is announced: behind the gate a
    user (never a bot) joins pending, with a SUBMITTED request."""
    guild = conn.execute("SELECT features FROM guilds WHERE id = ?", (guild_id,)).fetchone()
    user = conn.execute("SELECT bot FROM users WHERE id = ?", (user_id,)).fetchone()
    if guild is None or user is None or user["bot"] or GATE_FEATURE not in json.loads(guild["features"]):
        return
    conn.execute("UPDATE members SET pending = 1 WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
    create(conn, outbox, now, guild_id, user_id)


def member_leaving(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild_id: int, user_id: int) -> None:
    """Called when a member leaves or is removed: a request of theirs not yet actioned is deleted."""
    for row in conn.execute("SELECT * FROM guild_join_requests WHERE guild_id = ? AND user_id = ?"
                            " AND status IN ('STARTED', 'SUBMITTED')", (guild_id, user_id)).fetchall():
        conn.execute("DELETE FROM guild_join_requests WHERE id = ?", (row["id"],))
        announce(conn, outbox, now, "GUILD_JOIN_REQUEST_DELETE", row)
