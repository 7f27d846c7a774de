"""The new member welcome over real HTTP: 204 while the guild has none; set up by world files and the
admin API (which the published API cannot do), then read by any member bot; bad input names the field."""

from __future__ import annotations

from channel_helpers import GENERAL, LOUNGE
from emulator_world import ALICE, BOB, GUILD_ID
from onboarding_helpers import admin, bot
from platformpp.emulator import Emulator

WELCOME = f"/guilds/{GUILD_ID}/new-member-welcome"
SETTINGS = {"enabled": True, "welcome_message": {"author_ids": [str(ALICE)], "message": "Glad you came!"},
            "new_member_actions": [{"channel_id": str(GENERAL), "action_type": 1, "title": "Say hi",
                                    "description": "Introduce yourself", "emoji": {"name": "👋"}}],
            "resource_channels": [{"channel_id": LOUNGE, "title": "Hang out", "description": "Voice"}]}


def test_the_new_member_welcome_is_set_up_then_read(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with bot(emu) as http, admin(emu) as emulator_admin:
        none = http.get(WELCOME)
        assert none.status_code == 204 and none.content == b""
        stranger = http.get("/guilds/7999/new-member-welcome")
        assert stranger.status_code == 404 and stranger.json()["code"] == 10004

        saved = emulator_admin.put(WELCOME, json=SETTINGS)
        assert saved.status_code == 200, saved.text
        shown = http.get(WELCOME)
        assert shown.status_code == 200 and shown.json() == saved.json()
        assert shown.json() == {
            "guild_id": str(GUILD_ID), "enabled": True,
            "welcome_message": {"author_ids": [str(ALICE)], "message": "Glad you came!"},
            "new_member_actions": [{"channel_id": str(GENERAL), "action_type": 1, "title": "Say hi",
                                    "description": "Introduce yourself",
                                    "emoji": {"id": None, "name": "👋", "animated": False}}],
            "resource_channels": [{"channel_id": str(LOUNGE), "title": "Hang out", "description": "Voice"}]}

        for body, field in (({"new_member_actions": [{"channel_id": "7999", "action_type": 0, "title": "x"}]},
                             "new_member_actions"),
                            ({"new_member_actions": [{"channel_id": str(GENERAL), "action_type": 2, "title": "x"}]},
                             "new_member_actions"),
                            ({"welcome_message": {"author_ids": ["7999"], "message": "hi"}}, "welcome_message"),
                            ({"resource_channels": [{"channel_id": str(GENERAL), "title": ""}]}, "resource_channels")):
            refused = emulator_admin.put(WELCOME, json=body)
            assert refused.status_code == 400 and field in refused.json()["errors"], body
        assert http.get(WELCOME).json() == saved.json()

        assert emulator_admin.delete(WELCOME).status_code == 204
        assert http.get(WELCOME).status_code == 204


def test_world_files_set_the_new_member_welcome(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with admin(emu) as emulator_admin:
        seeded = emulator_admin.post("/seed", json={"new_member_welcome": [
            {"guild_id": str(GUILD_ID), "enabled": False,
             "welcome_message": {"author_ids": [str(BOB)], "message": "Hello"}}]})
        assert seeded.status_code == 204, seeded.text
    with bot(emu) as http:
        shown = http.get(WELCOME).json()
        assert shown["enabled"] is False and shown["welcome_message"]["author_ids"] == [str(BOB)]
        assert shown["new_member_actions"] == [] and shown["resource_channels"] == []
