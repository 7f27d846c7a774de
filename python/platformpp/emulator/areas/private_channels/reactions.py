"""Reactions on DM and group DM messages, through the channel message routes (which hand a private
channel's requests here, areas/channel_messages/routes.py). Any recipient adds and removes their own;
nobody removes another's, nor all of a message's or of one emoji (50003, as the platform answers in a
DM: those need MANAGE_MESSAGES, which no one holds in a DM). Bot recipients with
DIRECT_MESSAGE_REACTIONS hear MESSAGE_REACTION_ADD / REMOVE, without guild_id or member (how clients
tell a DM reaction from a guild one)."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ...core.errors import ApiError
from ...events.audience import Payload
from ...wire.user import public_user_json
from ..channel_messages.reactions import MAX_REACTION_KINDS, TOO_MANY_REACTIONS, Emoji, parse_emoji
from . import store
from .messages import bots_of, get_row, private_channel, require_recipient

if TYPE_CHECKING:
    from ...events.outbox import Outbox
    from ...state import EmulatorState

DIRECT_MESSAGE_REACTIONS = 1 << 13


def _context(conn: sqlite3.Connection, channel_id: int, message_id: int, user_id: int,
             raw_emoji: str | None) -> tuple[list[int], sqlite3.Row, Emoji | None]:
    channel = private_channel(conn, channel_id)
    assert channel is not None   # the routes hand over private channels only
    recipients = require_recipient(conn, channel, user_id)
    row = get_row(conn, channel_id, message_id)
    # Outside a guild: unicode, the bot's application emojis, and those of the guilds the user is in.
    emoji = parse_emoji(conn, None, raw_emoji, user_id) if raw_emoji is not None else None
    return recipients, row, emoji


def _refused() -> ApiError:
    return ApiError(403, store.CANNOT_EXECUTE_ON_DM, "Cannot execute action on a DM channel")


def add(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, channel_id: int, message_id: int,
        user_id: int, raw_emoji: str) -> None:
    recipients, row, emoji = _context(conn, channel_id, message_id, user_id, raw_emoji)
    assert emoji is not None
    kinds = {r[0] for r in conn.execute("SELECT DISTINCT emoji_key FROM private_message_reactions"
                                        " WHERE message_id = ?", (message_id,))}
    if emoji.key not in kinds and len(kinds) >= MAX_REACTION_KINDS:
        raise ApiError(400, TOO_MANY_REACTIONS, f"Maximum number of reactions reached ({MAX_REACTION_KINDS})")
    inserted = conn.execute(
        "INSERT OR IGNORE INTO private_message_reactions (message_id, emoji_key, emoji_id, emoji_name, animated,"
        " user_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (message_id, emoji.key, emoji.id, emoji.name, int(emoji.animated), user_id, state.clock.iso())).rowcount
    if inserted:
        outbox.add("MESSAGE_REACTION_ADD", bots_of(recipients, {
            "user_id": str(user_id), "channel_id": str(channel_id), "message_id": str(message_id),
            "emoji": emoji.json(), "message_author_id": str(row["author_id"]), "burst": False, "burst_colors": [],
            "type": 0}, DIRECT_MESSAGE_REACTIONS))


def remove(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, channel_id: int, message_id: int,
           caller_id: int, user_id: int, raw_emoji: str) -> None:
    """One's own reaction only."""
    recipients, _, emoji = _context(conn, channel_id, message_id, caller_id, raw_emoji)
    assert emoji is not None
    if user_id != caller_id:
        raise _refused()
    removed = conn.execute("DELETE FROM private_message_reactions WHERE message_id = ? AND emoji_key = ?"
                           " AND user_id = ?", (message_id, emoji.key, user_id)).rowcount
    if removed:
        outbox.add("MESSAGE_REACTION_REMOVE", bots_of(recipients, {
            "user_id": str(user_id), "channel_id": str(channel_id), "message_id": str(message_id),
            "emoji": emoji.json(), "burst": False, "type": 0}, DIRECT_MESSAGE_REACTIONS))


def remove_all(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, channel_id: int,
               message_id: int, caller_id: int, raw_emoji: str | None) -> None:
    _context(conn, channel_id, message_id, caller_id, raw_emoji)   # a recipient, a message, an emoji first
    raise _refused()


def users(state: EmulatorState, conn: sqlite3.Connection, *, channel_id: int, message_id: int, caller_id: int,
          raw_emoji: str, after: int | None, limit: int) -> list[Payload]:
    """Who reacted with the emoji, by user id, ``after`` an id, at most ``limit``."""
    _, _, emoji = _context(conn, channel_id, message_id, caller_id, raw_emoji)
    assert emoji is not None
    rows = conn.execute("SELECT u.* FROM private_message_reactions r JOIN users u ON u.id = r.user_id"
                        " WHERE r.message_id = ? AND r.emoji_key = ? AND r.user_id > ? ORDER BY u.id LIMIT ?",
                        (message_id, emoji.key, after or 0, limit)).fetchall()
    return [public_user_json(row) for row in rows]
