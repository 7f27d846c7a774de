"""The ``integrations`` fixture section: pin the id of a bot's integration in a guild (otherwise one is
made when the guild's integrations are first read): ``[{id, guild_id, application_id, user_id?}]``.
The application's bot must be a member of the guild."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ...core.clock import format_instant
from ...core.fixtures import fixture_id, insert_checked
from ...core.validation import Form

if TYPE_CHECKING:
    from ...state import EmulatorState

FIELDS = {"id", "guild_id", "application_id", "user_id"}


def load_integrations(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    stamp = format_instant(state.clock.now())
    for index, raw in enumerate(form.array(name) or []):
        item = form.item(name, index, raw)
        item.refuse_unknown_keys(FIELDS)
        integration_id = fixture_id(state, item)
        guild_id, application_id = item.snowflake("guild_id"), item.snowflake("application_id")
        user_id = item.snowflake("user_id", required=False, nullable=True)
        member = conn.execute("SELECT 1 FROM applications a JOIN members m ON m.user_id = a.bot_user_id"
                              " WHERE a.id = ? AND m.guild_id = ?", (application_id, guild_id)).fetchone()
        if guild_id is not None and application_id is not None and member is None:
            item.fail("application_id", "BOT_NOT_MEMBER", "The application's bot must be a member of the guild.")
        insert_checked(conn, item, "INSERT INTO guild_integrations (id, guild_id, application_id, user_id, created_at)"
                       " VALUES (?, ?, ?, ?, ?)", (integration_id, guild_id, application_id, user_id, stamp))
