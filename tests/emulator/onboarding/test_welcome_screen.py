"""The welcome screen over real HTTP and the Gateway: hidden, only MANAGE_GUILD reads it; a manager edits
it and shows it (the WELCOME_SCREEN_ENABLED feature: GUILD_UPDATE and a GUILD_UPDATE audit entry), after
which any member reads it; bad input names the field and changes nothing."""

from __future__ import annotations

import asyncio
import json

from channel_helpers import GENERAL, LOUNGE, grant_bot
from emulator_world import BOT_TOKEN, GUILD_ID
from onboarding_helpers import admin, audit_entries, bot, features
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission
from social_helpers import GatewayClient

SCREEN = f"/guilds/{GUILD_ID}/welcome-screen"
GUILDS = 1 << 0


def test_a_manager_edits_and_shows_the_welcome_screen(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        gateway = await GatewayClient.connect(emu)
        await gateway.identify(BOT_TOKEN, intents=GUILDS)
        await gateway.dispatch("GUILD_CREATE")
        with bot(emu) as http:
            hidden = await asyncio.to_thread(http.get, SCREEN)
            assert hidden.status_code == 403 and "MANAGE_GUILD" in hidden.json()["message"]
            refused = await asyncio.to_thread(http.patch, SCREEN, json={"enabled": True})
            assert refused.status_code == 403 and refused.json()["code"] == 50013

            grant_bot(emu, Permission.MANAGE_GUILD)
            empty = await asyncio.to_thread(http.get, SCREEN)
            assert empty.json() == {"description": None, "welcome_channels": []}
            # a channel id as an integer, an unknown field, and enabled true
            body = {"enabled": True, "description": "Welcome!", "theme": "dark",
                    "welcome_channels": [{"channel_id": GENERAL, "description": "Say hi", "emoji_name": "👋"},
                                         {"channel_id": str(LOUNGE), "description": "Talk",
                                          "emoji_id": None, "emoji_name": None}]}
            edited = await asyncio.to_thread(http.patch, SCREEN, json=body)
            assert edited.status_code == 200, edited.text
            screen = edited.json()
            assert screen == {"description": "Welcome!", "welcome_channels": [
                {"channel_id": str(GENERAL), "description": "Say hi", "emoji_id": None, "emoji_name": "👋"},
                {"channel_id": str(LOUNGE), "description": "Talk", "emoji_id": None, "emoji_name": None}]}
            update = (await gateway.dispatch("GUILD_UPDATE"))["d"]
            assert "WELCOME_SCREEN_ENABLED" in update["features"]
            [entry] = audit_entries(emu, 1)
            assert json.loads(entry["changes"]) == [{"key": "features", "old_value": [],
                                                     "new_value": ["WELCOME_SCREEN_ENABLED"]}]

            # shown: any member reads it
            grant_bot(emu, 0)
            assert (await asyncio.to_thread(http.get, SCREEN)).json() == screen
            grant_bot(emu, Permission.MANAGE_GUILD)
            # a change of the text alone is not a guild update
            described = await asyncio.to_thread(http.patch, SCREEN, json={"description": None})
            assert described.json()["description"] is None
            assert described.json()["welcome_channels"] == screen["welcome_channels"]
            await gateway.no_dispatch("GUILD_UPDATE")
            hidden_again = await asyncio.to_thread(http.patch, SCREEN, json={"enabled": False})
            assert hidden_again.status_code == 200
            assert "WELCOME_SCREEN_ENABLED" not in (await gateway.dispatch("GUILD_UPDATE"))["d"]["features"]
            assert len(audit_entries(emu, 1)) == 2
        await gateway.close()

    asyncio.run(scenario())


def test_bad_input_names_the_field_and_changes_nothing(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, Permission.MANAGE_GUILD)
    channel = {"channel_id": str(GENERAL), "description": "hi"}
    with bot(emu) as http:
        assert http.patch(SCREEN, json={"description": "Hello", "welcome_channels": [channel]}).status_code == 200
        before = http.get(SCREEN).json()
        cases = [
            ({"description": "d" * 141}, ("description",)),
            ({"welcome_channels": [channel] * 6}, ("welcome_channels",)),
            ({"welcome_channels": [{"channel_id": "7999", "description": "x"}]}, ("welcome_channels", "0", "channel_id")),
            ({"welcome_channels": [{"channel_id": str(GENERAL)}]}, ("welcome_channels", "0", "description")),
            ({"welcome_channels": [{"channel_id": "general", "description": "x"}]},
             ("welcome_channels", "0", "channel_id")),
            ({"enabled": "yes"}, ("enabled",)),
        ]
        for body, path in cases:
            refused = http.patch(SCREEN, json=body)
            assert refused.status_code == 400 and refused.json()["code"] == 50035, body
            node = refused.json()["errors"]
            for part in path:
                node = node[part]
            assert node["_errors"], body
        assert http.get(SCREEN).json() == before
        assert "WELCOME_SCREEN_ENABLED" not in features(emu)
        # five channels is the limit, null clears them
        assert len(http.patch(SCREEN, json={"welcome_channels": [channel] * 5}).json()["welcome_channels"]) == 5
        assert http.patch(SCREEN, json={"welcome_channels": None}).json()["welcome_channels"] == []


def test_world_files_and_the_admin_api_set_the_welcome_screen(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with admin(emu) as http:
        bad = http.post("/seed", json={"welcome_screens": [
            {"guild_id": str(GUILD_ID), "enabled": True, "welcome_channels": [{"channel_id": "7999",
                                                                              "description": "x"}]}]})
        assert bad.status_code == 400
        assert "channel_id" in bad.json()["errors"]["welcome_screens"]["0"]["welcome_channels"]["0"]
        assert "WELCOME_SCREEN_ENABLED" not in features(emu)
        seeded = http.post("/seed", json={"welcome_screens": [
            {"guild_id": str(GUILD_ID), "enabled": True, "description": "From a file",
             "welcome_channels": [{"channel_id": str(GENERAL), "description": "Say hi"}]}]})
        assert seeded.status_code == 204, seeded.text
        assert "WELCOME_SCREEN_ENABLED" in features(emu)
        with bot(emu) as bot_http:   # shown, so the bot reads it without MANAGE_GUILD
            assert bot_http.get(SCREEN).json()["description"] == "From a file"
        changed = http.put(f"/guilds/{GUILD_ID}/welcome-screen", json={"enabled": False, "description": "Admin"})
        assert changed.status_code == 200 and changed.json()["description"] == "Admin"
        assert "WELCOME_SCREEN_ENABLED" not in features(emu)
        assert http.put("/guilds/7999/welcome-screen", json={}).status_code == 404
