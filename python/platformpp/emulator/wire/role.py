"""The role object (docs/wire.md "Roles"; the published ``GuildRoleResponse``): permissions as a string
integer and again as ``permissions_new``, the platform's string form of the same bits."""

from __future__ import annotations

import sqlite3
from typing import Any


def role_json(row: sqlite3.Row) -> dict[str, Any]:
    """``tags`` only when the role has some, as the platform sends it (``bot_id`` on a bot's managed
    role, which libraries read to find the bot's own role)."""
    permissions = str(int(row["permissions"]))
    body: dict[str, Any] = {
        "id": str(row["id"]), "name": row["name"], "color": row["color"],
        "colors": {"primary_color": row["color"], "secondary_color": row["secondary_color"],
                   "tertiary_color": row["tertiary_color"]},
        "hoist": bool(row["hoist"]), "icon": row["icon"], "unicode_emoji": row["unicode_emoji"],
        "position": row["position"], "permissions": permissions, "permissions_new": permissions,
        "managed": bool(row["managed"]), "mentionable": bool(row["mentionable"]), "flags": row["flags"],
    }
    tags: dict[str, Any] = {key: str(row[key]) for key in ("bot_id", "integration_id") if row[key] is not None}
    if row["guild_connections"]:
        tags["guild_connections"] = None   # a linked role: present, null, as the platform sends it
    if tags:
        body["tags"] = tags
    return body
