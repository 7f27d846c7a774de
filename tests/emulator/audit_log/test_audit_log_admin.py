"""Changes made through the admin API are written to the guild's audit log as if a member made them:
the guild's owner by default, or the member ``?actor_id=`` names (a user or a bot), with
the X-Audit-Log-Reason header as the reason and GUILD_AUDIT_LOG_ENTRY_CREATE to bots that may read it."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from platformpp.emulator import Emulator
from social_helpers import ALICE, BOB, BOT_ID, BOT_TOKEN, DAVE, GUILD_ID, GatewayClient, bot
from invite_helpers import GENERAL, leave, make_manager

GUILDS, GUILD_MODERATION = 1, 1 << 2
ROLE_CREATE, ROLE_UPDATE, CHANNEL_CREATE = 30, 31, 10
OVERWRITE_CREATE, OVERWRITE_DELETE, MEMBER_KICK, MEMBER_ROLE_UPDATE = 13, 15, 20, 25


def admin(emu: Emulator, method: str, path: str, body: Any = None, **params: str) -> httpx.Response:
    return httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, params=params, timeout=10,
                         headers={"X-Audit-Log-Reason": "set%20up%20by%20tests"})


def entries(emu: Emulator, **params: Any) -> list[dict[str, Any]]:
    with bot(emu) as http:
        answer = http.get(f"/guilds/{GUILD_ID}/audit-logs", params=params)
        assert answer.status_code == 200, answer.text
        return answer.json()["audit_log_entries"]


def test_admin_changes_are_logged_as_the_owner_or_the_named_member(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_manager(emu)   # through the admin API too: a role created and granted by the owner
    made, granted = entries(emu, limit=2)[::-1]
    assert (made["action_type"], made["user_id"]) == (ROLE_CREATE, str(ALICE))
    assert granted["action_type"] == MEMBER_ROLE_UPDATE and granted["target_id"] == str(BOT_ID)
    assert granted["changes"][0]["key"] == "$add"
    assert granted["changes"][0]["new_value"][0]["name"] == "Manager"

    role = admin(emu, "POST", f"/guilds/{GUILD_ID}/roles", {"name": "Helpers"}, actor_id=str(BOT_ID)).json()
    (entry,) = entries(emu, action_type=ROLE_CREATE, user_id=BOT_ID)
    assert entry["target_id"] == role["id"] and entry["reason"] == "set up by tests"
    assert {"key": "name", "new_value": "Helpers"} in entry["changes"]
    renamed = admin(emu, "PATCH", f"/guilds/{GUILD_ID}/roles/{role['id']}", {"name": "Helpers 2"})
    assert renamed.status_code == 200
    (update,) = entries(emu, action_type=ROLE_UPDATE)
    assert update["changes"] == [{"key": "name", "old_value": "Helpers", "new_value": "Helpers 2"}]

    channel = admin(emu, "POST", f"/guilds/{GUILD_ID}/channels", {"name": "logged", "type": 0}).json()
    assert entries(emu, action_type=CHANNEL_CREATE)[0]["target_id"] == channel["id"]
    overwrite = f"/channels/{channel['id']}/permissions/{BOB}"
    assert admin(emu, "PUT", overwrite, {"type": 1, "deny": "1024"}).status_code == 200
    assert admin(emu, "DELETE", overwrite).status_code == 200
    created = entries(emu, action_type=OVERWRITE_CREATE)[0]
    deleted = entries(emu, action_type=OVERWRITE_DELETE)[0]
    assert created["options"] == {"id": str(BOB), "type": "1"} and deleted["target_id"] == channel["id"]

    assert admin(emu, "PUT", f"/guilds/{GUILD_ID}/members/{BOB}/roles/{role['id']}").status_code == 200
    assert admin(emu, "DELETE", f"/guilds/{GUILD_ID}/members/{BOB}/roles/{role['id']}").status_code == 200
    revoked, given = entries(emu, action_type=MEMBER_ROLE_UPDATE, target_id=BOB)
    assert revoked["changes"][0]["key"] == "$remove" and given["changes"][0]["key"] == "$add"

    leave(emu, DAVE)
    assert admin(emu, "POST", f"/guilds/{GUILD_ID}/members",
                 {"user_id": str(DAVE), "roles": [role["id"]]}).status_code == 201
    (joined,) = entries(emu, action_type=MEMBER_ROLE_UPDATE, target_id=DAVE)
    assert joined["changes"][0]["new_value"] == [{"id": role["id"], "name": "Helpers 2"}]
    assert admin(emu, "DELETE", f"/guilds/{GUILD_ID}/members/{DAVE}").status_code == 204
    (kick,) = entries(emu, action_type=MEMBER_KICK)
    assert (kick["user_id"], kick["target_id"]) == (str(ALICE), str(DAVE))


def test_a_bad_actor_changes_nothing(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    for actor in ("42", "not-a-number", str(DAVE + 1000)):
        refused = admin(emu, "POST", f"/guilds/{GUILD_ID}/roles", {"name": "Ghost"}, actor_id=actor)
        assert refused.status_code == 400 and "actor_id" in refused.json()["errors"]
    assert emu.state.db.query_one("SELECT COUNT(*) AS n FROM roles WHERE name = 'Ghost'")["n"] == 0
    assert emu.state.db.query_one("SELECT COUNT(*) AS n FROM audit_log_entries")["n"] == 0


def test_admin_changes_dispatch_audit_log_entry_create(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_manager(emu)   # VIEW_AUDIT_LOG

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILDS | GUILD_MODERATION)
        await client.dispatch("GUILD_CREATE")
        await asyncio.to_thread(admin, emu, "PUT", f"/channels/{GENERAL}/permissions/{BOB}",
                                {"type": 1, "allow": "2048"})
        entry = (await client.dispatch("GUILD_AUDIT_LOG_ENTRY_CREATE"))["d"]
        assert entry["action_type"] == OVERWRITE_CREATE and entry["guild_id"] == str(GUILD_ID)
        assert entry["user_id"] == str(ALICE) and entry["target_id"] == str(GENERAL)
        await client.close()

    asyncio.run(scenario())


def test_a_bot_added_through_the_admin_api_is_bot_add(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_manager(emu)
    seeded = httpx.post(f"{emu.base_url}/_emulator/seed", json={"applications": [{
        "id": "6000", "name": "Other game", "client_secret": "another-long-secret",
        "bot": {"id": "6001", "username": "other-bot", "token": "NjAwMQ.AAAA.anything-random"}}]})
    assert seeded.status_code == 204, seeded.text
    assert admin(emu, "POST", f"/guilds/{GUILD_ID}/members", {"user_id": "6001"},
                 actor_id=str(BOB)).status_code == 201
    (added,) = entries(emu, action_type=28)
    assert (added["user_id"], added["target_id"]) == (str(BOB), "6001")
    assert entries(emu, action_type=MEMBER_ROLE_UPDATE, target_id=6001) == []   # it came with no role
