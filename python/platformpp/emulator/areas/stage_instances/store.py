"""Stage instances. A stage moderator (MANAGE_CHANNELS, MUTE_MEMBERS and MOVE_MEMBERS in the stage
channel) opens, edits and closes one; any member who can view the channel reads it. One instance per
stage channel (a second is 400 / 150006); opening one for a scheduled stage event starts that event. Bots with GUILDS that can view the channel hear
STAGE_INSTANCE_CREATE / UPDATE / DELETE; each change writes audit entry 83 / 84 / 85 (``options``:
the channel). When the last speaker (not suppressed, no request to speak) leaves the channel, the
instance is deleted (STAGE_INSTANCE_DELETE, no audit entry: nobody closed it); so it is with its channel."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from ...core import errors
from ...core.errors import ApiError
from ...core.permissions import Permission
from ...core.validation import field_error
from ...events.audience import Payload, Viewer
from ...events.outbox import Outbox
from ...wire.channel import STAGE
from ..audit_log import actions
from ..audit_log import trail as audit_trail
from ..channel_messages.audience import GUILD_SCHEDULED_EVENTS, GuildBots
from ..guilds.access import missing_access, permissions_in, require_channel_permission, require_member
from ..guilds.dispatch import GUILDS_INTENT, guild_bots
from ..scheduled_events.listing import render as render_event
from .listing import instance_json

if TYPE_CHECKING:
    from ...state import EmulatorState

UNKNOWN_STAGE_INSTANCE = 10067
STAGE_ALREADY_OPEN = 150006
GUILD_ONLY = 2
MODERATOR = int(Permission.MANAGE_CHANNELS | Permission.MUTE_MEMBERS | Permission.MOVE_MEMBERS)
AUDIT_KEYS = ("topic", "privacy_level")
_STAGE_EVENT = 1   # a scheduled event's entity_type for a stage
_EVENT_SCHEDULED, _EVENT_ACTIVE = 1, 2


def stage_channel(conn: sqlite3.Connection, channel_id: int, *, field: str | None = None) -> sqlite3.Row:
    """A guild's stage channel: 404 / 10003 for no channel; for another type, 50035 naming ``field``
    (a body's field) or 404 / 10003 (a path's)."""
    channel = conn.execute("SELECT * FROM channels WHERE id = ? AND guild_id IS NOT NULL", (channel_id,)).fetchone()
    if channel is None:
        raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
    if channel["type"] != STAGE:
        if field is not None:
            raise field_error(field, "CHANNEL_TYPE_INVALID", "Must be a stage channel.")
        raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
    return channel


def instance_row(conn: sqlite3.Connection, channel_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM stage_instances WHERE channel_id = ?", (channel_id,)).fetchone()
    if row is None:
        raise errors.not_found(UNKNOWN_STAGE_INSTANCE, "Stage Instance")
    return row


def _as_viewer(state: EmulatorState, conn: sqlite3.Connection, channel: sqlite3.Row, user_id: int) -> int:
    """The caller's permissions in the stage channel; 50001 unless a member who can view it."""
    who = require_member(conn, channel["guild_id"], user_id, state.clock.now())
    have = permissions_in(who, channel)
    if not have & Permission.VIEW_CHANNEL:
        raise missing_access()
    return have


def _as_moderator(state: EmulatorState, conn: sqlite3.Connection, channel: sqlite3.Row, user_id: int) -> None:
    who = require_member(conn, channel["guild_id"], user_id, state.clock.now())
    require_channel_permission(who, channel, MODERATOR)


def _announce(conn: sqlite3.Connection, outbox: Outbox, state: EmulatorState, event: str, guild_id: int,
              channel_id: int, payload: Payload) -> None:
    bots = guild_bots(conn, guild_id, state.clock.now())

    def render(viewer: Viewer) -> Payload | None:
        if bots.admits(viewer, GUILDS_INTENT) and channel_id in bots.visible[viewer.user_id]:
            return payload
        return None
    outbox.add(event, render)


def _audit(conn: sqlite3.Connection, row: sqlite3.Row, user_id: int, action: int, before: Any, after: Any) -> None:
    audit_trail.simple(conn, row["guild_id"], user_id, action, row["id"], before, after, AUDIT_KEYS,
                       options={"channel_id": row["channel_id"]})


def _scheduled_event(conn: sqlite3.Connection, guild_id: int, channel_id: int, event_id: int) -> None:
    """The instance's scheduled event: a stage event of this guild, for this channel, not over."""
    event = conn.execute("SELECT entity_type, channel_id, status FROM guild_scheduled_events"
                         " WHERE id = ? AND guild_id = ?", (event_id, guild_id)).fetchone()
    if event is None:
        raise field_error("guild_scheduled_event_id", "GUILD_SCHEDULED_EVENT_UNKNOWN",
                          "No scheduled event with this id in the guild.")
    if event["entity_type"] != _STAGE_EVENT or event["channel_id"] != channel_id:
        raise field_error("guild_scheduled_event_id", "GUILD_SCHEDULED_EVENT_CHANNEL_MISMATCH",
                          "Must be a stage event of this stage channel.")
    if event["status"] not in (_EVENT_SCHEDULED, _EVENT_ACTIVE):
        raise field_error("guild_scheduled_event_id", "GUILD_SCHEDULED_EVENT_FINISHED",
                          "The event is completed or canceled.")


def _start_event(conn: sqlite3.Connection, outbox: Outbox, guild_id: int, event_id: int) -> None:
    """Opening a stage for its scheduled event starts the event (GUILD_SCHEDULED_EVENT_UPDATE)."""
    changed = conn.execute("UPDATE guild_scheduled_events SET status = ? WHERE id = ? AND status = ?",
                           (_EVENT_ACTIVE, event_id, _EVENT_SCHEDULED)).rowcount
    if changed:
        row = conn.execute("SELECT * FROM guild_scheduled_events WHERE id = ?", (event_id,)).fetchone()
        outbox.add("GUILD_SCHEDULED_EVENT_UPDATE", GuildBots(guild_id, GUILD_SCHEDULED_EVENTS,
                                                             render_event(conn, row)))


def create(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, user_id: int, channel_id: int,
           topic: str, privacy_level: int, scheduled_event_id: int | None) -> Payload:
    channel = stage_channel(conn, channel_id, field="channel_id")
    _as_moderator(state, conn, channel, user_id)
    if scheduled_event_id is not None:
        _scheduled_event(conn, channel["guild_id"], channel_id, scheduled_event_id)
    if conn.execute("SELECT 1 FROM stage_instances WHERE channel_id = ?", (channel_id,)).fetchone() is not None:
        raise ApiError(400, STAGE_ALREADY_OPEN, "Stage already open")
    instance_id = state.ids.next()
    conn.execute("INSERT INTO stage_instances (id, guild_id, channel_id, topic, privacy_level,"
                 " guild_scheduled_event_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                 (instance_id, channel["guild_id"], channel_id, topic, privacy_level, scheduled_event_id,
                  state.clock.iso()))
    row = instance_row(conn, channel_id)
    body = instance_json(row)
    _announce(conn, outbox, state, "STAGE_INSTANCE_CREATE", row["guild_id"], channel_id, body)
    if scheduled_event_id is not None:
        _start_event(conn, outbox, row["guild_id"], scheduled_event_id)
    _audit(conn, row, user_id, actions.STAGE_INSTANCE_CREATE, None, body)
    return body


def get(state: EmulatorState, conn: sqlite3.Connection, *, user_id: int, channel_id: int) -> Payload:
    channel = stage_channel(conn, channel_id)
    _as_viewer(state, conn, channel, user_id)
    return instance_json(instance_row(conn, channel_id))


def modify(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, user_id: int, channel_id: int,
           changes: dict[str, Any]) -> Payload:
    channel = stage_channel(conn, channel_id)
    _as_moderator(state, conn, channel, user_id)
    before = instance_json(instance_row(conn, channel_id))
    for column, value in changes.items():   # column names come from the route's fixed list
        conn.execute(f"UPDATE stage_instances SET {column} = ? WHERE channel_id = ?", (value, channel_id))
    row = instance_row(conn, channel_id)
    body = instance_json(row)
    if body != before:   # an edit that changes nothing is answered, not announced
        _announce(conn, outbox, state, "STAGE_INSTANCE_UPDATE", row["guild_id"], channel_id, body)
        _audit(conn, row, user_id, actions.STAGE_INSTANCE_UPDATE, before, body)
    return body


def delete(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, user_id: int,
           channel_id: int) -> None:
    channel = stage_channel(conn, channel_id)
    _as_moderator(state, conn, channel, user_id)
    row = instance_row(conn, channel_id)
    body = instance_json(row)
    conn.execute("DELETE FROM stage_instances WHERE id = ?", (row["id"],))
    _announce(conn, outbox, state, "STAGE_INSTANCE_DELETE", row["guild_id"], channel_id, body)
    _audit(conn, row, user_id, actions.STAGE_INSTANCE_DELETE, body, None)


def close_orphans(state: EmulatorState) -> None:
    """Instances whose stage channel was deleted are deleted too (STAGE_INSTANCE_DELETE to the guild's
    bots with GUILDS: who could view the gone channel can no longer be read)."""
    outbox = Outbox(state)
    with state.db.transaction() as conn:
        rows = conn.execute("SELECT * FROM stage_instances s WHERE NOT EXISTS"
                            " (SELECT 1 FROM channels c WHERE c.id = s.channel_id)").fetchall()
        for row in rows:
            conn.execute("DELETE FROM stage_instances WHERE id = ?", (row["id"],))
            bots = guild_bots(conn, row["guild_id"], state.clock.now())
            payload = instance_json(row)

            def render(viewer: Viewer, bots: Any = bots, payload: Payload = payload) -> Payload | None:
                return payload if bots.admits(viewer, GUILDS_INTENT) else None
            outbox.add("STAGE_INSTANCE_DELETE", render)


def close_without_speakers(state: EmulatorState, channel_id: int) -> bool:
    """The channel's last speaker left: delete its instance if no speaker remains. True if closed."""
    outbox = Outbox(state)
    with state.db.transaction() as conn:
        row = conn.execute("SELECT * FROM stage_instances WHERE channel_id = ?", (channel_id,)).fetchone()
        if row is None:
            return False
        speakers = conn.execute("SELECT COUNT(*) FROM voice_states WHERE channel_id = ? AND suppress = 0"
                                " AND request_to_speak_timestamp IS NULL", (channel_id,)).fetchone()[0]
        if speakers:
            return False
        conn.execute("DELETE FROM stage_instances WHERE id = ?", (row["id"],))
        _announce(conn, outbox, state, "STAGE_INSTANCE_DELETE", row["guild_id"], channel_id, instance_json(row))
        return True
