"""Join requests behind member verification over real HTTP and the Gateway: in a guild with
MEMBER_VERIFICATION_GATE_ENABLED a user who joins is a pending member with a SUBMITTED request
(GUILD_JOIN_REQUEST_CREATE to bots with GUILD_MEMBERS); a moderator (KICK_MEMBERS or MANAGE_GUILD)
lists them by status and page, approves (no longer pending: GUILD_MEMBER_UPDATE) or rejects with a
reason (removed: GUILD_MEMBER_REMOVE); a withdrawn request, or the open request of a member who is
removed, is deleted (GUILD_JOIN_REQUEST_DELETE)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from channel_helpers import BOT_ROLE, set_role_permissions
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission
from social_helpers import APP_ID, BOT_ID, BOT_TOKEN, GUILD_ID, GatewayClient, bot

GUILDS, GUILD_MEMBERS = 1 << 0, 1 << 1
GUILD_MEMBERS_FLAGS = (1 << 14) | (1 << 15)
ERIN, FRANK, GINA = 1100000000000000091, 1100000000000000092, 1100000000000000093


def admin(emu: Emulator, method: str, path: str, body: Any = None) -> httpx.Response:
    return httpx.request(method, f"{emu.base_url}/_emulator{path}", json=body, timeout=10)


def call(emu: Emulator, method: str, path: str, body: Any = None, **params: Any) -> httpx.Response:
    with bot(emu) as http:
        return http.request(method, path, json=body, params=params)


def gated_guild(emu: Emulator) -> None:
    seeded = admin(emu, "POST", "/seed", {"users": [{"id": str(u), "username": n} for u, n in
                                                    ((ERIN, "erin"), (FRANK, "frank"), (GINA, "gina"))]})
    assert seeded.status_code == 204, seeded.text
    emu.state.db.execute("UPDATE guilds SET features = '[\"MEMBER_VERIFICATION_GATE_ENABLED\"]' WHERE id = ?",
                         (GUILD_ID,))
    emu.state.db.execute("UPDATE applications SET flags = flags | ? WHERE id = ?", (GUILD_MEMBERS_FLAGS, APP_ID))


def join(emu: Emulator, user_id: int) -> dict[str, Any]:
    response = admin(emu, "POST", f"/guilds/{GUILD_ID}/members", {"user_id": str(user_id)})
    assert response.status_code == 201, response.text
    return dict(response.json())


def test_joining_is_pending_until_approved_or_rejected(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    gated_guild(emu)

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILDS | GUILD_MEMBERS)
        await client.dispatch("GUILD_CREATE")
        member = await asyncio.to_thread(join, emu, ERIN)
        assert member["pending"] is True
        created = (await client.dispatch("GUILD_JOIN_REQUEST_CREATE"))["d"]
        assert created["status"] == "SUBMITTED" and created["request"]["user_id"] == str(ERIN)
        assert (await client.dispatch("GUILD_MEMBER_ADD"))["d"]["pending"] is True
        await asyncio.to_thread(join, emu, FRANK)
        frank = (await client.dispatch("GUILD_JOIN_REQUEST_CREATE"))["d"]["request"]

        refused = await asyncio.to_thread(call, emu, "GET", f"/guilds/{GUILD_ID}/requests")
        assert refused.status_code == 403 and refused.json()["code"] == 50013
        set_role_permissions(emu, BOT_ROLE, int(Permission.KICK_MEMBERS))
        approved = await asyncio.to_thread(call, emu, "PATCH", f"/guilds/{GUILD_ID}/requests/{created['request']['id']}",
                                           {"action": "APPROVED", "rejection_reason": "ignored when approving"})
        body = approved.json()
        assert body["application_status"] == "APPROVED" and body["rejection_reason"] is None
        assert body["actioned_by_user"]["id"] == str(BOT_ID) and body["reviewed_at"] is not None
        assert (await client.dispatch("GUILD_JOIN_REQUEST_UPDATE"))["d"]["status"] == "APPROVED"
        update = (await client.dispatch("GUILD_MEMBER_UPDATE"))["d"]
        assert update["user"]["id"] == str(ERIN) and update["pending"] is False

        rejected = await asyncio.to_thread(call, emu, "PATCH", f"/guilds/{GUILD_ID}/requests/{frank['id']}",
                                           {"action": "REJECTED", "rejection_reason": "no answers"})
        assert rejected.json()["rejection_reason"] == "no answers"
        assert (await client.dispatch("GUILD_JOIN_REQUEST_UPDATE"))["d"]["status"] == "REJECTED"
        assert (await client.dispatch("GUILD_MEMBER_REMOVE"))["d"]["user"]["id"] == str(FRANK)
        await client.close()

    asyncio.run(scenario())
    assert emu.state.db.query_one("SELECT 1 FROM members WHERE user_id = ?", (FRANK,)) is None
    again = call(emu, "PATCH", f"/guilds/{GUILD_ID}/requests/{emu.state.db.query_one('SELECT id FROM guild_join_requests WHERE user_id = ?', (ERIN,))[0]}",
                 {"action": "REJECTED"})
    assert again.status_code == 400
    bots_join_unhindered = emu.state.db.query_one("SELECT pending FROM members WHERE user_id = ?", (BOT_ID,))
    assert bots_join_unhindered["pending"] == 0


def test_listing_filters_and_pages(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    gated_guild(emu)
    set_role_permissions(emu, BOT_ROLE, int(Permission.MANAGE_GUILD))   # either moderator permission will do
    for user in (ERIN, FRANK, GINA):
        join(emu, user)
    everything = call(emu, "GET", f"/guilds/{GUILD_ID}/requests").json()
    ids = [r["id"] for r in everything["guild_join_requests"]]
    assert everything["total"] == 3 and [r["user_id"] for r in everything["guild_join_requests"]] == [
        str(ERIN), str(FRANK), str(GINA)]
    call(emu, "PATCH", f"/guilds/{GUILD_ID}/requests/{ids[0]}", {"action": "APPROVED"})
    submitted = call(emu, "GET", f"/guilds/{GUILD_ID}/requests", status="SUBMITTED").json()
    assert submitted["total"] == 2 and [r["id"] for r in submitted["guild_join_requests"]] == ids[1:]
    assert [r["id"] for r in call(emu, "GET", f"/guilds/{GUILD_ID}/requests", limit=1, after=ids[0]).json()[
        "guild_join_requests"]] == [ids[1]]
    assert [r["id"] for r in call(emu, "GET", f"/guilds/{GUILD_ID}/requests", limit=1, before=ids[2]).json()[
        "guild_join_requests"]] == [ids[1]]
    for params, field in (({"limit": 0}, "limit"), ({"status": "maybe"}, "status"), ({"after": "x"}, "after")):
        response = call(emu, "GET", f"/guilds/{GUILD_ID}/requests", **params)
        assert response.status_code == 400 and field in response.json()["errors"]
    for body, field in (({"action": "STARTED"}, "action"), ({}, "action"),
                        ({"action": "REJECTED", "rejection_reason": "x" * 161}, "rejection_reason")):
        response = call(emu, "PATCH", f"/guilds/{GUILD_ID}/requests/{ids[1]}", body)
        assert response.status_code == 400 and field in response.json()["errors"], response.text
    assert call(emu, "GET", f"/guilds/{GUILD_ID}/requests", status="SUBMITTED").json()["total"] == 2


def test_a_withdrawn_request_is_deleted(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    gated_guild(emu)

    async def scenario() -> None:
        client = await GatewayClient.connect(emu)
        await client.identify(BOT_TOKEN, intents=GUILDS | GUILD_MEMBERS)
        await client.dispatch("GUILD_CREATE")
        await asyncio.to_thread(join, emu, GINA)
        request = (await client.dispatch("GUILD_JOIN_REQUEST_CREATE"))["d"]["request"]
        withdrawn = await asyncio.to_thread(admin, emu, "DELETE", f"/guilds/{GUILD_ID}/requests/{request['id']}")
        assert withdrawn.status_code == 204
        deleted = (await client.dispatch("GUILD_JOIN_REQUEST_DELETE"))["d"]
        assert deleted == {"guild_id": str(GUILD_ID), "id": request["id"], "user_id": str(GINA)}
        assert (await client.dispatch("GUILD_MEMBER_REMOVE"))["d"]["user"]["id"] == str(GINA)
        # a pending member who is removed takes their open request along
        await asyncio.to_thread(join, emu, ERIN)
        request = (await client.dispatch("GUILD_JOIN_REQUEST_CREATE"))["d"]["request"]
        kicked = await asyncio.to_thread(admin, emu, "DELETE", f"/guilds/{GUILD_ID}/members/{ERIN}")
        assert kicked.status_code == 204
        deleted = (await client.dispatch("GUILD_JOIN_REQUEST_DELETE"))["d"]
        assert deleted == {"guild_id": str(GUILD_ID), "id": request["id"], "user_id": str(ERIN)}
        await client.close()

    asyncio.run(scenario())
    assert emu.state.db.query_one("SELECT COUNT(*) FROM guild_join_requests")[0] == 0
    assert admin(emu, "DELETE", f"/guilds/{GUILD_ID}/requests/1").status_code == 404
