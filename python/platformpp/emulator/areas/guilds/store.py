"""Guilds as the platform shows them: the guild, role, channel and member objects, permissions
(base and per channel, with overwrites), which channels a user can see, and the display order."""

from __future__ import annotations

import json
import sqlite3
from typing import Any


from ...wire.user import public_user_json


VIEW_CHANNEL = 1 << 10


SEND_MESSAGES = 1 << 11


ADMINISTRATOR = 1 << 3


ALL_PERMISSIONS = (1 << 53) - 1


_SEND_DEPENDENT = (1 << 17) | (1 << 12) | (1 << 15) | (1 << 14)  # mention everyone, TTS, files, links


CHANNEL_OBFUSCATED = 1 << 17


HIDDEN_NAME = "___hidden___"


CATEGORY = 4


# Channel types that the client lists in the voice group of a category, after the text-like ones.
_VOICE_LIKE = {2, 13}


def role_object(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": str(row["id"]), "name": row["name"], "color": row["color"],
        "colors": {"primary_color": row["color"], "secondary_color": None, "tertiary_color": None},
        "hoist": bool(row["hoist"]), "icon": row["icon"], "unicode_emoji": row["unicode_emoji"],
        "position": row["position"], "permissions": row["permissions"], "managed": bool(row["managed"]),
        "mentionable": bool(row["mentionable"]), "flags": row["flags"],
    }


def channel_object(row: sqlite3.Row) -> dict[str, Any]:
    channel: dict[str, Any] = {
        "id": str(row["id"]), "type": row["type"], "guild_id": str(row["guild_id"]),
        "name": row["name"], "position": row["position"],
        "parent_id": str(row["parent_id"]) if row["parent_id"] is not None else None,
        "permission_overwrites": json.loads(row["permission_overwrites"]),
        "nsfw": bool(row["nsfw"]), "flags": row["flags"],
    }
    if row["application_id"] is not None:
        channel["application_id"] = str(row["application_id"])
    if row["type"] in _VOICE_LIKE:
        channel["bitrate"] = row["bitrate"] if row["bitrate"] is not None else 64000
        channel["user_limit"] = row["user_limit"] or 0
    elif row["type"] != CATEGORY:
        channel["topic"] = row["topic"]
    return channel


def obfuscated_channel(row: sqlite3.Row) -> dict[str, Any]:
    """What a bot without VIEW_CHANNEL sees of a channel (WIRE.md: obfuscated channel)."""
    return {
        "id": str(row["id"]), "type": row["type"], "position": row["position"],
        "parent_id": str(row["parent_id"]) if row["parent_id"] is not None else None,
        "name": HIDDEN_NAME, "flags": row["flags"] | CHANNEL_OBFUSCATED,
        "permission_overwrites": [{"id": str(row["guild_id"]), "type": 0, "allow": "0",
                                   "deny": str(VIEW_CHANNEL)}],
    }


def base_permissions(conn: sqlite3.Connection, guild_id: int, user_id: int) -> int:
    guild = conn.execute("SELECT owner_id FROM guilds WHERE id = ?", (guild_id,)).fetchone()
    if guild is None:
        return 0
    if guild["owner_id"] == user_id:
        return ALL_PERMISSIONS
    member = conn.execute("SELECT roles FROM members WHERE guild_id = ? AND user_id = ?",
                          (guild_id, user_id)).fetchone()
    if member is None:
        return 0
    role_ids = {guild_id, *(int(r) for r in json.loads(member["roles"]))}
    permissions = 0
    for row in conn.execute("SELECT id, permissions FROM roles WHERE guild_id = ?", (guild_id,)):
        if row["id"] in role_ids:
            permissions |= int(row["permissions"])
    return ALL_PERMISSIONS if permissions & ADMINISTRATOR else permissions


def channel_permissions(base: int, overwrites: list[dict[str, Any]], guild_id: int, user_id: int,
                        role_ids: set[int]) -> int:
    """Apply a channel's overwrites in WIRE.md order: @everyone, the member's roles, the member."""
    if base & ADMINISTRATOR or base == ALL_PERMISSIONS:
        return ALL_PERMISSIONS
    permissions = base
    by_id = {(int(o["id"]), int(o["type"])): o for o in overwrites}
    everyone = by_id.get((guild_id, 0))
    if everyone:
        permissions = (permissions & ~int(everyone["deny"])) | int(everyone["allow"])
    allow = deny = 0
    for (target, kind), overwrite in by_id.items():
        if kind == 0 and target in role_ids and target != guild_id:
            allow |= int(overwrite["allow"])
            deny |= int(overwrite["deny"])
    permissions = (permissions & ~deny) | allow
    own = by_id.get((user_id, 1))
    if own:
        permissions = (permissions & ~int(own["deny"])) | int(own["allow"])
    if not permissions & VIEW_CHANNEL:
        return 0
    if not permissions & SEND_MESSAGES:
        permissions &= ~_SEND_DEPENDENT
    return permissions


def visible_channel_ids(conn: sqlite3.Connection, guild_id: int, user_id: int) -> set[int]:
    """Channels the user (or bot user) has VIEW_CHANNEL in; a category counts if any child does."""
    base = base_permissions(conn, guild_id, user_id)
    member = conn.execute("SELECT roles FROM members WHERE guild_id = ? AND user_id = ?",
                          (guild_id, user_id)).fetchone()
    role_ids = {int(r) for r in json.loads(member["roles"])} if member else set()
    rows = conn.execute("SELECT id, type, parent_id, permission_overwrites FROM channels WHERE guild_id = ?",
                        (guild_id,)).fetchall()
    visible = {row["id"] for row in rows
               if channel_permissions(base, json.loads(row["permission_overwrites"]), guild_id, user_id,
                                      role_ids) & VIEW_CHANNEL}
    visible |= {row["parent_id"] for row in rows if row["id"] in visible and row["parent_id"] is not None}
    return visible


def display_order(channels: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sort as the client displays: channels without a category first, then each category followed
    by its children; in each group text-like before voice-like, then by position, then by id."""
    def key(channel: dict[str, Any]) -> tuple[int, int, int]:
        return (1 if channel["type"] in _VOICE_LIKE else 0, channel["position"], int(channel["id"]))

    categories = sorted((c for c in channels if c["type"] == CATEGORY),
                        key=lambda c: (c["position"], int(c["id"])))
    category_ids = {c["id"] for c in categories}
    ordered = sorted((c for c in channels if c["type"] != CATEGORY and c.get("parent_id") not in category_ids),
                     key=key)
    for category in categories:
        ordered.append(category)
        ordered.extend(sorted((c for c in channels if c.get("parent_id") == category["id"]
                               and c["type"] != CATEGORY), key=key))
    return ordered


def member_count(conn: sqlite3.Connection, guild_id: int) -> int:
    return int(conn.execute("SELECT COUNT(*) FROM members WHERE guild_id = ?", (guild_id,)).fetchone()[0])


def member_object(row: sqlite3.Row) -> dict[str, Any]:
    """A member row joined with its user (columns of users plus nick, roles, joined_at)."""
    return {
        "user": public_user_json(row), "nick": row["nick"], "roles": json.loads(row["roles"]),
        "joined_at": row["joined_at"], "deaf": False, "mute": False, "flags": 0, "pending": False,
    }


def members_of(conn: sqlite3.Connection, guild_id: int, limit: int | None = None) -> list[dict[str, Any]]:
    sql = ("SELECT u.*, m.nick, m.roles, m.joined_at FROM members m JOIN users u ON u.id = m.user_id"
           " WHERE m.guild_id = ? ORDER BY u.id")
    params: tuple[Any, ...] = (guild_id,)
    if limit is not None:
        sql += " LIMIT ?"
        params = (guild_id, limit)
    return [member_object(row) for row in conn.execute(sql, params)]


def partial_guild(row: sqlite3.Row, owner: bool, permissions: int) -> dict[str, Any]:
    """The entry of GET /users/@me/guilds."""
    return {
        "id": str(row["id"]), "name": row["name"], "icon": row["icon"], "banner": None, "owner": owner,
        "permissions": str(permissions), "features": json.loads(row["features"]),
    }


def guild_object(row: sqlite3.Row, roles: list[dict[str, Any]]) -> dict[str, Any]:
    """The guild fields WIRE.md lists; the ones the emulator does not model take their defaults."""
    return {
        "id": str(row["id"]), "name": row["name"], "icon": row["icon"], "splash": None,
        "owner_id": str(row["owner_id"]), "afk_channel_id": None, "afk_timeout": 300,
        "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
        "mfa_level": 0, "application_id": None, "system_channel_id": None, "system_channel_flags": 0,
        "rules_channel_id": None, "public_updates_channel_id": None, "vanity_url_code": None,
        "description": row["description"], "banner": None, "premium_tier": 0, "preferred_locale": "en-US",
        "nsfw_level": 0, "features": json.loads(row["features"]), "roles": roles, "emojis": [],
        "stickers": [],
    }
