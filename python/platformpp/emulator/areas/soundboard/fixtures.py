"""The ``soundboard_sounds`` fixture section: a guild's sounds as they stand (no dispatches, no audit
entries). ``[{id?, guild_id, name, sound? (data URI; a second of silence when left out), volume?,
emoji_id?, emoji_name?, user_id?}]``; the guild's slot limit holds here too."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ...core.errors import ApiError
from ...core.fixtures import fixture_id
from ...core.validation import Form
from . import store
from .audio import silent_mp3
from .routes import SOUND_MAX_CHARS, read_fields

if TYPE_CHECKING:
    from ...state import EmulatorState

FIELDS = {"id", "guild_id", "name", "sound", "volume", "emoji_id", "emoji_name", "user_id"}


def load_soundboard_sounds(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    for index, raw in enumerate(form.array(name) or []):
        item = form.item(name, index, raw)
        item.refuse_unknown_keys(FIELDS)
        sound_id = fixture_id(state, item)
        guild_id = item.snowflake("guild_id")
        user_id = item.snowflake("user_id", required=False, nullable=True)
        fields = read_fields(item, creating=True)
        data_uri = item.string("sound", required=False, max_len=SOUND_MAX_CHARS)
        if guild_id is not None and conn.execute("SELECT 1 FROM guilds WHERE id = ?", (guild_id,)).fetchone() is None:
            item.fail("guild_id", "GUILD_UNKNOWN", f"No guild {guild_id}.")
        elif guild_id is not None and conn.execute("SELECT COUNT(*) FROM soundboard_sounds WHERE guild_id = ?",
                                                   (guild_id,)).fetchone()[0] >= store.SLOTS_BY_TIER[store.GUILD_TIER]:
            item.fail("guild_id", "MAX_SOUNDBOARD_SOUNDS", "The guild has no free soundboard slot.")
        sound = store.SoundFile("audio/mpeg", silent_mp3(1.0), 1.0)
        if data_uri is not None:
            try:
                sound = store.read_sound(data_uri)
            except ApiError as bad:
                for error in bad.errors.get("sound", {}).get("_errors", []) if bad.errors else []:
                    item.fail("sound", error["code"], error["message"])
        if item.errors:
            continue
        try:
            store.store_sound(state, conn, guild_id=int(guild_id or 0), user_id=user_id, fields=fields, sound=sound,
                              sound_id=sound_id)
        except sqlite3.IntegrityError as exc:
            item.errors.add(item.path, "CONSTRAINT_VIOLATED", f"Conflicts with existing data ({exc}).")
