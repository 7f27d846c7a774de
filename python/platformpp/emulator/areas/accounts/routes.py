"""The partner-SDK account endpoints: provisional account tokens (bot-token endpoint, external-credentials
exchange, public clients), merging a provisional account into a full account, and unmerging."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth, errors
from ...core.errors import ApiError, json_response, not_found
from ...core.http import basic_credentials
from ...core.routing import Route
from ...core.scopes import SOCIAL_LAYER
from ...core.secrets import matches
from ...core.snowflake import parse_snowflake
from ...core.validation import Form, read_form
from ...paths import API
from ..oauth import oidc
from ..oauth.store import create_grant, issue_tokens
from .display_name import update_display_name
from .providers import ExternalIdentity
from .provisional import BOT_ISSUED, OIDC, ExternalCredentials, account_for_identity, verify_external
from .store import unmerge

if TYPE_CHECKING:
    from ...state import EmulatorState


def _state(request: Request) -> EmulatorState:
    state: EmulatorState = request.app.state.emu
    return state


# -- provisional accounts --------------------------------------------------------------------------------

def _provisional_token(state: EmulatorState, request: Request, conn: sqlite3.Connection, app_id: int,
                       user_id: int, auth_type: str) -> dict[str, Any]:
    # Seed: OIDC provisional tokens come with a refresh_token (whose grant is deprecated); the others do not.
    # Every one carries an ID token naming the provisional account (the schema requires id_token).
    grant_id = create_grant(state, conn, app_id, user_id, SOCIAL_LAYER, f"provisional:{auth_type}")
    tokens = issue_tokens(state, conn, grant_id, SOCIAL_LAYER, with_refresh=auth_type == OIDC)
    return tokens.response(id_token=oidc.id_token(state, str(request.base_url), user_id=user_id,
                                                  application_id=app_id, nonce=None))


def _authenticate_app(state: EmulatorState, request: Request, form: Form) -> sqlite3.Row:
    """The application of a partner-sdk call: its client secret (JSON or HTTP Basic), or none for a
    public client (the public-client integration)."""
    client_id = form.snowflake("client_id", required=False)
    secret = form.string("client_secret", required=False, max_len=256)
    try:
        basic = basic_credentials(request)
    except ValueError:
        raise ApiError(401, errors.UNAUTHORIZED, "401: Unauthorized") from None
    if basic is not None:
        client_id, secret = parse_snowflake(basic[0]), basic[1]
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
        body = _provisional_token(state, request, conn, principal.application_id, user_id, BOT_ISSUED)
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
        body = _provisional_token(state, request, conn, app["id"], user_id, identity.auth_type)
    return json_response(body)


# -- merge and unmerge -----------------------------------------------------------------------------------


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
        Route(f"{API}/partner-sdk/provisional-accounts/@me", update_display_name, methods=["PATCH"]),
    ]
