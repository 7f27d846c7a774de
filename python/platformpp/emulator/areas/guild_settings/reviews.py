"""Actioning join requests (kept apart from join_requests.py, which the guild mutations call when a
member joins, so that this module may use those mutations): approve, reject, withdraw."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from ...core import errors
from ...core.clock import format_instant
from ...events.outbox import Outbox
from ..guilds import mutations
from . import join_requests


def review(conn: sqlite3.Connection, outbox: Outbox, now: datetime, row: sqlite3.Row, *, action: str,
           reason: str | None, moderator_id: int) -> sqlite3.Row:
    """APPROVED or REJECTED by ``moderator_id``; the member's pending flag or membership follows."""
    if row["status"] != "SUBMITTED":
        raise errors.ApiError(400, join_requests.ALREADY_ACTIONED, "This join request has already been actioned")
    conn.execute("UPDATE guild_join_requests SET status = ?, rejection_reason = ?, actioned_by = ?,"
                 " reviewed_at = ? WHERE id = ?",
                 (action, reason if action == "REJECTED" else None, moderator_id, format_instant(now), row["id"]))
    updated = join_requests.get(conn, row["guild_id"], row["id"])
    join_requests.announce(conn, outbox, now, "GUILD_JOIN_REQUEST_UPDATE", updated)
    member = conn.execute("SELECT pending FROM members WHERE guild_id = ? AND user_id = ?",
                          (row["guild_id"], row["user_id"])).fetchone()
    if member is not None and action == "APPROVED":
        mutations.modify_member(conn, outbox, now, row["guild_id"], row["user_id"], {"pending": 0})
    elif member is not None:
        mutations.remove_member(conn, outbox, now, row["guild_id"], row["user_id"])
    return updated


def withdraw(conn: sqlite3.Connection, outbox: Outbox, now: datetime, row: sqlite3.Row) -> None:
    """The user withdraws a request not yet actioned: it is deleted, and a pending member leaves."""
    conn.execute("DELETE FROM guild_join_requests WHERE id = ?", (row["id"],))
    join_requests.announce(conn, outbox, now, "GUILD_JOIN_REQUEST_DELETE", row)
    member = conn.execute("SELECT pending FROM members WHERE guild_id = ? AND user_id = ?",
                          (row["guild_id"], row["user_id"])).fetchone()
    if member is not None and member["pending"]:
        mutations.remove_member(conn, outbox, now, row["guild_id"], row["user_id"])
