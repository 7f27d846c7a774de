"""Conformance of guild administration: bans, bulk ban and prune; every success and
error body checked against the published schema."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from emulator_world import ALICE, BOB, BOT_ID, BOT_TOKEN, CAROL, GUILD_ID
from platformpp.emulator import Emulator

from conformance_client import ClientFactory

BOT = f"Bot {BOT_TOKEN}"


def admin(emu: Emulator, method: str, path: str, body: Any = None) -> httpx.Response:
    response = httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, timeout=10)
    assert response.status_code < 300, response.text
    return response

# KICK_MEMBERS, BAN_MEMBERS, MANAGE_GUILD
MODERATOR = 2 | 4 | 32


def make_bot_a_moderator(emu: Emulator) -> None:
    role = admin(emu, "POST", f"/guilds/{GUILD_ID}/roles", {"name": "Mod", "position": 5,
                                                            "permissions": str(MODERATOR)}).json()
    admin(emu, "PUT", f"/guilds/{GUILD_ID}/members/{BOT_ID}/roles/{role['id']}")


@pytest.mark.covers("GET /guilds/{guild_id}/bans", "GET /guilds/{guild_id}/bans/{user_id}",
                    "PUT /guilds/{guild_id}/bans/{user_id}", "DELETE /guilds/{guild_id}/bans/{user_id}",
                    "POST /guilds/{guild_id}/bulk-ban")
def test_bans(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.get(f"/guilds/{GUILD_ID}/bans").status_code == 403
    make_bot_a_moderator(emu)
    assert bot.put(f"/guilds/{GUILD_ID}/bans/{BOB}", json={"delete_message_seconds": 30}).status_code == 204
    assert bot.put(f"/guilds/{GUILD_ID}/bans/{ALICE}", json={}).status_code == 403
    assert bot.get(f"/guilds/{GUILD_ID}/bans", params={"limit": 10}).status_code == 200
    assert bot.get(f"/guilds/{GUILD_ID}/bans/{BOB}").status_code == 200
    assert bot.get(f"/guilds/{GUILD_ID}/bans/{CAROL}").status_code == 404
    assert bot.delete(f"/guilds/{GUILD_ID}/bans/{BOB}").status_code == 204
    assert bot.delete(f"/guilds/{GUILD_ID}/bans/{BOB}").status_code == 404
    bulk = bot.post(f"/guilds/{GUILD_ID}/bulk-ban", json={"user_ids": [str(BOB), str(ALICE)]})
    assert bulk.status_code == 200 and bulk.json()["failed_users"] == [str(ALICE)]
    assert bot.post(f"/guilds/{GUILD_ID}/bulk-ban", json={"user_ids": [str(ALICE)]}).status_code == 400


@pytest.mark.covers("GET /guilds/{guild_id}/prune", "POST /guilds/{guild_id}/prune")
def test_prune(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.get(f"/guilds/{GUILD_ID}/prune").status_code == 403
    assert bot.post(f"/guilds/{GUILD_ID}/prune", json={}).status_code == 403
    make_bot_a_moderator(emu)
    assert bot.get(f"/guilds/{GUILD_ID}/prune", params={"days": 30}).status_code == 200
    assert bot.post(f"/guilds/{GUILD_ID}/prune", json={"days": 1, "compute_prune_count": False}).status_code == 200
    assert bot.post(f"/guilds/{GUILD_ID}/prune", json={"days": 0}).status_code == 400
