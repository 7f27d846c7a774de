"""Auto moderation rules over real HTTP and the Gateway: MANAGE_GUILD lists, creates, edits and deletes
them, heard as AUTO_MODERATION_RULE_* by bots with MANAGE_GUILD on sessions with
AUTO_MODERATION_CONFIGURATION, written to the audit log (140/141/142); bad input names the field and
leaves nothing behind; the per-guild limits; world files and the admin API set rules up."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from automod_helpers import AUTOMOD_CONFIGURATION, GUILDS, call, keyword_rule, rules_path
from channel_helpers import GENERAL, MODERATORS, grant_bot
from emulator_world import ALICE, BOB, BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.core.fixtures import default_world
from platformpp.emulator.core.permissions import Permission
from social_helpers import GatewayClient


def audit_entries(emu: Emulator, action_type: int) -> list[dict[str, Any]]:
    response = call(emu, "GET", f"/guilds/{GUILD_ID}/audit-logs?action_type={action_type}")
    assert response.status_code == 200, response.text
    return list(response.json()["audit_log_entries"])


def test_a_manager_creates_lists_edits_and_deletes_a_rule(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        heard = await GatewayClient.connect(emu)
        await heard.identify(BOT_TOKEN, intents=GUILDS | AUTOMOD_CONFIGURATION)
        deaf = await GatewayClient.connect(emu)   # without the intent
        await deaf.identify(BOT_TOKEN, intents=GUILDS)

        refused = await asyncio.to_thread(call, emu, "POST", rules_path(), keyword_rule(["cake"]))
        assert refused.status_code == 403 and refused.json()["code"] == 50013
        assert "MANAGE_GUILD" in refused.json()["message"]
        assert (await asyncio.to_thread(call, emu, "GET", rules_path())).status_code == 403

        grant_bot(emu, Permission.MANAGE_GUILD | Permission.VIEW_AUDIT_LOG)
        # ids as integers, unknown fields and a null trigger_metadata field inside are accepted
        body = keyword_rule(["cake", "*spoon*"], regex=[r"fo+bar"], allow=["pancake"],
                            actions=[{"type": 1, "metadata": {"custom_message": "Not here"}},
                                     {"type": 2, "metadata": {"channel_id": MODERATORS}}],
                            exempt_channels=[MODERATORS], flavour="vanilla")
        created = await asyncio.to_thread(call, emu, "POST", rules_path(), body)
        assert created.status_code == 200, created.text
        rule = created.json()
        assert rule["guild_id"] == str(GUILD_ID) and rule["creator_id"] == "1000000000000000001"
        assert rule["trigger_metadata"] == {"keyword_filter": ["cake", "*spoon*"], "regex_patterns": ["fo+bar"],
                                            "allow_list": ["pancake"]}
        assert rule["actions"] == [{"type": 1, "metadata": {"custom_message": "Not here"}},
                                   {"type": 2, "metadata": {"channel_id": str(MODERATORS)}}]
        assert rule["exempt_channels"] == [str(MODERATORS)] and rule["exempt_roles"] == [] and rule["enabled"]
        assert (await heard.dispatch("AUTO_MODERATION_RULE_CREATE"))["d"] == rule

        listed = await asyncio.to_thread(call, emu, "GET", rules_path())
        assert listed.status_code == 200 and listed.json() == [rule]
        assert (await asyncio.to_thread(call, emu, "GET", rules_path(rule["id"]))).json() == rule

        edited = await asyncio.to_thread(call, emu, "PATCH", rules_path(rule["id"]),
                                         {"name": "No cake", "enabled": False, "trigger_type": 1,
                                          "trigger_metadata": {"keyword_filter": ["pie"]}})
        assert edited.status_code == 200, edited.text
        assert edited.json()["name"] == "No cake" and edited.json()["enabled"] is False
        assert edited.json()["trigger_metadata"] == {"keyword_filter": ["pie"], "regex_patterns": [], "allow_list": []}
        assert edited.json()["actions"] == rule["actions"]   # what the PATCH left out stays
        assert (await heard.dispatch("AUTO_MODERATION_RULE_UPDATE"))["d"] == edited.json()

        deleted = await asyncio.to_thread(call, emu, "DELETE", rules_path(rule["id"]))
        assert deleted.status_code == 204
        assert (await heard.dispatch("AUTO_MODERATION_RULE_DELETE"))["d"] == edited.json()
        gone = await asyncio.to_thread(call, emu, "GET", rules_path(rule["id"]))
        assert gone.status_code == 404 and gone.json()["code"] == 10066
        await deaf.no_dispatch("AUTO_MODERATION_RULE_CREATE")
        for client in (heard, deaf):
            await client.close()

    asyncio.run(scenario())
    created, updated, deleted = (audit_entries(emu, n) for n in (140, 141, 142))
    assert len(created) == len(updated) == len(deleted) == 1
    assert {"key": "name", "new_value": "Keyword rule"} in created[0]["changes"]
    assert {"key": "name", "old_value": "Keyword rule", "new_value": "No cake"} in updated[0]["changes"]
    assert {"key": "enabled", "old_value": True, "new_value": False} in updated[0]["changes"]
    assert {"key": "name", "old_value": "No cake"} in deleted[0]["changes"]


def test_bots_without_manage_guild_do_not_hear_rule_changes(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILDS | AUTOMOD_CONFIGURATION)
        grant_bot(emu, 0)
        made = await asyncio.to_thread(httpx.post, f"{emu.base_url}/_emulator{rules_path()}",
                                       json={"user_id": str(ALICE), **keyword_rule(["cake"])})
        assert made.status_code == 200, made.text
        await client.no_dispatch("AUTO_MODERATION_RULE_CREATE")
        await client.close()

    asyncio.run(scenario())


def test_bad_input_names_the_field_and_creates_nothing(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, Permission.MANAGE_GUILD)
    cases: list[tuple[dict[str, Any], tuple[str, ...]]] = [
        ({**keyword_rule(["x"]), "name": ""}, ("name",)),
        ({**keyword_rule(["x"]), "name": "n" * 101}, ("name",)),
        ({**keyword_rule(["x"]), "event_type": 9}, ("event_type",)),
        ({**keyword_rule(["x"]), "trigger_type": 2}, ("trigger_type",)),
        ({**keyword_rule(["x"]), "enabled": "yes"}, ("enabled",)),
        (keyword_rule(["k" * 61]), ("trigger_metadata", "keyword_filter", "0")),
        (keyword_rule([f"w{i}" for i in range(1001)]), ("trigger_metadata", "keyword_filter")),
        (keyword_rule([], regex=[r"(a)\1"]), ("trigger_metadata", "regex_patterns", "0")),
        (keyword_rule([], regex=["(?=x)y"]), ("trigger_metadata", "regex_patterns", "0")),
        (keyword_rule([], regex=["[unclosed"]), ("trigger_metadata", "regex_patterns", "0")),
        (keyword_rule([], regex=["r" * 261]), ("trigger_metadata", "regex_patterns", "0")),
        (keyword_rule([], regex=[f"p{i}" for i in range(11)]), ("trigger_metadata", "regex_patterns")),
        (keyword_rule(["x"], allow=[f"a{i}" for i in range(101)]), ("trigger_metadata", "allow_list")),
        (keyword_rule(["x"], actions=[]), ("actions",)),
        (keyword_rule(["x"], actions=[{"type": 1}] * 6), ("actions",)),
        (keyword_rule(["x"], actions=[{"type": 7}]), ("actions", "0", "type")),
        (keyword_rule(["x"], actions=[{"type": 1, "metadata": {"custom_message": "m" * 151}}]),
         ("actions", "0", "metadata", "custom_message")),
        (keyword_rule(["x"], actions=[{"type": 2, "metadata": {}}]), ("actions", "0", "metadata", "channel_id")),
        (keyword_rule(["x"], actions=[{"type": 2, "metadata": {"channel_id": "1"}}]),
         ("actions", "0", "metadata", "channel_id")),
        (keyword_rule(["x"], actions=[{"type": 3, "metadata": {"duration_seconds": 2419201}}]),
         ("actions", "0", "metadata", "duration_seconds")),
        # a timeout needs the caller's MODERATE_MEMBERS; blocking interactions is for profile rules only
        (keyword_rule(["x"], actions=[{"type": 3, "metadata": {"duration_seconds": 60}}]), ("actions", "0", "type")),
        (keyword_rule(["x"], actions=[{"type": 4}]), ("actions", "0", "type")),
        ({"name": "spam", "event_type": 1, "trigger_type": 3, "actions": [{"type": 3, "metadata": {"duration_seconds": 5}}]},
         ("actions", "0", "type")),
        ({"name": "preset", "event_type": 1, "trigger_type": 4, "trigger_metadata": {"presets": [4]}},
         ("trigger_metadata", "presets", "0")),
        ({"name": "mentions", "event_type": 1, "trigger_type": 5, "trigger_metadata": {"mention_total_limit": 51}},
         ("trigger_metadata", "mention_total_limit")),
        ({"name": "profile", "event_type": 1, "trigger_type": 6}, ("event_type",)),
        (keyword_rule(["x"], exempt_roles=[str(i) for i in range(1, 22)]), ("exempt_roles",)),
        (keyword_rule(["x"], exempt_roles=["5"]), ("exempt_roles", "0")),
        (keyword_rule(["x"], exempt_channels=["nope"]), ("exempt_channels", "0")),
        (keyword_rule(["x"], exempt_channels=["5"]), ("exempt_channels", "0")),
    ]
    for body, path in cases:
        response = call(emu, "POST", rules_path(), body)
        assert response.status_code == 400 and response.json()["code"] == 50035, (body, response.text)
        node = response.json()["errors"]
        for part in path:
            assert part in node, (path, response.text)
            node = node[part]
        assert node["_errors"][0]["message"], response.text
    assert emu.state.db.query_one("SELECT COUNT(*) FROM auto_moderation_rules")[0] == 0

    rule = call(emu, "POST", rules_path(), keyword_rule(["cake"])).json()
    for body, field in (({"trigger_type": 4}, "trigger_type"), ({"name": ""}, "name"),
                        ({"trigger_metadata": {"keyword_filter": [5]}}, "trigger_metadata"),
                        ({"exempt_channels": ["1"]}, "exempt_channels")):
        response = call(emu, "PATCH", rules_path(rule["id"]), body)
        assert response.status_code == 400 and field in response.json()["errors"], (body, response.text)
    assert call(emu, "GET", rules_path(rule["id"])).json() == rule
    assert call(emu, "PATCH", rules_path("1"), {"name": "x"}).json()["code"] == 10066


def test_per_guild_limits_by_trigger_type(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, Permission.MANAGE_GUILD | Permission.MODERATE_MEMBERS)
    for n in range(6):
        assert call(emu, "POST", rules_path(), keyword_rule([f"w{n}"])).status_code == 200
    seventh = call(emu, "POST", rules_path(), keyword_rule(["w7"]))
    assert seventh.status_code == 400
    assert seventh.json()["errors"]["trigger_type"]["_errors"][0]["code"] == "AUTO_MODERATION_MAX_RULES_OF_TYPE_EXCEEDED"
    others = [{"name": "spam", "event_type": 1, "trigger_type": 3, "actions": [{"type": 1}]},
              {"name": "preset", "event_type": 1, "trigger_type": 4, "trigger_metadata": {"presets": [1, 2, 3]},
               "actions": [{"type": 1}]},
              {"name": "mentions", "event_type": 1, "trigger_type": 5,
               "trigger_metadata": {"mention_total_limit": 5, "mention_raid_protection_enabled": True},
               "actions": [{"type": 3, "metadata": {"duration_seconds": 60}}]},
              {"name": "profile", "event_type": 2, "trigger_type": 6, "trigger_metadata": {"keyword_filter": ["x"]},
               "actions": [{"type": 4}, {"type": 2, "metadata": {"channel_id": str(GENERAL)}}]}]
    for body in others:
        first = call(emu, "POST", rules_path(), body)
        assert first.status_code == 200, first.text
        second = call(emu, "POST", rules_path(), body)
        assert second.status_code == 400 and "trigger_type" in second.json()["errors"], second.text
    shapes = {r["trigger_type"]: r["trigger_metadata"] for r in call(emu, "GET", rules_path()).json()}
    assert shapes[3] == {} and shapes[4] == {"presets": [1, 2, 3], "allow_list": []}
    assert shapes[5] == {"mention_total_limit": 5, "mention_raid_protection_enabled": True}
    assert len(call(emu, "GET", rules_path()).json()) == 10


def test_world_files_and_the_admin_api_set_rules_up(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    world = default_world()
    bad = json.loads(json.dumps(world))
    bad["auto_moderation_rules"] = [{"guild_id": str(GUILD_ID), "creator_id": str(ALICE), "name": "",
                                     "event_type": 1, "trigger_type": 1, "extra": 1,
                                     "actions": [{"type": 2, "metadata": {"channel_id": "1"}}]}]
    refused = httpx.post(f"{emu.base_url}/_emulator/seed?reset=true", json=bad)
    assert refused.status_code == 400, refused.text
    assert set(refused.json()["errors"]["auto_moderation_rules"]["0"]) == {"name", "extra"}
    bad["auto_moderation_rules"][0].update(name="ok", extra=None)
    del bad["auto_moderation_rules"][0]["extra"]
    refused = httpx.post(f"{emu.base_url}/_emulator/seed?reset=true", json=bad)
    assert refused.status_code == 400
    assert "actions" in refused.json()["errors"]["auto_moderation_rules"]["0"], refused.text

    world["auto_moderation_rules"] = [{"id": "1200000000000000900", "guild_id": str(GUILD_ID),
                                       "creator_id": str(ALICE), "name": "No cake", "event_type": 1,
                                       "trigger_type": 1, "trigger_metadata": {"keyword_filter": ["cake"]},
                                       "actions": [{"type": 1}], "enabled": True}]
    loaded = httpx.post(f"{emu.base_url}/_emulator/seed?reset=true", json=world)
    assert loaded.status_code == 204, loaded.text
    grant_bot(emu, Permission.MANAGE_GUILD)
    rule = call(emu, "GET", rules_path("1200000000000000900")).json()
    assert rule["name"] == "No cake" and rule["creator_id"] == str(ALICE) and rule["actions"] == [
        {"type": 1, "metadata": {}}]

    # the admin API: a member creates a rule as they would (Bob may not manage the guild)
    refused = httpx.post(f"{emu.base_url}/_emulator{rules_path()}", json={"user_id": str(BOB), **keyword_rule(["x"])})
    assert refused.status_code == 403 and refused.json()["code"] == 50013
    made = httpx.post(f"{emu.base_url}/_emulator{rules_path()}", json={"user_id": str(ALICE), **keyword_rule(["x"])})
    assert made.status_code == 200 and made.json()["creator_id"] == str(ALICE)
    assert len(call(emu, "GET", rules_path()).json()) == 2


def test_the_audit_log_lists_the_rules_its_entries_refer_to(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, Permission.MANAGE_GUILD | Permission.VIEW_AUDIT_LOG)
    kept = call(emu, "POST", rules_path(), keyword_rule(["cake"])).json()
    gone = call(emu, "POST", rules_path(), keyword_rule(["pie"])).json()
    assert call(emu, "DELETE", rules_path(gone["id"])).status_code == 204
    log = call(emu, "GET", f"/guilds/{GUILD_ID}/audit-logs").json()
    assert [e["target_id"] for e in log["audit_log_entries"]] == [gone["id"], gone["id"], kept["id"]]
    assert log["auto_moderation_rules"] == [kept]   # a deleted rule is no longer listed
    assert call(emu, "GET", f"/guilds/{GUILD_ID}/audit-logs?action_type=142").json()["auto_moderation_rules"] == []
