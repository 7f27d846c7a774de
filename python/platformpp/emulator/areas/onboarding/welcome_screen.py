"""The welcome screen: a description (up to 140 characters) and up to 5 channels, each with a description
and an emoji. It is shown while the guild has the WELCOME_SCREEN_ENABLED feature (``enabled`` switches
it, with GUILD_UPDATE and a GUILD_UPDATE audit entry for the features); anyone in the guild may read a
shown screen, only MANAGE_GUILD a hidden one."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from typing import Any

from ...core.validation import Form
from ...events.outbox import Outbox
from ..audit_log import trail as audit_trail
from .features import WELCOME_SCREEN_ENABLED, features_of, switch

DESCRIPTION_MAX = 140
MAX_CHANNELS = 5


def guild_channel_ids(conn: sqlite3.Connection, guild_id: int) -> set[int]:
    """The guild's channels that are not threads (what these pages may point at)."""
    return {row[0] for row in conn.execute(
        "SELECT id FROM channels WHERE guild_id = ? AND type NOT IN (10, 11, 12)", (guild_id,))}


def read_changes(form: Form, conn: sqlite3.Connection, guild_id: int) -> dict[str, Any]:
    """The fields given: ``enabled`` (null: unchanged), ``description`` (null: none),
    ``welcome_channels`` (null: none). Channels must be the guild's."""
    changes: dict[str, Any] = {}
    if form.data.get("enabled") is not None:
        changes["enabled"] = form.boolean("enabled")
    if "description" in form.data:
        changes["description"] = form.string("description", required=False, nullable=True,
                                             max_len=DESCRIPTION_MAX)
    if "welcome_channels" in form.data:
        raw = form.data["welcome_channels"]
        items = [] if raw is None else form.array("welcome_channels", max_items=MAX_CHANNELS) or []
        known = guild_channel_ids(conn, guild_id)
        channels = []
        for index, value in enumerate(items):
            item = form.item("welcome_channels", index, value)
            channel_id = item.snowflake("channel_id")
            if channel_id is not None and channel_id not in known:
                item.fail("channel_id", "CHANNEL_INVALID", f"Channel {channel_id} is not a channel of this guild.")
            emoji_id = item.snowflake("emoji_id", required=False, nullable=True)
            channels.append({"channel_id": str(channel_id), "description": item.string("description"),
                             "emoji_id": str(emoji_id) if emoji_id is not None else None,
                             "emoji_name": item.string("emoji_name", required=False, nullable=True)})
        changes["welcome_channels"] = channels
    return changes


def render(conn: sqlite3.Connection, guild_id: int) -> dict[str, Any]:
    row = conn.execute("SELECT * FROM guild_welcome_screens WHERE guild_id = ?", (guild_id,)).fetchone()
    if row is None:
        return {"description": None, "welcome_channels": []}
    return {"description": row["description"], "welcome_channels": json.loads(row["welcome_channels"])}


def is_enabled(conn: sqlite3.Connection, guild_id: int) -> bool:
    return WELCOME_SCREEN_ENABLED in features_of(conn, guild_id)


def apply(conn: sqlite3.Connection, outbox: Outbox | None, now: datetime, guild_id: int, actor_id: int | None,
          changes: dict[str, Any]) -> dict[str, Any]:
    """Write the changes (``outbox`` None: from a world file, no dispatch and no audit entry)."""
    current = render(conn, guild_id)
    merged = {**current, **{k: v for k, v in changes.items() if k != "enabled"}}
    conn.execute("INSERT INTO guild_welcome_screens (guild_id, description, welcome_channels) VALUES (?, ?, ?)"
                 " ON CONFLICT (guild_id) DO UPDATE SET description = excluded.description,"
                 " welcome_channels = excluded.welcome_channels",
                 (guild_id, merged["description"], json.dumps(merged["welcome_channels"])))
    if "enabled" in changes:
        before = features_of(conn, guild_id)
        shown = [WELCOME_SCREEN_ENABLED] if changes["enabled"] else []
        if switch(conn, outbox, now, guild_id, add=shown, remove=[] if shown else [WELCOME_SCREEN_ENABLED]) \
                and outbox is not None and actor_id is not None:
            audit_trail.guild(conn, guild_id, actor_id, {"features": before},
                              {"features": features_of(conn, guild_id)})
    return render(conn, guild_id)
