"""Conformance of the guild template operations: every success and error body checked against the
published schema."""

from __future__ import annotations

import pytest
from channel_helpers import grant_bot
from conformance_client import ClientFactory
from emulator_world import BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission

BOT = f"Bot {BOT_TOKEN}"
TEMPLATES = f"/guilds/{GUILD_ID}/templates"


@pytest.mark.covers("GET /guilds/templates/{code}", "GET /guilds/{guild_id}/templates",
                    "POST /guilds/{guild_id}/templates", "PUT /guilds/{guild_id}/templates/{code}",
                    "PATCH /guilds/{guild_id}/templates/{code}", "DELETE /guilds/{guild_id}/templates/{code}")
def test_guild_templates(emu: Emulator, client: ClientFactory) -> None:
    bot, anyone = client(BOT), client()
    assert bot.get(TEMPLATES).status_code == 403
    assert bot.post(TEMPLATES, json={"name": "Starter"}).status_code == 403
    grant_bot(emu, Permission.MANAGE_GUILD | Permission.MANAGE_CHANNELS | Permission.MANAGE_ROLES)
    # a forum channel and an overwrite give the snapshot's every kind of field
    assert bot.post(f"/guilds/{GUILD_ID}/channels", json={
        "name": "ideas", "type": 15, "available_tags": [{"name": "bug", "emoji_name": "🐛"}],
        "default_reaction_emoji": {"emoji_name": "👍"},
        "permission_overwrites": [{"id": str(GUILD_ID), "type": 0, "allow": "0", "deny": "2048"}]}).status_code == 201
    assert bot.get(TEMPLATES).json() == []
    assert bot.post(TEMPLATES, json={"name": ""}).status_code == 400
    created = bot.post(TEMPLATES, json={"name": "Starter", "description": "for friends"})
    assert created.status_code == 200
    code = created.json()["code"]
    forum = [c for c in created.json()["serialized_source_guild"]["channels"] if c["name"] == "ideas"]
    assert forum[0]["type"] == 15 and forum[0]["available_tags"][0]["name"] == "bug"
    assert forum[0]["permission_overwrites"] == [{"id": "0", "type": 0, "allow": "0", "deny": "2048"}]
    assert bot.post(TEMPLATES, json={"name": "Twice"}).json()["code"] == 30031
    assert len(bot.get(TEMPLATES).json()) == 1
    assert anyone.get(f"/guilds/templates/{code}").json() == created.json()
    assert anyone.get("/guilds/templates/unknown").status_code == 404
    assert bot.patch(f"/guilds/{GUILD_ID}", json={"name": "Renamed"}).status_code == 200
    assert bot.put(f"{TEMPLATES}/{code}").json()["serialized_source_guild"]["name"] == "Renamed"
    assert bot.put(f"{TEMPLATES}/unknown").status_code == 404
    assert bot.patch(f"{TEMPLATES}/{code}", json={"description": "d" * 121}).status_code == 400
    assert bot.patch(f"{TEMPLATES}/{code}", json={"name": "Club"}).json()["name"] == "Club"
    assert bot.delete(f"{TEMPLATES}/{code}").json()["name"] == "Club"
    assert bot.delete(f"{TEMPLATES}/{code}").status_code == 404
