"""The partner-SDK account endpoints: provisional account tokens (bot-token endpoint, external-credentials
exchange, public clients), merging a provisional account into a full account, and unmerging."""

from __future__ import annotations

import base64
import sqlite3
from typing import Any
from urllib.parse import unquote

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from . import auth, errors
from .account_admin import merge_blocked
from .app import API
from .errors import ApiError, Form, json_response, not_found, read_form
from .providers import ExternalIdentity
from .provisional import (
    BOT_ISSUED,
    OIDC,
    ExternalCredentials,
    account_for_identity,
    create_provisional,
    identity_row,
    verify_external,
)
from .scopes import SOCIAL_LAYER
from .secrets_util import matches
from .snowflake import parse_snowflake
from .state import EmulatorState
from .tokens import create_grant, issue_tokens, revoke_user_grants


def _state(request: Request) -> EmulatorState:
    state: EmulatorState = request.app.state.emu
    return state


# -- provisional accounts --------------------------------------------------------------------------------

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
    state.db.on_commit(lambda: state.events.publish("account.merged", payload,
                                                    user_ids=(user_id, provisional["id"]),
                                                    application_id=app["id"]))


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


def routes() -> list[BaseRoute]:
    return [
        Route(f"{API}/partner-sdk/token/bot", token_for_bot, methods=["POST"]),
        Route(f"{API}/partner-sdk/token", token_for_external, methods=["POST"]),
        Route(f"{API}/partner-sdk/provisional-accounts/unmerge", unmerge_external, methods=["POST"]),
        Route(f"{API}/partner-sdk/provisional-accounts/unmerge/bot", unmerge_bot, methods=["POST"]),
    ]
