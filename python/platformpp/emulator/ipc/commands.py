"""What each RPC command does. A handler takes the connection and the command's ``args`` and returns
the response's ``data``, or raises ``RpcError`` (an ERROR event answering that command; the
connection stays open). Handlers run off the event loop (they read and write the database)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from ..areas.guilds.store import member_count, visible_channel_ids
from ..areas.oauth import redirects
from ..areas.oauth.store import CODE_TTL_S, find_grant_by_token
from ..areas.presence.store import _write, parse_activity, set_activity, set_status
from ..core import scopes
from ..core.clock import format_instant
from ..core.errors import ApiError
from ..core.secrets import digest, new_token
from ..core.validation import Form
from ..wire.user import public_user_json
from .protocol import SUBSCRIBABLE, ErrorCode
from .voice_settings import update_from_rpc

if TYPE_CHECKING:
    from .connection import Connection

_PKCE_CHALLENGE = re.compile(r"^[A-Za-z0-9\-_]{43}$")
_ONLINE = ("online", "idle", "dnd")


class RpcError(Exception):
    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _form(args: Any) -> Form:
    if not isinstance(args, dict):
        raise RpcError(ErrorCode.INVALID_PAYLOAD, "args must be an object")
    return Form(args)


def _done(form: Form) -> None:
    """Field errors become one INVALID_PAYLOAD naming the first bad field and its rule."""
    try:
        form.done()
    except ApiError as exc:
        raise RpcError(ErrorCode.INVALID_PAYLOAD, f"invalid args: {_first(exc.body().get('errors', {}))}") from exc


def _first(tree: dict[str, Any], path: str = "") -> str:
    for key, value in tree.items():
        if key == "_errors":
            return f"{path or 'args'}: {value[0]['message']}"
        return _first(value, f"{path}.{key}" if path else key)
    return path or "args"


def _require_auth(conn: Connection, scope: str | None = None) -> None:
    if conn.grant_scopes is None:
        raise RpcError(ErrorCode.INVALID_PERMISSIONS, "authenticate first (AUTHENTICATE with an access token)")
    if scope is not None and scope not in conn.grant_scopes:
        raise RpcError(ErrorCode.INVALID_PERMISSIONS, f"the access token lacks the {scope} scope")


def _snowflake(form: Form, name: str) -> int:
    value = form.snowflake(name)
    _done(form)
    assert value is not None
    return value


# --- OAuth2 ------------------------------------------------------------------------------------------

def authorize(conn: Connection, args: Any) -> dict[str, Any]:
    """The desktop user consents (or, with the deny switch, refuses) and the game gets a code."""
    form = _form(args)
    client_id = form.snowflake("client_id")
    requested = form.array("scopes", min_items=1) or []
    challenge = form.string("code_challenge", required=False)
    method = form.string("code_challenge_method", required=False)
    nonce = form.string("nonce", required=False, max_len=256)
    # The SDK names the redirect URI it will give the token exchange (an emulator extension: the code
    # is bound to it as a browser flow's is); without one the exchange must send none.
    redirect_uri = form.string("redirect_uri", required=False, max_len=512)
    _done(form)
    if client_id != conn.client_id:
        raise RpcError(ErrorCode.INVALID_CLIENT_ID, "client_id must be the handshake's client_id")
    if not all(isinstance(s, str) for s in requested):
        raise RpcError(ErrorCode.INVALID_PAYLOAD, "invalid args: scopes: Must be an array of strings.")
    if challenge is not None or method is not None:
        if method != "S256" or challenge is None or not _PKCE_CHALLENGE.match(challenge):
            raise RpcError(ErrorCode.OAUTH2_ERROR,
                           "invalid_request: code_challenge must be base64url(SHA-256(verifier)) with S256")
    state = conn.endpoint.state
    app = state.db.query_one("SELECT * FROM applications WHERE id = ?", (client_id,))
    assert app is not None  # the handshake checked it
    problem = scopes.check_allowed(list(requested), approved=frozenset(json.loads(app["approved_scopes"])),
                                   terms_accepted=bool(app["social_sdk_terms_accepted"]))
    if problem:
        raise RpcError(ErrorCode.OAUTH2_ERROR, f"invalid_scope: {problem}")
    if redirect_uri is not None and not redirects.allowed(state.db, app, redirect_uri):
        raise RpcError(ErrorCode.OAUTH2_ERROR, "invalid_request: redirect_uri is not registered for the application")
    if conn.endpoint.deny_consent:
        raise RpcError(ErrorCode.OAUTH2_ERROR, "access_denied: the user denied the authorization")
    code = new_token()
    state.db.execute(
        "INSERT INTO oauth_codes (code_hash, application_id, user_id, redirect_uri, scopes, code_challenge, nonce,"
        " expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (digest(code), client_id, conn.endpoint.user_id, redirect_uri or "", json.dumps(list(dict.fromkeys(requested))), challenge,
         nonce, format_instant(state.clock.now() + timedelta(seconds=CODE_TTL_S))))
    return {"code": code}


def authenticate(conn: Connection, args: Any) -> dict[str, Any]:
    form = _form(args)
    token = form.string("access_token", min_len=1)
    _done(form)
    state = conn.endpoint.state
    grant = find_grant_by_token(state, token or "", "access")
    if (grant is None or grant["token_expires_at"] <= state.clock.iso() or grant["application_id"] != conn.client_id
            or grant["user_id"] != conn.endpoint.user_id):
        raise RpcError(ErrorCode.INVALID_TOKEN, "the access token is invalid, expired, of another application"
                       " or of another user than the desktop client's")
    conn.grant_scopes = frozenset(json.loads(grant["scopes"]))
    user = state.db.query_one("SELECT * FROM users WHERE id = ?", (grant["user_id"],))
    app = state.db.query_one("SELECT id, name, description, icon FROM applications WHERE id = ?", (conn.client_id,))
    if user is None or app is None:   # deleted since the token was issued
        raise RpcError(ErrorCode.INVALID_TOKEN, "the access token's user or application no longer exists")
    return {"user": public_user_json(user), "scopes": sorted(conn.grant_scopes), "expires": grant["token_expires_at"],
            "application": {"id": str(app["id"]), "name": app["name"], "description": app["description"] or "",
                            "icon": app["icon"]}}


# --- guilds and channels -----------------------------------------------------------------------------

def _guild_row(conn: Connection, guild_id: int) -> Any:
    row = conn.endpoint.state.db.query_one(
        "SELECT g.* FROM guilds g JOIN members m ON m.guild_id = g.id AND m.user_id = ? WHERE g.id = ?",
        (conn.endpoint.user_id, guild_id))
    if row is None:
        raise RpcError(ErrorCode.INVALID_GUILD, f"unknown guild {guild_id}, or the desktop user is not in it")
    return row


def get_guilds(conn: Connection, args: Any) -> dict[str, Any]:
    _require_auth(conn, "guilds")
    rows = conn.endpoint.state.db.query(
        "SELECT g.id, g.name, g.icon FROM guilds g JOIN members m ON m.guild_id = g.id WHERE m.user_id = ?"
        " ORDER BY g.id", (conn.endpoint.user_id,))
    return {"guilds": [{"id": str(r["id"]), "name": r["name"], "icon_url": r["icon"]} for r in rows]}


def get_guild(conn: Connection, args: Any) -> dict[str, Any]:
    _require_auth(conn, "guilds")
    row = _guild_row(conn, _snowflake(_form(args), "guild_id"))
    return {"id": str(row["id"]), "name": row["name"], "icon_url": row["icon"], "members": []}


def _visible_channels(conn: Connection, guild_id: int) -> list[Any]:
    with conn.endpoint.state.db.transaction() as db:
        visible = visible_channel_ids(db, guild_id, conn.endpoint.user_id)
        rows = db.execute("SELECT * FROM channels WHERE guild_id = ? ORDER BY position, id", (guild_id,)).fetchall()
    return [r for r in rows if r["id"] in visible]


def get_channels(conn: Connection, args: Any) -> dict[str, Any]:
    _require_auth(conn, "guilds")
    guild_id = _guild_row(conn, _snowflake(_form(args), "guild_id"))["id"]
    return {"channels": [{"id": str(r["id"]), "name": r["name"], "type": r["type"]}
                         for r in _visible_channels(conn, guild_id)]}


def get_channel(conn: Connection, args: Any) -> dict[str, Any]:
    _require_auth(conn, "guilds")
    channel_id = _snowflake(_form(args), "channel_id")
    row = conn.endpoint.state.db.query_one("SELECT * FROM channels WHERE id = ?", (channel_id,))
    if row is None or row["guild_id"] is None or row["id"] not in {
            c["id"] for c in _visible_channels(conn, _guild_row(conn, row["guild_id"])["id"])}:
        raise RpcError(ErrorCode.INVALID_CHANNEL, f"unknown channel {channel_id}, or the desktop user cannot view it")
    return {"id": str(row["id"]), "guild_id": str(row["guild_id"]), "name": row["name"], "type": row["type"],
            "topic": row["topic"] or "", "bitrate": row["bitrate"] or 0, "user_limit": row["user_limit"] or 0,
            "position": row["position"], "voice_states": [], "messages": []}


def guild_status(conn: Connection, guild_id: int) -> dict[str, Any]:
    """GUILD_STATUS: the guild and how many of its members are online."""
    with conn.endpoint.state.db.transaction() as db:
        row = db.execute("SELECT id, name, icon FROM guilds WHERE id = ?", (guild_id,)).fetchone()
        online = db.execute("SELECT COUNT(*) FROM members m JOIN presences p ON p.user_id = m.user_id"
                            " WHERE m.guild_id = ? AND p.status IN ('online', 'idle', 'dnd')", (guild_id,)).fetchone()[0]
        total = member_count(db, guild_id)
    return {"guild": {"id": str(row["id"]), "name": row["name"], "icon_url": row["icon"]}, "online": int(online),
            "member_count": total}


# --- subscriptions -----------------------------------------------------------------------------------

def _subscription(conn: Connection, evt: Any, args: Any) -> tuple[str, int | None]:
    if not isinstance(evt, str) or evt not in SUBSCRIBABLE:
        raise RpcError(ErrorCode.INVALID_EVENT, f"evt must be one of {', '.join(sorted(SUBSCRIBABLE))}")
    if not SUBSCRIBABLE[evt]:
        return evt, None
    _require_auth(conn, "guilds")
    return evt, _guild_row(conn, _snowflake(_form(args), "guild_id"))["id"]


def subscribe(conn: Connection, evt: Any, args: Any) -> dict[str, Any]:
    key = _subscription(conn, evt, args)
    conn.subscriptions.add(key)
    if key[0] == "GUILD_STATUS" and key[1] is not None:
        conn.endpoint.remember_guild_status(key[1], guild_status(conn, key[1]))
        conn.send_event("GUILD_STATUS", guild_status(conn, key[1]))
    return {"evt": key[0]}


def unsubscribe(conn: Connection, evt: Any, args: Any) -> dict[str, Any]:
    key = _subscription(conn, evt, args)
    conn.subscriptions.discard(key)
    return {"evt": key[0]}


# --- rich presence -----------------------------------------------------------------------------------

def set_activity_command(conn: Connection, args: Any) -> Any:
    """The game's rich presence for the desktop user, seen through presence by friends and guilds; no
    OAuth needed. ``activity`` null (or absent) clears it."""
    form = _form(args)
    if "pid" in form.data:
        form.integer("pid", minimum=0)
    raw = form.data.get("activity")
    activity = None
    if raw is not None:
        sub = form.obj("activity")
        assert sub is not None
        sub.data = {"type": 0, "name": conn.application_name, **sub.data}
        activity = parse_activity(sub)
    _done(form)
    state, user_id = conn.endpoint.state, conn.endpoint.user_id
    if activity is not None:
        activity = _as_the_desktop_client_shapes_it(activity, round(state.clock.timestamp() * 1000))

    def change(db: Any) -> None:
        now = state.clock.iso()
        if db.execute("SELECT 1 FROM presences WHERE user_id = ?", (user_id,)).fetchone() is None:
            set_status(db, user_id, "online", now)
        set_activity(db, user_id, conn.client_id, activity, now)
    _write(state, user_id, change)
    conn.activity_set = activity is not None
    return None if activity is None else {**activity, "application_id": str(conn.client_id)}


def _as_the_desktop_client_shapes_it(activity: dict[str, Any], now_ms: int) -> dict[str, Any]:
    """What the desktop client does to a game's activity before it stores and answers it: button URLs
    move to ``metadata.button_urls`` (everyone else sees the labels only), timestamps in seconds become
    milliseconds. ``RpcError`` for what it refuses."""
    if activity.get("secrets") is not None and "buttons" in activity:
        raise RpcError(ErrorCode.INVALID_ACTIVITY_SECRET, "secrets cannot currently be sent with buttons")
    shaped = dict(activity)
    if "buttons" in shaped:
        shaped["metadata"] = {"button_urls": [b["url"] for b in shaped["buttons"]]}
        shaped["buttons"] = [b["label"] for b in shaped["buttons"]]
    if "timestamps" in shaped:
        # The client accepts seconds or milliseconds and tells them apart by their decimal length, not
        # by a threshold: a value at least three digits shorter than the current time in milliseconds
        # (13 digits until 2286) is seconds and is multiplied by 1000. Libraries send seconds
        # (pypresence's start/end, the C RPC library's startTimestamp); the Gateway carries milliseconds.
        shaped["timestamps"] = {k: v * 1000 if len(str(now_ms)) - len(str(v)) > 2 else v
                                for k, v in shaped["timestamps"].items()}
    return shaped


def clear_activity(conn: Connection) -> None:
    """The connection closed: the game's rich presence ends with it."""
    state, user_id = conn.endpoint.state, conn.endpoint.user_id
    _write(state, user_id, lambda db: set_activity(db, user_id, conn.client_id, None, state.clock.iso()))


def _join_request_user(conn: Connection, args: Any) -> int:
    user_id = _snowflake(_form(args), "user_id")
    if (conn.client_id, user_id) not in conn.endpoint.join_requests:
        raise RpcError(ErrorCode.INVALID_ACTIVITY_JOIN_REQUEST, f"no pending join request from user {user_id}")
    return user_id


def send_activity_join_invite(conn: Connection, args: Any) -> None:
    conn.endpoint.join_requests.discard((conn.client_id, _join_request_user(conn, args)))


def close_activity_request(conn: Connection, args: Any) -> None:
    conn.endpoint.join_requests.discard((conn.client_id, _join_request_user(conn, args)))


# --- voice settings ----------------------------------------------------------------------------------

def get_voice_settings(conn: Connection, args: Any) -> dict[str, Any]:
    _require_auth(conn)
    return conn.endpoint.voice_settings.rpc()


def set_voice_settings(conn: Connection, args: Any) -> dict[str, Any]:
    _require_auth(conn)
    form = _form(args)
    try:
        settings = update_from_rpc(conn.endpoint.voice_settings, form)
    except ApiError as exc:
        raise RpcError(ErrorCode.INVALID_PAYLOAD, f"invalid args: {_first(exc.body().get('errors', {}))}") from exc
    conn.endpoint.change_voice_settings(settings)
    return settings.rpc()


Handler = Callable[["Connection", Any], Any]
HANDLERS: dict[str, Handler] = {
    "AUTHORIZE": authorize,
    "AUTHENTICATE": authenticate,
    "GET_GUILDS": get_guilds,
    "GET_GUILD": get_guild,
    "GET_CHANNELS": get_channels,
    "GET_CHANNEL": get_channel,
    "SET_ACTIVITY": set_activity_command,
    "SEND_ACTIVITY_JOIN_INVITE": send_activity_join_invite,
    "CLOSE_ACTIVITY_REQUEST": close_activity_request,
    "GET_VOICE_SETTINGS": get_voice_settings,
    "SET_VOICE_SETTINGS": set_voice_settings,
}
EVENT_HANDLERS = {"SUBSCRIBE": subscribe, "UNSUBSCRIBE": unsubscribe}
ONLINE_STATUSES = _ONLINE
