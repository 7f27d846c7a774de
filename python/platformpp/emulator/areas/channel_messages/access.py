"""Who may do what in a guild channel: the channel, the caller's permissions in it (the permission
engine, core/permissions.py, over the guild model's tables) and the checks every message route makes.
The only module of this area that reads the guild model's tables."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime

from ...core import errors
from ...core.clock import parse_instant
from ...core.errors import ApiError
from ...core.permissions import MemberContext, Overwrite, Permission, base_permissions, channel_permissions, names

# Channel types that hold messages here: text, voice (text in voice), announcement, stage.
MESSAGE_CHANNEL_TYPES = frozenset({0, 2, 5, 13})


@dataclass(frozen=True)
class ChannelAccess:
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
        return int(_column(self.channel, "rate_limit_per_user") or 0)

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


def _column(row: sqlite3.Row, name: str) -> object:
    return row[name] if name in row.keys() else None


def _timed_out(member: sqlite3.Row, now: datetime) -> bool:
    until = _column(member, "communication_disabled_until")
    if not until:
        return False
    try:
        return parse_instant(str(until)) > now
    except ValueError:
        return False


def member_context(conn: sqlite3.Connection, guild_id: int, user_id: int, now: datetime) -> MemberContext | None:
    """The engine's view of ``user_id`` in the guild; None when they are not a member."""
    guild = conn.execute("SELECT owner_id FROM guilds WHERE id = ?", (guild_id,)).fetchone()
    member = conn.execute("SELECT * FROM members WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)).fetchone()
    if guild is None or member is None:
        return None
    role_ids = {int(r) for r in json.loads(member["roles"])}
    everyone = 0
    roles: dict[int, int] = {}
    for row in conn.execute("SELECT id, permissions FROM roles WHERE guild_id = ?", (guild_id,)):
        if row["id"] == guild_id:
            everyone = int(row["permissions"])
        elif row["id"] in role_ids:
            roles[row["id"]] = int(row["permissions"])
    return MemberContext(guild_id, guild["owner_id"], user_id, everyone, roles, _timed_out(member, now))


def overwrites_of(channel: sqlite3.Row) -> list[Overwrite]:
    return [Overwrite(int(o["id"]), int(o["type"]), int(o["allow"]), int(o["deny"]))
            for o in json.loads(channel["permission_overwrites"] or "[]")]


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
    member = member_context(conn, channel["guild_id"], user_id, now)
    permissions = channel_permissions(member, overwrites_of(channel)) if member is not None else 0
    if not permissions & Permission.VIEW_CHANNEL:
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access")
    return ChannelAccess(channel, int(channel["guild_id"]), user_id, permissions)


def permissions_in(conn: sqlite3.Connection, channel: sqlite3.Row, user_id: int, now: datetime) -> int:
    member = member_context(conn, channel["guild_id"], user_id, now)
    return channel_permissions(member, overwrites_of(channel)) if member is not None else 0


def guild_permissions(conn: sqlite3.Connection, guild_id: int, user_id: int, now: datetime) -> int:
    """Guild-wide permissions (no channel); 403 / 50001 for a non-member, 404 / 10004 unknown guild."""
    if conn.execute("SELECT 1 FROM guilds WHERE id = ?", (guild_id,)).fetchone() is None:
        raise errors.not_found(errors.UNKNOWN_GUILD, "Guild")
    member = member_context(conn, guild_id, user_id, now)
    if member is None:
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access")
    return base_permissions(member)


def require_guild_permission(permissions: int, bits: int) -> None:
    """403 / 50013 unless ``permissions`` holds any one of ``bits``."""
    if not permissions & bits:
        raise ApiError(403, errors.MISSING_PERMISSIONS, f"Missing Permissions: {' or '.join(names(bits))}")


def bot_members_viewing(conn: sqlite3.Connection, channel: sqlite3.Row, now: datetime) -> frozenset[int]:
    """The bot users of the channel's guild who can view it: who may hear about its messages."""
    rows = conn.execute("SELECT m.user_id FROM members m JOIN users u ON u.id = m.user_id"
                        " WHERE m.guild_id = ? AND u.bot = 1", (channel["guild_id"],)).fetchall()
    return frozenset(row["user_id"] for row in rows
                     if permissions_in(conn, channel, row["user_id"], now) & Permission.VIEW_CHANNEL)


def channels_of_guild(conn: sqlite3.Connection, guild_id: int) -> list[sqlite3.Row]:
    placeholders = ",".join(str(t) for t in sorted(MESSAGE_CHANNEL_TYPES))
    return conn.execute(f"SELECT * FROM channels WHERE guild_id = ? AND type IN ({placeholders})",
                        (guild_id,)).fetchall()
