"""Guilds as the platform shows them: the guild with its roles, members, channel lists in the client's
display order, and what a user may see of them (through access.py and the permission engine)."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timezone
from typing import Any

from ...core import errors
from ...wire.channel import VOICE_LIKE, channel_json, obfuscated_channel_json
from ...wire.guild import guild_json
from ...wire.member import MEMBER_SELECT, member_json
from ...wire.role import role_json
from ..expressions import listing as expressions
from ..scheduled_events import listing as scheduled_events
from ..soundboard import listing as soundboard
from ..stage_instances import listing as stage_instances
from ..threads import store as threads
from .access import CATEGORY, Standing, standing
from .access import visible_channel_ids as _visible

# From this instant (emulator clock) a bot's GET /guilds/{id}/channels omits channels it cannot view.
BOT_CHANNELS_FILTER_FROM = datetime(2026, 11, 16, tzinfo=timezone.utc)
# Which channels a member can view is the same at every instant (a timed-out member keeps
# VIEW_CHANNEL), so visibility needs no clock: any instant will do.
_ANY_INSTANT = BOT_CHANNELS_FILTER_FROM


def visible_channel_ids(conn: sqlite3.Connection, guild_id: int, user_id: int) -> set[int]:
    """What an SDK user's client lists: channels with VIEW_CHANNEL, and categories holding one."""
    return _visible(conn, standing(conn, guild_id, user_id, _ANY_INSTANT), categories_by_children=True)


def roles_of(conn: sqlite3.Connection, guild_id: int) -> list[dict[str, Any]]:
    return [role_json(r) for r in conn.execute("SELECT * FROM roles WHERE guild_id = ? ORDER BY position, id",
                                                (guild_id,))]


def guild_object(conn: sqlite3.Connection, guild_id: int) -> dict[str, Any]:
    """The guild with its roles, emoji and stickers (the guild object's own lists leave out who
    made each expression: the expression routes show that)."""
    row = conn.execute("SELECT * FROM guilds WHERE id = ?", (guild_id,)).fetchone()
    return {**guild_json(row, roles_of(conn, guild_id)),
            "emojis": expressions.emojis(conn, guild_id, with_user=False),
            "stickers": expressions.stickers(conn, guild_id, with_user=False)}


def channels_for(conn: sqlite3.Connection, guild_id: int, who: Standing | None, obfuscate: bool, *,
                 with_guild_id: bool = True) -> list[dict[str, Any]]:
    """Every channel of the guild; those ``who`` cannot view obfuscated when ``obfuscate``."""
    rows = conn.execute("SELECT * FROM channels WHERE guild_id = ? AND type NOT IN (10, 11, 12)"
                        " ORDER BY position, id", (guild_id,)).fetchall()
    visible = _visible(conn, who, categories_by_children=False) if obfuscate else set()
    return [obfuscated_channel_json(row, with_guild_id=with_guild_id)
            if obfuscate and row["id"] not in visible else channel_json(row, with_guild_id=with_guild_id)
            for row in rows]


def display_order(channels: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sort as the client displays: channels without a category first, then each category followed
    by its children; in each group text-like before voice-like, then by position, then by id."""
    def key(channel: dict[str, Any]) -> tuple[int, int, int]:
        return (1 if channel["type"] in VOICE_LIKE else 0, channel["position"], int(channel["id"]))

    categories = sorted((c for c in channels if c["type"] == CATEGORY),
                        key=lambda c: (c["position"], int(c["id"])))
    category_ids = {c["id"] for c in categories}
    ordered = sorted((c for c in channels
                      if c["type"] != CATEGORY and c.get("parent_id") not in category_ids), key=key)
    for category in categories:
        ordered.append(category)
        ordered.extend(sorted((c for c in channels if c.get("parent_id") == category["id"]
                               and c["type"] != CATEGORY), key=key))
    return ordered


def member_count(conn: sqlite3.Connection, guild_id: int) -> int:
    return int(conn.execute("SELECT COUNT(*) FROM members WHERE guild_id = ?", (guild_id,)).fetchone()[0])


def members_of(conn: sqlite3.Connection, guild_id: int, limit: int | None = None,
               after: int = 0) -> list[dict[str, Any]]:
    sql = MEMBER_SELECT + " WHERE m.guild_id = ? AND m.user_id > ? ORDER BY u.id"
    params: tuple[Any, ...] = (guild_id, after)
    if limit is not None:
        sql += " LIMIT ?"
        params = (guild_id, after, limit)
    return [member_json(row) for row in conn.execute(sql, params)]


def member_row(conn: sqlite3.Connection, guild_id: int, user_id: int) -> sqlite3.Row | None:
    return conn.execute(MEMBER_SELECT + " WHERE m.guild_id = ? AND m.user_id = ?",
                        (guild_id, user_id)).fetchone()


def existing_member_row(conn: sqlite3.Connection, guild_id: int, user_id: int) -> sqlite3.Row:
    """The member, or 404 / 10007."""
    row = member_row(conn, guild_id, user_id)
    if row is None:
        raise errors.not_found(errors.UNKNOWN_MEMBER, "Member")
    return row


def partial_guild(row: sqlite3.Row, owner: bool, permissions: int) -> dict[str, Any]:
    """The entry of GET /users/@me/guilds."""
    return {
        "id": str(row["id"]), "name": row["name"], "icon": row["icon"], "banner": None, "owner": owner,
        "permissions": str(permissions), "permissions_new": str(permissions),
        "features": json.loads(row["features"]),
    }


def guild_create_payload(conn: sqlite3.Connection, guild_id: int, user_id: int, *, obfuscate: bool,
                         large_threshold: int = 50,
                         presences: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """GUILD_CREATE for a bot (docs/wire.md): the guild (with its emoji and stickers), the bot's ``joined_at``,
    members (only the bot's own in a large guild), channels (obfuscated where the bot cannot view them,
    when it opted in), the live stages, the scheduled events and the soundboard sounds."""
    guild = guild_object(conn, guild_id)
    count = member_count(conn, guild_id)
    large = count > large_threshold
    own = conn.execute("SELECT joined_at FROM members WHERE guild_id = ? AND user_id = ?",
                       (guild_id, user_id)).fetchone()
    members = members_of(conn, guild_id)
    if large:  # the rest come from Request Guild Members
        members = [m for m in members if m["user"]["id"] == str(user_id)]
    who = standing(conn, guild_id, user_id, _ANY_INSTANT)
    guild.update({
        "joined_at": own["joined_at"] if own else None, "large": large, "unavailable": False,
        "member_count": count, "members": members,
        "channels": channels_for(conn, guild_id, who, obfuscate, with_guild_id=False),
        "threads": threads.guild_create_threads(conn, guild_id, user_id, _ANY_INSTANT, obfuscate),
        "presences": presences or [], "voice_states": [],
        "stage_instances": stage_instances.guild_stage_instances(conn, guild_id),
        "guild_scheduled_events": scheduled_events.guild_events(conn, guild_id),
        "soundboard_sounds": soundboard.guild_sounds(conn, guild_id),
    })
    return guild
