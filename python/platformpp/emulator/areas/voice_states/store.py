"""Voice states (Gateway opcode 4) and the ephemeral fields of voice channels (status, start time).

A voice state says who is in which call: a guild voice or stage channel, a DM or group DM, or a
lobby's call (``channel_id`` = the lobby id). It is written here, in one transaction with its
dispatches; the voice service (``calls.py``) follows what committed. The rules:

- guild channels: the user must be a member who can view the channel and has CONNECT; a channel's
  ``user_limit`` is enforced unless the user has MOVE_MEMBERS; SPEAK decides whether the relay
  forwards the user's audio; in a stage channel everyone joins suppressed (not forwarded);
- DMs and group DMs: only their recipients; lobbies: only their members (same application).

VOICE_STATE_UPDATE goes to those who may see it: the guild's bots with GUILD_VOICE_STATES that can
view the channel, the DM's recipients, the lobby's members, and always the user's own sessions.
``voice_start_time`` of a guild channel is set when its first voice state appears and cleared when
its last one goes (VOICE_CHANNEL_START_TIME_UPDATE to the guild's bots with GUILDS that can view it).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core.clock import parse_instant
from ...core.permissions import Permission
from ...core.snowflake import snowflake_value
from ...events.audience import Payload, Viewer, to_users
from ...events.outbox import Outbox
from ...wire.channel import DM, GROUP_DM, STAGE, VOICE_LIKE
from ...wire.member import MEMBER_SELECT, member_json
from ..guilds.access import permissions_in, standing
from ..guilds.dispatch import GUILDS_INTENT, GuildBots, guild_bots
from ..lobbies.store import member_ids as lobby_member_ids

if TYPE_CHECKING:
    from ...state import EmulatorState

GUILD_VOICE_STATES_INTENT = 1 << 7
STATUS_MAX_LENGTH = 500


# Who sees the end of a voice state whose channel (or guild) is gone, so visibility can no longer be
# read from the database: given the ended row and its payload.
LeaveAudience = Callable[[sqlite3.Row, Payload], Any]


class InvalidVoiceState(ValueError):
    """A malformed opcode 4 payload; the message names the field and the rule."""


class VoiceRequest(NamedTuple):
    """Opcode 4's ``d``: ``guild_id`` None for DMs, group DMs and lobbies; ``channel_id`` None: leave."""

    guild_id: int | None
    channel_id: int | None
    self_mute: bool
    self_deaf: bool
    self_video: bool


class Place(NamedTuple):
    """Where a voice state is, as the voice service names it."""

    server_id: int
    channel_id: int


class Outcome(NamedTuple):
    """What a committed opcode 4 changed, for the voice service to follow. ``refused``: why nothing
    changed (no permission, full channel, not a member); ``joined``: the call the session must now
    connect to (a join or a move: it gets VOICE_SERVER_UPDATE); ``left``: the call it left."""

    refused: str | None = None
    joined: Place | None = None
    left: Place | None = None
    guild_id: int | None = None
    flags: dict[str, bool] | None = None   # what the relay mirrors (self_mute, self_deaf, mute, deaf, may_speak)


def _snowflake_or_none(d: dict[str, Any], name: str) -> int | None:
    value = d.get(name)
    if value is None:
        return None
    number = snowflake_value(value)
    if not number:
        raise InvalidVoiceState(f"d.{name}: must be a snowflake or null")
    return number


def parse_request(d: Any) -> VoiceRequest:
    if not isinstance(d, dict):
        raise InvalidVoiceState("d: must be an object")
    flags = {}
    for name in ("self_mute", "self_deaf", "self_video"):
        value = d.get(name, False)
        if not isinstance(value, bool):
            raise InvalidVoiceState(f"d.{name}: must be a boolean")
        flags[name] = value
    return VoiceRequest(_snowflake_or_none(d, "guild_id"), _snowflake_or_none(d, "channel_id"), **flags)


# --- wire objects -----------------------------------------------------------------------------------

def voice_state_json(conn: sqlite3.Connection, row: sqlite3.Row, *, channel_id: int | None | str = "row",
                     with_guild_id: bool = True) -> Payload:
    """The voice state object; ``channel_id=None`` renders the state that just ended (a leave)."""
    where = row["channel_id"] if channel_id == "row" else channel_id
    state: Payload = {
        "channel_id": None if where is None else str(where), "user_id": str(row["user_id"]),
        "session_id": row["session_id"], "deaf": bool(row["deaf"]), "mute": bool(row["mute"]),
        "self_deaf": bool(row["self_deaf"]), "self_mute": bool(row["self_mute"]),
        "self_video": bool(row["self_video"]), "self_stream": bool(row["self_stream"]),
        "suppress": bool(row["suppress"]),
        "request_to_speak_timestamp": row["request_to_speak_timestamp"],
    }
    if row["kind"] == "guild":
        if with_guild_id:
            state["guild_id"] = str(row["guild_id"])
        member = conn.execute(MEMBER_SELECT + " WHERE m.guild_id = ? AND m.user_id = ?",
                              (row["guild_id"], row["user_id"])).fetchone()
        if member is not None:
            state["member"] = member_json(member)
    elif row["kind"] == "lobby":
        state["lobby_id"] = str(row["server_id"])
    return state


def guild_voice_states(conn: sqlite3.Connection, guild_id: int) -> list[Payload]:
    """GUILD_CREATE's ``voice_states`` (without ``guild_id``, as the platform sends them there)."""
    rows = conn.execute("SELECT * FROM voice_states WHERE guild_id = ? ORDER BY user_id", (guild_id,)).fetchall()
    return [voice_state_json(conn, row, with_guild_id=False) for row in rows]


def lobby_voice_states(conn: sqlite3.Connection, application_id: int, user_id: int) -> list[Payload]:
    """The voice states of the calls of the user's lobbies (READY of an SDK session)."""
    rows = conn.execute("SELECT v.* FROM voice_states v JOIN lobby_members m ON m.lobby_id = v.server_id"
                        " WHERE v.kind = 'lobby' AND v.application_id = ? AND m.user_id = ?"
                        " ORDER BY v.server_id, v.user_id", (application_id, user_id)).fetchall()
    return [voice_state_json(conn, row) for row in rows]


def channel_info(conn: sqlite3.Connection, channel_id: int) -> tuple[str | None, str | None]:
    row = conn.execute("SELECT status, voice_start_time FROM voice_channel_info WHERE channel_id = ?",
                       (channel_id,)).fetchone()
    return (row["status"], row["voice_start_time"]) if row else (None, None)


def channel_info_entries(conn: sqlite3.Connection, guild_id: int, fields: list[str]) -> list[Payload]:
    """CHANNEL_INFO's ``channels``: each voice and stage channel with the requested fields that are set."""
    rows = conn.execute("SELECT c.id, i.status, i.voice_start_time FROM channels c"
                        " LEFT JOIN voice_channel_info i ON i.channel_id = c.id"
                        " WHERE c.guild_id = ? AND c.type IN (2, 13) ORDER BY c.id", (guild_id,)).fetchall()
    entries = []
    for row in rows:
        entry: Payload = {"id": str(row["id"])}
        for name in fields:
            if row[name] is not None:
                entry[name] = unix_seconds(row[name]) if name == "voice_start_time" else row[name]
        entries.append(entry)
    return entries


def unix_seconds(instant: str | None) -> int | None:
    """``voice_start_time`` travels as unix seconds (docs/wire.md); it is stored as an ISO-8601 instant."""
    return None if instant is None else int(parse_instant(instant).timestamp())


# --- audiences -----------------------------------------------------------------------------------

def _own(viewer: Viewer, user_id: int, application_id: int) -> bool:
    return viewer.user_id == user_id and (viewer.kind == "bot" or viewer.application_id == application_id)


def _guild_audience(bots: GuildBots, channel_ids: set[int], user_id: int, application_id: int,
                    payload: Payload) -> Any:
    def render(viewer: Viewer) -> Payload | None:
        if _own(viewer, user_id, application_id) and (viewer.kind == "bearer" or bots.admits(viewer)):
            return payload
        if bots.admits(viewer, GUILD_VOICE_STATES_INTENT) and channel_ids & bots.visible[viewer.user_id]:
            return payload
        return None
    return render


def _recipients_audience(recipients: set[int], payload: Payload) -> Any:
    def render(viewer: Viewer) -> Payload | None:
        return payload if viewer.user_id in recipients else None
    return render


def _announce(conn: sqlite3.Connection, outbox: Outbox, state: EmulatorState, row: sqlite3.Row,
              payload: Payload, also_channel: int | None = None) -> None:
    if row["kind"] == "guild":
        bots = guild_bots(conn, row["guild_id"], state.clock.now())
        channels = {row["channel_id"]} | ({also_channel} if also_channel else set())
        outbox.add("VOICE_STATE_UPDATE", _guild_audience(bots, channels, row["user_id"], row["application_id"],
                                                         payload))
    elif row["kind"] == "private":
        recipients = {r[0] for r in conn.execute("SELECT user_id FROM channel_recipients WHERE channel_id = ?",
                                                 (row["channel_id"],))}
        outbox.add("VOICE_STATE_UPDATE", _recipients_audience(recipients | {row["user_id"]}, payload))
    else:
        members = set(lobby_member_ids(conn, row["server_id"])) | {row["user_id"]}
        outbox.add("VOICE_STATE_UPDATE", to_users(row["application_id"], members, payload))


def channel_field_event(conn: sqlite3.Connection, outbox: Outbox, state: EmulatorState, guild_id: int,
                        channel_id: int, event: str, payload: Payload) -> None:
    """VOICE_CHANNEL_STATUS_UPDATE / VOICE_CHANNEL_START_TIME_UPDATE: the guild's bots with GUILDS
    that can view the channel."""
    bots = guild_bots(conn, guild_id, state.clock.now())

    def render(viewer: Viewer) -> Payload | None:
        if bots.admits(viewer, GUILDS_INTENT) and channel_id in bots.visible[viewer.user_id]:
            return payload
        return None
    outbox.add(event, render)


def _start_time(conn: sqlite3.Connection, outbox: Outbox, state: EmulatorState, guild_id: int,
                channel_id: int) -> None:
    """Set the start time when the channel's first voice state appeared, clear it when its last went."""
    count = conn.execute("SELECT COUNT(*) FROM voice_states WHERE channel_id = ?", (channel_id,)).fetchone()[0]
    _, current = channel_info(conn, channel_id)
    if count and current is None:
        value: str | None = state.clock.iso()
    elif not count and current is not None:
        value = None
    else:
        return
    conn.execute("INSERT INTO voice_channel_info (channel_id, voice_start_time) VALUES (?, ?)"
                 " ON CONFLICT (channel_id) DO UPDATE SET voice_start_time = excluded.voice_start_time",
                 (channel_id, value))
    channel_field_event(conn, outbox, state, guild_id, channel_id, "VOICE_CHANNEL_START_TIME_UPDATE",
                        {"id": str(channel_id), "guild_id": str(guild_id),
                         "voice_start_time": unix_seconds(value)})


# --- opcode 4 ------------------------------------------------------------------------------------

class _Target(NamedTuple):
    kind: str
    server_id: int
    guild_id: int | None
    channel_id: int
    suppress: bool
    may_speak: bool


def _guild_target(conn: sqlite3.Connection, state: EmulatorState, viewer: Viewer, guild_id: int,
                  channel_id: int) -> _Target | str:
    who = standing(conn, guild_id, viewer.user_id, state.clock.now())
    if who is None:
        return "not a member of the guild"
    channel = conn.execute("SELECT * FROM channels WHERE id = ? AND guild_id = ?", (channel_id, guild_id)).fetchone()
    if channel is None or channel["type"] not in VOICE_LIKE:
        return "not a voice or stage channel of the guild"
    have = permissions_in(who, channel)
    if not have & Permission.VIEW_CHANNEL or not have & Permission.CONNECT:
        return "missing CONNECT"
    limit = channel["user_limit"] or 0
    if limit and not have & Permission.MOVE_MEMBERS:
        others = conn.execute("SELECT COUNT(*) FROM voice_states WHERE channel_id = ? AND user_id != ?",
                              (channel_id, viewer.user_id)).fetchone()[0]
        if others >= limit:
            return "the channel is full"
    suppress = channel["type"] == STAGE
    return _Target("guild", guild_id, guild_id, channel_id, suppress,
                   bool(have & Permission.SPEAK) and not suppress)


def _private_target(conn: sqlite3.Connection, viewer: Viewer, channel_id: int) -> _Target | str:
    channel = conn.execute("SELECT type FROM channels WHERE id = ? AND guild_id IS NULL", (channel_id,)).fetchone()
    if channel is not None and channel["type"] in (DM, GROUP_DM):
        if conn.execute("SELECT 1 FROM channel_recipients WHERE channel_id = ? AND user_id = ?",
                        (channel_id, viewer.user_id)).fetchone() is None:
            return "not a recipient of the channel"
        return _Target("private", channel_id, None, channel_id, False, True)
    lobby = conn.execute("SELECT 1 FROM lobbies WHERE id = ? AND application_id = ?",
                         (channel_id, viewer.application_id)).fetchone()
    if lobby is None:
        return "no such DM, group DM or lobby"
    if viewer.user_id not in lobby_member_ids(conn, channel_id):
        return "not a member of the lobby"
    return _Target("lobby", channel_id, None, channel_id, False, True)


def _current(conn: sqlite3.Connection, user_id: int, guild_id: int | None) -> sqlite3.Row | None:
    if guild_id is not None:
        return conn.execute("SELECT * FROM voice_states WHERE user_id = ? AND server_id = ? AND kind = 'guild'",
                            (user_id, guild_id)).fetchone()
    return conn.execute("SELECT * FROM voice_states WHERE user_id = ? AND kind != 'guild'", (user_id,)).fetchone()


def _remove(conn: sqlite3.Connection, outbox: Outbox, state: EmulatorState, row: sqlite3.Row,
            announce: bool = True, audience: LeaveAudience | None = None) -> None:
    if announce:
        payload = voice_state_json(conn, row, channel_id=None)
        if audience is None:
            _announce(conn, outbox, state, row, payload)
        else:
            outbox.add("VOICE_STATE_UPDATE", audience(row, payload))
    conn.execute("DELETE FROM voice_states WHERE user_id = ? AND server_id = ?", (row["user_id"], row["server_id"]))
    if row["kind"] == "guild":
        _start_time(conn, outbox, state, row["guild_id"], row["channel_id"])
        # A stage closes when its last speaker leaves (areas/stage_instances listens for this).
        outbox.publish("voice_state.ended", {"guild_id": str(row["guild_id"]), "channel_id": str(row["channel_id"]),
                                             "user_id": str(row["user_id"]),
                                             "speaker": not row["suppress"] and row["request_to_speak_timestamp"] is None})


def relay_flags(conn: sqlite3.Connection, state: EmulatorState, row: sqlite3.Row) -> dict[str, bool]:
    """What the relay should know of a guild voice state now (SPEAK in its channel, suppress)."""
    who = standing(conn, row["guild_id"], row["user_id"], state.clock.now())
    channel = conn.execute("SELECT * FROM channels WHERE id = ?", (row["channel_id"],)).fetchone()
    may_speak = who is not None and channel is not None and bool(permissions_in(who, channel) & Permission.SPEAK)
    return _flags(row, may_speak)


def _flags(row: sqlite3.Row, may_speak: bool) -> dict[str, bool]:
    return {"self_mute": bool(row["self_mute"]), "self_deaf": bool(row["self_deaf"]), "mute": bool(row["mute"]),
            "deaf": bool(row["deaf"]), "may_speak": may_speak and not row["suppress"]}


def _server_mute_deaf(conn: sqlite3.Connection, guild_id: int | None, user_id: int) -> tuple[int, int]:
    """Server mute and deafen belong to the guild member (PATCH /guilds/{id}/members/{user_id}) and
    outlive any one call: each guild voice state carries them."""
    if guild_id is None:
        return 0, 0
    row = conn.execute("SELECT mute, deaf FROM members WHERE guild_id = ? AND user_id = ?",
                       (guild_id, user_id)).fetchone()
    return (int(row["mute"]), int(row["deaf"])) if row else (0, 0)


def gateway_update(state: EmulatorState, viewer: Viewer, session_id: str, request: VoiceRequest) -> Outcome:
    """Apply opcode 4 for ``viewer``'s session (one transaction, dispatches on commit)."""
    outbox = Outbox(state)
    with state.db.transaction() as conn:
        current = _current(conn, viewer.user_id, request.guild_id)
        if request.channel_id is None:
            if current is None:
                return Outcome()
            _remove(conn, outbox, state, current)
            return Outcome(left=Place(current["server_id"], current["channel_id"]), guild_id=current["guild_id"])
        target = (_guild_target(conn, state, viewer, request.guild_id, request.channel_id)
                  if request.guild_id is not None else _private_target(conn, viewer, request.channel_id))
        if isinstance(target, str):
            return Outcome(refused=target)
        same = current is not None and current["channel_id"] == target.channel_id
        left = None
        moved_from = None
        if current is not None and not same:
            left = Place(current["server_id"], current["channel_id"])
            if current["kind"] == "guild" and target.kind == "guild":
                moved_from = current["channel_id"]   # one update, seen in both channels
            _remove(conn, outbox, state, current, announce=moved_from is None)
        suppress = int(current["suppress"]) if same and current is not None else int(target.suppress)
        mute, deaf = _server_mute_deaf(conn, target.guild_id, viewer.user_id)
        conn.execute(
            "INSERT INTO voice_states (user_id, server_id, kind, guild_id, channel_id, application_id, session_id,"
            " self_mute, self_deaf, self_video, suppress, mute, deaf) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (user_id, server_id) DO UPDATE SET session_id = excluded.session_id,"
            " self_mute = excluded.self_mute, self_deaf = excluded.self_deaf, self_video = excluded.self_video,"
            " application_id = excluded.application_id, mute = excluded.mute, deaf = excluded.deaf",
            (viewer.user_id, target.server_id, target.kind, target.guild_id, target.channel_id,
             viewer.application_id, session_id, int(request.self_mute), int(request.self_deaf),
             int(request.self_video), suppress, mute, deaf))
        row = conn.execute("SELECT * FROM voice_states WHERE user_id = ? AND server_id = ?",
                           (viewer.user_id, target.server_id)).fetchone()
        _announce(conn, outbox, state, row, voice_state_json(conn, row), also_channel=moved_from)
        if target.kind == "guild":
            assert target.guild_id is not None
            _start_time(conn, outbox, state, target.guild_id, target.channel_id)
        joined = None if same and current is not None and current["session_id"] == session_id \
            else Place(target.server_id, target.channel_id)
        return Outcome(joined=joined, left=left, guild_id=target.guild_id,
                       flags=_flags(row, target.may_speak))


def end_session(state: EmulatorState, session_id: str) -> list[Place]:
    """The Gateway session ended: its voice states end too (dispatched like a leave)."""
    outbox = Outbox(state)
    with state.db.transaction() as conn:
        rows = conn.execute("SELECT * FROM voice_states WHERE session_id = ?", (session_id,)).fetchall()
        for row in rows:
            _remove(conn, outbox, state, row)
    return [Place(row["server_id"], row["channel_id"]) for row in rows]


class Ended(NamedTuple):
    """A voice state that ended outside opcode 4 (the voice service must end its session too)."""

    user_id: int
    place: Place


def end_states(state: EmulatorState, where: str, params: Sequence[Any] = (),
               audience: Callable[[sqlite3.Connection, sqlite3.Row], LeaveAudience | None] | None = None,
               ) -> list[Ended]:
    """End the voice states matching ``where`` (SQL over ``voice_states v``), each dispatched like a
    leave; ``audience`` picks, per row, who sees it when the database can no longer tell."""
    outbox = Outbox(state)
    with state.db.transaction() as conn:
        rows = conn.execute(f"SELECT v.* FROM voice_states v WHERE {where}", tuple(params)).fetchall()
        for row in rows:
            _remove(conn, outbox, state, row, audience=audience(conn, row) if audience else None)
    return [Ended(row["user_id"], Place(row["server_id"], row["channel_id"])) for row in rows]


def clear_all(state: EmulatorState) -> None:
    """At start: no Gateway session survives a restart, so neither does any voice state or start time."""
    with state.db.transaction() as conn:
        conn.execute("DELETE FROM voice_states")
        conn.execute("UPDATE voice_channel_info SET voice_start_time = NULL")


# --- REST ----------------------------------------------------------------------------------------

def get_voice_state(conn: sqlite3.Connection, guild_id: int, user_id: int) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM voice_states WHERE kind = 'guild' AND guild_id = ? AND user_id = ?",
                        (guild_id, user_id)).fetchone()


def set_stage_fields(conn: sqlite3.Connection, outbox: Outbox, state: EmulatorState, row: sqlite3.Row,
                     changes: dict[str, Any]) -> sqlite3.Row:
    """Write columns of a voice state (a stage's ``suppress`` / ``request_to_speak_timestamp``, server
    ``mute`` / ``deaf``); VOICE_STATE_UPDATE."""
    if not changes:
        return row
    sets = ", ".join(f"{name} = ?" for name in changes)
    conn.execute(f"UPDATE voice_states SET {sets} WHERE user_id = ? AND server_id = ?",
                 (*changes.values(), row["user_id"], row["server_id"]))
    row = conn.execute("SELECT * FROM voice_states WHERE user_id = ? AND server_id = ?",
                       (row["user_id"], row["server_id"])).fetchone()
    _announce(conn, outbox, state, row, voice_state_json(conn, row))
    return row


def set_status(conn: sqlite3.Connection, outbox: Outbox, state: EmulatorState, guild_id: int, channel_id: int,
               status: str | None) -> str | None:
    """Store the channel's status (None or "" clears it); VOICE_CHANNEL_STATUS_UPDATE. Returns the old one."""
    previous, _ = channel_info(conn, channel_id)
    value = status or None
    conn.execute("INSERT INTO voice_channel_info (channel_id, status) VALUES (?, ?)"
                 " ON CONFLICT (channel_id) DO UPDATE SET status = excluded.status", (channel_id, value))
    channel_field_event(conn, outbox, state, guild_id, channel_id, "VOICE_CHANNEL_STATUS_UPDATE",
                        {"id": str(channel_id), "guild_id": str(guild_id), "status": value})
    return previous
