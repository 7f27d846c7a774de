"""Who is calling: resolves ``Authorization: Bot <token>`` / ``Bearer <token>`` (or a raw Gateway
Identify token) to a ``Principal``, and guards routes with docs/wire.md's 401/403 errors."""

from __future__ import annotations

import json
import weakref
from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal, NamedTuple

from starlette.requests import HTTPConnection

from . import errors
from .clock import format_instant
from .errors import ApiError
from .secrets import bot_user_id_of, digest
from .storage import Database

if TYPE_CHECKING:
    from ..state import EmulatorState

PrincipalKind = Literal["bot", "bearer"]


class Principal(NamedTuple):
    """An authenticated caller. Holds no secret, so it is safe to log or repr."""

    kind: PrincipalKind
    user_id: int
    application_id: int
    scopes: frozenset[str]
    authorization_id: int | None = None   # the OAuth2 grant a bearer token belongs to


# Bot tokens never expire, so a resolved one stays valid until the database changes: per database,
# token digest -> (the database's total_changes when resolved, the principal or None).
_BOT_TOKENS: weakref.WeakKeyDictionary[Database, dict[str, tuple[int, Principal | None]]] = \
    weakref.WeakKeyDictionary()
_BOT_TOKENS_MAX = 1024


def resolve_bot_token(state: EmulatorState, token: str) -> Principal | None:
    if bot_user_id_of(token) is None:
        return None
    key = digest(token)
    db = state.db
    changes = db.total_changes   # read before the query: a write after it invalidates what we store
    cache = _BOT_TOKENS.setdefault(db, {})
    cached = cache.get(key)
    if cached is not None and cached[0] == changes:
        return cached[1]
    row = db.query_one(
        "SELECT a.id AS application_id, a.bot_user_id FROM bot_tokens t JOIN applications a"
        " ON a.id = t.application_id WHERE t.token_hash = ?", (key,))
    principal = None if row is None or row["bot_user_id"] is None else \
        Principal("bot", row["bot_user_id"], row["application_id"], frozenset({"bot"}))
    if len(cache) >= _BOT_TOKENS_MAX:
        cache.clear()
    cache[key] = (changes, principal)
    return principal


def resolve_access_token(state: EmulatorState, token: str) -> Principal | None:
    row = state.db.query_one(
        "SELECT z.id, z.application_id, z.user_id, z.scopes, t.expires_at FROM oauth_tokens t"
        " JOIN authorizations z ON z.id = t.authorization_id WHERE t.token_hash = ? AND t.kind = 'access'",
        (digest(token),))
    if row is None or row["expires_at"] <= format_instant(state.clock.now()):
        return None
    return Principal("bearer", row["user_id"], row["application_id"], frozenset(json.loads(row["scopes"])),
                     row["id"])


def resolve_principal(state: EmulatorState, authorization: str | None) -> Principal | None:
    """The caller named by an HTTP ``Authorization`` header value, or None if it names no valid token."""
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if not token:
        return None
    if scheme.lower() == "bot":
        return resolve_bot_token(state, token)
    if scheme.lower() == "bearer":
        return resolve_access_token(state, token)
    return None


def resolve_gateway_token(state: EmulatorState, token: str) -> Principal | None:
    """The token of a Gateway Identify: a bot token without prefix, or a (``Bearer``-prefixed or bare)
    access token."""
    token = token.strip()
    scheme, _, rest = token.partition(" ")
    if rest and scheme.lower() in ("bot", "bearer"):
        return resolve_principal(state, token)
    return resolve_bot_token(state, token) or resolve_access_token(state, token)


def require(conn: HTTPConnection, *, kinds: Iterable[PrincipalKind] = ("bot", "bearer"),
            scopes: Iterable[str] = ()) -> Principal:
    """The route's caller, or a docs/wire.md error: 401 40001 with no credentials or the wrong kind of token,
    401 50014 for an unknown bot token, 401 50025 for an unknown, revoked or expired OAuth2 token,
    403 50001 when a bearer token lacks a required scope."""
    state: EmulatorState = conn.app.state.emu
    header = conn.headers.get("authorization")
    if not header:
        raise ApiError(401, errors.UNAUTHORIZED, "401: Unauthorized")
    principal = resolve_principal(state, header)
    if principal is None:
        if header.strip().lower().startswith("bearer "):
            raise ApiError(401, errors.INVALID_OAUTH2_TOKEN, "Invalid OAuth2 access token")
        raise ApiError(401, errors.INVALID_TOKEN, "Invalid authentication token provided.")
    if principal.kind not in tuple(kinds):
        raise ApiError(401, errors.UNAUTHORIZED, "401: Unauthorized")
    missing = sorted(set(scopes) - principal.scopes) if principal.kind == "bearer" else []
    if missing:
        raise ApiError(403, errors.MISSING_ACCESS, f"Missing Access: the token lacks scope(s) {missing}.")
    conn.scope["platformpp.principal"] = principal
    return principal
