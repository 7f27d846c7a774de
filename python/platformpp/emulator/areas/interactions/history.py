"""Answer messages in the channel's history, as on the platform: an interaction's original response
and followups in a guild channel that are not ephemeral are also messages of the channel (same id),
listed by ``GET /channels/{id}/messages`` and announced to bots with MESSAGE_CREATE, MESSAGE_UPDATE
and MESSAGE_DELETE carrying ``interaction_metadata``. Ephemeral answers stay with the interaction:
only their user sees them. The answer itself is kept in ``interaction_messages`` (what the app
reaches through the interaction token); the channel's row follows every change of it.

DMs and group DMs have no channel history in the emulator, so their answers stay with the
interaction only."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING

from ...core.storage import MEMORY
from ...events.audience import Payload
from ..channel_messages import search
from ..channel_messages.access import bot_members_viewing
from ..channel_messages.audience import GUILD_MESSAGES, GuildBots
from ..channel_messages.store import announce_message
from .messages import EPHEMERAL, MessageRow, message_json

if TYPE_CHECKING:
    from ...events.outbox import Outbox
    from ...state import EmulatorState

_EXTRA = ("webhook_id", "application_id", "interaction_metadata")


def _shown(interaction: sqlite3.Row, row: MessageRow) -> bool:
    return interaction["guild_id"] is not None and not row["flags"] & EPHEMERAL


def _json_list(items: list[object]) -> str:
    return json.dumps(items) if items else "[]"   # most answers have no embeds or components


def _columns(message: Payload) -> tuple[object, ...]:
    return (message["content"], int(message["tts"]), message["flags"], _json_list(message["embeds"]),
            _json_list(message["components"]), json.dumps(message["poll"]) if "poll" in message else None,
            message["edited_timestamp"], json.dumps({key: message[key] for key in _EXTRA}))


def _attachments(conn: sqlite3.Connection, message: Payload, *, new: bool = False) -> None:
    """The message's attachments in the history, replacing those it had (``new``: it had none)."""
    if not new:
        conn.execute("DELETE FROM message_attachments WHERE message_id = ?", (int(message["id"]),))
    if not message["attachments"]:
        return
    conn.executemany(
        "INSERT INTO message_attachments (id, message_id, position, filename, description, content_type, size, url)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(int(a["id"]), int(message["id"]), position, a["filename"], a.get("description"), a.get("content_type"),
          a["size"], a["url"]) for position, a in enumerate(message["attachments"])])


def _channel(conn: sqlite3.Connection, interaction: sqlite3.Row) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM channels WHERE id = ?", (interaction["channel_id"],)).fetchone()


def created(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, interaction: sqlite3.Row,
            row: MessageRow, message: Payload) -> None:
    """An answer message was written (``row``, rendered as ``message``): into the history and
    MESSAGE_CREATE (a deferred response's loading message too, as on the platform: "thinking…"
    shows until it is edited)."""
    if not _shown(interaction, row):
        return
    channel = _channel(conn, interaction)
    if channel is None:
        return
    conn.execute(
        "INSERT INTO channel_messages (id, channel_id, guild_id, author_id, type, content, tts, flags, embeds,"
        " components, poll, edited_at, interaction, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (int(message["id"]), int(channel["id"]), int(channel["guild_id"]), int(message["author"]["id"]),
         message["type"], *_columns(message), message["timestamp"]))
    _attachments(conn, message, new=True)   # the INSERT above would have failed on an existing id
    conn.execute("UPDATE channels SET last_message_id = ? WHERE id = ?", (int(message["id"]), int(channel["id"])))
    search.index_message(conn, int(message["id"]), int(channel["guild_id"]), message["content"], new=True,
                         in_memory=state.db.path == MEMORY)
    # Deferred: most apps answering interactions ask for no GUILD_MESSAGES, and nothing the audience
    # depends on changes later in the answer's transaction.
    announce_message(conn, outbox, "MESSAGE_CREATE", channel, message, state.clock.now(), deferred=True)


def updated(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, interaction: sqlite3.Row,
            row: sqlite3.Row) -> None:
    """An answer message was edited (or its loading state ended): the history follows, MESSAGE_UPDATE."""
    channel = _channel(conn, interaction)
    if not _shown(interaction, row) or channel is None:
        return
    message = message_json(conn, row, interaction)
    changed = conn.execute(
        "UPDATE channel_messages SET content = ?, tts = ?, flags = ?, embeds = ?, components = ?, poll = ?,"
        " edited_at = ?, interaction = ? WHERE id = ?", (*_columns(message), int(message["id"]))).rowcount
    if not changed:   # deleted from the channel by a moderator: the app's edit does not bring it back
        return
    _attachments(conn, message)
    search.index_message(conn, int(message["id"]), int(channel["guild_id"]), message["content"])
    announce_message(conn, outbox, "MESSAGE_UPDATE", channel, message, state.clock.now(), deferred=True)


def deleted(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, interaction: sqlite3.Row,
            row: sqlite3.Row) -> None:
    """An answer message was deleted through the token: gone from the history, MESSAGE_DELETE."""
    channel = _channel(conn, interaction)
    if not _shown(interaction, row) or channel is None:
        return
    if not conn.execute("DELETE FROM channel_messages WHERE id = ?", (row["id"],)).rowcount:
        return
    search.unindex_message(conn, int(row["id"]))
    payload = {"id": str(row["id"]), "channel_id": str(channel["id"]), "guild_id": str(channel["guild_id"])}
    outbox.add("MESSAGE_DELETE", GuildBots(int(channel["guild_id"]), GUILD_MESSAGES, payload,
                                           bot_members_viewing(conn, channel, state.clock.now())))

