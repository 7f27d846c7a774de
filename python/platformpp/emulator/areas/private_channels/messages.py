"""Messages of DMs and group DMs through the channel message routes (``/channels/{id}/messages``):
the routes of areas/channel_messages hand a private channel's requests here. Recipients read and
write; a bot writes in a DM only to a user it may message (50007); each author edits and deletes
their own messages (others' are 50003 in a DM); a message may carry a poll (areas/polls ends it and
counts its votes). Bot recipients hear MESSAGE_CREATE / UPDATE / DELETE with DIRECT_MESSAGES, content
included (DMs are exempt from MESSAGE_CONTENT)."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ...core import errors
from ...core.clock import format_instant
from ...core.errors import ApiError
from ...events.audience import Payload, Render, Viewer
from ...wire.message import emoji_key_json, json_list, reaction_json
from ...wire.user import public_user_json
from ..polls import results as poll_results
from . import store

if TYPE_CHECKING:
    from ...events.outbox import Outbox

DIRECT_MESSAGES, DIRECT_MESSAGE_TYPING = 1 << 12, 1 << 14
CANNOT_SEND_EMPTY = 50006
CANNOT_EDIT_OTHERS = 50005


def private_channel(conn: sqlite3.Connection, channel_id: int) -> sqlite3.Row | None:
    """The DM or group DM ``channel_id``, or None for any other channel (the caller's routes go on)."""
    return store.get_private(conn, channel_id)


def require_recipient(conn: sqlite3.Connection, channel: sqlite3.Row, user_id: int) -> list[int]:
    recipients = [u["id"] for u in store.recipients_of(conn, channel["id"])]
    if user_id not in recipients:
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access")
    return recipients


def get_row(conn: sqlite3.Connection, channel_id: int, message_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM private_messages WHERE id = ? AND channel_id = ?",
                       (message_id, channel_id)).fetchone()
    if row is None:
        raise errors.not_found(errors.UNKNOWN_MESSAGE, "Message")
    return row


def render(conn: sqlite3.Connection, row: sqlite3.Row, viewer_id: int | None = None) -> Payload:
    """The message object (the published ``MessageResponse``) of a private channel: no guild_id;
    a poll's ``me_voted`` for ``viewer_id``."""
    author = conn.execute("SELECT * FROM users WHERE id = ?", (row["author_id"],)).fetchone()
    body: Payload = {
        "id": str(row["id"]), "type": row["type"], "channel_id": str(row["channel_id"]),
        "author": public_user_json(author) if author else {"id": str(row["author_id"])},
        "content": row["content"], "timestamp": row["created_at"], "edited_timestamp": row["edited_at"],
        "tts": bool(row["tts"]), "mention_everyone": False, "mentions": [], "mention_roles": [],
        "attachments": [], "embeds": json_list(row["embeds"]), "components": json_list(row["components"]),
        "pinned": row["pinned_at"] is not None, "flags": row["flags"],
    }
    reactions = reactions_json(conn, row["id"], viewer_id)
    if reactions:
        body["reactions"] = reactions
    if row["nonce"] is not None:
        body["nonce"] = row["nonce"]
    if row["message_reference"] is not None:
        body["message_reference"] = json.loads(row["message_reference"])
    if row["poll"] is not None:
        body["poll"] = json.loads(row["poll"])
        poll_results.fill(conn, [body], viewer_id, "private_poll_votes")
    return body


def reactions_json(conn: sqlite3.Connection, message_id: int, viewer_id: int | None) -> list[Payload]:
    """The message's reactions, in the order their emojis were first used; ``me`` for ``viewer_id``."""
    rows = conn.execute(
        "SELECT emoji_key, emoji_id, emoji_name, MAX(animated) AS animated, COUNT(*) AS n, MAX(user_id = ?) AS me,"
        " MIN(created_at) AS first FROM private_message_reactions WHERE message_id = ?"
        " GROUP BY emoji_key ORDER BY first", (viewer_id or 0, message_id)).fetchall()
    return [reaction_json(emoji_key_json(r["emoji_id"], r["emoji_name"], bool(r["animated"])), r["n"], bool(r["me"]))
            for r in rows]


def recipient_ids(conn: sqlite3.Connection, channel: sqlite3.Row) -> list[int]:
    return [u["id"] for u in store.recipients_of(conn, channel["id"])]


def bots_of(recipients: list[int], payload: Payload, intent: int = DIRECT_MESSAGES) -> Render:
    """The sessions of the bot recipients (shard 0, which holds DMs) that asked for ``intent``."""
    users = frozenset(recipients)

    def render_for(viewer: Viewer) -> Payload | None:
        if viewer.kind != "bot" or viewer.user_id not in users or not viewer.intents & intent:
            return None
        return payload if viewer.shard is None or viewer.shard[0] == 0 else None

    return render_for


def create(conn: sqlite3.Connection, outbox: Outbox, next_id: Any, now: datetime, channel: sqlite3.Row, *,
           author_id: int, application_id: int | None, body: Any, has_files: bool) -> Payload:
    recipients = require_recipient(conn, channel, author_id)
    if application_id is not None:
        store.require_may_message(conn, application_id, author_id, channel, now)
    unsupported = [name for name in ("sticker_ids", "message_reference")
                   if name in body.given] + (["files"] if has_files or body.attachments else [])
    if unsupported:
        raise ApiError(400, errors.INVALID_FORM_BODY, "Invalid Form Body", {unsupported[0]: {"_errors": [
            {"code": "PRIVATE_CHANNEL_UNSUPPORTED", "message": "The emulator's DMs carry no stickers,"
             " replies or files."}]}})
    content = body.content or ""
    if not (content or body.embeds or body.components or body.poll):
        raise ApiError(400, CANNOT_SEND_EMPTY, "Cannot send an empty message")
    if body.enforce_nonce and body.nonce is not None:
        same = conn.execute("SELECT * FROM private_messages WHERE channel_id = ? AND author_id = ? AND nonce = ?"
                            " ORDER BY id DESC LIMIT 1", (channel["id"], author_id, body.nonce)).fetchone()
        if same is not None:
            return render(conn, same)
    message_id = int(next_id())
    poll = poll_results.new_poll(body.poll, now) if body.poll is not None else None
    conn.execute("INSERT INTO private_messages (id, channel_id, author_id, content, tts, flags, embeds, components,"
                 " nonce, poll, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (message_id, channel["id"], author_id, content, int(body.tts), body.flags, json.dumps(body.embeds),
                  json.dumps(body.components), body.nonce, json.dumps(poll) if poll else None, format_instant(now)))
    return announce_new(conn, outbox, channel, message_id, recipients)


def announce_new(conn: sqlite3.Connection, outbox: Outbox, channel: sqlite3.Row, message_id: int,
                 recipients: list[int]) -> Payload:
    """A message just written: the channel's last message, and MESSAGE_CREATE to its bot recipients."""
    conn.execute("UPDATE channels SET last_message_id = ? WHERE id = ?", (message_id, channel["id"]))
    message = render(conn, get_row(conn, channel["id"], message_id))
    outbox.add("MESSAGE_CREATE", bots_of(recipients, message))
    return message


def announce_update(conn: sqlite3.Connection, outbox: Outbox, channel: sqlite3.Row, message_id: int) -> Payload:
    message = render(conn, get_row(conn, channel["id"], message_id))
    outbox.add("MESSAGE_UPDATE", bots_of(recipient_ids(conn, channel), message))
    return message


def list_messages(conn: sqlite3.Connection, channel: sqlite3.Row, reader_id: int, *, before: int | None,
                  after: int | None, around: int | None, limit: int) -> list[Payload]:
    """Newest first, as in a guild channel."""
    require_recipient(conn, channel, reader_id)
    select = "SELECT * FROM private_messages WHERE channel_id = ?"
    if around is not None:
        older = conn.execute(select + " AND id <= ? ORDER BY id DESC LIMIT ?",
                             (channel["id"], around, (limit + 1) // 2)).fetchall()
        newer = conn.execute(select + " AND id > ? ORDER BY id ASC LIMIT ?",
                             (channel["id"], around, limit - len(older))).fetchall()
        rows = [*reversed(newer), *older]
    elif after is not None:
        rows = list(reversed(conn.execute(select + " AND id > ? ORDER BY id ASC LIMIT ?",
                                          (channel["id"], after, limit)).fetchall()))
    else:
        rows = conn.execute(select + " AND id < ? ORDER BY id DESC LIMIT ?",
                            (channel["id"], before if before is not None else (1 << 63) - 1, limit)).fetchall()
    return [render(conn, row, reader_id) for row in rows]


def get_message(conn: sqlite3.Connection, channel: sqlite3.Row, reader_id: int, message_id: int) -> Payload:
    require_recipient(conn, channel, reader_id)
    return render(conn, get_row(conn, channel["id"], message_id), reader_id)


def edit(conn: sqlite3.Connection, outbox: Outbox, now: datetime, channel: sqlite3.Row, *, editor_id: int,
         message_id: int, body: Any, has_files: bool) -> Payload:
    """The author edits content, embeds, components and flags."""
    recipients = require_recipient(conn, channel, editor_id)
    row = get_row(conn, channel["id"], message_id)
    poll_results.refuse_edit(row, body.given)
    if row["author_id"] != editor_id:
        raise ApiError(403, CANNOT_EDIT_OTHERS, "Cannot edit a message authored by another user")
    if has_files or body.attachments:
        raise ApiError(400, errors.INVALID_FORM_BODY, "Invalid Form Body", {"files": {"_errors": [
            {"code": "PRIVATE_CHANNEL_UNSUPPORTED", "message": "The emulator's DMs carry no files."}]}})
    updates: dict[str, Any] = {"edited_at": format_instant(now)}
    if "content" in body.given:
        updates["content"] = body.content or ""
    if "embeds" in body.given:
        updates["embeds"] = json.dumps(body.embeds)
    if "components" in body.given:
        updates["components"] = json.dumps(body.components)
    if "flags" in body.given:
        updates["flags"] = body.flags
    assignments = ", ".join(f"{column} = ?" for column in updates)
    conn.execute(f"UPDATE private_messages SET {assignments} WHERE id = ?", (*updates.values(), message_id))
    message = render(conn, get_row(conn, channel["id"], message_id))
    outbox.add("MESSAGE_UPDATE", bots_of(recipients, message))
    return message


def delete(conn: sqlite3.Connection, outbox: Outbox, channel: sqlite3.Row, *, caller_id: int, message_id: int) -> None:
    """The author only: in a DM nobody deletes another's message (50003)."""
    recipients = require_recipient(conn, channel, caller_id)
    row = get_row(conn, channel["id"], message_id)
    if row["author_id"] != caller_id:
        raise ApiError(403, store.CANNOT_EXECUTE_ON_DM, "Cannot execute action on a DM channel")
    conn.execute("DELETE FROM private_messages WHERE id = ?", (message_id,))
    outbox.add("MESSAGE_DELETE", bots_of(recipients, {"id": str(message_id), "channel_id": str(channel["id"])}))


def typing(conn: sqlite3.Connection, outbox: Outbox, channel: sqlite3.Row, *, user_id: int, timestamp: int) -> None:
    """POST /channels/{id}/typing in a DM: TYPING_START to the other bot recipients with
    DIRECT_MESSAGE_TYPING."""
    others = [r for r in require_recipient(conn, channel, user_id) if r != user_id]
    outbox.add("TYPING_START", bots_of(others, {"channel_id": str(channel["id"]), "user_id": str(user_id),
                                                "timestamp": timestamp}, DIRECT_MESSAGE_TYPING))
