"""Linked channels, the game side: a lobby message sent with the SDK to a lobby linked to a guild
channel is also written in that channel with the same id, and the guild hears MESSAGE_CREATE as for
any channel message. The guild side is in lobbies/bridge.py."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import TYPE_CHECKING

from ...core.clock import format_instant
from ...events.audience import Payload

# Modules, not names: channel_messages.store reaches this module through the areas' packages while
# it is still loading (it calls lobbies/bridge.py), so its names are looked up at call time.
from ..channel_messages import search
from ..channel_messages import store as channel_store

if TYPE_CHECKING:
    from ...events.outbox import Outbox


def lobby_message_to_channel(conn: sqlite3.Connection, outbox: Outbox, lobby_id: int, message: Payload,
                             now: datetime) -> None:
    """Called in the transaction that wrote the lobby message ``message``."""
    lobby = conn.execute("SELECT linked_channel_id FROM lobbies WHERE id = ?", (lobby_id,)).fetchone()
    if lobby is None or lobby["linked_channel_id"] is None:
        return
    channel = conn.execute("SELECT * FROM channels WHERE id = ?", (lobby["linked_channel_id"],)).fetchone()
    if channel is None:
        return
    message_id, author_id = int(message["id"]), int(message["author"]["id"])
    content = message.get("content") or ""
    conn.execute("INSERT INTO channel_messages (id, channel_id, guild_id, author_id, content, created_at)"
                 " VALUES (?, ?, ?, ?, ?, ?)",
                 (message_id, channel["id"], channel["guild_id"], author_id, content, format_instant(now)))
    conn.execute("UPDATE channels SET last_message_id = ? WHERE id = ?", (message_id, channel["id"]))
    search.index_message(conn, message_id, channel["guild_id"], content)
    rendered = channel_store.render(conn, channel_store.get_row(conn, channel["id"], message_id))
    channel_store.announce_message(conn, outbox, "MESSAGE_CREATE", channel, rendered, now)
