"""Application commands over real HTTP: create, list (with localizations), get, edit, delete and bulk
overwrite, global and guild; the platform's validation rules; the per-scope limits (100 chat input,
15 user, 15 message); command permissions read by the bot and edited with a user's Bearer token,
announced as APPLICATION_COMMAND_PERMISSIONS_UPDATE."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from emulator_world import ALICE, APP_ID, BOB, BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from social_helpers import GatewayClient, api, bot, user_token

GLOBAL = f"/applications/{APP_ID}/commands"
GUILD = f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands"
PERMISSIONS_SCOPE = "applications.commands.permissions.update"
MODERATOR_ROLE, GENERAL = 1200000000000000010, 1200000000000000101


def chat(name: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": f"{name} things", **extra}


def errors_of(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] == 50035, body
    return dict(body["errors"])


def test_create_get_list_edit_delete_global_and_guild(emu: Emulator) -> None:
    with bot(emu) as http:
        made = http.post(GLOBAL, json=chat("roll", name_localizations={"fr": "lancer"},
                                           options=[{"type": 4, "name": "sides", "description": "n", "required": True,
                                                     "min_value": 2, "max_value": 100}]))
        assert made.status_code == 201, made.text
        command = made.json()
        assert command["name"] == "roll" and command["type"] == 1 and "guild_id" not in command
        assert command["options"][0]["min_value"] == 2 and command["name_localizations"] == {"fr": "lancer"}
        again = http.post(GLOBAL, json=chat("roll", description="replaced", name_localizations={"fr": "lancer"}))
        # the same name and type: replaced, keeping its id
        assert again.status_code == 200 and again.json()["id"] == command["id"]
        assert again.json()["description"] == "replaced" and again.json()["version"] != command["version"]
        listed = http.get(GLOBAL).json()
        assert [c["id"] for c in listed] == [command["id"]] and "name_localizations" not in listed[0]
        assert http.get(GLOBAL, params={"with_localizations": "true"}).json()[0]["name_localizations"] == {"fr": "lancer"}
        assert http.get(f"{GLOBAL}/{command['id']}").json()["description"] == "replaced"
        edited = http.patch(f"{GLOBAL}/{command['id']}", json={"description": "edited", "nsfw": True})
        assert edited.status_code == 200 and edited.json()["nsfw"] is True and edited.json()["name"] == "roll"
        guild = http.post(GUILD, json={"name": "Report", "type": 3}).json()
        assert guild["guild_id"] == str(GUILD_ID) and guild["description"] == ""
        assert [c["id"] for c in http.get(GUILD).json()] == [guild["id"]]
        assert http.get(f"{GLOBAL}/{guild['id']}").status_code == 404   # a guild command is not global
        assert http.delete(f"{GLOBAL}/{command['id']}").status_code == 204
        assert http.get(f"{GLOBAL}/{command['id']}").json()["code"] == 10063
        assert http.get(f"/applications/{APP_ID}/guilds/1/commands").status_code == 404
        assert http.get(f"/applications/1/commands").status_code == 403   # another application's


@pytest.mark.parametrize(("body", "path"), [
    (chat("Roll"), ["name"]),                                   # chat input names are lower case
    (chat("two words"), ["name"]),
    ({"name": "ok"}, ["description"]),
    ({"name": "User Thing", "type": 2, "description": "no"}, ["description"]),
    ({"name": "x", "type": 2, "options": [{"type": 3, "name": "a", "description": "a"}]}, ["options"]),
    (chat("a", options=[{"type": 3, "name": "opt", "description": "o"},
                        {"type": 3, "name": "req", "description": "r", "required": True}]),
     ["options", "1", "required"]),
    (chat("a", options=[{"type": 3, "name": "o", "description": "o", "autocomplete": True,
                         "choices": [{"name": "x", "value": "x"}]}]), ["options", "0", "autocomplete"]),
    (chat("a", options=[{"type": 5, "name": "o", "description": "o", "choices": [{"name": "x", "value": "x"}]}]),
     ["options", "0", "choices"]),
    (chat("a", options=[{"type": 4, "name": "o", "description": "o", "min_value": 5, "max_value": 1}]),
     ["options", "0", "min_value"]),
    (chat("a", options=[{"type": 3, "name": "o", "description": "o", "choices": [{"name": "c", "value": str(i)}
                                                                                   for i in range(26)]}]),
     ["options", "0", "choices"]),
    (chat("a", options=[{"type": 1, "name": "s", "description": "s"}, {"type": 3, "name": "o", "description": "o"}]),
     ["options", "1", "type"]),
    (chat("a", options=[{"type": 2, "name": "g", "description": "g",
                         "options": [{"type": 2, "name": "h", "description": "h"}]}]), ["options", "0", "options", "0", "type"]),
    (chat("a", name_localizations={"xx": "a"}), ["name_localizations", "xx"]),
    (chat("a", default_member_permissions="lots"), ["default_member_permissions"]),
    (chat("a", contexts=[0, 7]), ["contexts", "1"]),
    (chat("a", integration_types=[2]), ["integration_types", "0"]),
    (chat("a", options=[{"type": 3, "name": f"o{k}", "description": "x" * 100, "choices": [
        {"name": f"{i:02}" + "n" * 98, "value": "v" * 100} for i in range(25)]} for k in range(2)]), ["options"]),
])
def test_invalid_commands_are_refused_at_the_path_of_the_bad_field(emu: Emulator, body: dict[str, Any],
                                                                    path: list[str]) -> None:
    with bot(emu) as http:
        node: Any = errors_of(http.post(GLOBAL, json=body))
        for part in path:
            assert part in node, (path, node)
            node = node[part]
        assert "_errors" in node
        assert http.get(GLOBAL).json() == []   # nothing was written


def test_limits_per_scope_the_sixteenth_context_menu_command_is_refused(emu: Emulator) -> None:
    assert httpx.put(f"{emu.base_url}/_emulator/rate-limits", json={"limit": 10000, "window_s": 1}).status_code < 300
    with bot(emu) as http:
        for kind in (2, 3):
            for index in range(15):
                assert http.post(GUILD, json={"name": f"Thing {index}", "type": kind}).status_code == 201
            refused = http.post(GUILD, json={"name": "Thing 15", "type": kind})
            assert refused.status_code == 400 and refused.json()["code"] == 30032, refused.text
        assert http.post(GLOBAL, json={"name": "Thing 15", "type": 2}).status_code == 201   # another scope
        for index in range(100):
            assert http.post(GUILD, json=chat(f"c{index}")).status_code == 201
        assert http.post(GUILD, json=chat("c100")).json()["code"] == 30032
        assert len(http.get(GUILD).json()) == 130
        over = [{"name": f"U {i}", "type": 2} for i in range(16)]
        assert http.put(GLOBAL, json=over).json()["code"] == 30032


def test_bulk_overwrite_keeps_ids_of_same_names_and_removes_the_rest(emu: Emulator) -> None:
    with bot(emu) as http:
        kept = http.post(GLOBAL, json=chat("keep")).json()
        gone = http.post(GLOBAL, json=chat("gone")).json()
        result = http.put(GLOBAL, json=[chat("keep", description="new"), {"name": "Inspect", "type": 2}])
        assert result.status_code == 200, result.text
        by_name = {c["name"]: c for c in result.json()}
        assert by_name["keep"]["id"] == kept["id"] and by_name["keep"]["description"] == "new"
        assert set(by_name) == {"keep", "Inspect"}
        assert http.get(f"{GLOBAL}/{gone['id']}").status_code == 404
        bad = http.put(GLOBAL, json=[chat("fine"), chat("Bad")])
        assert bad.status_code == 400 and "1" in bad.json()["errors"]
        assert {c["name"] for c in http.get(GLOBAL).json()} == {"keep", "Inspect"}
        assert http.put(GLOBAL, json=[]).json() == [] and http.get(GLOBAL).json() == []


def test_command_permissions_are_edited_by_a_manager_with_the_scope_and_announced(emu: Emulator) -> None:
    async def scenario() -> None:
        gateway = await GatewayClient.connect(emu)
        await gateway.identify(BOT_TOKEN, intents=1)
        with bot(emu) as http:
            command = http.post(GUILD, json=chat("ban")).json()
            path = f"{GUILD}/{command['id']}/permissions"
            assert http.get(path).json()["code"] == 10066
            body = {"permissions": [{"id": str(MODERATOR_ROLE), "type": 1, "permission": True},
                                    {"id": str(GUILD_ID), "type": 1, "permission": False}]}
            assert http.put(path, json=body).status_code == 403          # bots cannot
            with api(emu, user_token(emu, ALICE, "identify")) as no_scope:
                assert no_scope.put(path, json=body).status_code == 403
            with api(emu, user_token(emu, BOB, PERMISSIONS_SCOPE)) as bob:
                assert bob.put(path, json=body).json()["code"] == 50013  # not a manager
            with api(emu, user_token(emu, ALICE, PERMISSIONS_SCOPE)) as alice:
                bad = alice.put(path, json={"permissions": [{"id": "5", "type": 1, "permission": True}]})
                assert "permissions" in bad.json()["errors"]
                saved = alice.put(path, json=body)
                assert saved.status_code == 200, saved.text
                assert saved.json()["permissions"] == body["permissions"]
            dispatch = await gateway.dispatch("APPLICATION_COMMAND_PERMISSIONS_UPDATE")
            assert dispatch["d"]["id"] == command["id"] and dispatch["d"]["guild_id"] == str(GUILD_ID)
            assert http.get(path).json()["permissions"] == body["permissions"]
            assert [p["id"] for p in http.get(f"{GUILD}/permissions").json()] == [command["id"]]
        await gateway.close()

    asyncio.run(scenario())
