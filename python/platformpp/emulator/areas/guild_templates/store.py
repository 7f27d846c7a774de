"""Guild templates: one per guild; created, renamed, synced (the snapshot retaken, ``is_dirty``
cleared) and deleted by members with MANAGE_GUILD; read by code by anyone."""

from __future__ import annotations

import json
import secrets
import sqlite3
import string
from typing import Any

from ...core import errors
from ...core.errors import ApiError
from ...wire.user import public_user_json
from .snapshot import serialize

UNKNOWN_TEMPLATE = 10057
ALREADY_HAS_TEMPLATE = 30031
CODE_ALPHABET = string.ascii_letters + string.digits
CODE_LENGTH = 12
NAME_MAX, DESCRIPTION_MAX = 100, 120


def new_code(conn: sqlite3.Connection) -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if conn.execute("SELECT 1 FROM guild_templates WHERE code = ?", (code,)).fetchone() is None:
            return code


def by_code(conn: sqlite3.Connection, code: str, guild_id: int | None = None) -> sqlite3.Row:
    """The template ``code`` (of ``guild_id`` when given); 404 / 10057 otherwise."""
    row = conn.execute("SELECT * FROM guild_templates WHERE code = ?", (code,)).fetchone()
    if row is None or (guild_id is not None and row["guild_id"] != guild_id):
        raise errors.not_found(UNKNOWN_TEMPLATE, "Guild Template")
    found: sqlite3.Row = row
    return found


def render(conn: sqlite3.Connection, row: sqlite3.Row) -> dict[str, Any]:
    creator = conn.execute("SELECT * FROM users WHERE id = ?", (row["creator_id"],)).fetchone()
    return {"code": row["code"], "name": row["name"], "description": row["description"],
            "usage_count": row["usage_count"], "creator_id": str(row["creator_id"]),
            "creator": public_user_json(creator) if creator is not None else None,
            "created_at": row["created_at"], "updated_at": row["updated_at"],
            "source_guild_id": str(row["guild_id"]), "serialized_source_guild": json.loads(row["snapshot"]),
            # null while in step with the guild, as the platform shows a template that has nothing to sync
            "is_dirty": True if row["is_dirty"] else None}


def listed(conn: sqlite3.Connection, guild_id: int) -> list[dict[str, Any]]:
    return [render(conn, row) for row in conn.execute(
        "SELECT * FROM guild_templates WHERE guild_id = ? ORDER BY created_at, code", (guild_id,))]


def create(conn: sqlite3.Connection, *, guild_id: int, creator_id: int, name: str, description: str | None,
           now: str, code: str | None = None, usage_count: int = 0) -> dict[str, Any]:
    if conn.execute("SELECT 1 FROM guild_templates WHERE guild_id = ?", (guild_id,)).fetchone() is not None:
        raise ApiError(400, ALREADY_HAS_TEMPLATE, "Guild already has a template")
    code = code or new_code(conn)
    conn.execute("INSERT INTO guild_templates (code, guild_id, name, description, usage_count, creator_id,"
                 " created_at, updated_at, snapshot) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (code, guild_id, name, description, usage_count, creator_id, now, now,
                  json.dumps(serialize(conn, guild_id))))
    return render(conn, by_code(conn, code))


def modify(conn: sqlite3.Connection, row: sqlite3.Row, changes: dict[str, Any]) -> dict[str, Any]:
    if changes:
        assignments = ", ".join(f"{column} = ?" for column in changes)   # columns from the route's fixed list
        conn.execute(f"UPDATE guild_templates SET {assignments} WHERE code = ?", (*changes.values(), row["code"]))
    return render(conn, by_code(conn, row["code"]))


def sync(conn: sqlite3.Connection, row: sqlite3.Row, now: str) -> dict[str, Any]:
    """The snapshot retaken from the guild as it is now; ``is_dirty`` cleared."""
    conn.execute("UPDATE guild_templates SET snapshot = ?, updated_at = ?, is_dirty = 0 WHERE code = ?",
                 (json.dumps(serialize(conn, row["guild_id"])), now, row["code"]))
    return render(conn, by_code(conn, row["code"]))


def delete(conn: sqlite3.Connection, row: sqlite3.Row) -> dict[str, Any]:
    shown = render(conn, row)
    conn.execute("DELETE FROM guild_templates WHERE code = ?", (row["code"],))
    return shown


def mark_dirty(conn: sqlite3.Connection) -> int:
    """Flag every clean template whose guild no longer matches its snapshot; returns how many."""
    changed = 0
    for row in conn.execute("SELECT code, guild_id, snapshot FROM guild_templates WHERE is_dirty = 0").fetchall():
        if json.loads(row["snapshot"]) != serialize(conn, row["guild_id"]):
            conn.execute("UPDATE guild_templates SET is_dirty = 1 WHERE code = ?", (row["code"],))
            changed += 1
    return changed
