"""Who may do what in a guild: the stored guild, roles, member and overwrites handed to the permission
engine (core/permissions.py), the checks every guild route makes (50001 / 50013), the role
hierarchy, and which channels a user can view (what obfuscation and the channel list decide from)."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from functools import lru_cache
from typing import NamedTuple

from ...core import errors
from ...core.clock import parse_instant
from ...core.errors import ApiError
from ...core.permissions import (
    ALL,
    MemberContext,
    Overwrite,
    Permission,
    base_permissions,
    channel_permissions,
    names,
)

CATEGORY = 4


class Standing(NamedTuple):
    """A member's standing in a guild: the engine's context plus what the role hierarchy needs."""

    context: MemberContext
    highest_position: int  # the highest position among the member's roles (@everyone: 0)

    @property
    def is_owner(self) -> bool:
        return self.context.user_id == self.context.owner_id

    @property
    def base(self) -> int:
        return base_permissions(self.context)


class GuildRoles(NamedTuple):
    """A guild's owner and roles: everything a member's standing needs besides the member's own row.
    Read once, it serves every member asked about in the same unit of work (the bots an event reaches,
    the user and the app's bot of an interaction)."""

    guild_id: int
    owner_id: int
    everyone: int                         # the @everyone role's permissions (0 when it has none)
    roles: dict[int, tuple[int, int]]     # the other roles, in storage order: id -> (permissions, position)


def guild_roles(conn: sqlite3.Connection, guild_id: int, owner_id: int) -> GuildRoles:
    """The roles of a guild whose owner the caller already read."""
    everyone = 0
    roles: dict[int, tuple[int, int]] = {}
    for row in conn.execute("SELECT id, permissions, position FROM roles WHERE guild_id = ?", (guild_id,)):
        if row["id"] == guild_id:
            everyone = int(row["permissions"])
        else:
            roles[row["id"]] = (int(row["permissions"]), row["position"])
    return GuildRoles(guild_id, int(owner_id), everyone, roles)


def guild_roles_of(conn: sqlite3.Connection, guild_id: int) -> GuildRoles | None:
    """None when the guild does not exist."""
    guild = conn.execute("SELECT owner_id FROM guilds WHERE id = ?", (guild_id,)).fetchone()
    return guild_roles(conn, guild_id, guild["owner_id"]) if guild is not None else None


def standing_in(guild: GuildRoles, user_id: int, member_roles: str, communication_disabled_until: str | None,
                now: datetime) -> Standing:
    """A member's standing from their row's ``roles`` (JSON) and ``communication_disabled_until``."""
    role_ids = role_ids_of(member_roles)
    roles: dict[int, int] = {}
    highest = 0
    for role_id, (permissions, position) in guild.roles.items():
        if role_id in role_ids:
            roles[role_id] = permissions
            highest = max(highest, position)
    timed_out = communication_disabled_until is not None and parse_instant(communication_disabled_until) > now
    return Standing(MemberContext(guild.guild_id, guild.owner_id, user_id, guild.everyone, roles, timed_out), highest)


def standing(conn: sqlite3.Connection, guild_id: int, user_id: int, now: datetime) -> Standing | None:
    """None when the user is not a member (or the guild does not exist)."""
    guild = conn.execute("SELECT owner_id FROM guilds WHERE id = ?", (guild_id,)).fetchone()
    member = conn.execute("SELECT roles, communication_disabled_until FROM members"
                          " WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)).fetchone()
    if guild is None or member is None:
        return None
    return standing_in(guild_roles(conn, guild_id, guild["owner_id"]), user_id, member["roles"],
                       member["communication_disabled_until"], now)


def overwrites_of(row: sqlite3.Row) -> tuple[Overwrite, ...]:
    return _parsed_overwrites(row["permission_overwrites"])


# The JSON columns every permission computation reads, decoded once per distinct stored text: the
# result is a function of the text alone (immutable values), so it never needs invalidating.
@lru_cache(maxsize=4096)
def _parsed_overwrites(raw: str) -> tuple[Overwrite, ...]:
    return tuple(Overwrite(int(o["id"]), int(o["type"]), int(o["allow"]), int(o["deny"])) for o in json.loads(raw))


@lru_cache(maxsize=4096)
def role_ids_of(member_roles: str) -> frozenset[int]:
    """A member row's ``roles`` (JSON list of id strings) as ids."""
    return frozenset(int(r) for r in json.loads(member_roles))


def permissions_in(who: Standing, channel: sqlite3.Row) -> int:
    return channel_permissions(who.context, overwrites_of(channel))


def visible_channel_ids(conn: sqlite3.Connection, who: Standing | None, *,
                        categories_by_children: bool) -> set[int]:
    """Channels ``who`` has VIEW_CHANNEL in. ``categories_by_children``: a category also counts when one
    of its children is viewable: the client's rule for listing (docs/wire.md), never a bot's (seed: a
    channel the bot lacks VIEW_CHANNEL for is obfuscated, and omitted from the list after 2026-11-16)."""
    if who is None:
        return set()
    # Threads are left out: they have their parent's permissions (areas/threads/store.py).
    rows = conn.execute("SELECT id, parent_id, permission_overwrites FROM channels WHERE guild_id = ?"
                        " AND type NOT IN (10, 11, 12)", (who.context.guild_id,)).fetchall()
    visible = {row["id"] for row in rows if permissions_in(who, row) & Permission.VIEW_CHANNEL}
    # A channel also counts as viewable while the user is connected to it (voice; docs/wire.md).
    visible |= {row[0] for row in conn.execute(
        "SELECT channel_id FROM voice_states WHERE guild_id = ? AND user_id = ?",
        (who.context.guild_id, who.context.user_id))}
    if categories_by_children:
        visible |= {row["parent_id"] for row in rows if row["id"] in visible and row["parent_id"] is not None}
    return visible


# --- checks the routes make ---------------------------------------------------------------------

def missing_access() -> ApiError:
    return ApiError(403, errors.MISSING_ACCESS, "Missing Access")


def missing_permissions(bits: int) -> ApiError:
    return ApiError(403, errors.MISSING_PERMISSIONS, "Missing Permissions: " + ", ".join(names(bits)))


def require_member(conn: sqlite3.Connection, guild_id: int, user_id: int, now: datetime) -> Standing:
    """10004 for an unknown guild, 50001 for a guild the caller is not in."""
    if conn.execute("SELECT 1 FROM guilds WHERE id = ?", (guild_id,)).fetchone() is None:
        raise errors.not_found(errors.UNKNOWN_GUILD, "Guild")
    who = standing(conn, guild_id, user_id, now)
    if who is None:
        raise missing_access()
    return who


def require_guild_permission(who: Standing, bits: int) -> None:
    if who.base & bits != bits:
        raise missing_permissions(bits & ~who.base)


def require_channel_permission(who: Standing, channel: sqlite3.Row, bits: int) -> int:
    """50001 when the channel is not viewable, 50013 when other ``bits`` are missing."""
    have = permissions_in(who, channel)
    if not have & Permission.VIEW_CHANNEL:
        raise missing_access()
    if have & bits != bits:
        raise missing_permissions(bits & ~have)
    return have


def require_above(who: Standing, position: int, what: str) -> None:
    """The role hierarchy: a member other than the owner acts only on roles strictly below their
    highest role (50013)."""
    if not who.is_owner and position >= who.highest_position:
        raise ApiError(403, errors.MISSING_PERMISSIONS,
                       f"Missing Permissions: {what} is at or above your highest role")


def grantable(who: Standing, bits: int) -> None:
    """A member may only grant permissions they hold themselves (50013 naming the others)."""
    if who.base != ALL and bits & ~who.base:
        raise missing_permissions(bits & ~who.base)
