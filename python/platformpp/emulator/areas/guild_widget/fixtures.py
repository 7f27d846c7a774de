"""The ``guild_widgets`` fixture section: a guild's widget settings as they stand (no dispatches, no
audit entries): ``[{guild_id, enabled, channel_id?}]``."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ...core.validation import Form

if TYPE_CHECKING:
    from ...state import EmulatorState

FIELDS = {"guild_id", "enabled", "channel_id"}


def load_guild_widgets(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    for index, raw in enumerate(form.array(name) or []):
        item = form.item(name, index, raw)
        item.refuse_unknown_keys(FIELDS)
        guild_id = item.snowflake("guild_id")
        enabled = item.boolean("enabled", default=True)
        channel_id = item.snowflake("channel_id", required=False, nullable=True)
        if guild_id is not None and conn.execute("SELECT 1 FROM guilds WHERE id = ?", (guild_id,)).fetchone() is None:
            item.fail("guild_id", "UNKNOWN_GUILD", f"Guild {guild_id} is not in the world.")
        elif channel_id is not None and conn.execute("SELECT 1 FROM channels WHERE id = ? AND guild_id = ?",
                                                     (channel_id, guild_id)).fetchone() is None:
            item.fail("channel_id", "CHANNEL_INVALID", "Must be a channel of that guild.")
        if not item.errors:
            conn.execute("UPDATE guilds SET widget_enabled = ?, widget_channel_id = ? WHERE id = ?",
                         (int(enabled), channel_id, guild_id))
