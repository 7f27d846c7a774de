"""Standard stickers and packs as the platform answers them (``StandardStickerResponse``,
``StickerPackResponse``), and the sticker of any id: a standard one, or a guild's (without its
creator)."""

from __future__ import annotations

import sqlite3

from ...core import errors
from ...events.audience import Payload
from ...wire.message import sticker_json
from ..expressions.store import UNKNOWN_STICKER

UNKNOWN_STICKER_PACK = 10061


def standard_sticker_json(row: sqlite3.Row) -> Payload:
    return {"id": str(row["id"]), "name": row["name"], "tags": row["tags"], "type": 1,
            "format_type": row["format_type"], "description": row["description"],
            "pack_id": str(row["pack_id"]), "sort_value": row["sort_value"], "available": True}


def pack_json(conn: sqlite3.Connection, row: sqlite3.Row) -> Payload:
    stickers = conn.execute("SELECT * FROM standard_stickers WHERE pack_id = ? ORDER BY sort_value, id",
                            (row["id"],)).fetchall()
    body: Payload = {"id": str(row["id"]), "sku_id": str(row["sku_id"]), "name": row["name"],
                     "description": row["description"],
                     "stickers": [standard_sticker_json(s) for s in stickers]}
    for key in ("cover_sticker_id", "banner_asset_id"):
        if row[key] is not None:
            body[key] = str(row[key])
    return body


def list_packs(conn: sqlite3.Connection) -> Payload:
    rows = conn.execute("SELECT * FROM sticker_packs ORDER BY id").fetchall()
    return {"sticker_packs": [pack_json(conn, row) for row in rows]}


def get_pack(conn: sqlite3.Connection, pack_id: int) -> Payload:
    row = conn.execute("SELECT * FROM sticker_packs WHERE id = ?", (pack_id,)).fetchone()
    if row is None:
        raise errors.not_found(UNKNOWN_STICKER_PACK, "Sticker Pack")
    return pack_json(conn, row)


def get_sticker(conn: sqlite3.Connection, sticker_id: int) -> Payload:
    row = conn.execute("SELECT * FROM standard_stickers WHERE id = ?", (sticker_id,)).fetchone()
    if row is not None:
        return standard_sticker_json(row)
    row = conn.execute("SELECT * FROM guild_stickers WHERE id = ?", (sticker_id,)).fetchone()
    if row is None:
        raise errors.not_found(UNKNOWN_STICKER, "Sticker")
    return sticker_json(row, None)
