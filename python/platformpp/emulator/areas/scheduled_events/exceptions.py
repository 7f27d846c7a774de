"""Recurrence exceptions and interest in one occurrence of a recurring event.

An exception moves one occurrence (new start and end times) or cancels it; it is named by the
snowflake of the occurrence's original start time. Creating, changing and deleting one need what
modifying the event needs, write audit log entries 200 / 201 / 202 (target: the event) and send
GUILD_SCHEDULED_EVENT_UPDATE with the event and its ``guild_scheduled_event_exceptions``.

A member interested in the whole series is interested in every occurrence unless they said they are
not interested in that one; a member may also be interested in one occurrence only. Counts and user
lists of an occurrence follow that rule."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...core import errors
from ...core.clock import format_instant
from ...core.snowflake import snowflake_time
from ...core.validation import field_error
from ...events.audience import Payload
from ..audit_log import actions
from ..audit_log import trail as audit_trail
from .listing import exception_json, render
from .recurrence import is_occurrence, occurrence_id
from .store import UNKNOWN_EVENT, announce, get_row, require_manage, user_entries

if TYPE_CHECKING:
    from datetime import datetime

    from ...events.outbox import Outbox
    from ...state import EmulatorState

EXCEPTION_KEYS = ("scheduled_start_time", "scheduled_end_time", "is_canceled")
INTERESTED, NOT_INTERESTED = 1, 0


@dataclass
class ExceptionFields:
    """The validated fields of an exception body (only the given ones)."""

    values: dict[str, Any]
    original_start: datetime | None = None


def rule_of(event: sqlite3.Row) -> dict[str, Any]:
    """The event's recurrence rule; 50035 when the event does not recur."""
    if not event["recurrence_rule"]:
        raise field_error("recurrence_rule", "GUILD_SCHEDULED_EVENT_NOT_RECURRING",
                          "The event has no recurrence rule, so it has no occurrences.")
    rule: dict[str, Any] = json.loads(event["recurrence_rule"])
    return rule


def check_occurrence(event: sqlite3.Row, occurrence: int, field: str) -> int:
    """``occurrence`` with only its timestamp kept, if the event has an occurrence then; else 50035."""
    if not is_occurrence(rule_of(event), snowflake_time(occurrence)):
        raise field_error(field, "GUILD_SCHEDULED_EVENT_NOT_AN_OCCURRENCE",
                          "No occurrence of the event starts at that time.")
    return occurrence >> 22 << 22


def _get_exception(conn: sqlite3.Connection, event_id: int, exception_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM guild_scheduled_event_exceptions WHERE event_id = ? AND exception_id = ?",
                       (event_id, exception_id >> 22 << 22)).fetchone()
    if row is None:
        raise errors.not_found(UNKNOWN_EVENT, "Guild Scheduled Event Exception")
    return row


def _check_times(values: dict[str, Any], original: str) -> None:
    start = values.get("scheduled_start_time") or original
    end = values.get("scheduled_end_time")
    if end is not None and end <= start:
        raise field_error("scheduled_end_time", "BASE_TYPE_BAD_RANGE", "Must be after scheduled_start_time.")


def _changed(conn: sqlite3.Connection, outbox: Outbox, guild_id: int, user_id: int, event_id: int, action: int,
             before: Payload | None, after: Payload | None) -> None:
    announce(outbox, "GUILD_SCHEDULED_EVENT_UPDATE", guild_id, render(conn, get_row(conn, guild_id, event_id)))
    audit_trail.simple(conn, guild_id, user_id, action, event_id, before, after, EXCEPTION_KEYS)


def create(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int, user_id: int,
           event_id: int, fields: ExceptionFields) -> Payload:
    """A new exception for the occurrence at ``fields.original_start`` (an existing one is changed)."""
    event = get_row(conn, guild_id, event_id)
    require_manage(state, conn, guild_id, user_id, event)
    assert fields.original_start is not None
    if not is_occurrence(rule_of(event), fields.original_start):
        raise field_error("original_scheduled_start_time", "GUILD_SCHEDULED_EVENT_NOT_AN_OCCURRENCE",
                          "No occurrence of the event starts at that time.")
    exception_id = occurrence_id(fields.original_start)
    existing = conn.execute("SELECT 1 FROM guild_scheduled_event_exceptions WHERE event_id = ? AND exception_id = ?",
                            (event_id, exception_id)).fetchone()
    if existing is not None:
        return modify(state, conn, outbox, guild_id=guild_id, user_id=user_id, event_id=event_id,
                      exception_id=exception_id, fields=fields)
    values = {"scheduled_start_time": None, "scheduled_end_time": None, "is_canceled": False, **fields.values}
    _check_times(values, format_instant(fields.original_start))
    conn.execute("INSERT INTO guild_scheduled_event_exceptions (event_id, exception_id, scheduled_start_time,"
                 " scheduled_end_time, is_canceled) VALUES (?, ?, ?, ?, ?)",
                 (event_id, exception_id, values["scheduled_start_time"], values["scheduled_end_time"],
                  int(bool(values["is_canceled"]))))
    created = exception_json(_get_exception(conn, event_id, exception_id))
    _changed(conn, outbox, guild_id, user_id, event_id, actions.GUILD_SCHEDULED_EVENT_EXCEPTION_CREATE, None, created)
    return created


def modify(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int, user_id: int,
           event_id: int, exception_id: int, fields: ExceptionFields) -> Payload:
    event = get_row(conn, guild_id, event_id)
    require_manage(state, conn, guild_id, user_id, event)
    row = _get_exception(conn, event_id, exception_id)
    merged = {**dict(row), **fields.values}
    _check_times(merged, format_instant(snowflake_time(row["exception_id"])))
    if fields.values:
        assignments = ", ".join(f"{column} = ?" for column in fields.values)   # columns from EXCEPTION_KEYS
        conn.execute(f"UPDATE guild_scheduled_event_exceptions SET {assignments} WHERE event_id = ? AND exception_id = ?",
                     (*(int(v) if isinstance(v, bool) else v for v in fields.values.values()), event_id,
                      row["exception_id"]))
    after = exception_json(_get_exception(conn, event_id, row["exception_id"]))
    _changed(conn, outbox, guild_id, user_id, event_id, actions.GUILD_SCHEDULED_EVENT_EXCEPTION_UPDATE,
             exception_json(row), after)
    return after


def delete(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int, user_id: int,
           event_id: int, exception_id: int) -> None:
    """The occurrence goes back to what the rule says."""
    event = get_row(conn, guild_id, event_id)
    require_manage(state, conn, guild_id, user_id, event)
    row = _get_exception(conn, event_id, exception_id)
    conn.execute("DELETE FROM guild_scheduled_event_exceptions WHERE event_id = ? AND exception_id = ?",
                 (event_id, row["exception_id"]))
    _changed(conn, outbox, guild_id, user_id, event_id, actions.GUILD_SCHEDULED_EVENT_EXCEPTION_DELETE,
             exception_json(row), None)


# The users interested in occurrence :x of event :e, by user id.
_OCCURRENCE_USERS = (
    "SELECT user_id FROM guild_scheduled_event_users WHERE event_id = :e AND user_id NOT IN"
    " (SELECT user_id FROM guild_scheduled_event_occurrence_users WHERE event_id = :e AND exception_id = :x"
    "  AND response = 0)"
    " UNION SELECT user_id FROM guild_scheduled_event_occurrence_users WHERE event_id = :e AND exception_id = :x"
    "  AND response = 1")


def occurrence_count(conn: sqlite3.Connection, event_id: int, occurrence: int) -> int:
    return int(conn.execute(f"SELECT COUNT(*) FROM ({_OCCURRENCE_USERS})",
                            {"e": event_id, "x": occurrence >> 22 << 22}).fetchone()[0])


def counts(conn: sqlite3.Connection, *, guild_id: int, event_id: int, occurrences: list[int]) -> Payload:
    """``guild_scheduled_event_count`` (the series' subscribers) and the count of each occurrence asked for."""
    event = get_row(conn, guild_id, event_id)
    series = conn.execute("SELECT COUNT(*) FROM guild_scheduled_event_users WHERE event_id = ?",
                          (event_id,)).fetchone()[0]
    per_occurrence = {}
    for index, occurrence in enumerate(occurrences):
        check_occurrence(event, occurrence, f"guild_scheduled_event_exception_ids.{index}")
        per_occurrence[str(occurrence)] = occurrence_count(conn, event_id, occurrence)
    return {"guild_scheduled_event_count": series, "guild_scheduled_event_exception_counts": per_occurrence}


def occurrence_users(conn: sqlite3.Connection, *, guild_id: int, event_id: int, occurrence: int, limit: int,
                     before: int | None, after: int | None, with_member: bool) -> list[Payload]:
    """The users interested in one occurrence, paged by user id like the event's users."""
    occurrence = check_occurrence(get_row(conn, guild_id, event_id), occurrence, "guild_scheduled_event_exception_id")
    params = {"e": event_id, "x": occurrence, "limit": limit}
    if before is not None:
        ids = [row[0] for row in conn.execute(
            f"SELECT user_id FROM ({_OCCURRENCE_USERS}) WHERE user_id < :before ORDER BY user_id DESC LIMIT :limit",
            {**params, "before": before})][::-1]
    else:
        ids = [row[0] for row in conn.execute(
            f"SELECT user_id FROM ({_OCCURRENCE_USERS}) WHERE user_id > :after ORDER BY user_id LIMIT :limit",
            {**params, "after": after or 0})]
    return user_entries(conn, guild_id, event_id, ids, with_member, occurrence)


def set_occurrence_interest(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int,
                            event_id: int, occurrence: int, user_id: int, response: int | None) -> None:
    """A member says they are interested (1) or not (0) in one occurrence, or takes that back (None).
    USER_ADD / USER_REMOVE with ``guild_scheduled_event_exception_id`` when their interest in that
    occurrence changes."""
    occurrence = check_occurrence(get_row(conn, guild_id, event_id), occurrence, "exception_id")
    if conn.execute("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)).fetchone() is None:
        raise field_error("user_id", "MEMBER_UNKNOWN", "Not a member of this guild.")

    def interested() -> bool:
        return conn.execute(f"SELECT 1 FROM ({_OCCURRENCE_USERS}) WHERE user_id = :u",
                            {"e": event_id, "x": occurrence, "u": user_id}).fetchone() is not None

    was = interested()
    if response is None:
        conn.execute("DELETE FROM guild_scheduled_event_occurrence_users WHERE event_id = ? AND exception_id = ?"
                     " AND user_id = ?", (event_id, occurrence, user_id))
    else:
        conn.execute("INSERT INTO guild_scheduled_event_occurrence_users (event_id, exception_id, user_id, response)"
                     " VALUES (?, ?, ?, ?) ON CONFLICT (event_id, exception_id, user_id) DO UPDATE SET"
                     " response = excluded.response", (event_id, occurrence, user_id, response))
    now = interested()
    if now != was:
        announce(outbox, "GUILD_SCHEDULED_EVENT_USER_ADD" if now else "GUILD_SCHEDULED_EVENT_USER_REMOVE", guild_id,
                 {"guild_scheduled_event_id": str(event_id), "user_id": str(user_id), "guild_id": str(guild_id),
                  "guild_scheduled_event_exception_id": str(occurrence)})
