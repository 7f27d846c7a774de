"""Conformance of a guild's pages for new members (welcome screen, onboarding, new member welcome):
every success and error body checked against the published schema."""

from __future__ import annotations

import httpx
import pytest
from channel_helpers import GENERAL, MODERATOR_ROLE, grant_bot
from conformance_client import ClientFactory
from emulator_world import ALICE, BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission

BOT = f"Bot {BOT_TOKEN}"
GUILD = f"/guilds/{GUILD_ID}"


@pytest.mark.covers("GET /guilds/{guild_id}/welcome-screen", "PATCH /guilds/{guild_id}/welcome-screen")
def test_welcome_screen(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.get(f"{GUILD}/welcome-screen").status_code == 403
    grant_bot(emu, Permission.MANAGE_GUILD)
    assert bot.get(f"{GUILD}/welcome-screen").json()["welcome_channels"] == []
    assert bot.patch(f"{GUILD}/welcome-screen", json={"description": "d" * 141}).status_code == 400
    edited = bot.patch(f"{GUILD}/welcome-screen", json={
        "enabled": True, "description": "Welcome",
        "welcome_channels": [{"channel_id": str(GENERAL), "description": "Say hi", "emoji_name": "👋"}]})
    assert edited.status_code == 200 and edited.json()["welcome_channels"][0]["emoji_name"] == "👋"


@pytest.mark.covers("GET /guilds/{guild_id}/onboarding", "PUT /guilds/{guild_id}/onboarding")
def test_onboarding(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.get("/guilds/7999/onboarding").status_code == 404
    assert bot.put(f"{GUILD}/onboarding", json={"mode": 1}).status_code == 403
    grant_bot(emu, Permission.MANAGE_GUILD | Permission.MANAGE_ROLES)
    question = {"id": "1300000000000000901", "title": "Why?", "options": [
        {"title": "Modding", "emoji_name": "🔧", "role_ids": [str(MODERATOR_ROLE)], "channel_ids": [str(GENERAL)]}]}
    saved = bot.put(f"{GUILD}/onboarding", json={"prompts": [question], "default_channel_ids": [str(GENERAL)]})
    assert saved.status_code == 200 and saved.json()["prompts"][0]["options"][0]["emoji"]["name"] == "🔧"
    assert bot.get(f"{GUILD}/onboarding").json() == saved.json()
    refused = bot.put(f"{GUILD}/onboarding", json={"enabled": True})
    assert refused.status_code == 400 and refused.json()["code"] == 350000
    # the audit entries it wrote read back as the schema has them
    grant_bot(emu, Permission.VIEW_AUDIT_LOG)
    entries = bot.get(f"{GUILD}/audit-logs").json()["audit_log_entries"]
    assert {e["action_type"] for e in entries} == {163, 166}


@pytest.mark.covers("GET /guilds/{guild_id}/new-member-welcome")
def test_new_member_welcome(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.get(f"{GUILD}/new-member-welcome").status_code == 204
    assert bot.get("/guilds/7999/new-member-welcome").status_code == 404
    saved = httpx.put(f"{emu.base_url}/_emulator{GUILD}/new-member-welcome", json={
        "enabled": True, "welcome_message": {"author_ids": [str(ALICE)], "message": "Hi"},
        "new_member_actions": [{"channel_id": str(GENERAL), "action_type": 0, "title": "Read",
                                "description": "the rules", "emoji": {"name": "📜"}}],
        "resource_channels": [{"channel_id": str(GENERAL), "title": "FAQ", "description": "answers"}]})
    assert saved.status_code == 200, saved.text
    shown = bot.get(f"{GUILD}/new-member-welcome")
    assert shown.status_code == 200 and shown.json()["welcome_message"]["message"] == "Hi"
