"""The ``scheduled_events`` fixture section: guild scheduled events as they stand (no dispatches, no
audit entries), with their recurrence rule, recurrence exceptions and interested members::

    "scheduled_events": [{"guild_id": "...", "name": "Raid night", "entity_type": 3,
                          "entity_metadata": {"location": "The keep"},
                          "scheduled_start_time": "2026-06-01T18:00:00Z",
                          "scheduled_end_time": "2026-06-01T20:00:00Z",
                          "recurrence_rule": {"start": "2026-06-01T18:00:00Z", "frequency": 2, "by_weekday": [0]},
                          "exceptions": [{"original_scheduled_start_time": "2026-06-08T18:00:00Z",
                                          "is_canceled": true}],
                          "users": ["..."]}]

Fields are read as the create route reads them (``status`` too); the start may be in the past."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING

from ...core.clock import format_instant
from ...core.errors import ApiError
from ...core.fixtures import fixture_id, insert_checked, row_exists
from ...core.validation import Form
from .fields import read_exception, read_fields
from .recurrence import is_occurrence, occurrence_id
from .store import check_consistency

if TYPE_CHECKING:
    from ...state import EmulatorState

FIELDS = {"id", "guild_id", "creator_id", "name", "description", "image", "scheduled_start_time",
          "scheduled_end_time", "privacy_level", "entity_type", "channel_id", "entity_metadata", "recurrence_rule",
          "status", "exceptions", "users"}
EXCEPTION_FIELDS = {"original_scheduled_start_time", "scheduled_start_time", "scheduled_end_time", "is_canceled"}


def _add_errors(item: Form, exc: ApiError) -> None:
    """A rule's 50035 (its first field) as a field error of the fixture item."""
    for field, tree in (exc.errors or {"_errors": [{"code": str(exc.code), "message": exc.message}]}).items():
        leaf = tree["_errors"][0] if field != "_errors" else tree[0]
        item.errors.add((*item.path, field) if field != "_errors" else item.path, leaf["code"], leaf["message"])


def _load_event(state: EmulatorState, conn: sqlite3.Connection, item: Form) -> None:
    item.refuse_unknown_keys(FIELDS)
    event_id = fixture_id(state, item)
    guild_id = item.snowflake("guild_id")
    if guild_id is not None and not row_exists(conn, "guilds", guild_id):
        item.fail("guild_id", "UNKNOWN_GUILD", "No guild has this id.")
    creator_id = item.snowflake("creator_id", required=False)
    fields = read_fields(item, creating=True).values
    status = item.choice("status", (1, 2, 3, 4), required=False, default=1)
    if item.errors:
        return
    values = {"channel_id": None, "description": None, "image": None, "scheduled_end_time": None,
              "entity_metadata": None, "recurrence_rule": None, **fields, "status": status}
    try:
        check_consistency(conn, guild_id, values)
    except ApiError as exc:
        _add_errors(item, exc)
        return
    columns = ["id", "guild_id", "creator_id", "created_at", *values]
    insert_checked(conn, item, f"INSERT INTO guild_scheduled_events ({', '.join(columns)})"
                               f" VALUES ({', '.join('?' * len(columns))})",
                   (event_id, guild_id, creator_id, format_instant(state.clock.now()), *values.values()))
    rule = json.loads(values["recurrence_rule"]) if values["recurrence_rule"] else None
    for index, raw in enumerate(item.array("exceptions", required=False) or []):
        exception = item.item("exceptions", index, raw)
        exception.refuse_unknown_keys(EXCEPTION_FIELDS)
        read = read_exception(exception, creating=True)
        original = read.original_start
        if original is None:
            continue
        if rule is None or not is_occurrence(rule, original):
            exception.fail("original_scheduled_start_time", "GUILD_SCHEDULED_EVENT_NOT_AN_OCCURRENCE",
                           "No occurrence of the event starts at that time.")
            continue
        changes = {"scheduled_start_time": None, "scheduled_end_time": None, "is_canceled": False, **read.values}
        insert_checked(conn, exception, "INSERT INTO guild_scheduled_event_exceptions (event_id, exception_id,"
                       " scheduled_start_time, scheduled_end_time, is_canceled) VALUES (?, ?, ?, ?, ?)",
                       (event_id, occurrence_id(original), changes["scheduled_start_time"],
                        changes["scheduled_end_time"], int(bool(changes["is_canceled"]))))
    for user_id in (item.coerce_snowflake("users", raw) for raw in item.array("users", required=False) or []):
        if user_id is not None and conn.execute("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?",
                                                (guild_id, user_id)).fetchone() is None:
            item.fail("users", "UNKNOWN_MEMBER", f"User {user_id} is not a member of the event's guild.")
        elif user_id is not None:
            insert_checked(conn, item, "INSERT OR IGNORE INTO guild_scheduled_event_users (event_id, user_id)"
                                       " VALUES (?, ?)", (event_id, user_id))


def load_scheduled_events(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    for index, raw in enumerate(form.array(name) or []):
        _load_event(state, conn, form.item(name, index, raw))
