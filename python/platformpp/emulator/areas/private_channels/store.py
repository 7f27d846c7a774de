"""DMs (type 1) and group DMs (type 3): the channel rows (``channels`` with ``channel_recipients``),
how they look to each recipient, who hears about them, and who may message whom. Every function runs
in the caller's transaction and adds its dispatches to the caller's outbox."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ...core import errors
from ...core.errors import ApiError
from ...events.audience import Payload, Render, Viewer
from ...wire.channel import DM, GROUP_DM, group_dm_json
from ...wire.user import public_user_json
from ..guild_settings import incidents

if TYPE_CHECKING:
    from ...events.outbox import Outbox

MAX_GROUP_RECIPIENTS = 10          # a group DM holds at most 10 users, its owner included
CANNOT_MESSAGE_USER = 50007
CANNOT_EXECUTE_ON_DM = 50003
MAX_RECIPIENTS_REACHED = 30004     # the platform's "Maximum number of recipients reached (10)"


def recipients_of(conn: sqlite3.Connection, channel_id: int) -> list[sqlite3.Row]:
    return conn.execute("SELECT u.* FROM channel_recipients r JOIN users u ON u.id = r.user_id"
                        " WHERE r.channel_id = ? ORDER BY u.id", (channel_id,)).fetchall()


def get_private(conn: sqlite3.Connection, channel_id: int) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM channels WHERE id = ? AND type IN (?, ?)",
                        (channel_id, DM, GROUP_DM)).fetchone()


def channel_as_seen(conn: sqlite3.Connection, row: sqlite3.Row, viewer_id: int) -> Payload:
    """The DM (``PrivateChannelResponse``) or group DM (``PrivateGroupChannelResponse``) as one of
    its recipients sees it: ``recipients`` are the others."""
    others = [public_user_json(u) for u in recipients_of(conn, row["id"]) if u["id"] != viewer_id]
    if row["type"] == GROUP_DM:
        body = group_dm_json(row, others)
        if row["application_id"] is not None:
            body["managed"] = True
        return body
    return {"id": str(row["id"]), "type": DM, "flags": row["flags"], "recipients": others,
            "last_message_id": str(row["last_message_id"]) if row["last_message_id"] else None}


def recipients_audience(application_id: int, user_ids: Iterable[int], payload: Payload) -> Render:
    """The sessions of these users: bot sessions (on shard 0, which holds DMs) of a recipient bot, and
    SDK sessions of recipient users in the application."""
    users = frozenset(user_ids)

    def render(viewer: Viewer) -> Payload | None:
        if viewer.user_id not in users:
            return None
        if viewer.kind == "bot":
            return payload if viewer.shard is None or viewer.shard[0] == 0 else None
        return payload if viewer.application_id == application_id else None

    return render


def _announce_channel(conn: sqlite3.Connection, outbox: Outbox, event: str, application_id: int,
                      row: sqlite3.Row, user_ids: Iterable[int]) -> None:
    """``event`` with the channel, each recipient seeing the others (one audience per recipient)."""
    for user_id in user_ids:
        outbox.add(event, recipients_audience(application_id, (user_id,), channel_as_seen(conn, row, user_id)))


# --- opening a DM ------------------------------------------------------------------------------------

def require_user(conn: sqlite3.Connection, user_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    if row is None:
        raise errors.not_found(errors.UNKNOWN_USER, "User")
    return row


def open_dm(conn: sqlite3.Connection, next_id: Any, user_id: int, recipient_id: int) -> sqlite3.Row:
    """The DM channel of two users, made on first use (the same channel ever after); 404 / 10013 for
    an unknown user or oneself. Opening a DM sends no dispatch: the channel reaches a bot with its
    first message."""
    require_user(conn, recipient_id)
    if recipient_id == user_id:
        raise errors.not_found(errors.UNKNOWN_USER, "User")
    row = conn.execute("SELECT c.* FROM channels c JOIN channel_recipients a ON a.channel_id = c.id AND a.user_id = ?"
                       " JOIN channel_recipients b ON b.channel_id = c.id AND b.user_id = ? WHERE c.type = ?",
                       (user_id, recipient_id, DM)).fetchone()
    if row is not None:
        return row
    channel_id = int(next_id())
    conn.execute("INSERT INTO channels (id, guild_id, type) VALUES (?, NULL, ?)", (channel_id, DM))
    conn.executemany("INSERT INTO channel_recipients (channel_id, user_id) VALUES (?, ?)",
                     [(channel_id, user_id), (channel_id, recipient_id)])
    return conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone()


def may_message(conn: sqlite3.Connection, application_id: int, bot_user_id: int, user_id: int,
                now: datetime) -> bool:
    """A bot messages only users who share a guild with it (one whose DMs are not paused: incident
    actions) or installed its application, and who have not blocked it."""
    if user_id == bot_user_id:
        return False
    dms_open, instant = incidents.dm_open_guilds_sql(now)
    reachable = conn.execute(
        "SELECT 1 FROM members a JOIN members b ON b.guild_id = a.guild_id AND b.user_id = ?"
        f" JOIN guilds g ON g.id = a.guild_id AND {dms_open} WHERE a.user_id = ?"
        " UNION ALL SELECT 1 FROM authorizations WHERE application_id = ? AND user_id = ? LIMIT 1",
        (user_id, instant, bot_user_id, application_id, user_id)).fetchone() is not None
    blocked = conn.execute("SELECT 1 FROM relationships WHERE type = 2 AND ((user_id = ? AND other_id = ?)"
                           " OR (user_id = ? AND other_id = ?))",
                           (user_id, bot_user_id, bot_user_id, user_id)).fetchone() is not None
    return reachable and not blocked


def require_may_message(conn: sqlite3.Connection, application_id: int, bot_user_id: int, channel: sqlite3.Row,
                        now: datetime) -> None:
    """403 / 50007 when a bot writes in a DM whose other user it may not message."""
    if channel["type"] != DM:
        return
    others = [u["id"] for u in recipients_of(conn, channel["id"]) if u["id"] != bot_user_id]
    if not others or not may_message(conn, application_id, bot_user_id, others[0], now):
        raise ApiError(403, CANNOT_MESSAGE_USER, "Cannot send messages to this user")


# --- group DMs ---------------------------------------------------------------------------------------

def create_group(conn: sqlite3.Connection, outbox: Outbox, next_id: Any, *, application_id: int, owner_id: int,
                 members: dict[int, str | None]) -> sqlite3.Row:
    """A group DM the application makes for ``members`` (user id → nick), owned by its bot user, with
    ``application_id`` set; every recipient hears CHANNEL_CREATE."""
    if len(members) + 1 > MAX_GROUP_RECIPIENTS:
        raise ApiError(400, MAX_RECIPIENTS_REACHED, f"Maximum number of recipients reached ({MAX_GROUP_RECIPIENTS})")
    channel_id = int(next_id())
    conn.execute("INSERT INTO channels (id, guild_id, type, name, owner_id, application_id)"
                 " VALUES (?, NULL, ?, NULL, ?, ?)", (channel_id, GROUP_DM, owner_id, application_id))
    conn.execute("INSERT INTO channel_recipients (channel_id, user_id) VALUES (?, ?)", (channel_id, owner_id))
    conn.executemany("INSERT INTO channel_recipients (channel_id, user_id, nick) VALUES (?, ?, ?)",
                     [(channel_id, user_id, nick) for user_id, nick in members.items() if user_id != owner_id])
    row = conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone()
    _announce_channel(conn, outbox, "CHANNEL_CREATE", application_id, row, [owner_id, *members])
    return row


def _owned_group(conn: sqlite3.Connection, channel_id: int, caller_id: int) -> sqlite3.Row:
    """The group DM the caller owns: 404 / 10003 unknown (or not theirs to see), 50003 for a DM,
    50013 for a recipient who is not the owner."""
    row = get_private(conn, channel_id)
    if row is None or caller_id not in {u["id"] for u in recipients_of(conn, channel_id)}:
        raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
    if row["type"] == DM:
        raise ApiError(403, CANNOT_EXECUTE_ON_DM, "Cannot execute action on a DM channel")
    if row["owner_id"] != caller_id:
        raise ApiError(403, errors.MISSING_PERMISSIONS, "Missing Permissions: only the group DM's owner can do this.")
    return row


def add_recipient(conn: sqlite3.Connection, outbox: Outbox, *, channel_id: int, caller_id: int, application_id: int,
                  user_id: int, nick: str | None) -> Payload | None:
    """Add ``user_id`` (whose access token the route checked): the channel as the caller sees it, or
    None when the user already was a recipient. Recipients hear CHANNEL_RECIPIENT_ADD, the new one
    CHANNEL_CREATE."""
    row = _owned_group(conn, channel_id, caller_id)
    present = [u["id"] for u in recipients_of(conn, channel_id)]
    if user_id in present:
        return None
    if len(present) >= MAX_GROUP_RECIPIENTS:
        raise ApiError(400, MAX_RECIPIENTS_REACHED, f"Maximum number of recipients reached ({MAX_GROUP_RECIPIENTS})")
    user = require_user(conn, user_id)
    conn.execute("INSERT INTO channel_recipients (channel_id, user_id, nick) VALUES (?, ?, ?)", (channel_id, user_id, nick))
    event = {"channel_id": str(channel_id), "user": public_user_json(user)}
    if nick is not None:
        event["nick"] = nick
    outbox.add("CHANNEL_RECIPIENT_ADD", recipients_audience(application_id, present, event))
    _announce_channel(conn, outbox, "CHANNEL_CREATE", application_id, row, [user_id])
    return channel_as_seen(conn, row, caller_id)


def remove_recipient(conn: sqlite3.Connection, outbox: Outbox, *, channel_id: int, caller_id: int,
                     application_id: int, user_id: int) -> None:
    """Remove ``user_id``: 404 / 10013 when not a recipient; the remaining recipients hear
    CHANNEL_RECIPIENT_REMOVE, the removed user CHANNEL_DELETE."""
    row = _owned_group(conn, channel_id, caller_id)
    present = {u["id"]: u for u in recipients_of(conn, channel_id)}
    if user_id not in present:
        raise errors.not_found(errors.UNKNOWN_USER, "User")
    seen_by_removed = channel_as_seen(conn, row, user_id)
    conn.execute("DELETE FROM channel_recipients WHERE channel_id = ? AND user_id = ?", (channel_id, user_id))
    event = {"channel_id": str(channel_id), "user": public_user_json(present[user_id])}
    outbox.add("CHANNEL_RECIPIENT_REMOVE", recipients_audience(application_id, set(present) - {user_id}, event))
    outbox.add("CHANNEL_DELETE", recipients_audience(application_id, (user_id,), seen_by_removed))
