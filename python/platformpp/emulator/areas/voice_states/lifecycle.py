"""What ends a voice state besides opcode 4 and the end of its Gateway session:

- the world changed under it (read from the emulator's event bus, so the guild, channel and lobby
  code needs no voice knowledge): its channel was deleted, its member was removed, kicked or banned
  or left the guild, the guild was deleted, its lobby member was removed or the lobby deleted (and,
  checked at the same moments, a user no longer a recipient of the DM or group DM of the call);
- its voice session timed out: the client stopped heartbeating (closed 4009 after two heartbeat
  intervals) or its voice socket dropped and was not resumed within the resume window (30 s), as
  the voice service reports with ``participant_lost``.

Each ends as a leave does (VOICE_STATE_UPDATE with ``channel_id`` null, the start time cleared with
the last one) and the voice service closes that user's voice session (4014, do not reconnect)."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any, Callable

from ...events.audience import Payload, Viewer
from ...events.bus import Event
from ...voice.errors import VoiceServiceError
from ...wire.channel import CHANNEL_OBFUSCATED
from ..guilds.dispatch import CAPABILITY_CHANNEL_OBFUSCATION, GUILDS_INTENT, guild_bots
from . import store
from .store import GUILD_VOICE_STATES_INTENT, Ended, LeaveAudience

if TYPE_CHECKING:
    from ...state import EmulatorState

# The Gateway dispatches after which a voice state may have lost its ground.
TRIGGERS = frozenset({"CHANNEL_DELETE", "GUILD_MEMBER_REMOVE", "GUILD_BAN_ADD", "GUILD_DELETE",
                      "LOBBY_MEMBER_REMOVE", "LOBBY_DELETE"})

# Voice states whose channel, membership, lobby membership or DM recipiency is gone.
GROUNDLESS = (
    "(v.kind = 'guild' AND (NOT EXISTS (SELECT 1 FROM channels c WHERE c.id = v.channel_id)"
    " OR NOT EXISTS (SELECT 1 FROM members m WHERE m.guild_id = v.guild_id AND m.user_id = v.user_id)))"
    " OR (v.kind = 'lobby' AND NOT EXISTS (SELECT 1 FROM lobby_members l"
    " WHERE l.lobby_id = v.server_id AND l.user_id = v.user_id))"
    " OR (v.kind = 'private' AND NOT EXISTS (SELECT 1 FROM channel_recipients r"
    " WHERE r.channel_id = v.channel_id AND r.user_id = v.user_id))")


def start(state: EmulatorState) -> Callable[[], None]:
    """Subscribe to the bus; returns the unsubscribe function."""
    def on_event(event: Event) -> None:
        if event.name in TRIGGERS and event.audience is not None:
            end_groundless(state, deleted_channel=event.audience if event.name == "CHANNEL_DELETE" else None)
    return state.bus.subscribe(on_event)


def end_groundless(state: EmulatorState,
                   deleted_channel: Callable[[Viewer], Any] | None = None) -> list[Ended]:
    """End every voice state that lost its ground. ``deleted_channel``: the audience of the
    CHANNEL_DELETE that prompted this, which still knows who could view the channel."""
    def audience(conn: sqlite3.Connection, row: sqlite3.Row) -> LeaveAudience | None:
        if row["kind"] != "guild" or conn.execute("SELECT 1 FROM channels WHERE id = ?",
                                                  (row["channel_id"],)).fetchone() is not None:
            return None            # the channel is there: visibility is read from the database
        return _gone_channel_audience(conn, state, row, deleted_channel)
    ended = store.end_states(state, GROUNDLESS, audience=audience)
    close_sessions(state, ended)
    return ended


def _could_view(channel_delete: Callable[[Viewer], Any] | None, bot_user_id: int, channel_id: int) -> bool:
    """Whether the bot could view the deleted channel: the CHANNEL_DELETE audience renders the full
    channel for those that could and the obfuscated one for the others (to a viewer opting in)."""
    if channel_delete is None:
        return False
    probe = Viewer("bot", bot_user_id, 0, intents=GUILDS_INTENT, capabilities=CAPABILITY_CHANNEL_OBFUSCATION)
    payload = channel_delete(probe)
    return (isinstance(payload, dict) and payload.get("id") == str(channel_id)
            and not int(payload.get("flags") or 0) & CHANNEL_OBFUSCATED)


def _gone_channel_audience(conn: sqlite3.Connection, state: EmulatorState, row: sqlite3.Row,
                           channel_delete: Callable[[Viewer], Any] | None) -> LeaveAudience:
    """The user's own sessions, and the guild's bots with GUILD_VOICE_STATES that could view the
    channel before it was deleted (none when the guild itself is gone)."""
    bots = guild_bots(conn, row["guild_id"], state.clock.now())
    watchers = frozenset(b for b in bots.visible if _could_view(channel_delete, b, row["channel_id"]))
    user_id, application_id = row["user_id"], row["application_id"]

    def leave(_: sqlite3.Row, payload: Payload) -> Callable[[Viewer], Payload | None]:
        def render(viewer: Viewer) -> Payload | None:
            own_app = viewer.kind == "bot" or viewer.application_id == application_id
            if viewer.user_id == user_id and own_app:
                return payload
            if viewer.user_id in watchers and bots.admits(viewer, GUILD_VOICE_STATES_INTENT):
                return payload
            return None
        return render
    return leave


def end_lost_session(state: EmulatorState, server_id: int, channel_id: int, user_id: int) -> list[Ended]:
    """The voice service lost the user's voice session (timeout, not resumed): the voice state in that
    call ends, unless the user connected again meanwhile."""
    service = state.voice
    try:
        if service is not None and user_id in service.participants(channel_id):
            return []
    except VoiceServiceError:
        pass
    ended = store.end_states(state, "v.user_id = ? AND v.server_id = ? AND v.channel_id = ?",
                             (user_id, server_id, channel_id))
    close_sessions(state, ended)
    return ended


def close_sessions(state: EmulatorState, ended: list[Ended]) -> None:
    """The voice service follows ended voice states: their sessions close (4014) and tokens go stale."""
    service, link = state.voice, state.extras.get("voice_link")
    for item in ended:
        if link is not None:
            link.forget(item.place, item.user_id)
            link.released(item.user_id, item.place)
        if service is not None:
            try:
                service.disconnect(item.place.server_id, item.user_id)
            except VoiceServiceError:
                pass
