"""Reactions on guild channel messages: add and remove one's own, remove another user's, remove all
or one emoji's, list who reacted. Dispatches MESSAGE_REACTION_* to bots with GUILD_MESSAGE_REACTIONS
that can view the channel."""

from __future__ import annotations

import re
import sqlite3
from typing import TYPE_CHECKING, NamedTuple

from ...core.errors import ApiError
from ...core.permissions import Permission
from ...events.audience import Payload
from ...wire.member import MEMBER_SELECT, member_json
from ...wire.message import emoji_key_json
from ...wire.user import public_user_json
from ..application_emojis import store as application_emojis
from .access import ChannelAccess, bot_members_viewing, channel_access
from .audience import GUILD_MESSAGE_REACTIONS, GuildBots
from .store import get_row

if TYPE_CHECKING:
    from ...events.outbox import Outbox
    from ...state import EmulatorState

UNKNOWN_EMOJI = 10014
MAX_REACTION_KINDS = 20
TOO_MANY_REACTIONS = 30010
_CUSTOM = re.compile(r"^(?:a:)?([A-Za-z0-9_]{2,32}):(\d{1,20})$")


class Emoji(NamedTuple):
    key: str
    id: int | None
    name: str | None
    animated: bool

    def json(self) -> Payload:
        return emoji_key_json(self.id, self.name, self.animated)


def parse_emoji(conn: sqlite3.Connection, guild_id: int | None, raw: str, user_id: int) -> Emoji:
    """``name:id`` of a custom emoji of the guild (``guild_id`` None, outside a guild: of any guild
    ``user_id`` is a member of) or of the application whose bot ``user_id`` is, or a unicode emoji;
    else 400 / 10014."""
    match = _CUSTOM.match(raw)
    if match:
        in_guild = "guild_id = ?" if guild_id is not None else \
            "guild_id IN (SELECT guild_id FROM members WHERE user_id = ?)"
        row = conn.execute(f"SELECT id, name, animated FROM guild_emojis WHERE id = ? AND {in_guild}",
                           (int(match.group(2)), guild_id if guild_id is not None else user_id)).fetchone() \
            or application_emojis.usable_emoji(conn, user_id, int(match.group(2)))
        if row is None:
            raise ApiError(400, UNKNOWN_EMOJI, "Unknown Emoji")
        return Emoji(f"{row['name']}:{row['id']}", row["id"], row["name"], bool(row["animated"]))
    # A unicode emoji: a few code points, at least one outside ASCII, no separators.
    if not raw or len(raw) > 16 or raw.isascii() or any(c.isspace() or c == ":" for c in raw):
        raise ApiError(400, UNKNOWN_EMOJI, "Unknown Emoji")
    return Emoji(raw, None, raw, False)


def _context(state: EmulatorState, conn: sqlite3.Connection, channel_id: int, message_id: int, user_id: int,
             raw_emoji: str | None) -> tuple[ChannelAccess, sqlite3.Row, Emoji | None]:
    access = channel_access(conn, channel_id, user_id, state.clock.now())
    access.require(int(Permission.READ_MESSAGE_HISTORY))
    row = get_row(conn, channel_id, message_id)
    emoji = parse_emoji(conn, access.guild_id, raw_emoji, user_id) if raw_emoji is not None else None
    return access, row, emoji


def _announce(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, event: str, access: ChannelAccess,
              payload: Payload) -> None:
    outbox.add(event, GuildBots(access.guild_id, GUILD_MESSAGE_REACTIONS, payload,
                                bot_members_viewing(conn, access.channel, state.clock.now())))


def _base(access: ChannelAccess, message_id: int) -> Payload:
    return {"channel_id": str(access.channel_id), "message_id": str(message_id), "guild_id": str(access.guild_id)}


def add(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, channel_id: int, message_id: int,
        user_id: int, raw_emoji: str) -> None:
    """A new emoji on the message needs ADD_REACTIONS; joining an existing reaction does not."""
    access, row, emoji = _context(state, conn, channel_id, message_id, user_id, raw_emoji)
    assert emoji is not None
    kinds = {r[0] for r in conn.execute("SELECT DISTINCT emoji_key FROM message_reactions WHERE message_id = ?",
                                        (message_id,))}
    if emoji.key not in kinds:
        access.require(int(Permission.ADD_REACTIONS))
        if len(kinds) >= MAX_REACTION_KINDS:
            raise ApiError(400, TOO_MANY_REACTIONS, "Maximum number of reactions reached (20)")
    inserted = conn.execute(
        "INSERT OR IGNORE INTO message_reactions (message_id, emoji_key, emoji_id, emoji_name, animated, user_id,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (message_id, emoji.key, emoji.id, emoji.name, int(emoji.animated), user_id, state.clock.iso())).rowcount
    if inserted:
        # In a guild the platform adds the reacting member (with its user); clients tell a guild
        # reaction from a DM one by it.
        member = conn.execute(MEMBER_SELECT + " WHERE m.guild_id = ? AND m.user_id = ?",
                              (access.guild_id, user_id)).fetchone()
        _announce(state, conn, outbox, "MESSAGE_REACTION_ADD", access, {
            **_base(access, message_id), "user_id": str(user_id), "emoji": emoji.json(),
            **({"member": member_json(member)} if member is not None else {}),
            "message_author_id": str(row["author_id"]), "burst": False, "burst_colors": [], "type": 0})


def remove(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, channel_id: int, message_id: int,
           caller_id: int, user_id: int, raw_emoji: str) -> None:
    """One's own reaction, or (MANAGE_MESSAGES) another user's."""
    access, _, emoji = _context(state, conn, channel_id, message_id, caller_id, raw_emoji)
    assert emoji is not None
    if user_id != caller_id:
        access.require(int(Permission.MANAGE_MESSAGES))
    removed = conn.execute("DELETE FROM message_reactions WHERE message_id = ? AND emoji_key = ? AND user_id = ?",
                           (message_id, emoji.key, user_id)).rowcount
    if removed:
        _announce(state, conn, outbox, "MESSAGE_REACTION_REMOVE", access, {
            **_base(access, message_id), "user_id": str(user_id), "emoji": emoji.json(), "burst": False, "type": 0})


def remove_all(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, channel_id: int,
               message_id: int, caller_id: int, raw_emoji: str | None) -> None:
    """MANAGE_MESSAGES: every reaction (REMOVE_ALL), or every reaction of one emoji (REMOVE_EMOJI)."""
    access, _, emoji = _context(state, conn, channel_id, message_id, caller_id, raw_emoji)
    access.require(int(Permission.MANAGE_MESSAGES))
    if emoji is None:
        conn.execute("DELETE FROM message_reactions WHERE message_id = ?", (message_id,))
        _announce(state, conn, outbox, "MESSAGE_REACTION_REMOVE_ALL", access, _base(access, message_id))
        return
    conn.execute("DELETE FROM message_reactions WHERE message_id = ? AND emoji_key = ?", (message_id, emoji.key))
    _announce(state, conn, outbox, "MESSAGE_REACTION_REMOVE_EMOJI", access,
              {**_base(access, message_id), "emoji": emoji.json()})


def users(state: EmulatorState, conn: sqlite3.Connection, *, channel_id: int, message_id: int, caller_id: int,
          raw_emoji: str, after: int | None, limit: int) -> list[Payload]:
    """Who reacted with the emoji, by user id, ``after`` an id, at most ``limit``."""
    _, _, emoji = _context(state, conn, channel_id, message_id, caller_id, raw_emoji)
    assert emoji is not None
    rows = conn.execute("SELECT u.* FROM message_reactions r JOIN users u ON u.id = r.user_id"
                        " WHERE r.message_id = ? AND r.emoji_key = ? AND r.user_id > ? ORDER BY u.id LIMIT ?",
                        (message_id, emoji.key, after or 0, limit)).fetchall()
    return [public_user_json(row) for row in rows]
