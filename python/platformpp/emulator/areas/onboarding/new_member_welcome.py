"""The new member welcome (the server guide): a welcome message signed by members, actions for new
members (view or talk in a channel) and resource channels. Bots read it (GET answers 204 when the guild
has none); it is set up by world files and the admin API, as the published API has no write for it."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from ...core.validation import Form
from .welcome_screen import guild_channel_ids

VIEW, TALK = 0, 1


def _emoji(form: Form) -> dict[str, Any] | None:
    emoji = form.obj("emoji", required=False, nullable=True)
    if emoji is None:
        return None
    emoji_id = emoji.snowflake("id", required=False, nullable=True)
    return {"id": str(emoji_id) if emoji_id is not None else None,
            "name": emoji.string("name", required=False, nullable=True),
            "animated": emoji.boolean("animated")}


def _entries(form: Form, name: str, channels: set[int], *, actions: bool) -> list[dict[str, Any]]:
    entries = []
    for index, raw in enumerate(form.array(name, required=False) or []):
        item = form.item(name, index, raw)
        channel_id = item.snowflake("channel_id")
        if channel_id is not None and channel_id not in channels:
            item.fail("channel_id", "CHANNEL_INVALID", f"Channel {channel_id} is not a channel of this guild.")
        entry: dict[str, Any] = {"channel_id": str(channel_id), "title": item.string("title", min_len=1),
                                 "description": item.string("description", required=False, default="")}
        if actions:
            entry["action_type"] = item.choice("action_type", (VIEW, TALK))
        emoji = _emoji(item)
        if emoji is not None:
            entry["emoji"] = emoji
        icon = item.string("icon", required=False)
        if icon is not None:
            entry["icon"] = icon
        entries.append(entry)
    return entries


def read_settings(form: Form, conn: sqlite3.Connection, guild_id: int) -> dict[str, Any]:
    """``{enabled?, welcome_message?: {author_ids, message}, new_member_actions?, resource_channels?}``:
    channels must be the guild's, authors its members."""
    channels = guild_channel_ids(conn, guild_id)
    members = {row[0] for row in conn.execute("SELECT user_id FROM members WHERE guild_id = ?", (guild_id,))}
    message = form.obj("welcome_message", required=False, nullable=True)
    welcome = None
    if message is not None:
        authors = []
        for index, raw in enumerate(message.array("author_ids", required=False) or []):
            author = message.coerce_snowflake("author_ids", raw)
            if author is not None and author not in members:
                message.errors.add((*message.path, "author_ids", index), "MEMBER_UNKNOWN",
                                   f"User {author} is not a member of this guild.")
            authors.append(str(author))
        welcome = {"author_ids": authors, "message": message.string("message")}
    return {"enabled": form.boolean("enabled"), "welcome_message": welcome,
            "new_member_actions": _entries(form, "new_member_actions", channels, actions=True),
            "resource_channels": _entries(form, "resource_channels", channels, actions=False)}


def save(conn: sqlite3.Connection, guild_id: int, settings: dict[str, Any]) -> None:
    conn.execute("INSERT OR REPLACE INTO guild_new_member_welcome (guild_id, enabled, welcome_message,"
                 " new_member_actions, resource_channels) VALUES (?, ?, ?, ?, ?)",
                 (guild_id, int(settings["enabled"]),
                  json.dumps(settings["welcome_message"]) if settings["welcome_message"] is not None else None,
                  json.dumps(settings["new_member_actions"]), json.dumps(settings["resource_channels"])))


def render(conn: sqlite3.Connection, guild_id: int) -> dict[str, Any] | None:
    row = conn.execute("SELECT * FROM guild_new_member_welcome WHERE guild_id = ?", (guild_id,)).fetchone()
    if row is None:
        return None
    shown: dict[str, Any] = {"guild_id": str(guild_id), "enabled": bool(row["enabled"]),
                             "new_member_actions": json.loads(row["new_member_actions"]),
                             "resource_channels": json.loads(row["resource_channels"])}
    if row["welcome_message"] is not None:
        shown["welcome_message"] = json.loads(row["welcome_message"])
    return shown
