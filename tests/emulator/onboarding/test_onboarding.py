"""Guild onboarding over real HTTP and the Gateway: MANAGE_GUILD and MANAGE_ROLES edit it; prompts keep
their ids; enabling needs 7 opted-in channels, 5 where @everyone can send (350000; 350001 for an enabled
onboarding falling below), counting the prompts' channels only in advanced mode; each change is in the
audit log (163-167) and the guild's onboarding features follow (GUILD_UPDATE); bad input names the field
and changes nothing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from channel_helpers import GENERAL, MODERATOR_ROLE, grant_bot
from emulator_world import BOT_TOKEN, GUILD_ID
from onboarding_helpers import admin, audit_entries, bot, features, make_channels
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission
from social_helpers import GatewayClient

ONBOARDING = f"/guilds/{GUILD_ID}/onboarding"
EDITOR = Permission.MANAGE_GUILD | Permission.MANAGE_ROLES
GUILDS = 1 << 0
PROMPT_ID, OPTION_ID = "1300000000000000901", "1300000000000000902"


def prompt(**fields: Any) -> dict[str, Any]:
    return {"id": PROMPT_ID, "title": "What brings you here?", "single_select": True,
            "options": [{"id": OPTION_ID, "title": "Modding", "description": "Make things",
                         "emoji_name": "🔧", "role_ids": [str(MODERATOR_ROLE)], "channel_ids": [GENERAL]}],
            **fields}


def test_prompts_are_kept_and_audited(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        gateway = await GatewayClient.connect(emu)
        await gateway.identify(BOT_TOKEN, intents=GUILDS)
        await gateway.dispatch("GUILD_CREATE")
        with bot(emu) as http:
            empty = await asyncio.to_thread(http.get, ONBOARDING)
            assert empty.json() == {"guild_id": str(GUILD_ID), "prompts": [], "default_channel_ids": [],
                                    "enabled": False, "mode": 0}
            grant_bot(emu, Permission.MANAGE_GUILD)
            refused = await asyncio.to_thread(http.put, ONBOARDING, json={"prompts": [prompt()]})
            assert refused.status_code == 403 and "MANAGE_ROLES" in refused.json()["message"]

            grant_bot(emu, EDITOR)
            saved = await asyncio.to_thread(http.put, ONBOARDING, json={"prompts": [prompt()], "mode": 1})
            assert saved.status_code == 200, saved.text
            body = saved.json()
            assert body["mode"] == 1 and body["enabled"] is False
            [shown] = body["prompts"]
            assert shown["id"] == PROMPT_ID and shown["single_select"] is True and shown["required"] is False
            assert shown["in_onboarding"] is True and shown["type"] == 0
            assert shown["options"] == [{"id": OPTION_ID, "title": "Modding", "description": "Make things",
                                         "emoji": {"id": None, "name": "🔧", "animated": False},
                                         "role_ids": [str(MODERATOR_ROLE)], "channel_ids": [str(GENERAL)]}]
            assert (await asyncio.to_thread(http.get, ONBOARDING)).json() == body
            update = (await gateway.dispatch("GUILD_UPDATE"))["d"]
            assert "GUILD_ONBOARDING_HAS_PROMPTS" in update["features"]
            [created] = audit_entries(emu, 166)
            assert {c["key"]: c.get("new_value") for c in json.loads(created["changes"])} == {
                "enabled": False, "mode": 1, "default_channel_ids": []}
            [prompt_created] = audit_entries(emu, 163)
            assert prompt_created["target_id"] == int(PROMPT_ID)

            # an option without an id is given one; the prompt is changed, not replaced
            changed = prompt(title="Why are you here?", options=[{"title": "Chat"}])
            edited = await asyncio.to_thread(http.put, ONBOARDING, json={"prompts": [changed]})
            option = edited.json()["prompts"][0]["options"][0]
            assert option["id"].isdigit() and option["role_ids"] == [] and option["description"] is None
            assert edited.json()["mode"] == 1   # fields not given are kept
            [prompt_updated] = audit_entries(emu, 164)
            assert "title" in {c["key"] for c in json.loads(prompt_updated["changes"])}
            assert audit_entries(emu, 167) == []   # the settings did not change

            cleared = await asyncio.to_thread(http.put, ONBOARDING, json={"prompts": []})
            assert cleared.json()["prompts"] == []
            assert [e["target_id"] for e in audit_entries(emu, 165)] == [int(PROMPT_ID)]
            assert "GUILD_ONBOARDING_HAS_PROMPTS" not in (await gateway.dispatch("GUILD_UPDATE"))["d"]["features"]
        await gateway.close()

    asyncio.run(scenario())


def test_enabling_needs_enough_channels_everyone_can_talk_in(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, EDITOR)
    open_rooms = make_channels(emu, 4)
    muted = make_channels(emu, 3, muted=True, prefix="announcements")
    with bot(emu) as http:
        too_few = http.put(ONBOARDING, json={"enabled": True, "default_channel_ids": open_rooms[:3]})
        assert too_few.status_code == 400 and too_few.json()["code"] == 350000
        # seven channels, but @everyone may send in only four of them
        quiet = http.put(ONBOARDING, json={"enabled": True, "default_channel_ids": open_rooms + muted})
        assert quiet.status_code == 400 and quiet.json()["code"] == 350000
        assert http.get(ONBOARDING).json()["enabled"] is False and audit_entries(emu, 166) == []

        enough = [*open_rooms, GENERAL, *muted]   # general: five where @everyone can send
        enabled = http.put(ONBOARDING, json={"enabled": True, "default_channel_ids": enough})
        assert enabled.status_code == 200, enabled.text
        assert enabled.json()["enabled"] is True and enabled.json()["default_channel_ids"] == [str(c) for c in enough]
        assert {"GUILD_ONBOARDING", "GUILD_ONBOARDING_EVER_ENABLED"} <= set(features(emu))

        below = http.put(ONBOARDING, json={"default_channel_ids": open_rooms})
        assert below.status_code == 400 and below.json()["code"] == 350001
        assert http.get(ONBOARDING).json()["default_channel_ids"] == [str(c) for c in enough]

        disabled = http.put(ONBOARDING, json={"enabled": False, "default_channel_ids": open_rooms})
        assert disabled.status_code == 200 and disabled.json()["enabled"] is False
        assert "GUILD_ONBOARDING" not in features(emu) and "GUILD_ONBOARDING_EVER_ENABLED" in features(emu)
        [update] = [e for e in audit_entries(emu, 167) if "enabled" in e["changes"]][-1:]
        assert {"key": "enabled", "old_value": True, "new_value": False} in json.loads(update["changes"])


def test_advanced_mode_counts_the_prompts_channels(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, EDITOR)
    defaults = make_channels(emu, 3)
    chosen = make_channels(emu, 4, prefix="topic")
    question = prompt(options=[{"title": "Topics", "channel_ids": chosen}])
    body = {"enabled": True, "default_channel_ids": defaults, "prompts": [question]}
    with bot(emu) as http:
        plain = http.put(ONBOARDING, json={**body, "mode": 0})
        assert plain.status_code == 400 and plain.json()["code"] == 350000
        advanced = http.put(ONBOARDING, json={**body, "mode": 1})
        assert advanced.status_code == 200 and advanced.json()["enabled"] is True
        # back to the default mode, the same channels fall below the requirements
        fallen = http.put(ONBOARDING, json={"mode": 0})
        assert fallen.status_code == 400 and fallen.json()["code"] == 350001


def test_bad_input_names_the_field_and_changes_nothing(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, EDITOR)
    with bot(emu) as http:
        assert http.put(ONBOARDING, json={"prompts": [prompt()]}).status_code == 200
        before = http.get(ONBOARDING).json()
        option = prompt()["options"][0]
        cases = [
            ({"mode": 2}, ("mode",)),
            ({"enabled": "no"}, ("enabled",)),
            ({"default_channel_ids": ["7999"]}, ("default_channel_ids", "0")),
            ({"prompts": [prompt(title="")]}, ("prompts", "0", "title")),
            ({"prompts": [prompt(options=[])]}, ("prompts", "0", "options")),
            ({"prompts": [prompt(type=3)]}, ("prompts", "0", "type")),
            ({"prompts": [prompt()] * 16}, ("prompts",)),
            ({"prompts": [prompt(options=[{**option, "title": "t" * 51}])]}, ("prompts", "0", "options", "0", "title")),
            ({"prompts": [prompt(options=[{**option, "role_ids": ["7999"]}])]},
             ("prompts", "0", "options", "0", "role_ids", "0")),
            ({"prompts": [prompt(options=[{**option, "role_ids": [str(GUILD_ID)]}])]},
             ("prompts", "0", "options", "0", "role_ids", "0")),
            ({"prompts": [prompt(options=[{**option, "channel_ids": ["x"]}])]},
             ("prompts", "0", "options", "0", "channel_ids")),
        ]
        for body, path in cases:
            refused = http.put(ONBOARDING, json=body)
            assert refused.status_code == 400 and refused.json()["code"] == 50035, body
            node = refused.json()["errors"]
            for part in path:
                node = node[part]
            assert node["_errors"], body
        assert http.get(ONBOARDING).json() == before
        # nulls leave fields as they are; repeated ids are kept once
        same = http.put(ONBOARDING, json={"enabled": None, "mode": None, "prompts": None,
                                          "default_channel_ids": [GENERAL, str(GENERAL)]})
        assert same.status_code == 200 and same.json()["prompts"] == before["prompts"]
        assert same.json()["default_channel_ids"] == [str(GENERAL)]


def test_world_files_and_the_admin_api_set_onboarding(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    rooms = make_channels(emu, 7)
    with admin(emu) as http:
        below = http.post("/seed", json={"guild_onboarding": [
            {"guild_id": str(GUILD_ID), "enabled": True, "default_channel_ids": rooms[:2]}]})
        assert below.status_code == 400 and "enabled" in below.json()["errors"]["guild_onboarding"]["0"]
        unknown = http.post("/seed", json={"guild_onboarding": [{"guild_id": str(GUILD_ID), "modes": 1}]})
        assert unknown.status_code == 400 and "modes" in unknown.json()["errors"]["guild_onboarding"]["0"]
        seeded = http.post("/seed", json={"guild_onboarding": [
            {"guild_id": str(GUILD_ID), "enabled": True, "default_channel_ids": rooms, "prompts": [prompt()]}]})
        assert seeded.status_code == 204, seeded.text
        assert audit_entries(emu, 166) == []   # a world file is the world as it stands
        with bot(emu) as bot_http:
            shown = bot_http.get(ONBOARDING).json()
            assert shown["enabled"] is True and shown["prompts"][0]["id"] == PROMPT_ID
        changed = http.put(f"/guilds/{GUILD_ID}/onboarding", json={"enabled": False})
        assert changed.status_code == 200 and changed.json()["enabled"] is False
        [entry] = audit_entries(emu, 167)
        owner = emu.state.db.query_one("SELECT owner_id FROM guilds WHERE id = ?", (GUILD_ID,))[0]
        assert entry["user_id"] == owner
