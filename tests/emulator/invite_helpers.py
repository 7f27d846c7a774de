"""Set-up shared by the invite and audit log tests: a role that lets the bot manage invites, a role to
grant on joining, and members leaving and checked directly in the store."""

from __future__ import annotations

from typing import Any

import httpx
from platformpp.emulator import Emulator
from social_helpers import BOT_ID, GUILD_ID

GENERAL = 1200000000000000101
# CREATE_INSTANT_INVITE, KICK, BAN, MANAGE_CHANNELS, MANAGE_GUILD, VIEW_AUDIT_LOG, VIEW_CHANNEL, SEND_MESSAGES,
# MANAGE_ROLES
MANAGER = 1 | 2 | 4 | 16 | 32 | 128 | 1024 | 2048 | (1 << 28)
GUILD_INVITES, GUILD_MEMBERS = 1 << 6, 1 << 1
PARTIAL_ROLE_FIELDS = {"id", "name", "position", "color", "colors", "icon", "unicode_emoji"}


def admin(emu: Emulator, method: str, path: str, body: Any = None) -> httpx.Response:
    response = httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, timeout=10)
    assert response.status_code < 300, response.text
    return response


def make_manager(emu: Emulator, position: int = 5) -> None:
    role = admin(emu, "POST", f"/guilds/{GUILD_ID}/roles",
                 {"name": "Manager", "position": position, "permissions": str(MANAGER)}).json()
    admin(emu, "PUT", f"/guilds/{GUILD_ID}/members/{BOT_ID}/roles/{role['id']}")


def grantable_role(emu: Emulator, name: str = "Guest") -> str:
    return admin(emu, "POST", f"/guilds/{GUILD_ID}/roles", {"name": name, "position": 1,
                                                            "unicode_emoji": "🎟"}).json()["id"]


def leave(emu: Emulator, user_id: int) -> None:
    emu.state.db.execute("DELETE FROM members WHERE guild_id = ? AND user_id = ?", (GUILD_ID, user_id))


def is_member(emu: Emulator, user_id: int) -> bool:
    return emu.state.db.query_one("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?",
                                  (GUILD_ID, user_id)) is not None
