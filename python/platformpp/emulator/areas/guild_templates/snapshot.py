"""The guild as a template carries it (``serialized_source_guild``): settings, roles and channels with
placeholder ids instead of the guild's own (the @everyone role is 0, the other roles 1, 2, ...; channels
1, 2, ... in the order the client lists them), so that a guild made from it gets new ids. Left out, as
the platform leaves them out: members, managed roles (a bot's, an integration's) and the overwrites of
members or of managed roles, threads, and directory channels. Channel types a new guild cannot start
with are given as their plain counterparts (announcement as text, stage as voice, media as forum).

Where the published schema types a placeholder as a snowflake (``parent_id``, ``afk_channel_id``,
``system_channel_id``, an overwrite's ``id``) it is sent as a string of the number, as the schema
requires; libraries read either form."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from ...wire.channel import (
    ANNOUNCEMENT,
    CATEGORY,
    DEFAULT_BITRATE,
    DIRECTORY,
    FORUM,
    MEDIA,
    STAGE,
    TEXT,
    THREAD_TYPES,
    VOICE,
)

# The types a template may hold (the schema's enum): every other guild type as its plain counterpart.
TEMPLATE_TYPE = {TEXT: TEXT, ANNOUNCEMENT: TEXT, VOICE: VOICE, STAGE: VOICE, CATEGORY: CATEGORY,
                 FORUM: FORUM, MEDIA: FORUM}
LEFT_OUT_TYPES = (*THREAD_TYPES, DIRECTORY)


def serialize(conn: sqlite3.Connection, guild_id: int) -> dict[str, Any]:
    guild = conn.execute("SELECT * FROM guilds WHERE id = ?", (guild_id,)).fetchone()
    role_rows = conn.execute("SELECT * FROM roles WHERE guild_id = ? AND (managed = 0 OR id = guild_id)"
                             " ORDER BY id = guild_id DESC, position, id", (guild_id,)).fetchall()
    role_ids = {row["id"]: index for index, row in enumerate(role_rows)}
    marks = ", ".join("?" * len(LEFT_OUT_TYPES))
    channel_rows = conn.execute(
        f"SELECT * FROM channels WHERE guild_id = ? AND type NOT IN ({marks})", (guild_id, *LEFT_OUT_TYPES)
    ).fetchall()
    channel_rows = _listing_order(channel_rows)
    channel_ids = {row["id"]: index for index, row in enumerate(channel_rows, start=1)}
    return {
        "name": guild["name"], "description": guild["description"], "region": None,
        "verification_level": guild["verification_level"], "default_message_notifications": 0,
        "explicit_content_filter": 0, "preferred_locale": guild["preferred_locale"],
        "afk_channel_id": _placeholder(channel_ids, guild["afk_channel_id"]),
        "afk_timeout": guild["afk_timeout"],
        "system_channel_id": _placeholder(channel_ids, guild["system_channel_id"]),
        "system_channel_flags": 0, "icon_hash": None,
        "roles": [_role(row, role_ids[row["id"]]) for row in role_rows],
        "channels": [_channel(row, channel_ids, role_ids) for row in channel_rows],
    }


def _listing_order(rows: list[sqlite3.Row]) -> list[sqlite3.Row]:
    """Uncategorised channels and categories by position, each category followed by its channels."""
    def key(row: sqlite3.Row) -> tuple[int, int]:
        return row["position"], row["id"]
    children: dict[int, list[sqlite3.Row]] = {}
    top = []
    category_ids = {row["id"] for row in rows if row["type"] == CATEGORY}
    for row in rows:
        if row["parent_id"] in category_ids:
            children.setdefault(row["parent_id"], []).append(row)
        else:
            top.append(row)
    ordered = []
    for row in sorted(top, key=lambda r: (r["type"] == CATEGORY, *key(r))):
        ordered.append(row)
        ordered.extend(sorted(children.get(row["id"], []), key=key))
    return ordered


def _placeholder(ids: dict[int, int], real: int | None) -> str | None:
    return str(ids[real]) if real in ids else None


def _role(row: sqlite3.Row, placeholder: int) -> dict[str, Any]:
    return {"id": placeholder, "name": row["name"], "permissions": row["permissions"], "color": row["color"],
            "colors": {"primary_color": row["color"], "secondary_color": row["secondary_color"],
                       "tertiary_color": row["tertiary_color"]},
            "hoist": bool(row["hoist"]), "mentionable": bool(row["mentionable"]), "icon": row["icon"],
            "unicode_emoji": row["unicode_emoji"]}


def _channel(row: sqlite3.Row, channel_ids: dict[int, int], role_ids: dict[int, int]) -> dict[str, Any]:
    kind = TEMPLATE_TYPE[row["type"]]
    overwrites = [{"id": str(role_ids[int(o["id"])]), "type": 0, "allow": str(o["allow"]), "deny": str(o["deny"])}
                  for o in json.loads(row["permission_overwrites"])
                  if int(o["type"]) == 0 and int(o["id"]) in role_ids]
    forum = kind == FORUM
    tags = [{"id": index, "name": tag["name"], "emoji_id": tag.get("emoji_id"),
             "emoji_name": tag.get("emoji_name"), "moderated": bool(tag.get("moderated"))}
            for index, tag in enumerate(json.loads(row["available_tags"]), start=1)] if forum else None
    return {
        "id": channel_ids[row["id"]], "type": kind, "name": row["name"], "position": row["position"],
        "topic": row["topic"], "bitrate": row["bitrate"] if row["bitrate"] is not None else DEFAULT_BITRATE,
        "user_limit": row["user_limit"] or 0, "nsfw": bool(row["nsfw"]),
        "rate_limit_per_user": row["rate_limit_per_user"],
        "parent_id": _placeholder(channel_ids, row["parent_id"]),
        # an int, never null: libraries (hikari) read it as minutes; 4320 as the emulator's channels default
        "default_auto_archive_duration": row["default_auto_archive_duration"] or 4320,
        "permission_overwrites": overwrites, "available_tags": tags, "template": "",
        "default_reaction_emoji": (json.loads(row["default_reaction_emoji"])
                                   if forum and row["default_reaction_emoji"] else None),
        "default_thread_rate_limit_per_user": row["default_thread_rate_limit_per_user"] if forum else None,
        "default_sort_order": row["default_sort_order"] if forum else None,
        "default_forum_layout": row["default_forum_layout"] if forum else None,
        "default_tag_setting": None, "theme_color": None,
    }
