"""Guild scheduled events. Creating follows the dated rule of 2026-02-23 (before: MANAGE_EVENTS; from
then: CREATE_EVENTS). Modifying and deleting need MANAGE_EVENTS, or, from that instant, CREATE_EVENTS
for one's own event. Bots with GUILD_SCHEDULED_EVENTS hear GUILD_SCHEDULED_EVENT_CREATE / UPDATE /
DELETE / USER_ADD / USER_REMOVE."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...core import errors
from ...core.errors import ApiError
from ...core.permission_changes import PERMISSION_CHANGES_AT, event_create_permissions
from ...core.permissions import Permission
from ...core.snowflake import snowflake_time
from ...core.validation import field_error
from ...events.audience import Payload
from ...wire.user import public_user_json
from ..audit_log import actions
from ..audit_log import trail as audit_trail
from ..channel_messages.access import guild_permissions, require_guild_permission
from ..channel_messages.audience import GUILD_SCHEDULED_EVENTS, GuildBots
from .listing import render
from .recurrence import is_occurrence

if TYPE_CHECKING:
    from ...events.outbox import Outbox
    from ...state import EmulatorState

UNKNOWN_EVENT = 10070
EVENT_KEYS = ("name", "description", "scheduled_start_time", "scheduled_end_time", "status", "entity_type",
              "channel_id", "recurrence_rule")
STAGE, VOICE, EXTERNAL = 1, 2, 3
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
# Allowed status changes: scheduled → active or canceled; active → completed.
TRANSITIONS = {SCHEDULED: {ACTIVE, CANCELED}, ACTIVE: {COMPLETED}}
_CHANNEL_TYPE = {STAGE: 13, VOICE: 2}


@dataclass
class EventFields:
    """The validated columns of a create or a modify (only the given ones for a modify)."""

    values: dict[str, Any]


def _field(name: str, code: str, message: str) -> ApiError:
    return field_error(name, code, message)


def get_row(conn: sqlite3.Connection, guild_id: int, event_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM guild_scheduled_events WHERE id = ? AND guild_id = ?",
                       (event_id, guild_id)).fetchone()
    if row is None:
        raise errors.not_found(UNKNOWN_EVENT, "Guild Scheduled Event")
    return row


def announce(outbox: Outbox, event: str, guild_id: int, payload: Payload) -> None:
    outbox.add(event, GuildBots(guild_id, GUILD_SCHEDULED_EVENTS, payload))


def check_consistency(conn: sqlite3.Connection, guild_id: int, merged: dict[str, Any]) -> None:
    """Stage and voice events name a channel of that type in the guild and carry no metadata; external
    events name a location and an end time, and no channel."""
    entity_type = merged["entity_type"]
    if entity_type == EXTERNAL:
        metadata = json.loads(merged["entity_metadata"]) if merged.get("entity_metadata") else None
        if not metadata or not metadata.get("location"):
            raise _field("entity_metadata", "BASE_TYPE_REQUIRED", "External events need entity_metadata.location.")
        if merged.get("scheduled_end_time") is None:
            raise _field("scheduled_end_time", "BASE_TYPE_REQUIRED", "External events need an end time.")
        if merged.get("channel_id") is not None:
            raise _field("channel_id", "BASE_TYPE_BAD_COMBINATION", "External events have no channel.")
        return
    channel = conn.execute("SELECT type FROM channels WHERE id = ? AND guild_id = ?",
                           (merged.get("channel_id"), guild_id)).fetchone()
    if channel is None or channel["type"] != _CHANNEL_TYPE[entity_type]:
        kind = "a stage" if entity_type == STAGE else "a voice"
        raise _field("channel_id", "CHANNEL_TYPE_INVALID", f"Must be {kind} channel of this guild.")
    if merged.get("scheduled_end_time") is not None and merged["scheduled_end_time"] <= merged["scheduled_start_time"]:
        raise _field("scheduled_end_time", "BASE_TYPE_BAD_RANGE", "Must be after scheduled_start_time.")


def create(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int, user_id: int,
           fields: EventFields) -> Payload:
    now = state.clock.now()
    require_guild_permission(guild_permissions(conn, guild_id, user_id, now), event_create_permissions(now))
    values = {"channel_id": None, "description": None, "image": None, "scheduled_end_time": None,
              "entity_metadata": None, **fields.values}
    check_consistency(conn, guild_id, values)
    if values["scheduled_start_time"] <= state.clock.iso():
        raise _field("scheduled_start_time", "BASE_TYPE_BAD_TIME", "Must be in the future.")
    event_id = state.ids.next()
    columns = ["id", "guild_id", "creator_id", "created_at", *values]
    conn.execute(f"INSERT INTO guild_scheduled_events ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                 (event_id, guild_id, user_id, state.clock.iso(), *values.values()))
    event = render(conn, get_row(conn, guild_id, event_id))
    announce(outbox, "GUILD_SCHEDULED_EVENT_CREATE", guild_id, event)
    audit_trail.simple(conn, guild_id, user_id, actions.GUILD_SCHEDULED_EVENT_CREATE, event_id, None, event, EVENT_KEYS)
    return event


def require_manage(state: EmulatorState, conn: sqlite3.Connection, guild_id: int, user_id: int,
                    row: sqlite3.Row) -> None:
    now = state.clock.now()
    bits = int(Permission.MANAGE_EVENTS)
    if now >= PERMISSION_CHANGES_AT and row["creator_id"] == user_id:
        bits |= int(Permission.CREATE_EVENTS)
    require_guild_permission(guild_permissions(conn, guild_id, user_id, now), bits)


def modify(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int, user_id: int,
           event_id: int, fields: EventFields) -> Payload:
    row = get_row(conn, guild_id, event_id)
    require_manage(state, conn, guild_id, user_id, row)
    changes = dict(fields.values)
    if "status" in changes and changes["status"] != row["status"] \
            and changes["status"] not in TRANSITIONS.get(row["status"], set()):
        raise _field("status", "GUILD_SCHEDULED_EVENT_INVALID_STATUS",
                     f"Cannot change the status from {row['status']} to {changes['status']}.")
    if changes.get("entity_type") == EXTERNAL and "channel_id" not in changes:
        changes["channel_id"] = None   # becoming external drops the channel
    merged = {**dict(row), **changes}
    check_consistency(conn, guild_id, merged)
    if changes:
        assignments = ", ".join(f"{column} = ?" for column in changes)   # columns from the route's fixed list
        conn.execute(f"UPDATE guild_scheduled_events SET {assignments} WHERE id = ?", (*changes.values(), event_id))
    if "recurrence_rule" in changes:
        _drop_lost_occurrences(conn, event_id, changes["recurrence_rule"])
    event = render(conn, get_row(conn, guild_id, event_id))
    announce(outbox, "GUILD_SCHEDULED_EVENT_UPDATE", guild_id, event)
    audit_trail.simple(conn, guild_id, user_id, actions.GUILD_SCHEDULED_EVENT_UPDATE, event_id, render(conn, row),
                       event, EVENT_KEYS)
    return event


def _drop_lost_occurrences(conn: sqlite3.Connection, event_id: int, rule_text: str | None) -> None:
    """After a rule change, the exceptions and occurrence interest of occurrences the new rule no
    longer has go (all of them when the event stops recurring)."""
    rule = json.loads(rule_text) if rule_text else None
    for table in ("guild_scheduled_event_exceptions", "guild_scheduled_event_occurrence_users"):
        occurrences = {row[0] for row in conn.execute(f"SELECT exception_id FROM {table} WHERE event_id = ?",
                                                      (event_id,))}
        for occurrence in occurrences:
            if rule is None or not is_occurrence(rule, snowflake_time(occurrence)):
                conn.execute(f"DELETE FROM {table} WHERE event_id = ? AND exception_id = ?", (event_id, occurrence))


def delete(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int, user_id: int,
           event_id: int) -> None:
    row = get_row(conn, guild_id, event_id)
    require_manage(state, conn, guild_id, user_id, row)
    event = render(conn, row)
    conn.execute("DELETE FROM guild_scheduled_events WHERE id = ?", (event_id,))
    announce(outbox, "GUILD_SCHEDULED_EVENT_DELETE", guild_id, event)
    audit_trail.simple(conn, guild_id, user_id, actions.GUILD_SCHEDULED_EVENT_DELETE, event_id, event, None, EVENT_KEYS)


def users(conn: sqlite3.Connection, *, guild_id: int, event_id: int, limit: int, before: int | None,
          after: int | None, with_member: bool) -> list[Payload]:
    get_row(conn, guild_id, event_id)
    if before is not None:
        ids = [row[0] for row in conn.execute(
            "SELECT user_id FROM guild_scheduled_event_users WHERE event_id = ? AND user_id < ?"
            " ORDER BY user_id DESC LIMIT ?", (event_id, before, limit))][::-1]
    else:
        ids = [row[0] for row in conn.execute(
            "SELECT user_id FROM guild_scheduled_event_users WHERE event_id = ? AND user_id > ?"
            " ORDER BY user_id LIMIT ?", (event_id, after or 0, limit))]
    return user_entries(conn, guild_id, event_id, ids, with_member)


def user_entries(conn: sqlite3.Connection, guild_id: int, event_id: int, user_ids: list[int], with_member: bool,
                 occurrence: int | None = None) -> list[Payload]:
    """The event-user objects of ``user_ids``, in that order (of one occurrence when ``occurrence``)."""
    result = []
    for user_id in user_ids:
        row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
        if row is None:
            continue
        entry: Payload = {"guild_scheduled_event_id": str(event_id), "user_id": str(row["id"]), "response": 1,
                          "user": public_user_json(row)}
        if occurrence is not None:
            entry["guild_scheduled_event_exception_id"] = str(occurrence)
        if with_member:
            member = conn.execute("SELECT nick, roles, joined_at FROM members WHERE guild_id = ? AND user_id = ?",
                                  (guild_id, row["id"])).fetchone()
            if member is not None:
                entry["member"] = {"nick": member["nick"], "roles": json.loads(member["roles"]),
                                   "joined_at": member["joined_at"], "deaf": False, "mute": False, "flags": 0,
                                   "pending": False, "avatar": None, "banner": None, "premium_since": None,
                                   "communication_disabled_until": None, "user": public_user_json(row)}
        result.append(entry)
    return result


def set_interest(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int, event_id: int,
                 user_id: int, interested: bool) -> None:
    """A member marks (or unmarks) interest: USER_ADD / USER_REMOVE when it changes anything."""
    get_row(conn, guild_id, event_id)
    if conn.execute("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)).fetchone() is None:
        raise _field("user_id", "MEMBER_UNKNOWN", "Not a member of this guild.")
    if interested:
        changed = conn.execute("INSERT OR IGNORE INTO guild_scheduled_event_users (event_id, user_id) VALUES (?, ?)",
                               (event_id, user_id)).rowcount
    else:
        changed = conn.execute("DELETE FROM guild_scheduled_event_users WHERE event_id = ? AND user_id = ?",
                               (event_id, user_id)).rowcount
    if changed:
        announce(outbox, "GUILD_SCHEDULED_EVENT_USER_ADD" if interested else "GUILD_SCHEDULED_EVENT_USER_REMOVE",
                  guild_id, {"guild_scheduled_event_id": str(event_id), "user_id": str(user_id),
                             "guild_id": str(guild_id)})
