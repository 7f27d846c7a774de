"""Writing and reading the audit log.

``record`` is what every area calls after a change, with the same connection, inside the change's
transaction: the entry exists exactly when the change does. The reason defaults to the request's
``X-Audit-Log-Reason`` (core/audit_reason.py). Bots of the guild holding VIEW_AUDIT_LOG, on sessions
with the GUILD_MODERATION intent, get GUILD_AUDIT_LOG_ENTRY_CREATE when the transaction commits.

``record`` takes no state (callers deep in a store have only the connection): ``attach``, run at
startup, links the database's one connection to its emulator, whose id generator and outbox the
entry uses."""

from __future__ import annotations

import json
import sqlite3
import weakref
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...core.audit_reason import current_reason
from ...core.permissions import Permission
from ...events.audience import Payload, Viewer
from ...events.outbox import Outbox
from ..guilds.access import standing
from ..guilds.dispatch import guild_bots

if TYPE_CHECKING:
    from ...state import EmulatorState

GUILD_MODERATION_INTENT = 1 << 2
_MISSING = object()

# id(connection) -> the emulator owning it (sqlite3 connections take no weak references).
_emulators: dict[int, weakref.ref[EmulatorState]] = {}


def attach(state: EmulatorState) -> None:
    with state.db.transaction() as conn:
        _emulators[id(conn)] = weakref.ref(state)


def _state_of(conn: sqlite3.Connection) -> EmulatorState:
    ref = _emulators.get(id(conn))
    state = ref() if ref is not None else None
    if state is None:
        raise RuntimeError("the audit log is not attached to this database (area startup not run)")
    return state


def diff(old: Mapping[str, Any] | None, new: Mapping[str, Any] | None,
         keys: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """The platform's ``changes``: one ``{key, old_value?, new_value?}`` per key whose value differs
    (a created object has only new values, a deleted one only old values)."""
    old, new = old or {}, new or {}
    names = keys if keys is not None else sorted(set(old) | set(new))
    changes: list[dict[str, Any]] = []
    for key in names:
        before, after = old.get(key, _MISSING), new.get(key, _MISSING)
        if before == after:
            continue
        change: dict[str, Any] = {"key": key}
        if before is not _MISSING and before is not None:
            change["old_value"] = before
        if after is not _MISSING and after is not None:
            change["new_value"] = after
        if len(change) > 1:
            changes.append(change)
    return changes


def record(conn: sqlite3.Connection, *, guild_id: int, user_id: int | None, action_type: int,
           target_id: int | None = None, changes: list[dict[str, Any]] | None = None,
           options: Mapping[str, Any] | None = None, reason: str | None = None) -> int:
    """Write one entry (in the caller's transaction) and queue its dispatch; returns the entry id.
    ``options`` values are sent as strings (the platform's optional entry info); ``reason`` defaults
    to the request's X-Audit-Log-Reason."""
    state = _state_of(conn)
    entry_id = state.ids.next()
    shown_options = {k: str(v) for k, v in options.items() if v is not None} if options else None
    reason = reason if reason is not None else current_reason()
    conn.execute("INSERT INTO audit_log_entries (id, guild_id, user_id, action_type, target_id, changes,"
                 " options, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                 (entry_id, guild_id, user_id, action_type, target_id,
                  json.dumps(changes) if changes else None,
                  json.dumps(shown_options) if shown_options else None, reason))
    entry = entry_json(conn.execute("SELECT * FROM audit_log_entries WHERE id = ?", (entry_id,)).fetchone())
    _dispatch(conn, Outbox(state), state, guild_id, entry)
    return entry_id


def _dispatch(conn: sqlite3.Connection, outbox: Outbox, state: EmulatorState, guild_id: int,
              entry: Payload) -> None:
    now = state.clock.now()
    bots = guild_bots(conn, guild_id, now)
    readers = set()
    for user_id in bots.visible:
        who = standing(conn, guild_id, user_id, now)
        if who is not None and who.base & Permission.VIEW_AUDIT_LOG:
            readers.add(user_id)
    if not readers:
        return
    payload = {**entry, "guild_id": str(guild_id)}

    def render(viewer: Viewer) -> Payload | None:
        if viewer.user_id in readers and bots.admits(viewer, GUILD_MODERATION_INTENT):
            return payload
        return None
    outbox.add("GUILD_AUDIT_LOG_ENTRY_CREATE", render)


def entry_json(row: sqlite3.Row) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": str(row["id"]), "action_type": row["action_type"],
        "user_id": None if row["user_id"] is None else str(row["user_id"]),
        "target_id": None if row["target_id"] is None else str(row["target_id"]),
        "changes": json.loads(row["changes"]) if row["changes"] else [],
    }
    if row["options"]:
        body["options"] = json.loads(row["options"])
    if row["reason"] is not None:
        body["reason"] = row["reason"]
    return body


def entries(conn: sqlite3.Connection, guild_id: int, *, user_id: int | None, target_id: int | None,
            action_type: int | None, before: int | None, after: int | None, limit: int) -> list[sqlite3.Row]:
    """Newest first; ``after`` alone reads upwards from that id (the oldest ``limit`` above it), still
    answered newest first."""
    clauses, params = ["guild_id = ?"], [guild_id]
    for column, value in (("user_id", user_id), ("target_id", target_id), ("action_type", action_type)):
        if value is not None:
            clauses.append(f"{column} = ?")
            params.append(value)
    if before is not None:
        clauses.append("id < ?")
        params.append(before)
    if after is not None:
        clauses.append("id > ?")
        params.append(after)
    upwards = after is not None and before is None
    rows = conn.execute(f"SELECT * FROM audit_log_entries WHERE {' AND '.join(clauses)}"
                        f" ORDER BY id {'ASC' if upwards else 'DESC'} LIMIT ?", (*params, limit)).fetchall()
    return list(reversed(rows)) if upwards else rows
