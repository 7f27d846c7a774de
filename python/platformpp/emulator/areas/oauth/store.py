"""OAuth2 grants (authorizations) and their tokens. A grant ties a user to an application with a set of
scopes; its access and refresh tokens are stored as SHA-256 digests. Revoking is per grant: every token
of it stops working at once, and the application hears of it (event + APPLICATION_DEAUTHORIZED)."""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core.clock import format_instant
from ...core.secrets import digest, new_token
from ...events.outbox import Outbox
from ...wire.user import public_user_json

if TYPE_CHECKING:
    from ...state import EmulatorState

ACCESS_TOKEN_TTL_S = 604800     # docs/wire.md: expires_in 604800
REFRESH_TOKEN_TTL_S = 90 * 86400
CODE_TTL_S = 600                # authorization codes live ten minutes


class IssuedTokens(NamedTuple):
    access_token: str
    refresh_token: str | None
    scopes: frozenset[str]
    expires_in: int = ACCESS_TOKEN_TTL_S

    def __repr__(self) -> str:   # never show the tokens themselves
        return f"IssuedTokens(scopes={sorted(self.scopes)}, refresh={'yes' if self.refresh_token else 'no'})"

    def response(self, **extra: Any) -> dict[str, Any]:
        body: dict[str, Any] = {"access_token": self.access_token, "token_type": "Bearer",
                                "expires_in": self.expires_in, "scope": " ".join(sorted(self.scopes))}
        if self.refresh_token is not None:
            body["refresh_token"] = self.refresh_token
        body.update(extra)
        return body


def create_grant(state: EmulatorState, conn: sqlite3.Connection, application_id: int, user_id: int,
                 scopes: frozenset[str], kind: str) -> int:
    grant_id = state.ids.next()
    conn.execute("INSERT INTO authorizations (id, application_id, user_id, scopes, grant_kind, created_at)"
                 " VALUES (?, ?, ?, ?, ?, ?)",
                 (grant_id, application_id, user_id, json.dumps(sorted(scopes)), kind, state.clock.iso()))
    return grant_id


def issue_tokens(state: EmulatorState, conn: sqlite3.Connection, grant_id: int, scopes: frozenset[str], *,
                 with_refresh: bool = True) -> IssuedTokens:
    """A fresh token pair for the grant; any earlier tokens of the grant are deleted (rotation)."""
    conn.execute("DELETE FROM oauth_tokens WHERE authorization_id = ?", (grant_id,))
    now = state.clock.now()
    access = new_token()
    lifetime = state.access_token_ttl_s
    conn.execute("INSERT INTO oauth_tokens (token_hash, authorization_id, kind, expires_at) VALUES (?, ?, 'access', ?)",
                 (digest(access), grant_id, format_instant(now + timedelta(seconds=lifetime))))
    refresh = None
    if with_refresh:
        refresh = new_token()
        conn.execute("INSERT INTO oauth_tokens (token_hash, authorization_id, kind, expires_at)"
                     " VALUES (?, ?, 'refresh', ?)",
                     (digest(refresh), grant_id, format_instant(now + timedelta(seconds=REFRESH_TOKEN_TTL_S))))
    return IssuedTokens(access, refresh, scopes, lifetime)


def find_grant_by_token(state: EmulatorState, token: str, kind: str | None = None) -> sqlite3.Row | None:
    """The grant a (possibly expired) token belongs to, with the token's kind and expiry."""
    sql = ("SELECT z.*, t.kind AS token_kind, t.expires_at AS token_expires_at FROM oauth_tokens t"
           " JOIN authorizations z ON z.id = t.authorization_id WHERE t.token_hash = ?")
    params: tuple[Any, ...] = (digest(token),)
    if kind is not None:
        sql += " AND t.kind = ?"
        params += (kind,)
    return state.db.query_one(sql, params)


def revoke_grant(state: EmulatorState, conn: sqlite3.Connection, grant_id: int) -> None:
    """End one grant (e.g. the one a replayed authorization code issued); its sessions hear of it."""
    row = conn.execute("SELECT application_id, user_id FROM authorizations WHERE id = ?", (grant_id,)).fetchone()
    if row is None:
        return
    conn.execute("DELETE FROM authorizations WHERE id = ?", (grant_id,))
    application_id, user_id = row["application_id"], row["user_id"]
    Outbox(state).publish("authorization.revoked", {"application_id": str(application_id), "user_id": str(user_id)},
                          user_ids=(user_id,), application_id=application_id)


def revoke_user_grants(state: EmulatorState, conn: sqlite3.Connection, application_id: int, user_id: int,
                       *, notify: bool = True) -> int:
    """End every grant of ``user_id`` to the application. Returns how many there were. With ``notify``,
    the app is sent APPLICATION_DEAUTHORIZED (full accounts only: a provisional account never added it)."""
    count = conn.execute("DELETE FROM authorizations WHERE application_id = ? AND user_id = ?",
                         (application_id, user_id)).rowcount
    if count:
        Outbox(state).publish("authorization.revoked",
                              {"application_id": str(application_id), "user_id": str(user_id)},
                              user_ids=(user_id,), application_id=application_id)
        user = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
        if notify and user is not None and not user["provisional"]:
            state.webhooks.send_event(application_id, "APPLICATION_DEAUTHORIZED", {"user": public_user_json(user)})
    return count


def revoke_all_of_user(state: EmulatorState, conn: sqlite3.Connection, user_id: int) -> list[int]:
    """End every grant of the user to every application (a ban). Returns the applications notified."""
    apps = [row[0] for row in conn.execute(
        "SELECT DISTINCT application_id FROM authorizations WHERE user_id = ?", (user_id,))]
    for app_id in apps:
        revoke_user_grants(state, conn, app_id, user_id)
    return apps
