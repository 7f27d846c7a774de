"""Pins: list (the newer ``/messages/pins`` form with ``pinned_at`` and paging, and the older
``/pins`` list), pin and unpin. Who may pin follows the dated rule of 2026-02-23
(core/permission_changes.py). Bots with GUILDS hear CHANNEL_PINS_UPDATE and, with GUILD_MESSAGES,
MESSAGE_UPDATE (``pinned`` changed)."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ...core.errors import ApiError
from ...core.permission_changes import pin_permissions
from ...core.permissions import Permission
from ...events.audience import Payload
from ..audit_log import actions
from ..audit_log import store as audit_log
from .access import bot_members_viewing, channel_access
from .audience import GUILDS, GuildBots
from .store import Author, announce_message, for_readers, get_row, render, render_many

if TYPE_CHECKING:
    from ...events.outbox import Outbox
    from ...state import EmulatorState

MAX_PINS = 250
TOO_MANY_PINS = 30003


def require_pin_room(conn: sqlite3.Connection, table: str, channel_id: int) -> None:
    """400 / 30003 when the channel holds ``MAX_PINS`` pinned messages (``table``: the channel's
    messages, a guild's or a DM's)."""
    count = conn.execute(f"SELECT COUNT(*) FROM {table} WHERE channel_id = ? AND pinned_at IS NOT NULL",
                         (channel_id,)).fetchone()[0]
    if count >= MAX_PINS:
        raise ApiError(400, TOO_MANY_PINS, f"Maximum number of pins reached ({MAX_PINS})")


def last_pin_timestamp(conn: sqlite3.Connection, table: str, channel_id: int) -> str | None:
    """When the channel's latest pin was made (CHANNEL_PINS_UPDATE's ``last_pin_timestamp``)."""
    value: str | None = conn.execute(f"SELECT MAX(pinned_at) FROM {table} WHERE channel_id = ?",
                                     (channel_id,)).fetchone()[0]
    return value


def list_pins(state: EmulatorState, conn: sqlite3.Connection, reader: Author, channel_id: int, *,
              before: str | None, limit: int) -> tuple[list[Payload], bool]:
    """``[{pinned_at, message}]`` most recently pinned first, pinned before ``before``; and has_more.
    Without READ_MESSAGE_HISTORY the list is empty."""
    access = channel_access(conn, channel_id, reader.user_id, state.clock.now())
    if not access.has(int(Permission.READ_MESSAGE_HISTORY)):
        return [], False
    rows = conn.execute("SELECT * FROM channel_messages WHERE channel_id = ? AND pinned_at IS NOT NULL"
                        " AND pinned_at < ? ORDER BY pinned_at DESC, id DESC LIMIT ?",
                        (channel_id, before or "9999", limit + 1)).fetchall()
    messages = for_readers(conn, render_many(conn, rows[:limit], reader.user_id), reader)
    items = [{"pinned_at": row["pinned_at"], "message": message} for row, message in zip(rows, messages)]
    return items, len(rows) > limit


def set_pinned(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, channel_id: int, caller: Author,
               message_id: int, pinned: bool) -> None:
    now = state.clock.now()
    access = channel_access(conn, channel_id, caller.user_id, now)
    access.require(pin_permissions(now), any_of=True)
    row = get_row(conn, channel_id, message_id)
    if (row["pinned_at"] is not None) == pinned:
        return
    if pinned:
        require_pin_room(conn, "channel_messages", channel_id)
    conn.execute("UPDATE channel_messages SET pinned_at = ? WHERE id = ?",
                 (state.clock.iso() if pinned else None, message_id))
    audit_log.record(conn, guild_id=access.guild_id, user_id=caller.user_id, target_id=row["author_id"],
                     action_type=actions.MESSAGE_PIN if pinned else actions.MESSAGE_UNPIN,
                     options={"channel_id": channel_id, "message_id": message_id})
    last = last_pin_timestamp(conn, "channel_messages", channel_id)
    viewers = bot_members_viewing(conn, access.channel, now)
    outbox.add("CHANNEL_PINS_UPDATE", GuildBots(access.guild_id, GUILDS, {
        "guild_id": str(access.guild_id), "channel_id": str(channel_id), "last_pin_timestamp": last}, viewers))
    announce_message(conn, outbox, "MESSAGE_UPDATE", access.channel, render(conn, get_row(conn, channel_id, message_id)),
                     now)
