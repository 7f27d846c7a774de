"""The application object (``GET /applications/@me``) built from its row."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any


from ..webhooks.store import public_key_hex

if TYPE_CHECKING:
    from ...state import EmulatorState


def application_row(state: EmulatorState, application_id: int) -> sqlite3.Row | None:
    return state.db.query_one("SELECT * FROM applications WHERE id = ?", (application_id,))


def application_json(state: EmulatorState, row: sqlite3.Row) -> dict[str, Any]:
    uris = [r["uri"] for r in state.db.query(
        "SELECT uri FROM redirect_uris WHERE application_id = ? ORDER BY uri", (row["id"],))]
    return {
        "id": str(row["id"]), "name": row["name"], "description": row["description"], "icon": None,
        "bot_public": True, "bot_require_code_grant": False,
        # flags stays a 32-bit integer; flags_new carries every bit as a string (seed)
        "flags": row["flags"] & 0x7FFFFFFF, "flags_new": str(row["flags"]),
        "verify_key": public_key_hex(row["webhook_private_key"]),
        "approximate_user_count": row["approximate_user_count"],
        "redirect_uris": uris,
        "bot": None if row["bot_user_id"] is None else {"id": str(row["bot_user_id"])},
        "owner": None if row["owner_id"] is None else {"id": str(row["owner_id"])},
        "event_webhooks_url": row["event_webhooks_url"],
    }
