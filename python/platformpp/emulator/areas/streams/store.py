"""Go Live streams: who streams where, who watches, and the dispatches that say so.

The rules (docs/emulator-streams.md):

- a stream belongs to the streamer's voice state: the streamer must be in that guild voice channel
  (with STREAM there) or that DM / group DM call, from the same Gateway session; the stream ends when
  that voice state ends or moves, or when the streamer deletes it; the voice state carries
  ``self_stream: true`` meanwhile;
- a viewer of a guild stream must be a member of the guild with VIEW_CHANNEL and CONNECT in the
  stream's channel; of a call's stream, a recipient of the DM or group DM;
- a refused create or watch changes nothing and answers STREAM_DELETE ``reason: "unauthorized"`` to the
  asking session; a watch of a stream that does not exist answers ``reason: "stream_ended"``.

STREAM_CREATE, STREAM_UPDATE and STREAM_DELETE go to the streamer and the viewers only (others in the
guild learn of a stream from ``self_stream``). Each function runs one transaction whose dispatches leave
on commit, and returns what the voice service must then do (``Effects``): allocate stream sessions
(the caller sends STREAM_SERVER_UPDATE with each token) and end others.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core.permissions import Permission
from ...events.audience import Payload, Viewer
from ...events.outbox import Outbox
from ...wire.channel import VOICE_LIKE
from ..guilds.access import permissions_in, standing
from ..voice_states import store as voice_states

if TYPE_CHECKING:
    from ...state import EmulatorState

GUILD = "guild"
CALL = "call"          # a DM or group DM call
# The emulator serves voice from one region (GET /voice/regions); a preferred region it does not
# serve is not an error, the stream simply runs in the one it has.
REGION = "emulator"

USER_REQUESTED = "user_requested"
STREAM_ENDED = "stream_ended"
UNAUTHORIZED = "unauthorized"


def stream_key(guild_id: int | None, channel_id: int, user_id: int) -> str:
    if guild_id is None:
        return f"{CALL}:{channel_id}:{user_id}"
    return f"{GUILD}:{guild_id}:{channel_id}:{user_id}"


class Session(NamedTuple):
    """The Gateway session that sent the opcode: its user, application and session id."""

    user_id: int
    application_id: int
    session_id: str


class Allocation(NamedTuple):
    """A stream session the voice service must open: the caller answers STREAM_SERVER_UPDATE."""

    stream_key: str
    rtc_server_id: int
    user_id: int
    session_id: str
    sender: bool


@dataclass
class Effects:
    allocate: list[Allocation] = field(default_factory=list)
    # (rtc_server_id, user_id) whose stream session ends.
    disconnect: list[tuple[int, int]] = field(default_factory=list)


# --- wire objects ------------------------------------------------------------------------------------

def _viewer_ids(conn: sqlite3.Connection, key: str) -> list[str]:
    return [str(row[0]) for row in conn.execute(
        "SELECT user_id FROM stream_viewers WHERE stream_key = ? ORDER BY watched_at, user_id", (key,))]


def stream_json(conn: sqlite3.Connection, row: sqlite3.Row) -> Payload:
    """STREAM_CREATE's and STREAM_UPDATE's ``d`` (STREAM_UPDATE has no ``rtc_server_id``)."""
    return {"stream_key": row["stream_key"], "rtc_server_id": str(row["rtc_server_id"]), "region": row["region"],
            "viewer_ids": _viewer_ids(conn, row["stream_key"]), "paused": bool(row["paused"])}


def _update_json(conn: sqlite3.Connection, row: sqlite3.Row) -> Payload:
    payload = stream_json(conn, row)
    del payload["rtc_server_id"]
    return payload


def _deleted(key: str, reason: str) -> Payload:
    return {"stream_key": key, "unavailable": False, "reason": reason}


def listing(state: EmulatorState) -> list[Payload]:
    """Every live stream with its streamer and channel (the admin API)."""
    with state.db.transaction() as conn:
        rows = conn.execute("SELECT * FROM streams ORDER BY created_at, stream_key").fetchall()
        return [{**stream_json(conn, row), "guild_id": None if row["guild_id"] is None else str(row["guild_id"]),
                 "channel_id": str(row["channel_id"]), "user_id": str(row["user_id"])} for row in rows]


# --- audiences ---------------------------------------------------------------------------------------

def _to(users: set[int], payload: Payload) -> Any:
    """The users' own (not bot) sessions: Go Live is a user's feature."""
    def render(viewer: Viewer) -> Payload | None:
        return payload if viewer.kind != "bot" and viewer.user_id in users else None
    return render


def _audience_of(conn: sqlite3.Connection, row: sqlite3.Row) -> set[int]:
    viewers = {r[0] for r in conn.execute("SELECT user_id FROM stream_viewers WHERE stream_key = ?",
                                          (row["stream_key"],))}
    return viewers | {row["user_id"]}


# --- rules -------------------------------------------------------------------------------------------

def _channel(conn: sqlite3.Connection, guild_id: int, channel_id: int) -> sqlite3.Row | None:
    channel = conn.execute("SELECT * FROM channels WHERE id = ? AND guild_id = ?", (channel_id, guild_id)).fetchone()
    return channel if channel is not None and channel["type"] in VOICE_LIKE else None


def _may_stream(conn: sqlite3.Connection, state: EmulatorState, who: Session, guild_id: int | None,
                channel_id: int) -> sqlite3.Row | None:
    """The streamer's voice state when it may stream there (in that channel from this session; STREAM
    in a guild channel)."""
    if guild_id is None:
        return conn.execute("SELECT * FROM voice_states WHERE kind = 'private' AND user_id = ?"
                            " AND channel_id = ? AND session_id = ?",
                            (who.user_id, channel_id, who.session_id)).fetchone()
    voice = conn.execute("SELECT * FROM voice_states WHERE kind = 'guild' AND user_id = ? AND guild_id = ?"
                         " AND channel_id = ? AND session_id = ?",
                         (who.user_id, guild_id, channel_id, who.session_id)).fetchone()
    member = standing(conn, guild_id, who.user_id, state.clock.now())
    channel = _channel(conn, guild_id, channel_id)
    if voice is None or member is None or channel is None:
        return None
    return voice if permissions_in(member, channel) & Permission.STREAM else None


def _may_watch(conn: sqlite3.Connection, state: EmulatorState, user_id: int, row: sqlite3.Row) -> bool:
    if row["guild_id"] is None:
        return conn.execute("SELECT 1 FROM channel_recipients WHERE channel_id = ? AND user_id = ?",
                            (row["channel_id"], user_id)).fetchone() is not None
    member = standing(conn, row["guild_id"], user_id, state.clock.now())
    channel = _channel(conn, row["guild_id"], row["channel_id"])
    if member is None or channel is None:
        return False
    have = permissions_in(member, channel)
    return bool(have & Permission.VIEW_CHANNEL) and bool(have & Permission.CONNECT)


def _set_self_stream(conn: sqlite3.Connection, outbox: Outbox, state: EmulatorState, user_id: int,
                     channel_id: int, value: bool) -> None:
    voice = conn.execute("SELECT * FROM voice_states WHERE user_id = ? AND channel_id = ?",
                         (user_id, channel_id)).fetchone()
    if voice is not None and bool(voice["self_stream"]) != value:
        voice_states.set_stage_fields(conn, outbox, state, voice, {"self_stream": int(value)})


def _end(conn: sqlite3.Connection, outbox: Outbox, state: EmulatorState, row: sqlite3.Row, reason: str,
         effects: Effects) -> None:
    """End a stream: STREAM_DELETE to the streamer and the viewers, their stream sessions closed."""
    audience = _audience_of(conn, row)
    outbox.add("STREAM_DELETE", _to(audience, _deleted(row["stream_key"], reason)))
    effects.disconnect.extend((row["rtc_server_id"], user_id) for user_id in sorted(audience))
    conn.execute("DELETE FROM stream_viewers WHERE stream_key = ?", (row["stream_key"],))
    conn.execute("DELETE FROM streams WHERE stream_key = ?", (row["stream_key"],))
    _set_self_stream(conn, outbox, state, row["user_id"], row["channel_id"], False)


def _announce_update(conn: sqlite3.Connection, outbox: Outbox, row: sqlite3.Row, skip: int | None = None) -> None:
    users = _audience_of(conn, row) - ({skip} if skip is not None else set())
    outbox.add("STREAM_UPDATE", _to(users, _update_json(conn, row)))


# --- opcodes -----------------------------------------------------------------------------------------

def create(state: EmulatorState, who: Session, guild_id: int | None, channel_id: int) -> Effects:
    """Opcode 18. A user streams in one place at a time: a stream elsewhere ends first; a second create of
    the same stream hands out a fresh stream session (viewers stay)."""
    key = stream_key(guild_id, channel_id, who.user_id)
    outbox = Outbox(state)
    effects = Effects()
    with state.db.transaction() as conn:
        if _may_stream(conn, state, who, guild_id, channel_id) is None:
            outbox.add("STREAM_DELETE", _to({who.user_id}, _deleted(key, UNAUTHORIZED)))
            return effects
        for other in conn.execute("SELECT * FROM streams WHERE user_id = ? AND stream_key != ?",
                                  (who.user_id, key)).fetchall():
            _end(conn, outbox, state, other, STREAM_ENDED, effects)
        row = conn.execute("SELECT * FROM streams WHERE stream_key = ?", (key,)).fetchone()
        if row is None:
            conn.execute("INSERT INTO streams (stream_key, kind, guild_id, channel_id, user_id, application_id,"
                         " session_id, rtc_server_id, region, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         (key, CALL if guild_id is None else GUILD, guild_id, channel_id, who.user_id, who.application_id, who.session_id,
                          state.ids.next(), REGION, state.clock.iso()))
        else:
            conn.execute("UPDATE streams SET session_id = ?, application_id = ? WHERE stream_key = ?",
                         (who.session_id, who.application_id, key))
        row = conn.execute("SELECT * FROM streams WHERE stream_key = ?", (key,)).fetchone()
        _set_self_stream(conn, outbox, state, who.user_id, channel_id, True)
        outbox.add("STREAM_CREATE", _to({who.user_id}, stream_json(conn, row)))
        effects.allocate.append(Allocation(key, row["rtc_server_id"], who.user_id, who.session_id, sender=True))
    return effects


def watch(state: EmulatorState, who: Session, key: str) -> Effects:
    """Opcode 20: join a stream as a viewer (STREAM_CREATE to the viewer, STREAM_UPDATE to the others)."""
    outbox = Outbox(state)
    effects = Effects()
    with state.db.transaction() as conn:
        row = conn.execute("SELECT * FROM streams WHERE stream_key = ?", (key,)).fetchone()
        if row is None:
            outbox.add("STREAM_DELETE", _to({who.user_id}, _deleted(key, STREAM_ENDED)))
            return effects
        if row["user_id"] == who.user_id:   # the streamer's own stream: it already has its session
            return effects
        if not _may_watch(conn, state, who.user_id, row):
            outbox.add("STREAM_DELETE", _to({who.user_id}, _deleted(key, UNAUTHORIZED)))
            return effects
        known = conn.execute("SELECT 1 FROM stream_viewers WHERE stream_key = ? AND user_id = ?",
                             (key, who.user_id)).fetchone() is not None
        conn.execute("INSERT INTO stream_viewers (stream_key, user_id, application_id, session_id, watched_at)"
                     " VALUES (?, ?, ?, ?, ?) ON CONFLICT (stream_key, user_id) DO UPDATE SET"
                     " session_id = excluded.session_id, application_id = excluded.application_id",
                     (key, who.user_id, who.application_id, who.session_id, state.clock.iso()))
        outbox.add("STREAM_CREATE", _to({who.user_id}, stream_json(conn, row)))
        if not known:
            _announce_update(conn, outbox, row, skip=who.user_id)
        effects.allocate.append(Allocation(key, row["rtc_server_id"], who.user_id, who.session_id, sender=False))
    return effects


def delete(state: EmulatorState, who: Session, key: str) -> Effects:
    """Opcode 19: the streamer ends the stream; a viewer stops watching. Anything else changes nothing."""
    outbox = Outbox(state)
    effects = Effects()
    with state.db.transaction() as conn:
        row = conn.execute("SELECT * FROM streams WHERE stream_key = ?", (key,)).fetchone()
        if row is None:
            return effects
        if row["user_id"] == who.user_id:
            _end(conn, outbox, state, row, USER_REQUESTED, effects)
            return effects
        gone = conn.execute("DELETE FROM stream_viewers WHERE stream_key = ? AND user_id = ?",
                            (key, who.user_id)).rowcount
        if gone:
            outbox.add("STREAM_DELETE", _to({who.user_id}, _deleted(key, USER_REQUESTED)))
            _announce_update(conn, outbox, row)
            effects.disconnect.append((row["rtc_server_id"], who.user_id))
    return effects


def set_paused(state: EmulatorState, who: Session, key: str, paused: bool) -> None:
    """Opcode 22: the streamer pauses or resumes (STREAM_UPDATE to everyone on the stream)."""
    outbox = Outbox(state)
    with state.db.transaction() as conn:
        row = conn.execute("SELECT * FROM streams WHERE stream_key = ? AND user_id = ?",
                           (key, who.user_id)).fetchone()
        if row is None or bool(row["paused"]) == paused:
            return
        conn.execute("UPDATE streams SET paused = ? WHERE stream_key = ?", (int(paused), key))
        row = conn.execute("SELECT * FROM streams WHERE stream_key = ?", (key,)).fetchone()
        _announce_update(conn, outbox, row)


# --- endings from elsewhere ------------------------------------------------------------------------------

def end_where(state: EmulatorState, where: str, params: tuple[Any, ...], reason: str) -> Effects:
    """End the streams matching ``where`` (SQL over ``streams``)."""
    outbox = Outbox(state)
    effects = Effects()
    with state.db.transaction() as conn:
        for row in conn.execute(f"SELECT * FROM streams WHERE {where}", params).fetchall():
            _end(conn, outbox, state, row, reason, effects)
    return effects


def session_ended(state: EmulatorState, session_id: str) -> Effects:
    """A Gateway session ended: its viewers leave their streams, its streams end (when its voice state
    ending has not already ended them)."""
    outbox = Outbox(state)
    effects = Effects()
    with state.db.transaction() as conn:
        for row in conn.execute("SELECT * FROM streams WHERE session_id = ?", (session_id,)).fetchall():
            _end(conn, outbox, state, row, STREAM_ENDED, effects)
        watched = conn.execute("SELECT s.*, v.user_id AS viewer_id FROM stream_viewers v"
                               " JOIN streams s ON s.stream_key = v.stream_key WHERE v.session_id = ?",
                               (session_id,)).fetchall()
        for row in watched:
            conn.execute("DELETE FROM stream_viewers WHERE stream_key = ? AND user_id = ?",
                         (row["stream_key"], row["viewer_id"]))
            _announce_update(conn, outbox, row)
            effects.disconnect.append((row["rtc_server_id"], row["viewer_id"]))
    return effects


def clear_all(state: EmulatorState) -> None:
    """At start: no Gateway session survives a restart, so neither does any stream."""
    with state.db.transaction() as conn:
        conn.execute("DELETE FROM stream_viewers")
        conn.execute("DELETE FROM streams")
