"""A guild's soundboard sounds, and playing a sound in a voice channel.

Creating follows the expressions' dated rule of 2026-02-23 (before: MANAGE_GUILD_EXPRESSIONS; from
then: CREATE_GUILD_EXPRESSIONS); modifying and deleting need MANAGE_GUILD_EXPRESSIONS, or, from that
instant, CREATE_GUILD_EXPRESSIONS for one's own sound (areas/expressions/store.py's helpers). A guild
holds as many sounds as its boost tier allows (8 at tier 0; 400 / 30045 beyond). Bots with
GUILD_EXPRESSIONS hear GUILD_SOUNDBOARD_SOUND_CREATE / UPDATE / DELETE; audit entries 130 / 131 / 132.

Playing (``send``) needs SPEAK and USE_SOUNDBOARD in the channel (USE_EXTERNAL_SOUNDS too for another
guild's sound), the sender connected to that channel (else 50168) and neither server muted, deafened
nor suppressed (else 403 / 50167). Everyone connected to the channel hears VOICE_CHANNEL_EFFECT_SEND
(bots: with GUILD_VOICE_STATES)."""

from __future__ import annotations

import base64
import binascii
import re
import sqlite3
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core import errors
from ...core.errors import ApiError
from ...core.permissions import Permission
from ...core.validation import field_error
from ...events.audience import Payload, Viewer
from ...events.outbox import Outbox
from ...wire.channel import VOICE_LIKE
from ..audit_log import actions
from ..audit_log import trail as audit_trail
from ..cdn import store as cdn
from ..cdn.images import Upload
from ..channel_messages.audience import GUILD_EXPRESSIONS, GuildBots
from ..expressions.store import require_create, require_manage
from ..guilds.access import require_channel_permission, require_member
from ..voice_states.store import GUILD_VOICE_STATES_INTENT
from . import audio
from .listing import DEFAULT_SOUND_IDS, DEFAULT_SOUNDS, sound_json

if TYPE_CHECKING:
    from ...state import EmulatorState

UNKNOWN_SOUND = 10097
TOO_MANY_SOUNDS = 30045
CANNOT_SEND_EFFECT = 50167            # 403: server muted, deafened or suppressed
NOT_IN_VOICE_CHANNEL = 50168          # the sender is not connected to the channel
MAX_SOUND_BYTES = 512 * 1024
MAX_SECONDS = 5.2
# Sound slots by the guild's boost tier.
SLOTS_BY_TIER = {0: 8, 1: 24, 2: 36, 3: 48}
GUILD_TIER = 0   # the emulator's guilds are not boosted (the guild object's premium_tier)
AUDIT_KEYS = ("name", "volume", "emoji_id", "emoji_name")
_DATA_URI = re.compile(r"^data:(audio/(?:mpeg|ogg));base64,(.*)$", re.DOTALL)


class SoundFile(NamedTuple):
    content_type: str
    data: bytes
    seconds: float


def read_sound(data_uri: str, field: str = "sound") -> SoundFile:
    """A sound data URI (``data:audio/mpeg;base64,...`` or ``data:audio/ogg;...``): at most 512 KiB and
    5.2 s long (read from the file); 50035 naming ``field`` otherwise."""
    match = _DATA_URI.match(data_uri)
    if match is None:
        raise field_error(field, "SOUND_INVALID", "Must be a data URI of an audio/mpeg or audio/ogg sound.")
    try:
        data = base64.b64decode(match.group(2), validate=True)
    except (binascii.Error, ValueError):
        raise field_error(field, "SOUND_INVALID", "The sound data is not valid base64.") from None
    if len(data) > MAX_SOUND_BYTES:
        raise field_error(field, "BINARY_TYPE_MAX_SIZE", f"Must be {MAX_SOUND_BYTES // 1024} KiB or smaller.")
    try:
        seconds = audio.duration(match.group(1), data)
    except audio.BadSound as bad:
        raise field_error(field, "SOUND_INVALID", str(bad)) from None
    if seconds > MAX_SECONDS:
        raise field_error(field, "SOUND_TOO_LONG", f"Must be {MAX_SECONDS} seconds or shorter ({seconds:.2f} s).")
    return SoundFile(match.group(1), data, seconds)


def get_row(conn: sqlite3.Connection, guild_id: int, sound_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM soundboard_sounds WHERE id = ? AND guild_id = ?", (sound_id, guild_id)).fetchone()
    if row is None:
        raise errors.not_found(UNKNOWN_SOUND, "Sound")
    return row


def _announce(outbox: Outbox, event: str, guild_id: int, payload: Payload) -> None:
    outbox.add(event, GuildBots(guild_id, GUILD_EXPRESSIONS, payload))


def _audit(conn: sqlite3.Connection, guild_id: int, user_id: int, action: int, sound_id: int, before: Any,
           after: Any) -> None:
    audit_trail.simple(conn, guild_id, user_id, action, sound_id, before, after, AUDIT_KEYS)


def store_sound(state: EmulatorState, conn: sqlite3.Connection, *, guild_id: int, user_id: int | None,
                fields: dict[str, Any], sound: SoundFile, sound_id: int | None = None) -> int:
    """Insert a sound row and its file (the CDN's); what create and the world file share."""
    sound_id = sound_id if sound_id is not None else state.ids.next()
    conn.execute("INSERT INTO soundboard_sounds (id, guild_id, name, volume, emoji_id, emoji_name, user_id,"
                 " content_type, duration_ms, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (sound_id, guild_id, fields["name"], fields.get("volume", 1.0), fields.get("emoji_id"),
                  fields.get("emoji_name"), user_id, sound.content_type, round(sound.seconds * 1000),
                  state.clock.iso()))
    cdn.save(conn, cdn.soundboard_sound_path(sound_id), Upload("", sound.content_type, False, sound.data),
             state.clock.now())
    return sound_id


def create(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int, user_id: int,
           fields: dict[str, Any], sound: SoundFile) -> Payload:
    require_create(state, conn, guild_id, user_id)
    slots = SLOTS_BY_TIER[GUILD_TIER]
    if conn.execute("SELECT COUNT(*) FROM soundboard_sounds WHERE guild_id = ?", (guild_id,)).fetchone()[0] >= slots:
        raise ApiError(400, TOO_MANY_SOUNDS, f"Maximum number of soundboard sounds reached ({slots})")
    sound_id = store_sound(state, conn, guild_id=guild_id, user_id=user_id, fields=fields, sound=sound)
    body = sound_json(conn, get_row(conn, guild_id, sound_id))
    _announce(outbox, "GUILD_SOUNDBOARD_SOUND_CREATE", guild_id, body)
    _audit(conn, guild_id, user_id, actions.SOUNDBOARD_SOUND_CREATE, sound_id, None, body)
    return body


def modify(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int, user_id: int,
           sound_id: int, changes: dict[str, Any]) -> Payload:
    row = get_row(conn, guild_id, sound_id)
    require_manage(state, conn, guild_id, user_id, row["user_id"])
    before = sound_json(conn, row)
    for column, value in changes.items():   # column names come from the route's fixed list
        conn.execute(f"UPDATE soundboard_sounds SET {column} = ? WHERE id = ?", (value, sound_id))
    body = sound_json(conn, get_row(conn, guild_id, sound_id))
    if body != before:   # an edit that changes nothing is answered, not announced
        _announce(outbox, "GUILD_SOUNDBOARD_SOUND_UPDATE", guild_id, body)
        _audit(conn, guild_id, user_id, actions.SOUNDBOARD_SOUND_UPDATE, sound_id, before, body)
    return body


def delete(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int, user_id: int,
           sound_id: int) -> None:
    row = get_row(conn, guild_id, sound_id)
    require_manage(state, conn, guild_id, user_id, row["user_id"])
    before = sound_json(conn, row)
    conn.execute("DELETE FROM soundboard_sounds WHERE id = ?", (sound_id,))
    cdn.forget(conn, cdn.soundboard_sound_path(sound_id))
    _announce(outbox, "GUILD_SOUNDBOARD_SOUND_DELETE", guild_id, {"sound_id": str(sound_id),
                                                                  "guild_id": str(guild_id)})
    _audit(conn, guild_id, user_id, actions.SOUNDBOARD_SOUND_DELETE, sound_id, before, None)


# --- playing a sound --------------------------------------------------------------------------------

def _sound_to_play(conn: sqlite3.Connection, guild_id: int, sound_id: int, source_guild_id: int | None
                   ) -> tuple[Payload, bool]:
    """The sound and whether it is another guild's: a built-in one, or one of the source guild (the
    channel's guild when none is named)."""
    if source_guild_id is None and sound_id in DEFAULT_SOUND_IDS:
        return next(s for s in DEFAULT_SOUNDS if s["sound_id"] == str(sound_id)), False
    source = source_guild_id if source_guild_id is not None else guild_id
    return sound_json(conn, get_row(conn, source, sound_id)), source != guild_id


def send(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, channel_id: int, user_id: int,
         sound_id: int, source_guild_id: int | None) -> None:
    channel = conn.execute("SELECT * FROM channels WHERE id = ? AND guild_id IS NOT NULL", (channel_id,)).fetchone()
    if channel is None:
        raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
    guild_id = channel["guild_id"]
    who = require_member(conn, guild_id, user_id, state.clock.now())
    if channel["type"] not in VOICE_LIKE:
        raise field_error("channel_id", "CHANNEL_TYPE_INVALID", "Must be a voice or stage channel.")
    sound, external = _sound_to_play(conn, guild_id, sound_id, source_guild_id)
    needed = Permission.SPEAK | Permission.USE_SOUNDBOARD | (Permission.USE_EXTERNAL_SOUNDS if external else 0)
    require_channel_permission(who, channel, int(needed))
    voice = conn.execute("SELECT * FROM voice_states WHERE kind = 'guild' AND channel_id = ? AND user_id = ?",
                         (channel_id, user_id)).fetchone()
    if voice is None:
        raise ApiError(400, NOT_IN_VOICE_CHANNEL, "User must be in voice channel to send voice channel effect")
    if voice["mute"] or voice["deaf"] or voice["self_deaf"] or voice["suppress"]:
        raise ApiError(403, CANNOT_SEND_EFFECT,
                       "Cannot send voice effect when user is server muted, deafened, or suppressed")
    listeners = frozenset(r[0] for r in conn.execute("SELECT user_id FROM voice_states WHERE channel_id = ?",
                                                     (channel_id,)))
    emoji = None
    if sound["emoji_id"] is not None or sound["emoji_name"] is not None:
        emoji = {"id": sound["emoji_id"], "name": sound["emoji_name"]}
    payload: Payload = {"channel_id": str(channel_id), "guild_id": str(guild_id), "user_id": str(user_id),
                        "emoji": emoji, "sound_id": sound["sound_id"], "sound_volume": sound["volume"]}

    def render(viewer: Viewer) -> Payload | None:
        if viewer.user_id not in listeners:
            return None
        if viewer.kind == "bot" and (guild_id not in viewer.guild_ids
                                     or not viewer.intents & GUILD_VOICE_STATES_INTENT):
            return None
        return payload
    outbox.add("VOICE_CHANNEL_EFFECT_SEND", render)
