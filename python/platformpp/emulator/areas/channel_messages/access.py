"""Who may do what in a guild channel: the channel, the caller's permissions in it (the guild model's
standing, areas/guilds/access.py, handed to the permission engine, core/permissions.py) and the checks
every message route makes. The only module of this area that reads the guild model's tables."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import NamedTuple

from ...core import errors
from ...core.errors import ApiError
from ...core.permissions import MemberContext, Permission, channel_permissions, names
from ...wire.member import MEMBER_SELECT
from ..guilds.access import guild_roles_of, overwrites_of, require_member, standing, standing_in
from ..threads import store as threads

# Channel types that hold messages here: text, voice (text in voice), announcement, stage, threads.
MESSAGE_CHANNEL_TYPES = frozenset({0, 2, 5, 13, 10, 11, 12})
_VIEW_CHANNEL = int(Permission.VIEW_CHANNEL)   # a plain int: int & IntFlag builds a flag object


class ChannelAccess(NamedTuple):
    """A guild channel and what one user may do in it."""

    channel: sqlite3.Row
    guild_id: int
    user_id: int
    permissions: int

    @property
    def channel_id(self) -> int:
        return int(self.channel["id"])

    @property
    def rate_limit_per_user(self) -> int:
        return int(self.channel["rate_limit_per_user"] or 0)

    def has(self, bits: int) -> bool:
        return bool(self.permissions & bits) if bits else True

    def require(self, bits: int, *, any_of: bool = False) -> None:
        """403 / 50013 naming what is missing unless the caller holds ``bits`` (all, or any one)."""
        held = self.permissions & bits
        if (held if any_of else held == bits):
            return
        missing = names(bits if any_of else bits & ~self.permissions)
        raise ApiError(403, errors.MISSING_PERMISSIONS,
                       f"Missing Permissions: {' or '.join(missing) if any_of else ', '.join(missing)}")


def member_context(conn: sqlite3.Connection, guild_id: int, user_id: int, now: datetime) -> MemberContext | None:
    """The engine's view of ``user_id`` in the guild (the guild model's standing); None for a non-member."""
    who = standing(conn, guild_id, user_id, now)
    return who.context if who is not None else None


def get_channel(conn: sqlite3.Connection, channel_id: int) -> sqlite3.Row:
    """A guild channel that holds messages; 404 / 10003 otherwise."""
    channel = conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone()
    if channel is None or channel["guild_id"] is None or channel["type"] not in MESSAGE_CHANNEL_TYPES:
        raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
    return channel


def channel_access(conn: sqlite3.Connection, channel_id: int, user_id: int, now: datetime) -> ChannelAccess:
    """The caller's permissions in a message channel. A channel of a guild they are not in, or one
    they cannot view, is 403 / 50001 Missing Access (as the platform answers)."""
    channel = get_channel(conn, channel_id)
    permissions = permissions_in(conn, channel, user_id, now)
    if not permissions & Permission.VIEW_CHANNEL:
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access")
    return ChannelAccess(channel, int(channel["guild_id"]), user_id, permissions)


def permissions_in(conn: sqlite3.Connection, channel: sqlite3.Row, user_id: int, now: datetime) -> int:
    member = member_context(conn, channel["guild_id"], user_id, now)
    if member is not None and threads.is_thread(channel):   # a thread has its parent's permissions
        return threads.permissions_in_thread(conn, channel, member)
    return channel_permissions(member, overwrites_of(channel)) if member is not None else 0


def guild_permissions(conn: sqlite3.Connection, guild_id: int, user_id: int, now: datetime) -> int:
    """Guild-wide permissions (no channel); 403 / 50001 for a non-member, 404 / 10004 unknown guild."""
    return require_member(conn, guild_id, user_id, now).base


def require_guild_permission(permissions: int, bits: int) -> None:
    """403 / 50013 unless ``permissions`` holds any one of ``bits``."""
    if not permissions & bits:
        raise ApiError(403, errors.MISSING_PERMISSIONS, f"Missing Permissions: {' or '.join(names(bits))}")


def bot_members_viewing(conn: sqlite3.Connection, channel: sqlite3.Row, now: datetime) -> frozenset[int]:
    """The bot users of the channel's guild who can view it: who may hear about its messages. The
    guild's roles and the channel's overwrites are read once for all of them."""
    rows = conn.execute("SELECT m.user_id AS id, m.roles AS member_roles, m.communication_disabled_until FROM members m"
                        " JOIN users u ON u.id = m.user_id WHERE m.guild_id = ? AND u.bot = 1",
                        (channel["guild_id"],)).fetchall()
    return _viewing(conn, channel, rows, now)


def message_audience(conn: sqlite3.Connection, channel: sqlite3.Row, author_id: int, now: datetime
                     ) -> tuple[frozenset[int], sqlite3.Row | None]:
    """``bot_members_viewing`` and the author's member row (MEMBER_SELECT; None: not a member), read
    together: what announcing a message needs."""
    rows = conn.execute(MEMBER_SELECT + " WHERE m.guild_id = ? AND (u.bot = 1 OR m.user_id = ?)",
                        (channel["guild_id"], author_id)).fetchall()
    author = next((row for row in rows if row["id"] == author_id), None)
    return _viewing(conn, channel, [row for row in rows if row["bot"]], now), author


def _viewing(conn: sqlite3.Connection, channel: sqlite3.Row, bots: list[sqlite3.Row], now: datetime
             ) -> frozenset[int]:
    """Which of these bot members (rows with the user's ``id``, ``member_roles`` and
    ``communication_disabled_until``) can view the channel."""
    if threads.is_thread(channel):
        return threads.viewing_bots(conn, channel, bots, now)
    guild = guild_roles_of(conn, channel["guild_id"]) if bots else None
    if guild is None:
        return frozenset()
    overwrites = overwrites_of(channel)
    return frozenset(row["id"] for row in bots if channel_permissions(standing_in(
        guild, row["id"], row["member_roles"], row["communication_disabled_until"], now).context, overwrites)
        & _VIEW_CHANNEL)


def channels_of_guild(conn: sqlite3.Connection, guild_id: int) -> list[sqlite3.Row]:
    placeholders = ",".join(str(t) for t in sorted(MESSAGE_CHANNEL_TYPES))
    return conn.execute(f"SELECT * FROM channels WHERE guild_id = ? AND type IN ({placeholders})",
                        (guild_id,)).fetchall()
