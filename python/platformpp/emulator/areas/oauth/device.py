"""The OAuth2 device authorization grant (RFC 8628), for consoles and TVs that cannot show a browser.

The device asks ``POST {api}/oauth2/device/authorize`` for a device code and a short user code, shows
the user code (and ``verification_uri``), and polls the token endpoint with the device code. The user
approves on another device at ``{web}/activate`` (the emulator's consent page: pick a test user) or a
test approves through the admin API. Expiry and the polling interval are measured on the emulator
clock: a poll sooner than ``interval`` seconds after the previous one answers ``slow_down`` and adds
five seconds to the interval (RFC 8628 §3.5)."""

from __future__ import annotations

import html
import json
import secrets
import sqlite3
from datetime import timedelta
from typing import TYPE_CHECKING
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from ...core import scopes
from ...core.admin_secret import consent_admitted
from ...core.clock import format_instant, parse_instant
from ...core.errors import OAuthError, json_response, not_found
from ...core.secrets import digest, new_token
from ...core.uploads import read_urlencoded
from ...core.validation import read_form
from ..accounts import provisional
from ..accounts import store as accounts
from .authorize_routes import find_test_user
from .pages import NEEDS_SECRET, error_page, page, secret_field
from .store import create_grant, issue_tokens

if TYPE_CHECKING:
    from ...state import EmulatorState

DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
DEVICE_CODE_TTL_S = 600
DEFAULT_INTERVAL_S = 5
SLOW_DOWN_STEP_S = 5
# RFC 8628 §6.1: no vowels (no words), no look-alikes; 8 characters of 20 give 34 bits of entropy.
_USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ"
ADMIN_UNKNOWN_USER_CODE = 10000   # the admin API's answer for a user code with no pending request


def poll_interval(state: EmulatorState) -> int:
    row = state.db.query_one("SELECT interval_s FROM oauth_device_settings WHERE id = 1")
    return DEFAULT_INTERVAL_S if row is None else int(row["interval_s"])


def normalize_user_code(text: str) -> str:
    """What the user typed, compared case-insensitively and without separators (RFC 8628 §6.1)."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def _new_user_code() -> str:
    raw = "".join(secrets.choice(_USER_CODE_ALPHABET) for _ in range(8))
    return f"{raw[:4]}-{raw[4:]}"


def create_device_authorization(state: EmulatorState, app: sqlite3.Row, scope_text: str | None,
                                web_base: str) -> dict[str, object]:
    requested = scopes.parse_scope_list(scope_text or "")
    if not requested:
        raise OAuthError("invalid_scope", "scope is required")
    problem = scopes.check_allowed(requested, approved=frozenset(json.loads(app["approved_scopes"])),
                                   terms_accepted=bool(app["social_sdk_terms_accepted"]))
    if problem:
        raise OAuthError("invalid_scope", problem)
    device_code, interval = new_token(), poll_interval(state)
    with state.db.transaction() as conn:
        while True:
            user_code = _new_user_code()
            if conn.execute("SELECT 1 FROM oauth_device_codes WHERE user_code = ?", (user_code,)).fetchone() is None:
                break
        conn.execute(
            "INSERT INTO oauth_device_codes (device_code_hash, user_code, application_id, scopes, expires_at,"
            " interval_s) VALUES (?, ?, ?, ?, ?, ?)",
            (digest(device_code), user_code, app["id"], json.dumps(requested),
             format_instant(state.clock.now() + timedelta(seconds=DEVICE_CODE_TTL_S)), interval))
    verification_uri = f"{web_base.rstrip('/')}/activate"
    return {"device_code": device_code, "user_code": user_code, "verification_uri": verification_uri,
            "verification_uri_complete": f"{verification_uri}?user_code={quote(user_code)}",
            "expires_in": DEVICE_CODE_TTL_S, "interval": interval}


def device_code_grant(state: EmulatorState, app: sqlite3.Row, form: dict[str, str]) -> dict[str, object]:
    """One poll of the token endpoint (RFC 8628 §3.4-3.5): tokens once approved, else the reason."""
    device_code = form.get("device_code")
    if not device_code:
        raise OAuthError("invalid_request", "device_code is required")
    row = state.db.query_one("SELECT * FROM oauth_device_codes WHERE device_code_hash = ?", (digest(device_code),))
    if row is None or row["application_id"] != app["id"]:
        raise OAuthError("invalid_grant", "the device code is invalid")
    now = state.clock.now()
    if row["status"] == "used":
        raise OAuthError("invalid_grant", "the device code was already used")
    if parse_instant(row["expires_at"]) <= now:
        raise OAuthError("expired_token", "the device code has expired; start a new device authorization")
    if row["status"] == "denied":
        raise OAuthError("access_denied", "the user denied the authorization")
    last = row["last_poll_at"]
    with state.db.transaction() as conn:
        conn.execute("UPDATE oauth_device_codes SET last_poll_at = ? WHERE device_code_hash = ?",
                     (format_instant(now), row["device_code_hash"]))
        if last is not None and (now - parse_instant(last)).total_seconds() < row["interval_s"]:
            conn.execute("UPDATE oauth_device_codes SET interval_s = interval_s + ? WHERE device_code_hash = ?",
                         (SLOW_DOWN_STEP_S, row["device_code_hash"]))
            slow = True
        else:
            slow = False
    if slow:
        raise OAuthError("slow_down", f"poll at most every {row['interval_s'] + SLOW_DOWN_STEP_S} seconds")
    if row["status"] == "pending":
        raise OAuthError("authorization_pending", "the user has not approved the device yet")
    user_id = row["user_id"]
    if accounts.active_ban(state, user_id) is not None:
        raise OAuthError("access_denied", "the user's account is banned")
    granted = scopes.expand(json.loads(row["scopes"]))
    external = provisional.external_credentials_in(form)
    with state.db.transaction() as conn:
        if external is not None:
            accounts.merge_provisional(state, conn, app, user_id, external)
        grant_id = create_grant(state, conn, app["id"], user_id, granted, "device_code")
        conn.execute("UPDATE oauth_device_codes SET status = 'used' WHERE device_code_hash = ?",
                     (row["device_code_hash"],))
        tokens = issue_tokens(state, conn, grant_id, granted)
    return tokens.response()


def _pending_by_user_code(state: EmulatorState, user_code: str) -> sqlite3.Row | None:
    wanted = normalize_user_code(user_code)
    if len(wanted) != 8:
        return None
    row = state.db.query_one("SELECT * FROM oauth_device_codes WHERE user_code = ?", (f"{wanted[:4]}-{wanted[4:]}",))
    if row is None or row["status"] != "pending" or parse_instant(row["expires_at"]) <= state.clock.now():
        return None
    return row


def decide(state: EmulatorState, user_code: str, user: sqlite3.Row | None, approve: bool) -> sqlite3.Row | None:
    """Approve (as ``user``) or deny the pending request with this user code; None if there is none."""
    row = _pending_by_user_code(state, user_code)
    if row is None:
        return None
    state.db.execute("UPDATE oauth_device_codes SET status = ?, user_id = ? WHERE device_code_hash = ?",
                     ("approved" if approve else "denied", None if user is None else user["id"],
                      row["device_code_hash"]))
    return row


# -- the verification page ({web}/activate) ------------------------------------------------------------------

def _activate_form(user_code: str, app: sqlite3.Row | None, scope_list: list[str], users: list[sqlite3.Row],
                   ask_secret: bool = False) -> HTMLResponse:
    if app is None:
        return page("Activate a device", (
            "<h1>Activate a device</h1><form method='get' action='/activate'>"
            f"<p><label>Code shown on the device <input name='user_code' value='{html.escape(user_code)}'>"
            "</label></p><button>Continue</button></form>"))
    options = "".join(f"<option value='{row['id']}'>{html.escape(row['global_name'] or row['username'])}"
                      f" (@{html.escape(row['username'])})</option>" for row in users)
    items = "".join(f"<li><code>{html.escape(scope)}</code></li>" for scope in scope_list)
    return page(f"Authorize {app['name']}", (
        f"<h1>{html.escape(app['name'])} wants to access your account on a device</h1>"
        f"<p>Code: <strong>{html.escape(user_code)}</strong></p><p>Requested scopes:</p><ul>{items}</ul>"
        "<form method='post' action='/activate'>"
        f"<input type='hidden' name='user_code' value='{html.escape(user_code)}'>"
        f"<p><label>Sign in as test user <select name='emulator_user'>{options}</select></label></p>"
        f"{secret_field(ask_secret)}"
        "<button name='emulator_consent' value='allow'>Authorize</button>"
        "<button name='emulator_consent' value='deny'>Cancel</button></form>"))


async def activate_get(request: Request) -> Response:
    state: EmulatorState = request.app.state.emu
    user_code = request.query_params.get("user_code", "")
    if not user_code:
        return _activate_form("", None, [], [])
    row = _pending_by_user_code(state, user_code)
    if row is None:
        return error_page("This code is unknown, expired or already used. Start again on the device.")
    app = state.db.query_one("SELECT * FROM applications WHERE id = ?", (row["application_id"],))
    users = state.db.query("SELECT * FROM users WHERE bot = 0 AND provisional = 0 AND merged_into IS NULL"
                           " ORDER BY id")
    return _activate_form(row["user_code"], app, json.loads(row["scopes"]), users,
                          ask_secret=state.admin_secret is not None)


async def activate_post(request: Request) -> Response:
    """The page's submission, also usable headlessly: user_code, emulator_user, emulator_consent."""
    state: EmulatorState = request.app.state.emu
    params = dict(await read_urlencoded(request, keep_blank_values=False))
    consent = params.get("emulator_consent")
    if consent not in ("allow", "deny"):
        return error_page("emulator_consent must be allow or deny.")
    if not consent_admitted(state.admin_secret, params, request.headers.get("authorization")):
        return error_page(NEEDS_SECRET, 401)
    user = None
    if consent == "allow":
        user = find_test_user(state, params.get("emulator_user", ""))
        if user is None:
            return error_page("emulator_user names no test user (give a user id or username of a non-bot user).")
    if decide(state, params.get("user_code", ""), user, consent == "allow") is None:
        return error_page("This code is unknown, expired or already used. Start again on the device.")
    word = "authorized" if consent == "allow" else "denied"
    return page("Device " + word, f"<h1>Device {word}</h1><p>You can return to your device.</p>")


# -- admin API ---------------------------------------------------------------------------------------------

async def admin_decide(request: Request) -> Response:
    """``POST /_emulator/oauth/device/{user_code}/approve`` ``{"user": id or username}`` or ``/deny``."""
    state: EmulatorState = request.app.state.emu
    if request.path_params["decision"] not in ("approve", "deny"):
        raise not_found(ADMIN_UNKNOWN_USER_CODE, "Decision (approve or deny)")
    approve = request.path_params["decision"] == "approve"
    form = await read_form(request)
    who = form.string("user", required=approve, min_len=1, max_len=64)
    form.done()
    user = None
    if approve:
        user = find_test_user(state, who or "")
        if user is None:
            form.fail("user", "UNKNOWN_TEST_USER", "Give the id or username of a non-bot, non-provisional user.")
            form.done()
    row = decide(state, request.path_params["user_code"], user, approve)
    if row is None:
        raise not_found(ADMIN_UNKNOWN_USER_CODE, "Device Authorization (no pending request has this user code)")
    return json_response({"user_code": row["user_code"], "status": "approved" if approve else "denied",
                          "application_id": str(row["application_id"])})


async def admin_interval(request: Request) -> Response:
    """``PUT /_emulator/oauth/device-interval`` ``{"interval": seconds}``: the interval new device
    authorizations ask clients to poll at (default 5), so tests run in seconds."""
    state: EmulatorState = request.app.state.emu
    form = await read_form(request)
    seconds = form.integer("interval", minimum=1, maximum=60)
    form.done()
    state.db.execute("INSERT INTO oauth_device_settings (id, interval_s) VALUES (1, ?)"
                     " ON CONFLICT (id) DO UPDATE SET interval_s = excluded.interval_s", (seconds,))
    return json_response({"interval": seconds})
