"""Pins in DMs and group DMs, through the channel pin routes (which hand a private channel's requests
here). Any recipient pins and unpins (no permission applies in a DM); at most 250 pins per channel,
as in a guild channel. Bot recipients with DIRECT_MESSAGES hear CHANNEL_PINS_UPDATE (no guild_id)
and MESSAGE_UPDATE (``pinned`` changed)."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ...events.audience import Payload
from ..channel_messages.pins import last_pin_timestamp, require_pin_room
from .messages import announce_update, bots_of, get_row, private_channel, render, require_recipient

if TYPE_CHECKING:
    from ...events.outbox import Outbox
    from ...state import EmulatorState
    from ..channel_messages.store import Author


def _channel(conn: sqlite3.Connection, channel_id: int) -> sqlite3.Row:
    channel = private_channel(conn, channel_id)
    assert channel is not None   # the routes hand over private channels only
    return channel


def list_pins(state: EmulatorState, conn: sqlite3.Connection, reader: Author, channel_id: int, *,
              before: str | None, limit: int) -> tuple[list[Payload], bool]:
    """``[{pinned_at, message}]`` most recently pinned first, pinned before ``before``; and has_more."""
    require_recipient(conn, _channel(conn, channel_id), reader.user_id)
    rows = conn.execute("SELECT * FROM private_messages WHERE channel_id = ? AND pinned_at IS NOT NULL"
                        " AND pinned_at < ? ORDER BY pinned_at DESC, id DESC LIMIT ?",
                        (channel_id, before or "9999", limit + 1)).fetchall()
    items = [{"pinned_at": row["pinned_at"], "message": render(conn, row, reader.user_id)} for row in rows[:limit]]
    return items, len(rows) > limit


def set_pinned(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, channel_id: int, caller: Author,
               message_id: int, pinned: bool) -> None:
    channel = _channel(conn, channel_id)
    recipients = require_recipient(conn, channel, caller.user_id)
    row = get_row(conn, channel_id, message_id)
    if (row["pinned_at"] is not None) == pinned:
        return
    if pinned:
        require_pin_room(conn, "private_messages", channel_id)
    conn.execute("UPDATE private_messages SET pinned_at = ? WHERE id = ?",
                 (state.clock.iso() if pinned else None, message_id))
    last = last_pin_timestamp(conn, "private_messages", channel_id)
    outbox.add("CHANNEL_PINS_UPDATE", bots_of(recipients, {"channel_id": str(channel_id),
                                                           "last_pin_timestamp": last}))
    announce_update(conn, outbox, channel, message_id)
