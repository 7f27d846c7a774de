"""``GET|POST {web}/oauth2/authorize``: validates the request, then shows the browser consent page or,
with the emulator's headless parameters, consents as a test user and redirects with a code."""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import timedelta
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute

from ...core import scopes
from ...core.admin_secret import consent_admitted
from ...core.clock import format_instant
from ...core.routing import Route
from ...core.secrets import digest, new_token
from ...core.snowflake import parse_snowflake
from ...core.uploads import read_urlencoded
from ...paths import API
from ..accounts import store as accounts
from . import redirects
from .pages import NEEDS_SECRET, consent_page, error_page
from .store import CODE_TTL_S

if TYPE_CHECKING:
    from ...state import EmulatorState

_PKCE_CHALLENGE = re.compile(r"^[A-Za-z0-9\-_]{43}$")


def _state(request: Request) -> EmulatorState:
    state: EmulatorState = request.app.state.emu
    return state


def find_test_user(state: EmulatorState, who: str) -> sqlite3.Row | None:
    user_id = parse_snowflake(who)
    if user_id is not None:
        row = state.db.query_one("SELECT * FROM users WHERE id = ?", (user_id,))
    else:
        row = state.db.query_one("SELECT * FROM users WHERE username = ? AND provisional = 0", (who,))
    if row is None or row["bot"] or row["provisional"] or row["merged_into"] is not None:
        return None
    return row


def _user_banned(state: EmulatorState, user_id: int) -> bool:
    return accounts.active_ban(state, user_id) is not None


async def _authorize(request: Request, params: dict[str, str]) -> Response:
    state = _state(request)
    client_id = parse_snowflake(params.get("client_id"))
    app = None if client_id is None else state.db.query_one("SELECT * FROM applications WHERE id = ?",
                                                            (client_id,))
    if app is None:
        return error_page("Unknown client_id: no application has this id.")
    redirect_uri = params.get("redirect_uri")
    if redirect_uri is None:
        registered = state.db.query("SELECT uri FROM redirect_uris WHERE application_id = ?", (app["id"],))
        if len(registered) != 1:
            return error_page("redirect_uri is required: the application has no single default redirect URI.")
        target = registered[0]["uri"]
    elif not redirects.allowed(state.db, app, redirect_uri):
        return error_page("redirect_uri does not match any redirect URI registered for this application.")
    else:
        target = redirect_uri
    oauth_state = params.get("state")

    def fail(error: str, description: str) -> Response:
        return RedirectResponse(redirects.with_params(target, {
            "error": error, "error_description": description, "state": oauth_state}), status_code=302)

    if params.get("response_type") != "code":
        return fail("unsupported_response_type", "response_type must be code")
    requested = scopes.parse_scope_list(params.get("scope", ""))
    if not requested:
        return fail("invalid_scope", "scope is required")
    problem = scopes.check_allowed(requested, approved=frozenset(json.loads(app["approved_scopes"])),
                                   terms_accepted=bool(app["social_sdk_terms_accepted"]))
    if problem:
        return fail("invalid_scope", problem)
    challenge = params.get("code_challenge")
    method = params.get("code_challenge_method")
    if challenge is not None or method is not None:
        if method != "S256":
            return fail("invalid_request", "code_challenge_method must be S256")
        if challenge is None or not _PKCE_CHALLENGE.match(challenge):
            return fail("invalid_request", "code_challenge must be base64url(SHA-256(verifier)), 43 characters")
    elif app["public_client"] and not app["client_secret_hash"]:
        return fail("invalid_request", "a public client must use PKCE (code_challenge with S256)")
    if params.get("integration_type") not in (None, "0", "1"):
        return fail("invalid_request", "integration_type must be 0 (guild install) or 1 (user install)")

    who, consent = params.get("emulator_user"), params.get("emulator_consent")
    if who is None and consent is None:
        users = state.db.query("SELECT * FROM users WHERE bot = 0 AND provisional = 0 AND merged_into IS NULL"
                               " ORDER BY id")
        return consent_page(app, requested, users, params, ask_secret=state.admin_secret is not None)
    if consent not in ("allow", "deny"):
        return error_page("emulator_consent must be allow or deny.")
    if not consent_admitted(state.admin_secret, params, request.headers.get("authorization")):
        return error_page(NEEDS_SECRET, 401)
    if consent == "deny":
        return fail("access_denied", "the user denied the authorization")
    user = find_test_user(state, who or "")
    if user is None:
        return error_page("emulator_user names no test user (give a user id or username of a non-bot user).")
    if _user_banned(state, user["id"]):
        return fail("access_denied", "the user's account is banned")
    code = new_token()
    state.db.execute(
        "INSERT INTO oauth_codes (code_hash, application_id, user_id, redirect_uri, scopes, code_challenge, nonce,"
        " expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (digest(code), app["id"], user["id"], redirect_uri or "", json.dumps(requested), challenge,
         params.get("nonce"), format_instant(state.clock.now() + timedelta(seconds=CODE_TTL_S))))
    return RedirectResponse(redirects.with_params(target, {"code": code, "state": oauth_state}), status_code=302)


async def authorize_get(request: Request) -> Response:
    return await _authorize(request, dict(request.query_params))


async def authorize_post(request: Request) -> Response:
    """The consent form's submission (the browser flow)."""
    return await _authorize(request, dict(await read_urlencoded(request, keep_blank_values=False)))


def routes() -> list[BaseRoute]:
    return [
        Route("/oauth2/authorize", authorize_get, methods=["GET"]),
        Route("/oauth2/authorize", authorize_post, methods=["POST"]),
        Route(f"{API}/oauth2/authorize", authorize_get, methods=["GET"]),
    ]
