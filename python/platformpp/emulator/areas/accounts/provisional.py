"""Provisional accounts and the external identities that sign in to them: checking a provider's token,
finding or creating the account an identity stands for."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, NamedTuple

from ...core import auth, errors
from ...core.errors import ApiError
from .providers import ExternalIdentity, ProviderRejected, check_token

if TYPE_CHECKING:
    from ...state import EmulatorState

BOT_ISSUED = "BOT_ISSUED"                                  # identities created through the bot endpoint
BOT_ISSUED_ACCESS_TOKEN = "BOT_ISSUED_ACCESS_TOKEN"        # merge with a token the bot endpoint issued
OIDC = "OIDC"


class ExternalCredentials(NamedTuple):
    auth_type: str
    token: str

    def __repr__(self) -> str:
        return f"ExternalCredentials(auth_type={self.auth_type!r})"


def external_credentials_in(form: dict[str, str]) -> ExternalCredentials | None:
    auth_type, token = form.get("external_auth_type"), form.get("external_auth_token")
    if auth_type is None and token is None:
        return None
    if not auth_type or not token:
        raise ApiError(400, errors.INVALID_FORM_BODY, "Invalid Form Body", {
            "external_auth_type" if not auth_type else "external_auth_token":
                {"_errors": [{"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]}})
    return ExternalCredentials(auth_type, token)


def verify_external(state: EmulatorState, app: sqlite3.Row, credentials: ExternalCredentials) -> ExternalIdentity:
    """Check a provider token against the application's declared provider (530002 / 530001 if not)."""
    if credentials.auth_type == BOT_ISSUED_ACCESS_TOKEN:
        principal = auth.resolve_access_token(state, credentials.token)
        identity = None if principal is None else state.db.query_one(
            "SELECT external_user_id FROM external_identities WHERE application_id = ? AND auth_type = ?"
            " AND user_id = ?", (app["id"], BOT_ISSUED, principal.user_id))
        if principal is None or principal.application_id != app["id"] or identity is None:
            raise ApiError(401, errors.INVALID_EXTERNAL_AUTH_TOKEN,
                           "The external auth token is invalid: not a bot-issued token of this application.")
        return ExternalIdentity(BOT_ISSUED, identity["external_user_id"], None)
    provider = state.db.query_one("SELECT config FROM identity_providers WHERE application_id = ? AND auth_type = ?",
                                  (app["id"], credentials.auth_type))
    if provider is None:
        raise ApiError(400, errors.UNKNOWN_IDENTITY_PROVIDER,
                       f"The application has no identity provider for external_auth_type {credentials.auth_type}.")
    try:
        return check_token(credentials.auth_type, json.loads(provider["config"]), credentials.token,
                           state.clock.timestamp())
    except ProviderRejected as exc:
        raise ApiError(401, errors.INVALID_EXTERNAL_AUTH_TOKEN, f"The external auth token is invalid: {exc}") from None


def identity_row(state: EmulatorState, app_id: int, identity: ExternalIdentity) -> sqlite3.Row | None:
    return state.db.query_one(
        "SELECT * FROM external_identities WHERE application_id = ? AND auth_type = ? AND external_user_id = ?",
        (app_id, identity.auth_type, identity.external_user_id))


def create_provisional(state: EmulatorState, conn: sqlite3.Connection, app_id: int, name: str | None, *,
                        restricted_by: int | None = None) -> int:
    user_id = state.ids.next()
    conn.execute(
        "INSERT INTO users (id, username, global_name, provisional, provisional_application_id,"
        " restricted_by_ban_of, created_at) VALUES (?, ?, ?, 1, ?, ?, ?)",
        (user_id, f"provisional-{user_id}", (name or "Player")[:32], app_id, restricted_by, state.clock.iso()))
    return user_id


def account_for_identity(state: EmulatorState, conn: sqlite3.Connection, app_id: int, identity: ExternalIdentity,
                         preferred_name: str | None) -> int:
    """The account the external identity signs in to: the linked (full or provisional) account, or a
    new provisional one."""
    row = identity_row(state, app_id, identity)
    if row is not None:
        return int(row["user_id"])
    user_id = create_provisional(state, conn, app_id, preferred_name or identity.display_name)
    conn.execute("INSERT INTO external_identities (application_id, auth_type, external_user_id, user_id, created_at)"
                 " VALUES (?, ?, ?, ?, ?)",
                 (app_id, identity.auth_type, identity.external_user_id, user_id, state.clock.iso()))
    return user_id
