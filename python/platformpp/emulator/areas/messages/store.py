"""Messages of the social layer, one implementation for both places they live: a lobby (its members
talk) and the direct conversation of two users of one game. Post, list (newest first), edit (the
author), delete (the author, or the game's bot) and moderation metadata (the bot) work the same in
both; a ``Thread`` supplies what differs: the table, the message object, and who hears about it.

Every function runs inside the caller's transaction and adds its dispatches to the caller's outbox,
so they go out only if the transaction commits."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...core import errors
from ...core.auth import Principal
from ...core.errors import ApiError
from ...events.audience import Payload, to_users
from ...wire.user import public_user_json
from ..lobbies.store import get_member, member_ids

if TYPE_CHECKING:
    from ...events.outbox import Outbox

MAX_CONTENT = 2000
MAX_LIST = 200
DEFAULT_LIST = 50
MODERATION_KEYS = 5
CANNOT_MESSAGE_USER = 50007


def author_of(conn: sqlite3.Connection, user_id: int) -> Payload:
    row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    return public_user_json(row) if row else {"id": str(user_id)}


def _json_or_none(value: str | None) -> object:
    return json.loads(value) if value is not None else None


@dataclass(frozen=True)
class LobbyThread:
    """The messages of one lobby; its members hear LOBBY_MESSAGE_*."""

    application_id: int
    lobby_id: int
    table = "lobby_messages"
    event_prefix = "LOBBY_MESSAGE"

    def where(self) -> tuple[str, tuple[int, ...]]:
        return "lobby_id = ?", (self.lobby_id,)

    def insert(self, conn: sqlite3.Connection, message_id: int, author_id: int, content: str | None,
               metadata: str | None, now: str) -> None:
        conn.execute("INSERT INTO lobby_messages (id, lobby_id, author_id, content, metadata, created_at)"
                     " VALUES (?, ?, ?, ?, ?, ?)", (message_id, self.lobby_id, author_id, content, metadata, now))

    def message_object(self, conn: sqlite3.Connection, row: sqlite3.Row) -> Payload:
        member = get_member(conn, row["lobby_id"], row["author_id"])
        message: Payload = {
            "id": str(row["id"]), "type": 0, "content": row["content"], "lobby_id": str(row["lobby_id"]),
            "channel_id": str(row["lobby_id"]), "author": author_of(conn, row["author_id"]),
            # an object, {} when the message has none (the published schema has no null here)
            "metadata": _json_or_none(row["metadata"]) or {},
            "moderation_metadata": json.loads(row["moderation_metadata"]),
            "timestamp": row["created_at"], "edited_timestamp": row["edited_at"], "flags": 0,
            "application_id": str(self.application_id),
        }
        if row["from_channel"]:
            # Written in the linked guild channel from the platform's client: not from the game, and
            # with what it carries there (attachments, embeds, stickers, a poll, a thread; its flags).
            del message["application_id"]
            message.update(json.loads(row["extra"] or "{}"))
        if row["disclosure_type"] is not None:
            del message["application_id"]
            message["disclosure_type"] = row["disclosure_type"]
        # The name the game gave the author in this lobby (set server-side only).
        if member is not None and member["additional_name"] is not None:
            message["additional_name"] = member["additional_name"]
        return message

    def audience(self, conn: sqlite3.Connection) -> list[int]:
        return member_ids(conn, self.lobby_id)

    def deleted(self, row: sqlite3.Row) -> Payload:
        return {"id": str(row["id"]), "lobby_id": str(self.lobby_id)}


@dataclass(frozen=True)
class DirectThread:
    """The direct conversation of two users of one game; both hear DM_MESSAGE_*, nobody else does."""

    application_id: int
    pair: tuple[int, int]   # the two user ids, lower first
    table = "dm_messages"
    event_prefix = "DM_MESSAGE"

    @classmethod
    def between(cls, application_id: int, a: int, b: int) -> DirectThread:
        return cls(application_id, (a, b) if a < b else (b, a))

    def where(self) -> tuple[str, tuple[int, ...]]:
        return "application_id = ? AND user_low = ? AND user_high = ?", (self.application_id, *self.pair)

    def insert(self, conn: sqlite3.Connection, message_id: int, author_id: int, content: str | None,
               metadata: str | None, now: str) -> None:
        recipient = self.pair[1] if author_id == self.pair[0] else self.pair[0]
        conn.execute("INSERT INTO dm_messages (id, application_id, author_id, recipient_id, user_low, user_high,"
                     " content, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (message_id, self.application_id, author_id, recipient, *self.pair, content, metadata, now))

    def message_object(self, conn: sqlite3.Connection, row: sqlite3.Row) -> Payload:
        return {
            "id": str(row["id"]), "type": 0, "content": row["content"], "author": author_of(conn, row["author_id"]),
            "recipient_id": str(row["recipient_id"]), "metadata": _json_or_none(row["metadata"]),
            "moderation_metadata": json.loads(row["moderation_metadata"]), "timestamp": row["created_at"],
            "edited_timestamp": row["edited_at"], "flags": 0, "application_id": str(row["application_id"]),
        }

    def audience(self, conn: sqlite3.Connection) -> list[int]:
        return list(self.pair)

    def deleted(self, row: sqlite3.Row) -> Payload:
        return {"id": str(row["id"]), "author_id": str(row["author_id"]), "recipient_id": str(row["recipient_id"])}


Thread = LobbyThread | DirectThread


def get_message(conn: sqlite3.Connection, thread: Thread, message_id: int) -> sqlite3.Row:
    where, params = thread.where()
    row = conn.execute(f"SELECT * FROM {thread.table} WHERE id = ? AND {where}", (message_id, *params)).fetchone()
    if row is None:
        raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
    return row


def _announce(conn: sqlite3.Connection, thread: Thread, outbox: Outbox, action: str, payload: Payload,
              audience: list[int] | None = None) -> None:
    users = audience if audience is not None else thread.audience(conn)
    outbox.add(f"{thread.event_prefix}_{action}", to_users(thread.application_id, users, payload))


def _current(conn: sqlite3.Connection, thread: Thread, message_id: int) -> Payload:
    return thread.message_object(conn, get_message(conn, thread, message_id))


def post(conn: sqlite3.Connection, thread: Thread, outbox: Outbox, *, message_id: int, author_id: int,
         content: str | None, metadata: dict[str, str] | None, now: str) -> Payload:
    thread.insert(conn, message_id, author_id, content, json.dumps(metadata) if metadata is not None else None, now)
    message = _current(conn, thread, message_id)
    _announce(conn, thread, outbox, "CREATE", message)
    return message


def post_from_channel(conn: sqlite3.Connection, thread: LobbyThread, outbox: Outbox, *, message_id: int,
                      author_id: int, content: str, extra: Payload, now: str) -> Payload:
    """A message written in the lobby's linked guild channel, as the lobby's members see it (same id)."""
    conn.execute("INSERT INTO lobby_messages (id, lobby_id, author_id, content, created_at, from_channel, extra)"
                 " VALUES (?, ?, ?, ?, ?, 1, ?)", (message_id, thread.lobby_id, author_id, content, now,
                                                   json.dumps(extra) if extra else None))
    message = _current(conn, thread, message_id)
    _announce(conn, thread, outbox, "CREATE", message)
    return message


def post_disclosure(conn: sqlite3.Connection, thread: LobbyThread, outbox: Outbox, *, message_id: int,
                    author_id: int, disclosure_type: int, content: str, now: str) -> Payload:
    """The platform's auto-generated message explaining an integration to the lobby's members."""
    conn.execute("INSERT INTO lobby_messages (id, lobby_id, author_id, content, created_at, disclosure_type)"
                 " VALUES (?, ?, ?, ?, ?, ?)", (message_id, thread.lobby_id, author_id, content, now, disclosure_type))
    message = _current(conn, thread, message_id)
    _announce(conn, thread, outbox, "CREATE", message)
    return message


def recent(conn: sqlite3.Connection, thread: Thread, limit: int) -> list[Payload]:
    where, params = thread.where()
    rows = conn.execute(f"SELECT * FROM {thread.table} WHERE {where} ORDER BY id DESC LIMIT ?",
                        (*params, limit)).fetchall()
    return [thread.message_object(conn, row) for row in rows]


def edit(conn: sqlite3.Connection, thread: Thread, outbox: Outbox, *, message_id: int, editor: Principal,
         content: str | None, metadata: dict[str, str] | None, metadata_given: bool, now: str) -> Payload:
    """Only the author edits; ``metadata_given`` tells a ``null`` metadata (clear it) from an absent one."""
    row = get_message(conn, thread, message_id)
    if row["author_id"] != editor.user_id:
        raise ApiError(403, errors.MISSING_PERMISSIONS, "Missing Permissions: only the author can edit.")
    if content is not None:
        conn.execute(f"UPDATE {thread.table} SET content = ?, edited_at = ? WHERE id = ?", (content, now, message_id))
    if metadata_given:
        conn.execute(f"UPDATE {thread.table} SET metadata = ?, edited_at = ? WHERE id = ?",
                     (json.dumps(metadata) if metadata is not None else None, now, message_id))
    message = _current(conn, thread, message_id)
    _announce(conn, thread, outbox, "UPDATE", message)
    return message


def delete(conn: sqlite3.Connection, thread: Thread, outbox: Outbox, *, message_id: int,
           caller: Principal) -> None:
    """An SDK user deletes their own messages; the game's bot any of its game's."""
    row = get_message(conn, thread, message_id)
    if caller.kind == "bearer" and row["author_id"] != caller.user_id:
        raise ApiError(403, errors.MISSING_PERMISSIONS, "Missing Permissions: only the author can delete.")
    audience = thread.audience(conn)
    conn.execute(f"DELETE FROM {thread.table} WHERE id = ?", (message_id,))
    _announce(conn, thread, outbox, "DELETE", thread.deleted(row), audience)


def moderate(conn: sqlite3.Connection, thread: Thread, outbox: Outbox, *, message_id: int,
             moderation: dict[str, str]) -> Payload:
    """The game's bot replaces a message's moderation metadata; the thread hears the update."""
    get_message(conn, thread, message_id)
    conn.execute(f"UPDATE {thread.table} SET moderation_metadata = ? WHERE id = ?",
                 (json.dumps(moderation), message_id))
    message = _current(conn, thread, message_id)
    _announce(conn, thread, outbox, "UPDATE", message)
    return message


def summaries(conn: sqlite3.Connection, application_id: int, user_id: int) -> list[dict[str, str]]:
    """The user's conversations in the application: the other participant and the newest message."""
    rows = conn.execute(
        "SELECT CASE WHEN user_low = ? THEN user_high ELSE user_low END AS other, MAX(id) AS last"
        " FROM dm_messages WHERE application_id = ? AND ? IN (user_low, user_high)"
        " GROUP BY user_low, user_high ORDER BY last DESC", (user_id, application_id, user_id)).fetchall()
    return [{"user_id": str(row["other"]), "last_message_id": str(row["last"])} for row in rows]


def find_direct_message(conn: sqlite3.Connection, application_id: int, user_id: int,
                        message_id: int) -> DirectThread:
    """The conversation holding direct message ``message_id`` of ``user_id`` (author or recipient)."""
    row = conn.execute("SELECT user_low, user_high FROM dm_messages WHERE id = ? AND application_id = ?"
                       " AND (author_id = ? OR recipient_id = ?)",
                       (message_id, application_id, user_id, user_id)).fetchone()
    if row is None:
        raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
    return DirectThread(application_id, (row["user_low"], row["user_high"]))


def is_game_user(conn: sqlite3.Connection, application_id: int, user_id: int) -> bool:
    """A user of the game: has granted the application, or is one of its provisional accounts."""
    return conn.execute(
        "SELECT 1 FROM authorizations WHERE application_id = ? AND user_id = ? UNION ALL"
        " SELECT 1 FROM users WHERE id = ? AND provisional = 1 AND provisional_application_id = ?",
        (application_id, user_id, user_id, application_id)).fetchone() is not None


def blocked_between(conn: sqlite3.Connection, application_id: int, a: int, b: int) -> bool:
    return conn.execute(
        "SELECT 1 FROM relationships WHERE type = 2 AND ((user_id = ? AND other_id = ?) OR (user_id = ? AND other_id = ?))"
        " UNION ALL SELECT 1 FROM game_relationships WHERE application_id = ? AND type = 2"
        " AND ((user_id = ? AND other_id = ?) OR (user_id = ? AND other_id = ?))",
        (a, b, b, a, application_id, a, b, b, a)).fetchone() is not None


def require_can_message(conn: sqlite3.Connection, thread: DirectThread, author_id: int, other_id: int) -> None:
    """50007 unless ``other_id`` is another user of the game and neither has blocked the other."""
    app_id = thread.application_id
    if other_id == author_id or not is_game_user(conn, app_id, other_id) \
            or blocked_between(conn, app_id, author_id, other_id):
        raise ApiError(403, CANNOT_MESSAGE_USER, "Cannot send messages to this user")


def move_account_data(conn: sqlite3.Connection, application_id: int, source: int, target: int) -> None:
    """A provisional account merged into ``target``: direct messages between the two accounts have nobody
    left to talk to; the others move. (Lobby messages move with the lobbies area's data.)"""
    conn.execute("DELETE FROM dm_messages WHERE application_id = ? AND user_low = ? AND user_high = ?",
                 (application_id, min(source, target), max(source, target)))
    conn.execute("UPDATE dm_messages SET author_id = ? WHERE application_id = ? AND author_id = ?",
                 (target, application_id, source))
    conn.execute("UPDATE dm_messages SET recipient_id = ? WHERE application_id = ? AND recipient_id = ?",
                 (target, application_id, source))
    conn.execute("UPDATE dm_messages SET user_low = MIN(author_id, recipient_id), user_high = MAX(author_id,"
                 " recipient_id) WHERE application_id = ? AND ? IN (author_id, recipient_id)",
                 (application_id, target))
