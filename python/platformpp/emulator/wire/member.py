"""The guild member object (the published ``GuildMemberResponse``) from a member row joined with
its user's row (``members m JOIN users u``: the user's columns plus the member's, see MEMBER_SELECT)."""

from __future__ import annotations

import json
import sqlite3
from functools import lru_cache
from typing import Any

from .user import public_user_json

# The columns member_json reads: the user's, then the member's under names that do not clash.
MEMBER_SELECT = ("SELECT u.*, m.guild_id, m.nick, m.roles AS member_roles, m.joined_at,"
                 " m.avatar AS member_avatar, m.banner AS member_banner, m.bio AS member_bio,"
                 " m.communication_disabled_until, m.pending, m.deaf, m.mute, m.flags AS member_flags"
                 " FROM members m JOIN users u ON u.id = m.user_id")


@lru_cache(maxsize=4096)
def _roles(raw: str) -> tuple[str, ...]:
    """A member row's ``roles`` JSON, decoded once per distinct text (a function of the text alone)."""
    return tuple(json.loads(raw))


def member_json(row: sqlite3.Row, *, with_user: bool = True) -> dict[str, Any]:
    member: dict[str, Any] = {
        "nick": row["nick"], "avatar": row["member_avatar"], "banner": row["member_banner"],
        "roles": list(_roles(row["member_roles"])), "joined_at": row["joined_at"], "premium_since": None,
        "deaf": bool(row["deaf"]), "mute": bool(row["mute"]), "flags": row["member_flags"],
        "pending": bool(row["pending"]), "communication_disabled_until": row["communication_disabled_until"],
    }
    if with_user:
        member["user"] = public_user_json(row)
    return member


def own_member_json(row: sqlite3.Row) -> dict[str, Any]:
    """PATCH /guilds/{id}/members/@me answers the caller's own member, with ``bio``."""
    return {**member_json(row), "bio": row["member_bio"] or ""}
