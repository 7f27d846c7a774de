"""The ``relationships`` fixture section."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ...core import errors
from ...core.validation import Form
from .store import BLOCKED, FIXTURE_KINDS, FRIEND, IMPLICIT, INCOMING, OUTGOING, SUGGESTION, _set

if TYPE_CHECKING:
    from ...state import EmulatorState


def load_relationships(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    """``relationships: [{user_id, other_id, type: friend|blocked|pending|implicit|suggestion,
    application_id?, spam?}]``: ``pending`` is a request from user_id to other_id (``spam: true``: the
    platform flagged it); ``implicit`` and ``suggestion`` are how user_id sees other_id (platform only);
    with ``application_id`` it is a game relationship."""
    for index, raw in enumerate(form.array(name, required=False) or []):
        item = form.item(name, index, raw)
        item.refuse_unknown_keys({"user_id", "other_id", "type", "application_id", "spam"})
        user_id, other_id = item.snowflake("user_id"), item.snowflake("other_id")
        kind = item.choice("type", FIXTURE_KINDS)
        app_id = item.snowflake("application_id", required=False)
        spam = item.boolean("spam")
        if spam and (kind != "pending" or app_id is not None):
            item.fail("spam", "INVALID", "Only a pending platform request can be flagged as spam.")
        if kind in ("implicit", "suggestion") and app_id is not None:
            item.fail("application_id", "INVALID", f"A {kind} relationship is a platform one (no application_id).")
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
            if spam:
                conn.execute("UPDATE relationships SET is_spam_request = 1 WHERE user_id = ? AND other_id = ?",
                             (other_id, user_id))
        elif kind in ("implicit", "suggestion"):
            _set(conn, table, app_id, user_id, other_id, IMPLICIT if kind == "implicit" else SUGGESTION, now)
        else:
            _set(conn, table, app_id, user_id, other_id, BLOCKED, now)
