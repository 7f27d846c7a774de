"""The ``stage_instances`` fixture section: live stages of the guilds' stage channels, as they stand
(no dispatches, no audit entries). ``[{id?, channel_id, topic, privacy_level? (2), guild_scheduled_event_id?}]``."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ...core.clock import format_instant
from ...core.fixtures import fixture_id, insert_checked
from ...core.validation import Form
from ...wire.channel import STAGE
from .routes import TOPIC_MAX, read_privacy_level
from .store import GUILD_ONLY

if TYPE_CHECKING:
    from ...state import EmulatorState

FIELDS = {"id", "channel_id", "topic", "privacy_level", "guild_scheduled_event_id"}


def load_stage_instances(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    stamp = format_instant(state.clock.now())
    for index, raw in enumerate(form.array(name) or []):
        item = form.item(name, index, raw)
        item.refuse_unknown_keys(FIELDS)
        instance_id = fixture_id(state, item)
        channel_id = item.snowflake("channel_id")
        channel = conn.execute("SELECT guild_id, type FROM channels WHERE id = ?", (channel_id,)).fetchone()
        if channel_id is not None and (channel is None or channel["type"] != STAGE):
            item.fail("channel_id", "CHANNEL_TYPE_INVALID", "Must be a stage channel of a guild.")
        insert_checked(conn, item,
                       "INSERT INTO stage_instances (id, guild_id, channel_id, topic, privacy_level,"
                       " guild_scheduled_event_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (instance_id, channel["guild_id"] if channel is not None else None, channel_id,
                        item.string("topic", min_len=1, max_len=TOPIC_MAX),
                        read_privacy_level(item, default=GUILD_ONLY),
                        item.snowflake("guild_scheduled_event_id", required=False, nullable=True), stamp))
