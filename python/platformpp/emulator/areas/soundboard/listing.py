"""Reading soundboard sounds as wire objects: the built-in sounds every guild can play, and a guild's
own. Imports nothing of the area's routes, so the Gateway (GUILD_CREATE, Request Soundboard Sounds)
and the CDN can read it."""

from __future__ import annotations

import sqlite3

from ...events.audience import Payload
from ...wire.user import public_user_json

# The built-in sounds (the platform's default set: small ids, no guild, no creator).
DEFAULT_SOUNDS: tuple[Payload, ...] = tuple(
    {"name": name, "sound_id": str(sound_id), "volume": 1.0, "emoji_id": None, "emoji_name": emoji,
     "available": True}
    for sound_id, name, emoji in ((1, "quack", "\U0001f986"), (2, "airhorn", "\U0001f4ef"),
                                  (3, "cricket", "\U0001f997"), (4, "golf clap", "\u26f3"),
                                  (5, "sad horn", "\U0001f3ba"), (7, "ba dum tss", "\U0001f941")))
DEFAULT_SOUND_IDS = frozenset(int(sound["sound_id"]) for sound in DEFAULT_SOUNDS)
DEFAULT_SOUND_SECONDS = 1.0


def sound_json(conn: sqlite3.Connection, row: sqlite3.Row) -> Payload:
    sound: Payload = {
        "name": row["name"], "sound_id": str(row["id"]), "volume": float(row["volume"]),
        "emoji_id": None if row["emoji_id"] is None else str(row["emoji_id"]), "emoji_name": row["emoji_name"],
        "guild_id": str(row["guild_id"]), "available": True,
    }
    creator = conn.execute("SELECT * FROM users WHERE id = ?", (row["user_id"],)).fetchone() \
        if row["user_id"] is not None else None
    if creator is not None:
        sound["user"] = public_user_json(creator)
    return sound


def guild_sounds(conn: sqlite3.Connection, guild_id: int) -> list[Payload]:
    """The guild's sounds, oldest first (GUILD_CREATE's ``soundboard_sounds``, SOUNDBOARD_SOUNDS)."""
    rows = conn.execute("SELECT * FROM soundboard_sounds WHERE guild_id = ? ORDER BY id", (guild_id,)).fetchall()
    return [sound_json(conn, row) for row in rows]


def built_in_sound_file(sound_id: int) -> bytes | None:
    """The file the CDN serves for a built-in sound: a second of silence (the emulator ships no audio)."""
    from .audio import silent_mp3
    return silent_mp3(DEFAULT_SOUND_SECONDS) if sound_id in DEFAULT_SOUND_IDS else None
