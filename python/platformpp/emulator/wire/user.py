"""The user object as anyone may see it (docs/wire.md "User"): no email, no premium level. Used by every
area that shows a user (messages' authors, relationships, guild members, READY)."""

from __future__ import annotations

import sqlite3
from typing import Any


def public_user_json(row: sqlite3.Row) -> dict[str, Any]:
    """The user object anyone may see (no email, no premium level)."""
    body: dict[str, Any] = {
        "id": str(row["id"]), "username": row["username"], "discriminator": row["discriminator"],
        "global_name": row["global_name"], "avatar": row["avatar"], "public_flags": row["flags"],
        "flags": row["flags"], "banner": row["banner"], "accent_color": None, "avatar_decoration_data": None,
        # The emulator has no server tags or collectibles; the platform sends null for users without.
        "primary_guild": None, "collectibles": None,
    }
    if row["bot"]:
        body["bot"] = True
    return body
