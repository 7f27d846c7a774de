"""The ``group_dms`` fixture section: group DM channels (type 3) with their owner, recipients and,
for one an application created, its ``application_id`` (the case where that field is set)."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ...core.fixtures import fixture_id, insert_checked
from ...core.validation import Form

if TYPE_CHECKING:
    from ...state import EmulatorState


def load_group_dms(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    for index, raw in enumerate(form.array(name) or []):
        item = form.item(name, index, raw)
        item.refuse_unknown_keys({"id", "name", "owner_id", "application_id", "recipients", "icon"})
        channel_id = fixture_id(state, item)
        owner_id = item.snowflake("owner_id")
        recipients = [item.coerce_snowflake("recipients", r)
                      for r in item.array("recipients", min_items=1, max_items=10) or []]
        insert_checked(conn, item,
            "INSERT INTO channels (id, guild_id, type, name, owner_id, application_id)"
            " VALUES (?, NULL, 3, ?, ?, ?)",
            (channel_id, item.string("name", required=False, max_len=100), owner_id,
             item.snowflake("application_id", required=False, nullable=True)))
        for user_id in dict.fromkeys([owner_id, *recipients]):
            insert_checked(conn, item, "INSERT INTO channel_recipients (channel_id, user_id) VALUES (?, ?)",
                           (channel_id, user_id))
