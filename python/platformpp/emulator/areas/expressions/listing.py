"""Reading a guild's emoji and stickers as wire objects: what the guild object, GUILD_CREATE and the
expression routes show. A module of its own, importing only ``wire``, so that the guild model
(areas/guilds/store.py) can read expressions without loading this area's routes and their
permission checks (which import the guild model back)."""

from __future__ import annotations

import sqlite3

from ...events.audience import Payload
from ...wire.message import emoji_json, sticker_json
from ...wire.user import public_user_json


def creator(conn: sqlite3.Connection, user_id: int | None) -> Payload | None:
    row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone() if user_id else None
    return public_user_json(row) if row else None


def emojis(conn: sqlite3.Connection, guild_id: int, *, with_user: bool = True) -> list[Payload]:
    """The guild's emoji; ``with_user=False`` leaves out who made each (the guild object's form)."""
    return [emoji_json(row, creator(conn, row["user_id"]) if with_user else None)
            for row in conn.execute("SELECT * FROM guild_emojis WHERE guild_id = ? ORDER BY id", (guild_id,))]


def stickers(conn: sqlite3.Connection, guild_id: int, *, with_user: bool = True) -> list[Payload]:
    rows = conn.execute("SELECT * FROM guild_stickers WHERE guild_id = ? ORDER BY id", (guild_id,))
    return [sticker_json(row, creator(conn, row["user_id"]) if with_user else None) for row in rows]
