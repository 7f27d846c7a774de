"""The ``channel_webhooks`` fixture section: webhooks of the guilds' channels as they stand (no
dispatches, no audit entries): incoming webhooks with a token the test may choose (else one is made),
and channel follower webhooks fed by an announcement channel."""

from __future__ import annotations

import re
import secrets
import sqlite3
from typing import TYPE_CHECKING

from ...core.clock import format_instant
from ...core.fixtures import fixture_id, insert_checked
from ...core.validation import Form
from ...wire.channel import ANNOUNCEMENT
from ...wire.webhook import CHANNEL_FOLLOWER, INCOMING
from .store import WEBHOOK_CHANNEL_TYPES, read_name

if TYPE_CHECKING:
    from ...state import EmulatorState

_TOKEN = re.compile(r"[A-Za-z0-9._-]+")
FIELDS = {"id", "type", "channel_id", "name", "user_id", "application_id", "token", "source_channel_id"}


def load_channel_webhooks(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    stamp = format_instant(state.clock.now())
    for index, raw in enumerate(form.array(name) or []):
        item = form.item(name, index, raw)
        item.refuse_unknown_keys(FIELDS)
        webhook_id = fixture_id(state, item)
        kind = item.choice("type", (INCOMING, CHANNEL_FOLLOWER), required=False, default=INCOMING)
        channel_id = item.snowflake("channel_id")
        channel = conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone()
        if channel_id is not None and (channel is None or channel["guild_id"] is None
                                       or channel["type"] not in WEBHOOK_CHANNEL_TYPES):
            item.fail("channel_id", "CHANNEL_TYPE_INVALID", "Must be a guild channel that can hold webhooks.")
        user_id = item.snowflake("user_id")
        if user_id is not None and conn.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is None:
            item.fail("user_id", "UNKNOWN_USER", f"User {user_id} is not in the fixture.")
        token = item.string("token", required=False, nullable=True, min_len=60, max_len=68)
        if token is not None and not _TOKEN.fullmatch(token):
            item.fail("token", "TOKEN_INVALID", "Letters, digits and . _ - only.")
        if token is not None and kind != INCOMING:
            item.fail("token", "BASE_TYPE_UNKNOWN_FIELD", "Only incoming webhooks have a token.")
        source_id = item.snowflake("source_channel_id", required=kind == CHANNEL_FOLLOWER)
        source = conn.execute("SELECT type FROM channels WHERE id = ?", (source_id,)).fetchone() \
            if source_id is not None else None
        if source_id is not None and (kind != CHANNEL_FOLLOWER or source is None or source["type"] != ANNOUNCEMENT):
            item.fail("source_channel_id", "CHANNEL_TYPE_INVALID",
                      "Only a channel follower webhook has one: an announcement channel.")
        insert_checked(conn, item,
                       "INSERT INTO channel_webhooks (id, type, guild_id, channel_id, user_id, application_id, name,"
                       " token, source_channel_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (webhook_id, kind, channel["guild_id"] if channel is not None else None, channel_id,
                        user_id, item.snowflake("application_id", required=False, nullable=True),
                        read_name(item, required=True),
                        (token or secrets.token_urlsafe(51)) if kind == INCOMING else None, source_id, stamp))
