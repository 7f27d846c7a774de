"""Conformance of the audit log: GET /guilds/{guild_id}/audit-logs with entries of
several kinds (changes, options, reason) and its referenced objects, and its errors."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from emulator_world import BOB, BOT_ID, BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator

from conformance_client import ClientFactory

BOT = f"Bot {BOT_TOKEN}"


def admin(emu: Emulator, method: str, path: str, body: Any = None) -> httpx.Response:
    response = httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, timeout=10)
    assert response.status_code < 300, response.text
    return response

GENERAL = 1200000000000000101
# MANAGE_GUILD, MANAGE_CHANNELS, MANAGE_ROLES, KICK, BAN, VIEW_AUDIT_LOG, VIEW_CHANNEL, CREATE_INSTANT_INVITE
MANAGER = 32 | 16 | (1 << 28) | 2 | 4 | 128 | 1024 | 1


@pytest.mark.covers("GET /guilds/{guild_id}/audit-logs")
def test_audit_log(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.get(f"/guilds/{GUILD_ID}/audit-logs").status_code == 403
    role = admin(emu, "POST", f"/guilds/{GUILD_ID}/roles", {"name": "Manager", "position": 5,
                                                            "permissions": str(MANAGER)}).json()
    admin(emu, "PUT", f"/guilds/{GUILD_ID}/members/{BOT_ID}/roles/{role['id']}")
    reason = {"X-Audit-Log-Reason": "why%20not"}
    bot.patch(f"/guilds/{GUILD_ID}", json={"description": "hello"}, headers=reason)
    bot.put(f"/channels/{GENERAL}/permissions/{BOB}", json={"type": 1, "deny": "2048"})
    bot.post(f"/channels/{GENERAL}/invites", json={})
    bot.put(f"/guilds/{GUILD_ID}/bans/{BOB}", json={"delete_message_seconds": 60})
    log = bot.get(f"/guilds/{GUILD_ID}/audit-logs", params={"limit": 50})
    assert log.status_code == 200
    # the admin API's role create and grant are logged as the owner's (30, 25), then the bot's changes
    assert {e["action_type"] for e in log.json()["audit_log_entries"]} == {30, 25, 1, 13, 40, 22}
    filtered = bot.get(f"/guilds/{GUILD_ID}/audit-logs", params={"action_type": 22, "user_id": str(BOT_ID)})
    assert filtered.status_code == 200 and len(filtered.json()["audit_log_entries"]) == 1
    assert bot.get(f"/guilds/{GUILD_ID}/audit-logs", params={"limit": 500}).status_code == 400
    assert bot.get("/guilds/1/audit-logs").status_code == 404
