"""Guild administration: bans (delete_message_seconds through the message store,
banned users cannot rejoin), unban, bulk ban, GUILD_BAN_ADD / REMOVE; prune (PRUNE_REQUIRES_ADMIN,
last activity on the emulator clock, members with roles kept unless include_roles)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import httpx
from platformpp.emulator import Emulator
from social_helpers import ALICE, BOB, BOT_ID, BOT_TOKEN, CAROL, DAVE, GUILD_ID, GatewayClient, api, bot, sdk_session, user_token

GENERAL = 1200000000000000101
KICK, BAN, MANAGE_GUILD, ADMINISTRATOR, VIEW_AUDIT_LOG, VIEW, SEND = 2, 4, 32, 8, 128, 1024, 2048


def admin(emu: Emulator, method: str, path: str, body: Any = None) -> httpx.Response:
    response = httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, timeout=10)
    assert response.status_code < 300, response.text
    return response


def give_bot(emu: Emulator, permissions: int) -> None:
    role = admin(emu, "POST", f"/guilds/{GUILD_ID}/roles",
                 {"name": "Mod", "position": 5, "permissions": str(permissions)}).json()
    admin(emu, "PUT", f"/guilds/{GUILD_ID}/members/{BOT_ID}/roles/{role['id']}")


def post_as(emu: Emulator, user_id: int, content: str) -> dict[str, Any]:
    return admin(emu, "POST", f"/channels/{GENERAL}/messages", {"author_id": str(user_id), "content": content}).json()


def members(emu: Emulator) -> set[int]:
    return {row["user_id"] for row in emu.state.db.query("SELECT user_id FROM members WHERE guild_id = ?", (GUILD_ID,))}


def test_ban_deletes_recent_messages_and_blocks_rejoining(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    give_bot(emu, BAN | VIEW | SEND | 1)
    old = post_as(emu, BOB, "old")
    now = emu.state.clock.now()
    admin(emu, "PUT", "/clock", {"now": (now + timedelta(hours=2)).isoformat()})
    recent = post_as(emu, BOB, "recent")
    with bot(emu) as http:
        assert http.get(f"/guilds/{GUILD_ID}/bans/{BOB}").status_code == 404
        assert http.put(f"/guilds/{GUILD_ID}/bans/{BOB}", json={"delete_message_seconds": 604801}).status_code == 400
        assert http.put(f"/guilds/{GUILD_ID}/bans/{ALICE}", json={}).status_code == 403   # the owner
        banned = http.put(f"/guilds/{GUILD_ID}/bans/{BOB}", json={"delete_message_seconds": 3600},
                          headers={"X-Audit-Log-Reason": "spam%20links"})
        assert banned.status_code == 204
        assert BOB not in members(emu)
        ids = {row["id"] for row in emu.state.db.query("SELECT id FROM channel_messages WHERE author_id = ?", (BOB,))}
        assert int(old["id"]) in ids and int(recent["id"]) not in ids
        assert http.get(f"/guilds/{GUILD_ID}/bans/{BOB}").json()["reason"] == "spam links"
        assert [b["user"]["id"] for b in http.get(f"/guilds/{GUILD_ID}/bans").json()] == [str(BOB)]
        code = http.post(f"/channels/{GENERAL}/invites", json={}).json()["code"]
    with api(emu, user_token(emu, BOB)) as bob:
        refused = bob.post(f"/invites/{code}")
        assert refused.status_code == 403 and refused.json()["code"] == 40007
    with bot(emu) as http:
        assert http.delete(f"/guilds/{GUILD_ID}/bans/{BOB}").status_code == 204
        assert http.delete(f"/guilds/{GUILD_ID}/bans/{BOB}").status_code == 404
    with api(emu, user_token(emu, BOB)) as bob:
        assert bob.post(f"/invites/{code}").status_code == 200


def test_bulk_ban_reports_banned_and_failed(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with bot(emu) as http:
        assert http.post(f"/guilds/{GUILD_ID}/bulk-ban", json={"user_ids": [str(BOB)]}).status_code == 403
        give_bot(emu, BAN | MANAGE_GUILD)
        answer = http.post(f"/guilds/{GUILD_ID}/bulk-ban", json={"user_ids": [str(BOB), str(CAROL), str(ALICE), "5"]})
        assert answer.status_code == 200
        assert answer.json() == {"banned_users": [str(BOB), str(CAROL)], "failed_users": [str(ALICE), "5"]}
        again = http.post(f"/guilds/{GUILD_ID}/bulk-ban", json={"user_ids": [str(BOB)]})
        assert again.status_code == 400 and again.json()["code"] == 500000
        assert http.post(f"/guilds/{GUILD_ID}/bulk-ban", json={"user_ids": []}).status_code == 400


def test_ban_dispatches_need_guild_moderation(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    give_bot(emu, BAN | VIEW_AUDIT_LOG)

    async def scenario() -> None:
        moderation = await GatewayClient.connect(emu)
        await moderation.identify(BOT_TOKEN, intents=1 | (1 << 2))
        await moderation.dispatch("GUILD_CREATE")
        plain = await GatewayClient.connect(emu)
        await plain.identify(BOT_TOKEN, intents=1)
        await plain.dispatch("GUILD_CREATE")
        with bot(emu) as http:
            await asyncio.to_thread(http.put, f"/guilds/{GUILD_ID}/bans/{DAVE}", json={})
            added = (await moderation.dispatch("GUILD_BAN_ADD"))["d"]
            assert added["user"]["id"] == str(DAVE) and added["guild_id"] == str(GUILD_ID)
            entry = (await moderation.dispatch("GUILD_AUDIT_LOG_ENTRY_CREATE"))["d"]
            assert entry["action_type"] == 22 and entry["target_id"] == str(DAVE)
            await plain.no_dispatch("GUILD_BAN_ADD")
            await asyncio.to_thread(http.delete, f"/guilds/{GUILD_ID}/bans/{DAVE}")
            assert (await moderation.dispatch("GUILD_BAN_REMOVE"))["d"]["user"]["id"] == str(DAVE)
        await moderation.close()
        await plain.close()

    asyncio.run(scenario())


def test_prune_removes_inactive_members_by_the_clock(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    emu.state.db.execute("UPDATE members SET joined_at = ?", (emu.state.clock.iso(),))   # everyone joined now
    with bot(emu) as http:
        assert http.get(f"/guilds/{GUILD_ID}/prune").status_code == 403
        give_bot(emu, KICK | MANAGE_GUILD | VIEW | SEND)
        assert http.get(f"/guilds/{GUILD_ID}/prune", params={"days": 31}).status_code == 400
        assert http.get(f"/guilds/{GUILD_ID}/prune", params={"days": 7}).json() == {"pruned": 0}
    start = emu.state.clock.now()
    admin(emu, "PUT", "/clock", {"now": (start + timedelta(days=6)).isoformat()})
    post_as(emu, CAROL, "still here")   # Carol stays active
    admin(emu, "PUT", "/clock", {"now": (start + timedelta(days=8)).isoformat()})
    with bot(emu) as http:
        # Bob and Dave are inactive; Alice owns the guild; Carol spoke two days ago
        assert http.get(f"/guilds/{GUILD_ID}/prune", params={"days": 7}).json() == {"pruned": 2}
        role = admin(emu, "POST", f"/guilds/{GUILD_ID}/roles", {"name": "Keep", "position": 1}).json()["id"]
        admin(emu, "PUT", f"/guilds/{GUILD_ID}/members/{BOB}/roles/{role}")
        assert http.get(f"/guilds/{GUILD_ID}/prune", params={"days": 7}).json() == {"pruned": 1}
        assert http.get(f"/guilds/{GUILD_ID}/prune",
                        params={"days": 7, "include_roles": role}).json() == {"pruned": 2}
        done = http.post(f"/guilds/{GUILD_ID}/prune", json={"days": 7, "compute_prune_count": False})
        assert done.status_code == 200 and done.json() == {"pruned": None}
        assert members(emu) == {ALICE, BOB, CAROL, BOT_ID}
        entry = http.get(f"/guilds/{GUILD_ID}/audit-logs", params={"action_type": 21})
        assert entry.status_code == 403   # no VIEW_AUDIT_LOG
    emu.state.db.execute("UPDATE guilds SET features = ? WHERE id = ?", ('["PRUNE_REQUIRES_ADMIN"]', GUILD_ID))
    with bot(emu) as http:
        assert http.get(f"/guilds/{GUILD_ID}/prune").status_code == 403
        give_bot(emu, ADMINISTRATOR)
        assert http.get(f"/guilds/{GUILD_ID}/prune").status_code == 200
        (pruned,) = http.get(f"/guilds/{GUILD_ID}/audit-logs", params={"action_type": 21}).json()["audit_log_entries"]
        assert pruned["options"] == {"delete_member_days": "7", "members_removed": "1"}


def test_gateway_activity_counts_for_prune(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    emu.state.db.execute("UPDATE members SET joined_at = ?", (emu.state.clock.iso(),))
    give_bot(emu, KICK | MANAGE_GUILD)
    start = emu.state.clock.now()
    admin(emu, "PUT", "/clock", {"now": (start + timedelta(days=6)).isoformat()})

    async def connect_dave() -> None:
        client = await sdk_session(emu, DAVE)   # Identify answered with READY: the session is live
        await client.close()

    asyncio.run(connect_dave())
    admin(emu, "PUT", "/clock", {"now": (start + timedelta(days=8)).isoformat()})
    with bot(emu) as http:
        assert http.post(f"/guilds/{GUILD_ID}/prune", json={"days": 7}).json() == {"pruned": 2}
    assert members(emu) == {ALICE, DAVE, BOT_ID}
