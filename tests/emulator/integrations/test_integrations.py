"""Guild integrations over real HTTP and the Gateway: each application bot in a guild has one
integration (type ``platform``) with its application, bot user and scopes; a bot added to the guild
brings a new one (INTEGRATION_CREATE and GUILD_INTEGRATIONS_UPDATE to bots with GUILD_INTEGRATIONS);
deleting it (MANAGE_GUILD) removes the bot and its managed role (INTEGRATION_DELETE, GUILD_ROLE_DELETE,
GUILD_MEMBER_REMOVE; GUILD_DELETE to the bot itself) and writes audit entry 82."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from channel_helpers import BOT_ROLE, set_role_permissions
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission
from social_helpers import ALICE, APP_ID, BOT_ID, BOT_TOKEN, GUILD_ID, GatewayClient, bot

GUILDS, GUILD_MEMBERS, GUILD_INTEGRATIONS = 1 << 0, 1 << 1, 1 << 4
OTHER_APP, OTHER_BOT, OTHER_ROLE = 7400000000000000000, 7400000000000000001, 7400000000000000002
OTHER_TOKEN = "NzQwMDAwMDAwMDAwMDAwMDAwMQ.AAAA.another-bot-token-for-the-integration-tests"


def admin(emu: Emulator, method: str, path: str, body: Any = None) -> httpx.Response:
    return httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, timeout=10)


def call(emu: Emulator, method: str, path: str, body: Any = None) -> httpx.Response:
    with bot(emu) as http:
        return http.request(method, path, json=body)


def other_application(emu: Emulator) -> None:
    seeded = admin(emu, "POST", "/seed", {"applications": [{
        "id": str(OTHER_APP), "name": "Helper", "client_secret": "helper-secret-helper-secret",
        "bot": {"id": str(OTHER_BOT), "username": "helper-bot", "token": OTHER_TOKEN}}]})
    assert seeded.status_code == 204, seeded.text
    role = admin(emu, "POST", f"/guilds/{GUILD_ID}/roles", {"id": str(OTHER_ROLE), "name": "Helper",
                                                           "managed": True, "tags": {"bot_id": str(OTHER_BOT)}})
    assert role.status_code == 201, role.text


def test_the_bots_own_integration(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    refused = call(emu, "GET", f"/guilds/{GUILD_ID}/integrations")
    assert refused.status_code == 403 and refused.json()["code"] == 50013
    set_role_permissions(emu, BOT_ROLE, int(Permission.MANAGE_GUILD))
    (integration,) = call(emu, "GET", f"/guilds/{GUILD_ID}/integrations").json()
    assert integration["type"] == "platform" and integration["enabled"] is True
    assert integration["application"]["id"] == str(APP_ID) and integration["application"]["bot"]["id"] == str(BOT_ID)
    assert integration["account"] == {"id": str(APP_ID), "name": "Demo Game"}
    assert set(integration["scopes"]) == {"bot", "applications.commands"}
    assert call(emu, "GET", f"/guilds/{GUILD_ID}/integrations").json() == [integration]   # the same id each time
    assert call(emu, "GET", "/guilds/1/integrations").json()["code"] == 10004


def test_adding_and_removing_a_bot(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    other_application(emu)
    set_role_permissions(emu, BOT_ROLE, int(Permission.MANAGE_GUILD | Permission.VIEW_AUDIT_LOG))

    created_ids: list[str] = []

    async def scenario() -> None:
        watcher = await GatewayClient.connect(emu)
        await watcher.identify(BOT_TOKEN, intents=GUILDS | GUILD_INTEGRATIONS)
        await watcher.dispatch("GUILD_CREATE")
        added = await asyncio.to_thread(admin, emu, "POST", f"/guilds/{GUILD_ID}/members",
                                        {"user_id": str(OTHER_BOT), "roles": [str(OTHER_ROLE)]})
        assert added.status_code == 201, added.text
        created = (await watcher.dispatch("INTEGRATION_CREATE"))["d"]
        assert created["guild_id"] == str(GUILD_ID) and created["application"]["id"] == str(OTHER_APP)
        assert created["user"]["id"] == str(ALICE)   # the guild's owner added it
        assert (await watcher.dispatch("GUILD_INTEGRATIONS_UPDATE"))["d"] == {"guild_id": str(GUILD_ID)}
        created_ids.append(created["id"])

        helper = await GatewayClient.connect(emu)
        await helper.identify(OTHER_TOKEN, intents=GUILDS | GUILD_INTEGRATIONS)
        await helper.dispatch("GUILD_CREATE")
        listed = await asyncio.to_thread(call, emu, "GET", f"/guilds/{GUILD_ID}/integrations")
        assert [i["application"]["id"] for i in listed.json()] == [str(APP_ID), str(OTHER_APP)]
        deleted = await asyncio.to_thread(call, emu, "DELETE", f"/guilds/{GUILD_ID}/integrations/{created['id']}")
        assert deleted.status_code == 204
        gone = {"id": created["id"], "guild_id": str(GUILD_ID), "application_id": str(OTHER_APP)}
        assert (await watcher.dispatch("INTEGRATION_DELETE"))["d"] == gone
        assert (await watcher.dispatch("GUILD_ROLE_DELETE"))["d"]["role_id"] == str(OTHER_ROLE)
        assert (await helper.dispatch("INTEGRATION_DELETE"))["d"] == gone   # the bot hears it before it leaves
        assert (await helper.dispatch("GUILD_DELETE"))["d"] == {"id": str(GUILD_ID)}
        await watcher.close()
        await helper.close()

    asyncio.run(scenario())
    assert emu.state.db.query_one("SELECT 1 FROM members WHERE user_id = ?", (OTHER_BOT,)) is None
    assert emu.state.db.query_one("SELECT 1 FROM roles WHERE id = ?", (OTHER_ROLE,)) is None
    entries = call(emu, "GET", f"/guilds/{GUILD_ID}/audit-logs?action_type=82").json()["audit_log_entries"]
    assert [(e["target_id"], e["user_id"]) for e in entries] == [(created_ids[0], str(BOT_ID))]
    assert {"key": "type", "old_value": "platform"} in entries[0]["changes"]
    unknown = call(emu, "DELETE", f"/guilds/{GUILD_ID}/integrations/1")
    assert unknown.status_code == 404 and unknown.json()["code"] == 10005


def test_world_files_pin_an_integration(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    seeded = admin(emu, "POST", "/seed", {"integrations": [
        {"id": "7400000000000000100", "guild_id": str(GUILD_ID), "application_id": str(APP_ID)}]})
    assert seeded.status_code == 204, seeded.text
    set_role_permissions(emu, BOT_ROLE, int(Permission.MANAGE_GUILD))
    assert [i["id"] for i in call(emu, "GET", f"/guilds/{GUILD_ID}/integrations").json()] == ["7400000000000000100"]
    bad = admin(emu, "POST", "/seed", {"integrations": [{"guild_id": str(GUILD_ID), "application_id": "5"}]})
    assert bad.status_code == 400 and "application_id" in bad.json()["errors"]["integrations"]["0"]
