"""The ``relationships`` fixture section."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ...core import errors
from ...core.validation import Form
from .store import BLOCKED, FIXTURE_KINDS, FRIEND, INCOMING, OUTGOING, _set

if TYPE_CHECKING:
    from ...state import EmulatorState


def load_relationships(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    """``relationships: [{user_id, other_id, type: friend|blocked|pending, application_id?}]``:
    ``pending`` is a request from user_id to other_id; with ``application_id`` it is a game relationship."""
    for index, raw in enumerate(form.array(name, required=False) or []):
        item = form.item(name, index, raw)
        item.unknown_keys({"user_id", "other_id", "type", "application_id"})
        user_id, other_id = item.snowflake("user_id"), item.snowflake("other_id")
        kind = item.choice("type", FIXTURE_KINDS)
        app_id = item.snowflake("application_id", required=False)
        if form.errors or user_id is None or other_id is None:
            continue
        if user_id == other_id:
            item.fail("other_id", "INVALID", "A user has no relationship with themselves.")
            continue
        table = "game_relationships" if app_id is not None else "relationships"
        now = state.clock.iso()
        if kind == "friend":
            _set(conn, table, app_id, user_id, other_id, FRIEND, now)
            _set(conn, table, app_id, other_id, user_id, FRIEND, now)
        elif kind == "pending":
            _set(conn, table, app_id, user_id, other_id, OUTGOING, now)
            _set(conn, table, app_id, other_id, user_id, INCOMING, now)
        else:
            _set(conn, table, app_id, user_id, other_id, BLOCKED, now)
