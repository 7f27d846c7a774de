"""Provisional accounts (bot-token endpoint, external-credentials exchange, public clients), merging
them into full accounts and unmerging, and bans of linked accounts (admin API)."""

from __future__ import annotations

import base64
import json
import sqlite3
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from . import auth, errors
from .app import ADMIN, API
from .clock import format_instant, parse_instant
from .errors import ApiError, Form, json_response, not_found, read_form
from .providers import ExternalIdentity, ProviderRejected, check_token
from .scopes import SOCIAL_LAYER
from .secrets_util import matches
from .snowflake import parse_snowflake
from .state import EmulatorState
from .tokens import create_grant, issue_tokens, revoke_all_of_user, revoke_user_grants
from .users import public_user_json

BOT_ISSUED = "BOT_ISSUED"                                  # identities created through the bot endpoint
BOT_ISSUED_ACCESS_TOKEN = "BOT_ISSUED_ACCESS_TOKEN"        # merge with a token the bot endpoint issued
OIDC = "OIDC"


@dataclass(frozen=True)
class ExternalCredentials:
    auth_type: str
    token: str

    def __repr__(self) -> str:
        return f"ExternalCredentials(auth_type={self.auth_type!r})"


def _state(request: Request) -> EmulatorState:
    state: EmulatorState = request.app.state.emu
    return state


# -- bans ------------------------------------------------------------------------------------------------

def active_ban(state: EmulatorState, user_id: int) -> sqlite3.Row | None:
    row = state.db.query_one("SELECT * FROM bans WHERE user_id = ?", (user_id,))
    if row is None:
        return None
    if row["permanent"] or row["until"] is None or row["until"] > state.clock.iso():
        return row
    return None


def _merge_blocked(state: EmulatorState, *user_ids: int | None) -> None:
    for user_id in user_ids:
        if user_id is not None and active_ban(state, user_id) is not None:
            raise ApiError(400, errors.MERGE_BLOCKED_BY_BAN,
                           "This account cannot be merged while the linked account's ban is active.")


# -- provisional accounts --------------------------------------------------------------------------------

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


def _identity_row(state: EmulatorState, app_id: int, identity: ExternalIdentity) -> sqlite3.Row | None:
    return state.db.query_one(
        "SELECT * FROM external_identities WHERE application_id = ? AND auth_type = ? AND external_user_id = ?",
        (app_id, identity.auth_type, identity.external_user_id))


def _create_provisional(state: EmulatorState, conn: sqlite3.Connection, app_id: int, name: str | None, *,
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
    row = _identity_row(state, app_id, identity)
    if row is not None:
        return int(row["user_id"])
    user_id = _create_provisional(state, conn, app_id, preferred_name or identity.display_name)
    conn.execute("INSERT INTO external_identities (application_id, auth_type, external_user_id, user_id, created_at)"
                 " VALUES (?, ?, ?, ?, ?)",
                 (app_id, identity.auth_type, identity.external_user_id, user_id, state.clock.iso()))
    return user_id


def _provisional_token(state: EmulatorState, conn: sqlite3.Connection, app_id: int, user_id: int,
                       auth_type: str) -> dict[str, Any]:
    # Seed: OIDC provisional tokens come with a refresh_token (whose grant is deprecated); the others do not.
    grant_id = create_grant(state, conn, app_id, user_id, SOCIAL_LAYER, f"provisional:{auth_type}")
    return issue_tokens(state, conn, grant_id, SOCIAL_LAYER, with_refresh=auth_type == OIDC).response()


def _authenticate_app(state: EmulatorState, request: Request, form: Form) -> sqlite3.Row:
    """The application of a partner-sdk call: its client secret (JSON or HTTP Basic), or none for a
    public client (the public-client integration)."""
    client_id = form.snowflake("client_id", required=False)
    secret = form.string("client_secret", required=False, max_len=256)
    header = request.headers.get("authorization", "")
    if header.lower().startswith("basic "):
        try:
            basic_id, _, basic_secret = base64.b64decode(header[6:].strip(), validate=True).decode().partition(":")
        except (ValueError, UnicodeDecodeError):
            raise ApiError(401, errors.UNAUTHORIZED, "401: Unauthorized") from None
        client_id = parse_snowflake(basic_id)
        secret = unquote(basic_secret)
    if client_id is None:
        form.fail("client_id", "BASE_TYPE_REQUIRED", "This field is required")
    form.done()
    app = state.db.query_one("SELECT * FROM applications WHERE id = ?", (client_id,))
    if app is None:
        raise not_found(errors.UNKNOWN_APPLICATION, "Application")
    if secret:
        if not matches(secret, app["client_secret_hash"]):
            raise ApiError(401, errors.UNAUTHORIZED, "401: Unauthorized: client authentication failed")
    elif not app["public_client"]:
        raise ApiError(401, errors.UNAUTHORIZED, "401: Unauthorized: a confidential client must send its secret")
    return app


async def token_for_bot(request: Request) -> Response:
    """``POST /partner-sdk/token/bot``: the game's server mints a provisional account token."""
    principal = auth.require(request, kinds=("bot",))
    state = _state(request)
    form = await read_form(request)
    external_id = form.string("external_user_id", min_len=1, max_len=256)
    name = form.string("preferred_global_name", required=False, min_len=1, max_len=32)
    form.done()
    assert external_id is not None
    with state.db.transaction() as conn:
        user_id = account_for_identity(state, conn, principal.application_id,
                                       ExternalIdentity(BOT_ISSUED, external_id, None), name)
        body = _provisional_token(state, conn, principal.application_id, user_id, BOT_ISSUED)
    return json_response(body)


async def token_for_external(request: Request) -> Response:
    """``POST /partner-sdk/token``: exchange an identity provider's token for a provisional account token."""
    state = _state(request)
    form = await read_form(request)
    auth_type = form.string("external_auth_type", min_len=1, max_len=64)
    token = form.string("external_auth_token", min_len=1, max_len=16384)
    name = form.string("preferred_global_name", required=False, min_len=1, max_len=32)
    app = _authenticate_app(state, request, form)
    assert auth_type is not None and token is not None
    identity = verify_external(state, app, ExternalCredentials(auth_type, token))
    with state.db.transaction() as conn:
        user_id = account_for_identity(state, conn, app["id"], identity, name)
        body = _provisional_token(state, conn, app["id"], user_id, identity.auth_type)
    return json_response(body)


# -- merge and unmerge -----------------------------------------------------------------------------------

def merge_provisional(state: EmulatorState, conn: sqlite3.Connection, app: sqlite3.Row, user_id: int,
                      credentials: ExternalCredentials) -> None:
    """Link the external identity to full account ``user_id``; its provisional account (if any) is
    merged in and its tokens end. 530017 while a ban of either account is active."""
    identity = verify_external(state, app, credentials)
    row = _identity_row(state, app["id"], identity)
    if row is None:
        _merge_blocked(state, user_id)
        conn.execute("INSERT INTO external_identities (application_id, auth_type, external_user_id, user_id,"
                     " created_at) VALUES (?, ?, ?, ?, ?)",
                     (app["id"], identity.auth_type, identity.external_user_id, user_id, state.clock.iso()))
        return
    if row["user_id"] == user_id:
        return
    provisional = conn.execute("SELECT * FROM users WHERE id = ?", (row["user_id"],)).fetchone()
    if not provisional["provisional"]:
        raise ApiError(400, errors.ACCOUNT_ALREADY_LINKED, "This external identity is linked to another account.")
    _merge_blocked(state, user_id, provisional["restricted_by_ban_of"])
    conn.execute("UPDATE external_identities SET user_id = ? WHERE application_id = ? AND auth_type = ?"
                 " AND external_user_id = ?", (user_id, app["id"], identity.auth_type, identity.external_user_id))
    conn.execute("UPDATE users SET merged_into = ? WHERE id = ?", (user_id, provisional["id"]))
    revoke_user_grants(state, conn, app["id"], provisional["id"], notify=False)
    payload = {"application_id": str(app["id"]), "provisional_user_id": str(provisional["id"]),
               "user_id": str(user_id)}
    state.db.on_commit(lambda: state.events.publish("account.merged", payload,
                                                    user_ids=(user_id, provisional["id"]),
                                                    application_id=app["id"]))


def unmerge(state: EmulatorState, conn: sqlite3.Connection, app_id: int, identity: ExternalIdentity) -> int:
    """Detach the identity from its full account onto a new provisional account; the full account's
    authorization of the app ends (APPLICATION_DEAUTHORIZED). Returns the new provisional account."""
    row = _identity_row(state, app_id, identity)
    if row is None:
        raise ApiError(404, errors.PROVISIONAL_ACCOUNT_NOT_FOUND, "No account is linked to this external identity.")
    user = conn.execute("SELECT * FROM users WHERE id = ?", (row["user_id"],)).fetchone()
    if user["provisional"]:
        raise ApiError(400, errors.NOT_A_PROVISIONAL_ACCOUNT,
                       "This external identity is not merged into a full account.")
    provisional_id = _create_provisional(state, conn, app_id, identity.display_name or user["global_name"])
    conn.execute("UPDATE external_identities SET user_id = ? WHERE application_id = ? AND auth_type = ?"
                 " AND external_user_id = ?", (provisional_id, app_id, identity.auth_type, identity.external_user_id))
    revoke_user_grants(state, conn, app_id, user["id"])
    payload = {"application_id": str(app_id), "user_id": str(user["id"]), "provisional_user_id": str(provisional_id)}
    state.db.on_commit(lambda: state.events.publish("account.unmerged", payload,
                                                    user_ids=(user["id"], provisional_id), application_id=app_id))
    return provisional_id


async def unmerge_external(request: Request) -> Response:
    state = _state(request)
    form = await read_form(request)
    auth_type = form.string("external_auth_type", min_len=1, max_len=64)
    token = form.string("external_auth_token", min_len=1, max_len=16384)
    app = _authenticate_app(state, request, form)
    assert auth_type is not None and token is not None
    identity = verify_external(state, app, ExternalCredentials(auth_type, token))
    with state.db.transaction() as conn:
        unmerge(state, conn, app["id"], identity)
    return Response(status_code=204)


async def unmerge_bot(request: Request) -> Response:
    principal = auth.require(request, kinds=("bot",))
    state = _state(request)
    form = await read_form(request)
    external_id = form.string("external_user_id", min_len=1, max_len=256)
    form.done()
    assert external_id is not None
    with state.db.transaction() as conn:
        unmerge(state, conn, principal.application_id, ExternalIdentity(BOT_ISSUED, external_id, None))
    return Response(status_code=204)


# -- admin: bans, app removal, account view ---------------------------------------------------------------

def _full_user(state: EmulatorState, request: Request) -> sqlite3.Row:
    row = state.db.query_one("SELECT * FROM users WHERE id = ?", (int(request.path_params["user_id"]),))
    if row is None:
        raise not_found(errors.UNKNOWN_USER, "User")
    return row


async def ban_user(request: Request) -> Response:
    """``{"reason"?, "until"?: ISO-8601, "permanent"?: bool}`` (one of until/permanent). Tokens go at
    once; each linked external identity moves to a new restricted provisional account."""
    state = _state(request)
    user = _full_user(state, request)
    form = await read_form(request)
    reason = form.string("reason", required=False, default="", max_len=512)
    permanent = form.boolean("permanent")
    until_text = form.string("until", required=False)
    form.unknown_keys({"reason", "until", "permanent"})
    until = None
    if until_text is not None:
        try:
            until = format_instant(parse_instant(until_text))
        except ValueError as exc:
            form.fail("until", "DATE_TYPE_CONVERT", str(exc))
    if permanent == (until_text is not None):
        form.fail("until", "BAN_DURATION", "Give exactly one of until (a temporary ban) or permanent: true.")
    if user["bot"] or user["provisional"]:
        form.fail("user_id", "BAN_TARGET", "Only full (non-bot, non-provisional) accounts can be banned.")
    form.done()
    with state.db.transaction() as conn:
        conn.execute("INSERT OR REPLACE INTO bans (user_id, reason, created_at, until, permanent) VALUES (?, ?, ?, ?, ?)",
                     (user["id"], reason, state.clock.iso(), until, int(permanent)))
        revoke_all_of_user(state, conn, user["id"])
        conn.execute("DELETE FROM oauth_codes WHERE user_id = ?", (user["id"],))   # no tokens from old consents
        created: list[str] = []
        for identity in conn.execute("SELECT * FROM external_identities WHERE user_id = ?", (user["id"],)).fetchall():
            provisional_id = _create_provisional(state, conn, identity["application_id"], user["global_name"],
                                                 restricted_by=user["id"])
            conn.execute("UPDATE external_identities SET user_id = ? WHERE application_id = ? AND auth_type = ?"
                         " AND external_user_id = ?", (provisional_id, identity["application_id"],
                                                       identity["auth_type"], identity["external_user_id"]))
            created.append(str(provisional_id))
        state.db.on_commit(lambda: state.events.publish("user.banned", {"user_id": str(user["id"])},
                                                        user_ids=(user["id"],)))
    return json_response({"user_id": str(user["id"]), "until": until, "permanent": permanent,
                          "provisional_accounts": created})


async def lift_ban(request: Request) -> Response:
    state = _state(request)
    user = _full_user(state, request)
    ban = state.db.query_one("SELECT * FROM bans WHERE user_id = ?", (user["id"],))
    if ban is None:
        raise ApiError(404, errors.GENERAL, "The user is not banned.")
    if ban["permanent"]:
        raise ApiError(400, errors.GENERAL, "A permanent ban cannot be lifted.")
    with state.db.transaction() as conn:
        conn.execute("DELETE FROM bans WHERE user_id = ?", (user["id"],))
        state.db.on_commit(lambda: state.events.publish("user.unbanned", {"user_id": str(user["id"])},
                                                        user_ids=(user["id"],)))
    return Response(status_code=204)


async def remove_application(request: Request) -> Response:
    """The user removes the app from their authorized apps: its grants end, APPLICATION_DEAUTHORIZED."""
    state = _state(request)
    user = _full_user(state, request)
    with state.db.transaction() as conn:
        count = revoke_user_grants(state, conn, int(request.path_params["application_id"]), user["id"])
    if not count:
        raise ApiError(404, errors.GENERAL, "The user has not authorized this application.")
    return Response(status_code=204)


async def get_account(request: Request) -> Response:
    """Admin view of an account: provisional state, linked identities, ban, merge target."""
    state = _state(request)
    user = _full_user(state, request)
    ban = active_ban(state, user["id"])
    identities = state.db.query("SELECT application_id, auth_type, external_user_id FROM external_identities"
                                " WHERE user_id = ? ORDER BY application_id, auth_type", (user["id"],))
    grants = state.db.query("SELECT application_id, scopes, grant_kind FROM authorizations WHERE user_id = ?"
                            " ORDER BY id", (user["id"],))
    return json_response({
        **public_user_json(user),
        "provisional": bool(user["provisional"]),
        "restricted": user["restricted_by_ban_of"] is not None,
        "merged_into": None if user["merged_into"] is None else str(user["merged_into"]),
        "ban": None if ban is None else {"until": ban["until"], "permanent": bool(ban["permanent"]),
                                         "reason": ban["reason"]},
        "external_identities": [{"application_id": str(r["application_id"]), "type": r["auth_type"],
                                 "id": r["external_user_id"]} for r in identities],
        "authorizations": [{"application_id": str(r["application_id"]), "scopes": json.loads(r["scopes"]),
                            "grant": r["grant_kind"]} for r in grants],
    })


def routes() -> list[BaseRoute]:
    return [
        Route(f"{API}/partner-sdk/token/bot", token_for_bot, methods=["POST"]),
        Route(f"{API}/partner-sdk/token", token_for_external, methods=["POST"]),
        Route(f"{API}/partner-sdk/provisional-accounts/unmerge", unmerge_external, methods=["POST"]),
        Route(f"{API}/partner-sdk/provisional-accounts/unmerge/bot", unmerge_bot, methods=["POST"]),
        Route(f"{ADMIN}/users/{{user_id:snowflake}}", get_account, methods=["GET"]),
        Route(f"{ADMIN}/users/{{user_id:snowflake}}/ban", ban_user, methods=["POST"]),
        Route(f"{ADMIN}/users/{{user_id:snowflake}}/ban", lift_ban, methods=["DELETE"]),
        Route(f"{ADMIN}/users/{{user_id:snowflake}}/applications/{{application_id:snowflake}}", remove_application,
              methods=["DELETE"]),
    ]
