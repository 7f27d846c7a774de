"""Users as their owner sees them (``/users/@me``, the userinfo endpoint), and which connections are
returned (the seed's dated rules for the game-studio providers)."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from ...core import auth
from ...wire.user import public_user_json

if TYPE_CHECKING:
    from ...state import EmulatorState


# The two game-studio connection providers whose connections the platform stops returning (seed).
GAME_STUDIO_1 = "game_studio_1"   # existing (legacy) connections returned until 2026-09-22


GAME_STUDIO_2 = "game_studio_2"   # legacy connections returned until 2026-07-10


LEGACY_CUTOFFS = {
    GAME_STUDIO_1: datetime(2026, 9, 22, tzinfo=timezone.utc),
    GAME_STUDIO_2: datetime(2026, 7, 10, tzinfo=timezone.utc),
}


def user_row(state: EmulatorState, user_id: int) -> sqlite3.Row | None:
    return state.db.query_one("SELECT * FROM users WHERE id = ?", (user_id,))


def current_user_json(row: sqlite3.Row, principal: auth.Principal) -> dict[str, Any]:
    """``GET /users/@me``: ``premium_type`` is 0 unless the token carries ``identify.premium`` (seed).
    A bot is ``verified`` with a null ``email``, as the platform answers bots."""
    body = public_user_json(row)
    body.update({"mfa_enabled": bool(row["mfa_enabled"]), "locale": row["locale"],
                 "premium_type": row["premium_type"] if "identify.premium" in principal.scopes else 0})
    if principal.kind == "bot":
        body.update({"email": None, "verified": True})
    elif principal.kind == "bearer" and "email" in principal.scopes:
        body.update({"email": row["email"], "verified": bool(row["verified"])})
    if row["provisional"]:
        body["is_provisional_account"] = True
    return body


def connection_visible(connection_type: str, legacy: bool, now: datetime) -> bool:
    """Seed: new connections of both game-studio providers are never returned; legacy ones only
    before their provider's cutoff date on the emulator clock."""
    cutoff = LEGACY_CUTOFFS.get(connection_type)
    if cutoff is None:
        return True
    return legacy and now < cutoff
