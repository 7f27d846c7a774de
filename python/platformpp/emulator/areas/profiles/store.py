"""Storage of application identity profiles (the game's stats of a user)."""

from __future__ import annotations

import json
import sqlite3
from typing import Any


def move_account_data(conn: sqlite3.Connection, application_id: int, source: int, target: int) -> None:
    """A provisional account merged into ``target``: its profile moves unless the full account has one."""
    conn.execute("UPDATE OR IGNORE application_identity_profiles SET user_id = ? WHERE application_id = ?"
                 " AND user_id = ?", (target, application_id, source))
    conn.execute("DELETE FROM application_identity_profiles WHERE application_id = ? AND user_id = ?",
                 (application_id, source))


def _fields(conn: sqlite3.Connection, application_id: int, user_id: int) -> dict[str, Any]:
    row = conn.execute("SELECT fields FROM application_identity_profiles WHERE application_id = ? AND user_id = ?",
                       (application_id, user_id)).fetchone()
    return json.loads(row["fields"]) if row else {}


def profile_object(conn: sqlite3.Connection, application_id: int, user_id: int) -> dict[str, Any]:
    """``{application_id, user_id, identities: [{provider, external_user_id, provider_id, username,
    avatar}], stats: {...}}``. An identity shows the name and avatar hash of the account it signs in to
    (the emulator keeps no separate profile picture per provider); ``provider_id`` (an OIDC issuer on
    the platform) is null: the emulator's identities name no issuer."""
    identities = conn.execute(
        "SELECT e.auth_type, e.external_user_id, u.username, u.avatar FROM external_identities e"
        " JOIN users u ON u.id = e.user_id WHERE e.application_id = ? AND e.user_id = ?"
        " ORDER BY e.auth_type", (application_id, user_id)).fetchall()
    return {"application_id": str(application_id), "user_id": str(user_id),
            "identities": [{"provider": r["auth_type"], "external_user_id": r["external_user_id"],
                            "provider_id": None, "username": r["username"], "avatar": r["avatar"]}
                           for r in identities],
            "stats": _fields(conn, application_id, user_id)}
