"""The ``threads`` fixture section: threads of the guilds' text, announcement, forum and media channels,
with their owner, members and metadata, as they stand (no dispatches, no audit entries)."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING

from ...core.clock import format_instant
from ...core.fixtures import fixture_id, insert_checked
from ...core.validation import Form
from ...wire.channel import POST_CHANNELS, PRIVATE_THREAD
from .store import AUTO_ARCHIVE_DURATIONS, THREAD_PARENT_TYPES, thread_kinds_for

if TYPE_CHECKING:
    from ...state import EmulatorState

FIELDS = {"id", "parent_id", "name", "type", "owner_id", "members", "archived", "locked", "invitable",
          "auto_archive_duration", "rate_limit_per_user", "applied_tags"}


def load_threads(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    stamp = format_instant(state.clock.now())
    for index, raw in enumerate(form.array(name) or []):
        item = form.item(name, index, raw)
        item.refuse_unknown_keys(FIELDS)
        thread_id = fixture_id(state, item)
        parent_id = item.snowflake("parent_id")
        parent = conn.execute("SELECT * FROM channels WHERE id = ?", (parent_id,)).fetchone()
        if parent_id is not None and (parent is None or parent["type"] not in THREAD_PARENT_TYPES):
            item.fail("parent_id", "CHANNEL_PARENT_INVALID",
                      "Must be a text, announcement, forum or media channel.")
        kinds = thread_kinds_for(parent) if parent is not None else (11,)
        kind = item.choice("type", kinds, required=False, default=kinds[0])
        owner_id = item.snowflake("owner_id")
        members = [item.coerce_snowflake("members", m) for m in item.array("members", required=False) or []]
        raw_tags = item.array("applied_tags", required=False, max_items=5) or []
        tags = [str(item.coerce_snowflake("applied_tags", t)) for t in raw_tags]
        if tags and (parent is None or parent["type"] not in POST_CHANNELS):
            item.fail("applied_tags", "BASE_TYPE_UNKNOWN_FIELD",
                      "Only posts of forum and media channels have tags.")
        in_guild = {row[0] for row in conn.execute("SELECT user_id FROM members WHERE guild_id = ?",
                                                   (parent["guild_id"] if parent is not None else None,))}
        for field, user_id in [("owner_id", owner_id), *(("members", m) for m in members)]:
            if user_id is not None and user_id not in in_guild:
                item.fail(field, "UNKNOWN_MEMBER", f"User {user_id} is not a member of the thread's guild.")
        joined = list(dict.fromkeys([owner_id, *members]))
        insert_checked(conn, item,
            "INSERT INTO channels (id, guild_id, type, name, parent_id, owner_id, rate_limit_per_user,"
            " thread_archived, thread_locked, thread_invitable, thread_auto_archive_duration,"
            " thread_archive_timestamp, thread_create_timestamp, thread_last_activity, member_count,"
            " applied_tags)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (thread_id, parent["guild_id"] if parent is not None else None, kind,
             item.string("name", min_len=1, max_len=100), parent_id, owner_id,
             item.integer("rate_limit_per_user", required=False, minimum=0, maximum=21600, default=0),
             int(item.boolean("archived")), int(item.boolean("locked")),
             int(item.boolean("invitable", default=True) if kind == PRIVATE_THREAD else True),
             item.choice("auto_archive_duration", AUTO_ARCHIVE_DURATIONS, required=False, default=4320),
             stamp, stamp, stamp, len(joined), json.dumps(tags)))
        for user_id in joined:
            insert_checked(conn, item, "INSERT INTO thread_members (thread_id, user_id, join_timestamp)"
                           " VALUES (?, ?, ?)", (thread_id, user_id, stamp))
