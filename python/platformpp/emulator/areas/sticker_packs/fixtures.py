"""The ``sticker_packs`` fixture section: standard packs with their stickers, in the order given
(``sort_value``). The first sticker is the pack's cover unless ``cover_sticker_id`` names another."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ...core.fixtures import fixture_id, insert_checked, row_exists
from ...core.validation import Form
from ..expressions.store import STICKER_FORMATS

if TYPE_CHECKING:
    from ...state import EmulatorState

FORMAT_TYPES = tuple(sorted(set(STICKER_FORMATS.values())))


def load_sticker_packs(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    for index, raw in enumerate(form.array(name) or []):
        pack = form.item(name, index, raw)
        pack.refuse_unknown_keys({"id", "sku_id", "name", "description", "cover_sticker_id",
                                  "banner_asset_id", "stickers"})
        pack_id = fixture_id(state, pack)
        if row_exists(conn, "sticker_packs", pack_id):
            pack.fail("id", "ALREADY_EXISTS", f"Sticker pack {pack_id} already exists.")
            continue
        sticker_ids = []
        raw_stickers = pack.array("stickers", min_items=1) or []
        insert_checked(conn, pack,
                       "INSERT INTO sticker_packs (id, sku_id, name, description, banner_asset_id)"
                       " VALUES (?, ?, ?, ?, ?)",
                       (pack_id, pack.snowflake("sku_id"), pack.string("name", min_len=1, max_len=100),
                        pack.string("description", required=False, max_len=500) or "",
                        pack.snowflake("banner_asset_id", required=False)))
        for position, raw_sticker in enumerate(raw_stickers):
            sticker = pack.item("stickers", position, raw_sticker)
            sticker.refuse_unknown_keys({"id", "name", "tags", "description", "format_type"})
            sticker_id = fixture_id(state, sticker)
            sticker_ids.append(sticker_id)
            insert_checked(conn, sticker,
                           "INSERT INTO standard_stickers (id, pack_id, name, tags, description, format_type,"
                           " sort_value) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           (sticker_id, pack_id, sticker.string("name", min_len=2, max_len=30),
                            sticker.string("tags", min_len=1, max_len=200),
                            sticker.string("description", required=False, nullable=True, max_len=100),
                            sticker.choice("format_type", FORMAT_TYPES), position))
        cover = pack.snowflake("cover_sticker_id", required=False)
        if cover is not None and cover not in sticker_ids:
            pack.fail("cover_sticker_id", "STICKER_UNKNOWN", "The cover must be one of the pack's stickers.")
        if sticker_ids and not pack.errors:
            conn.execute("UPDATE sticker_packs SET cover_sticker_id = ? WHERE id = ?",
                         (cover if cover is not None else sticker_ids[0], pack_id))
