"""The OAuth2 token endpoint (RFC 6749 grants with PKCE RFC 7636, token exchange RFC 8693 for
publisher-level linking), revocation (RFC 7009), the current grant, and OpenID Connect discovery."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import sqlite3
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth, scopes
from ...core.errors import UNKNOWN_USER, OAuthError, json_response, not_found
from ...core.http import basic_credentials
from ...core.routing import Route
from ...core.secrets import digest, matches
from ...core.snowflake import parse_snowflake
from ...core.uploads import read_urlencoded
from ...paths import ADMIN, API
from ...wire.application import application_json
from ..accounts import provisional
from ..accounts import store as accounts
from ..users.store import current_user_json, user_row
from ..webhooks.store import public_key_hex
from . import device, oidc
from .store import create_grant, find_grant_by_token, issue_tokens, revoke_grant, revoke_user_grants

if TYPE_CHECKING:
    from ...state import EmulatorState

_PKCE_VERIFIER = re.compile(r"^[A-Za-z0-9\-._~]{43,128}$")
TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token"
FORM = "application/x-www-form-urlencoded"


def _state(request: Request) -> EmulatorState:
    state: EmulatorState = request.app.state.emu
    return state


def pkce_challenge(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode("ascii")).digest()).decode().rstrip("=")


# -- token endpoint -------------------------------------------------------------------------------------

async def _read_form(request: Request) -> dict[str, str]:
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != FORM:
        raise OAuthError("invalid_request", f"the body must be {FORM}")
    form: dict[str, str] = {}
    for key, value in await read_urlencoded(request):
        if key in form:
            raise OAuthError("invalid_request", f"parameter {key} is repeated")
        form[key] = value
    return form


def _authenticate_client(state: EmulatorState, request: Request, form: dict[str, str]
                         ) -> tuple[sqlite3.Row, bool]:
    """The calling application, and whether it proved itself with its secret (HTTP Basic or form
    fields); public clients may send no secret."""
    client_id, secret = form.get("client_id"), form.get("client_secret")
    try:
        basic = basic_credentials(request)
    except ValueError:
        raise OAuthError("invalid_client", "malformed HTTP Basic credentials", 401) from None
    if basic is not None:
        client_id, secret = basic
    app_id = parse_snowflake(client_id)
    if app_id is None:
        raise OAuthError("invalid_client", "client_id is required (an application id)", 401)
    app = state.db.query_one("SELECT * FROM applications WHERE id = ?", (app_id,))
    if app is None:
        raise OAuthError("invalid_client", "unknown client", 401)
    if secret:
        if not matches(secret, app["client_secret_hash"]):
            raise OAuthError("invalid_client", "client authentication failed", 401)
    elif not app["public_client"]:
        raise OAuthError("invalid_client", "this client must authenticate with its client secret", 401)
    return app, bool(secret)


def _grant_scopes(requested: str | None, granted: frozenset[str]) -> frozenset[str]:
    if requested is None:
        return granted
    asked = frozenset(scopes.parse_scope_list(requested))
    if not asked <= granted:
        raise OAuthError("invalid_scope", "the requested scope exceeds the scope originally granted")
    return scopes.expand(list(asked))


def _code_grant(state: EmulatorState, request: Request, app: sqlite3.Row, form: dict[str, str]) -> Response:
    code = form.get("code")
    if not code:
        raise OAuthError("invalid_request", "code is required")
    row = state.db.query_one("SELECT * FROM oauth_codes WHERE code_hash = ?", (digest(code),))
    if row is None or row["application_id"] != app["id"]:
        raise OAuthError("invalid_grant", "the authorization code is invalid")
    if row["authorization_id"] is not None:
        # A replayed code: revoke what it issued (RFC 6749 §4.1.2), as it may have leaked.
        with state.db.transaction() as conn:
            revoke_grant(state, conn, row["authorization_id"])
        raise OAuthError("invalid_grant", "the authorization code was already used")
    if row["expires_at"] <= state.clock.iso():
        raise OAuthError("invalid_grant", "the authorization code has expired")
    if accounts.active_ban(state, row["user_id"]) is not None:
        raise OAuthError("invalid_grant", "the user's account is banned")
    if (form.get("redirect_uri") or "") != row["redirect_uri"]:
        raise OAuthError("invalid_grant", "redirect_uri does not match the one given to authorize")
    verifier = form.get("code_verifier")
    if row["code_challenge"] is not None:
        if verifier is None or not _PKCE_VERIFIER.match(verifier):
            raise OAuthError("invalid_request", "code_verifier must be 43-128 characters of [A-Za-z0-9-._~]")
        if not hmac.compare_digest(pkce_challenge(verifier), row["code_challenge"]):
            raise OAuthError("invalid_grant", "code_verifier does not match the code_challenge")
    elif verifier is not None:
        raise OAuthError("invalid_request", "code_verifier given but the authorization used no code_challenge")
    granted = scopes.expand(json.loads(row["scopes"]))
    external = provisional.external_credentials_in(form)
    with state.db.transaction() as conn:
        if external is not None:
            accounts.merge_provisional(state, conn, app, row["user_id"], external)
        grant_id = create_grant(state, conn, app["id"], row["user_id"], granted, "authorization_code")
        conn.execute("UPDATE oauth_codes SET authorization_id = ? WHERE code_hash = ?", (grant_id, row["code_hash"]))
        tokens = issue_tokens(state, conn, grant_id, granted)
    extra = {}
    if "openid" in granted:
        extra["id_token"] = oidc.id_token(state, str(request.base_url), user_id=row["user_id"],
                                          application_id=app["id"], nonce=row["nonce"])
    return json_response(tokens.response(**extra))


def _refresh_grant(state: EmulatorState, app: sqlite3.Row, form: dict[str, str]) -> Response:
    refresh = form.get("refresh_token")
    if not refresh:
        raise OAuthError("invalid_request", "refresh_token is required")
    grant = find_grant_by_token(state, refresh, "refresh")
    if grant is None or grant["application_id"] != app["id"]:
        raise OAuthError("invalid_grant", "the refresh token is invalid or was revoked")
    if grant["token_expires_at"] <= state.clock.iso():
        raise OAuthError("invalid_grant", "the refresh token has expired")
    granted = _grant_scopes(form.get("scope"), frozenset(json.loads(grant["scopes"])))
    with state.db.transaction() as conn:
        tokens = issue_tokens(state, conn, grant["id"], granted)
    # Seed: the refresh grant is deprecated for OIDC provisional accounts. It still answers (a client
    # treating a refusal as invalid_grant would unlink the player), flagged so clients can warn and
    # move to re-authenticating with a fresh provider token.
    deprecated = grant["grant_kind"] == f"provisional:{provisional.OIDC}"
    return json_response(tokens.response(), headers={"Deprecation": "true"} if deprecated else None)


def _client_credentials_grant(state: EmulatorState, app: sqlite3.Row, form: dict[str, str],
                              with_secret: bool) -> Response:
    if not with_secret:
        raise OAuthError("unauthorized_client", "client_credentials needs the client's secret")
    requested = scopes.parse_scope_list(form.get("scope", "identify"))
    problem = scopes.check_allowed(requested, approved=frozenset(json.loads(app["approved_scopes"])),
                                   terms_accepted=bool(app["social_sdk_terms_accepted"]))
    if problem:
        raise OAuthError("invalid_scope", problem)
    owner = app["owner_id"] or app["bot_user_id"]
    if owner is None:
        raise OAuthError("unauthorized_client", "the application has no owner to act as")
    granted = scopes.expand(requested)
    with state.db.transaction() as conn:
        conn.execute("DELETE FROM authorizations WHERE application_id = ? AND user_id = ? AND grant_kind = ?",
                     (app["id"], owner, "client_credentials"))
        grant_id = create_grant(state, conn, app["id"], owner, granted, "client_credentials")
        tokens = issue_tokens(state, conn, grant_id, granted, with_refresh=False)
    return json_response(tokens.response())


def _token_exchange_grant(state: EmulatorState, app: sqlite3.Row, form: dict[str, str]) -> Response:
    """Publisher-level linking: a parent application's access token becomes a child application's."""
    subject = form.get("subject_token")
    if not subject:
        raise OAuthError("invalid_request", "subject_token is required")
    if form.get("subject_token_type") != ACCESS_TOKEN_TYPE:
        raise OAuthError("invalid_request", f"subject_token_type must be {ACCESS_TOKEN_TYPE}")
    parent_grant = auth.resolve_access_token(state, subject)
    if parent_grant is None:
        raise OAuthError("invalid_grant", "the subject token is invalid, expired or revoked")
    parent = state.db.query_one("SELECT * FROM applications WHERE id = ?", (parent_grant.application_id,))
    if app["parent_application_id"] != parent_grant.application_id or parent is None:
        raise OAuthError("invalid_grant", "the subject token was not issued to this application's parent")
    if not parent["publisher_linking_approved"]:
        raise OAuthError("unauthorized_client", "the parent application is not approved for publisher linking")
    granted = _grant_scopes(form.get("scope"), parent_grant.scopes)
    problem = scopes.check_allowed(sorted(granted), approved=frozenset(json.loads(app["approved_scopes"])),
                                   terms_accepted=bool(app["social_sdk_terms_accepted"]))
    if problem:
        raise OAuthError("invalid_scope", problem)
    with state.db.transaction() as conn:
        grant_id = create_grant(state, conn, app["id"], parent_grant.user_id, granted, "token_exchange")
        tokens = issue_tokens(state, conn, grant_id, granted)
    return json_response(tokens.response(issued_token_type=ACCESS_TOKEN_TYPE))


async def token(request: Request) -> Response:
    state = _state(request)
    form = await _read_form(request)
    app, with_secret = _authenticate_client(state, request, form)
    grant_type = form.get("grant_type")
    if grant_type == "authorization_code":
        return _code_grant(state, request, app, form)
    if grant_type == "refresh_token":
        return _refresh_grant(state, app, form)
    if grant_type == "client_credentials":
        return _client_credentials_grant(state, app, form, with_secret)
    if grant_type == TOKEN_EXCHANGE:
        return _token_exchange_grant(state, app, form)
    if grant_type == device.DEVICE_CODE_GRANT:
        return json_response(device.device_code_grant(state, app, form))
    raise OAuthError("unsupported_grant_type", "grant_type must be authorization_code, refresh_token, "
                                               f"client_credentials, {TOKEN_EXCHANGE} or {device.DEVICE_CODE_GRANT}")


async def device_authorize(request: Request) -> Response:
    """RFC 8628 §3.1-3.2: a device code and a user code for a device that cannot show a browser."""
    state = _state(request)
    form = await _read_form(request)
    app, _ = _authenticate_client(state, request, form)
    return json_response(device.create_device_authorization(state, app, form.get("scope"), _web_base(request)))


def _web_base(request: Request) -> str:
    return f"{request.url.scheme}://{request.url.netloc}"


async def revoke(request: Request) -> Response:
    """RFC 7009: revoking either token of a grant ends the user's whole authorization of the app.
    Unknown tokens answer 200 too, so the endpoint says nothing about which tokens exist."""
    state = _state(request)
    form = await _read_form(request)
    app, _ = _authenticate_client(state, request, form)
    value = form.get("token")
    if not value:
        raise OAuthError("invalid_request", "token is required")
    if form.get("token_type_hint") not in (None, "access_token", "refresh_token"):
        raise OAuthError("unsupported_token_type", "token_type_hint must be access_token or refresh_token")
    grant = find_grant_by_token(state, value)
    if grant is not None and grant["application_id"] == app["id"]:
        with state.db.transaction() as conn:
            revoke_user_grants(state, conn, app["id"], grant["user_id"])
    return Response(status_code=200)


async def current_authorization(request: Request) -> Response:
    """``GET /oauth2/@me``: the bearer token's application, scopes, expiry and (with identify) user."""
    principal = auth.require(request, kinds=("bearer",))
    state = _state(request)
    app = state.db.query_one("SELECT * FROM applications WHERE id = ?", (principal.application_id,))
    token_row = state.db.query_one("SELECT expires_at FROM oauth_tokens WHERE authorization_id = ? AND kind ="
                                   " 'access'", (principal.authorization_id,))
    body: dict[str, object] = {
        "application": None if app is None else application_json(app, public_key_hex(app["webhook_private_key"])),
        "scopes": sorted(principal.scopes),
        "expires": None if token_row is None else token_row["expires_at"],
    }
    user = user_row(state, principal.user_id)
    if "identify" in principal.scopes and user is not None:
        body["user"] = current_user_json(user, principal)
    return json_response(body)


async def userinfo(request: Request) -> Response:
    """OpenID Connect UserInfo for a bearer token with ``openid``."""
    principal = auth.require(request, kinds=("bearer",), scopes=("openid",))
    user = user_row(_state(request), principal.user_id)
    if user is None:
        raise not_found(UNKNOWN_USER, "User")
    claims: dict[str, object] = {"sub": str(user["id"]), "preferred_username": user["username"],
                                 "name": user["global_name"] or user["username"]}
    if "email" in principal.scopes:
        claims.update(email=user["email"], email_verified=bool(user["verified"]))
    return json_response(claims)


async def openid_configuration(request: Request) -> Response:
    return json_response(oidc.discovery(str(request.base_url)))


async def keys(request: Request) -> Response:
    return json_response(oidc.jwks(_state(request)))


def routes() -> list[BaseRoute]:
    return [
        Route(f"{API}/oauth2/token", token, methods=["POST"]),
        Route(f"{API}/oauth2/token/revoke", revoke, methods=["POST"]),
        Route(f"{API}/oauth2/device/authorize", device_authorize, methods=["POST"]),
        Route("/activate", device.activate_get, methods=["GET"]),
        Route("/activate", device.activate_post, methods=["POST"]),
        Route(f"{ADMIN}/oauth/device/{{user_code}}/{{decision:str}}", device.admin_decide, methods=["POST"]),
        Route(f"{ADMIN}/oauth/device-interval", device.admin_interval, methods=["PUT"]),
        Route(f"{API}/oauth2/@me", current_authorization, methods=["GET"]),
        Route(f"{API}/oauth2/keys", keys, methods=["GET"]),
        Route(f"{API}/oauth2/userinfo", userinfo, methods=["GET"]),
        Route("/.well-known/openid-configuration", openid_configuration, methods=["GET"]),
    ]
