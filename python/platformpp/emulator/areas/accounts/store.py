"""Domain rules of accounts shared by the account routes and the OAuth2 token endpoint: active bans
(which block merges), merging a provisional account into a full one, and unmerging."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ...core import errors
from ...core.errors import ApiError
from ...events.outbox import Outbox
from ..oauth.store import revoke_user_grants
from .providers import ExternalIdentity
from .provisional import ExternalCredentials, create_provisional, identity_row, verify_external

if TYPE_CHECKING:
    from ...state import EmulatorState


def active_ban(state: EmulatorState, user_id: int) -> sqlite3.Row | None:
    row = state.db.query_one("SELECT * FROM bans WHERE user_id = ?", (user_id,))
    if row is None:
        return None
    if row["permanent"] or row["until"] is None or row["until"] > state.clock.iso():
        return row
    return None


def merge_blocked(state: EmulatorState, *user_ids: int | None) -> None:
    for user_id in user_ids:
        if user_id is not None and active_ban(state, user_id) is not None:
            raise ApiError(400, errors.MERGE_BLOCKED_BY_BAN,
                           "This account cannot be merged while the linked account's ban is active.")


def merge_provisional(state: EmulatorState, conn: sqlite3.Connection, app: sqlite3.Row, user_id: int,
                      credentials: ExternalCredentials) -> None:
    """Link the external identity to full account ``user_id``; its provisional account (if any) is
    merged in and its tokens end. 530017 while a ban of either account is active."""
    identity = verify_external(state, app, credentials)
    row = identity_row(state, app["id"], identity)
    if row is None:
        merge_blocked(state, user_id)
        conn.execute("INSERT INTO external_identities (application_id, auth_type, external_user_id, user_id,"
                     " created_at) VALUES (?, ?, ?, ?, ?)",
                     (app["id"], identity.auth_type, identity.external_user_id, user_id, state.clock.iso()))
        return
    if row["user_id"] == user_id:
        return
    provisional = conn.execute("SELECT * FROM users WHERE id = ?", (row["user_id"],)).fetchone()
    if not provisional["provisional"]:
        raise ApiError(400, errors.ACCOUNT_ALREADY_LINKED, "This external identity is linked to another account.")
    merge_blocked(state, user_id, provisional["restricted_by_ban_of"])
    conn.execute("UPDATE external_identities SET user_id = ? WHERE application_id = ? AND auth_type = ?"
                 " AND external_user_id = ?", (user_id, app["id"], identity.auth_type, identity.external_user_id))
    conn.execute("UPDATE users SET merged_into = ? WHERE id = ?", (user_id, provisional["id"]))
    revoke_user_grants(state, conn, app["id"], provisional["id"], notify=False)
    payload = {"application_id": str(app["id"]), "provisional_user_id": str(provisional["id"]),
               "user_id": str(user_id)}
    Outbox(state).publish("account.merged", payload, user_ids=(user_id, provisional["id"]),
                          application_id=app["id"])


def unmerge(state: EmulatorState, conn: sqlite3.Connection, app_id: int, identity: ExternalIdentity) -> int:
    """Detach the identity from its full account onto a new provisional account; the full account's
    authorization of the app ends (APPLICATION_DEAUTHORIZED). Returns the new provisional account."""
    row = identity_row(state, app_id, identity)
    if row is None:
        raise ApiError(404, errors.PROVISIONAL_ACCOUNT_NOT_FOUND, "No account is linked to this external identity.")
    user = conn.execute("SELECT * FROM users WHERE id = ?", (row["user_id"],)).fetchone()
    if user["provisional"]:
        raise ApiError(400, errors.NOT_A_PROVISIONAL_ACCOUNT,
                       "This external identity is not merged into a full account.")
    provisional_id = create_provisional(state, conn, app_id, identity.display_name or user["global_name"])
    conn.execute("UPDATE external_identities SET user_id = ? WHERE application_id = ? AND auth_type = ?"
                 " AND external_user_id = ?", (provisional_id, app_id, identity.auth_type, identity.external_user_id))
    revoke_user_grants(state, conn, app_id, user["id"])
    payload = {"application_id": str(app_id), "user_id": str(user["id"]), "provisional_user_id": str(provisional_id)}
    Outbox(state).publish("account.unmerged", payload, user_ids=(user["id"], provisional_id), application_id=app_id)
    return provisional_id
