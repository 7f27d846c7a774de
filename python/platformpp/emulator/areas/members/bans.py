"""Guild bans: who is banned (a banned user cannot join through an invite or be added), banning
(removing the member, deleting their recent messages), unbanning; GUILD_BAN_ADD / GUILD_BAN_REMOVE to
the guild's bots with the GUILD_MODERATION intent; audit entries 22 / 23."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

from ...core import errors
from ...core.clock import format_instant
from ...events.outbox import Outbox
from ...wire.user import public_user_json
from ..audit_log import actions
from ..audit_log import store as audit_log
from ..channel_messages import store as channel_messages
from ..guilds import mutations
from ..guilds.dispatch import guild_bots, to_guild

UNKNOWN_BAN = 10026
GUILD_MODERATION_INTENT = 1 << 2


def is_banned(conn: sqlite3.Connection, guild_id: int, user_id: int) -> bool:
    return conn.execute("SELECT 1 FROM guild_bans WHERE guild_id = ? AND user_id = ?",
                        (guild_id, user_id)).fetchone() is not None


def ban_json(conn: sqlite3.Connection, row: sqlite3.Row) -> dict[str, Any]:
    user = conn.execute("SELECT * FROM users WHERE id = ?", (row["user_id"],)).fetchone()
    return {"user": public_user_json(user), "reason": row["reason"]}


def get_ban(conn: sqlite3.Connection, guild_id: int, user_id: int) -> dict[str, Any]:
    row = conn.execute("SELECT * FROM guild_bans WHERE guild_id = ? AND user_id = ?",
                       (guild_id, user_id)).fetchone()
    if row is None:
        raise errors.not_found(UNKNOWN_BAN, "Ban")
    return ban_json(conn, row)


def list_bans(conn: sqlite3.Connection, guild_id: int, *, limit: int, before: int | None,
              after: int | None) -> list[dict[str, Any]]:
    if before is not None and after is None:
        rows = conn.execute("SELECT * FROM guild_bans WHERE guild_id = ? AND user_id < ?"
                            " ORDER BY user_id DESC LIMIT ?", (guild_id, before, limit)).fetchall()[::-1]
    else:
        rows = conn.execute("SELECT * FROM guild_bans WHERE guild_id = ? AND user_id > ? AND user_id < ?"
                            " ORDER BY user_id LIMIT ?",
                            (guild_id, after or 0, (1 << 63) - 1 if before is None else before,
                             limit)).fetchall()
    return [ban_json(conn, row) for row in rows]


def ban(conn: sqlite3.Connection, outbox: Outbox, now: datetime, *, guild_id: int, user_id: int,
        actor_id: int, reason: str | None, delete_message_seconds: int) -> list[int]:
    """Ban ``user_id`` (already checked: a user, not above the actor). Banning again only deletes
    messages. Returns the attachment ids whose files to remove."""
    removed = channel_messages.delete_recent_by_author(
        conn, outbox, now, guild_id=guild_id, author_id=user_id,
        seconds=delete_message_seconds) if delete_message_seconds else []
    if is_banned(conn, guild_id, user_id):
        return removed
    if conn.execute("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?",
                    (guild_id, user_id)).fetchone():
        mutations.remove_member(conn, outbox, now, guild_id, user_id)
    conn.execute("INSERT INTO guild_bans (guild_id, user_id, reason, banned_at) VALUES (?, ?, ?, ?)",
                 (guild_id, user_id, reason, format_instant(now)))
    user = public_user_json(conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone())
    to_guild(outbox, guild_bots(conn, guild_id, now), "GUILD_BAN_ADD",
             {"guild_id": str(guild_id), "user": user}, intent=GUILD_MODERATION_INTENT)
    # No options: the platform's ban entries carry none, and clients drop an entry whose type has
    # no options of theirs but comes with some.
    audit_log.record(conn, guild_id=guild_id, user_id=actor_id, action_type=actions.MEMBER_BAN_ADD,
                     target_id=user_id, reason=reason)
    return removed


def unban(conn: sqlite3.Connection, outbox: Outbox, now: datetime, *, guild_id: int, user_id: int,
          actor_id: int) -> None:
    if not is_banned(conn, guild_id, user_id):
        raise errors.not_found(UNKNOWN_BAN, "Ban")
    conn.execute("DELETE FROM guild_bans WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
    user = public_user_json(conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone())
    to_guild(outbox, guild_bots(conn, guild_id, now), "GUILD_BAN_REMOVE",
             {"guild_id": str(guild_id), "user": user}, intent=GUILD_MODERATION_INTENT)
    audit_log.record(conn, guild_id=guild_id, user_id=actor_id, action_type=actions.MEMBER_BAN_REMOVE,
                     target_id=user_id)
