"""Invites over time and reuse: an invite that expires on the emulator clock is deleted
with INVITE_DELETE at that instant (a clock move, or real time passing), as one used up is; ``unique``
(false: an identical live invite is answered again); ``temporary`` (the member leaves when their last
Gateway connection ends, unless given a role since joining)."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

import httpx
from platformpp.emulator import Emulator
from social_helpers import (
    APP_ID, BOB, BOT_TOKEN, CAROL, DAVE, GUILD_ID, GatewayClient, bot, sdk_session, user_token)
from invite_helpers import GENERAL, admin, grantable_role, is_member, leave, make_manager

GUILDS, GUILD_MEMBERS, GUILD_INVITES = 1, 1 << 1, 1 << 6


async def _bot_session(emu: Emulator, intents: int) -> GatewayClient:
    client = await GatewayClient.connect(emu)
    await client.identify(BOT_TOKEN, intents=intents)
    await client.dispatch("GUILD_CREATE")
    return client


def _create(emu: Emulator, **body: object) -> dict:
    with bot(emu) as http:
        made = http.post(f"/channels/{GENERAL}/invites", json=body)
        assert made.status_code == 200, made.text
        return made.json()


def test_expiry_on_a_clock_move_sends_invite_delete_to_managers_with_the_intent(
        platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_manager(emu)
    admin(emu, "PUT", "/clock", {"now": "2026-05-01T12:00:00Z", "frozen": True})

    async def scenario() -> None:
        listening = await _bot_session(emu, GUILDS | GUILD_INVITES)
        deaf = await _bot_session(emu, GUILDS)   # no GUILD_INVITES: never told
        invite = await asyncio.to_thread(_create, emu, max_age=60)
        lasting = await asyncio.to_thread(_create, emu, max_age=0)
        await listening.dispatch("INVITE_CREATE")
        await asyncio.to_thread(admin, emu, "PUT", "/clock", {"now": "2026-05-01T12:00:59Z", "frozen": True})
        await listening.no_dispatch("INVITE_DELETE")
        await asyncio.to_thread(admin, emu, "PUT", "/clock", {"now": "2026-05-01T12:01:00Z", "frozen": True})
        deleted = (await listening.dispatch("INVITE_DELETE"))["d"]
        assert deleted == {"channel_id": str(GENERAL), "guild_id": str(GUILD_ID), "code": invite["code"]}
        await deaf.no_dispatch("INVITE_DELETE")
        for client in (listening, deaf):
            await client.close()
        rows = emu.state.db.query("SELECT code FROM guild_invites")
        assert [row[0] for row in rows] == [lasting["code"]]

    asyncio.run(scenario())
    # Expiry writes no audit entry (nobody deleted it).
    deletes = emu.state.db.query_one("SELECT COUNT(*) AS n FROM audit_log_entries WHERE action_type = 42")
    assert deletes["n"] == 0


def test_expiry_in_real_time_needs_no_clock_move(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_manager(emu)

    async def scenario() -> None:
        listening = await _bot_session(emu, GUILDS | GUILD_INVITES)
        invite = await asyncio.to_thread(_create, emu, max_age=1)
        started = time.monotonic()
        deleted = (await listening.dispatch("INVITE_DELETE", timeout=5))["d"]
        assert deleted["code"] == invite["code"] and time.monotonic() - started < 3
        await listening.close()

    asyncio.run(scenario())
    assert invite_code(emu) is None


def invite_code(emu: Emulator) -> str | None:
    row = emu.state.db.query_one("SELECT code FROM guild_invites")
    return row["code"] if row else None


def test_used_up_invite_sends_invite_delete(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_manager(emu)
    leave(emu, DAVE)

    async def scenario() -> None:
        listening = await _bot_session(emu, GUILDS | GUILD_INVITES)
        invite = await asyncio.to_thread(_create, emu, max_uses=1)
        await asyncio.to_thread(httpx.post, f"{emu.base_url}/_emulator/invites/{invite['code']}/accept",
                                json={"user_id": str(DAVE)})
        assert (await listening.dispatch("INVITE_DELETE"))["d"]["code"] == invite["code"]
        await listening.close()

    asyncio.run(scenario())
    assert invite_code(emu) is None and is_member(emu, DAVE)


def test_unique_false_answers_the_same_live_invite_again(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_manager(emu)
    first = _create(emu, max_age=600, max_uses=1)
    assert _create(emu, max_age=600, max_uses=1)["code"] == first["code"]
    assert _create(emu, max_age=600, max_uses=1, unique=False)["code"] == first["code"]
    fresh = _create(emu, max_age=600, max_uses=1, unique=True)
    assert fresh["code"] != first["code"]
    assert _create(emu, max_age=600, max_uses=2)["code"] not in (first["code"], fresh["code"])
    targeted = _create(emu, max_age=600, max_uses=1, target_user_ids=[str(BOB)])
    assert targeted["code"] not in (first["code"], fresh["code"])
    role = grantable_role(emu)
    with_role = _create(emu, max_age=600, max_uses=1, role_ids=[role])
    assert with_role["code"] != first["code"]
    assert _create(emu, max_age=600, max_uses=1, role_ids=[role])["code"] == with_role["code"]
    assert emu.state.db.query_one("SELECT COUNT(*) AS n FROM guild_invites")["n"] == 5
    # An expired one is not answered again.
    admin(emu, "PUT", "/clock", {"now": (emu.state.clock.now() + timedelta(seconds=601)).isoformat()})
    assert _create(emu, max_age=600, max_uses=1)["code"] != first["code"]


def test_temporary_members_leave_when_they_disconnect_unless_given_a_role(
        platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_manager(emu)
    emu.state.db.execute("UPDATE applications SET flags = flags | ? WHERE id = ?", (1 << 15, APP_ID))
    for user in (BOB, CAROL, DAVE):
        leave(emu, user)
    temporary = _create(emu, temporary=True, max_uses=0)
    permanent = _create(emu, temporary=False, max_age=0)
    for user, code in ((BOB, temporary["code"]), (CAROL, temporary["code"]), (DAVE, permanent["code"])):
        user_token(emu, user)   # each user has a grant (their client signs in)
        accepted = httpx.post(f"{emu.base_url}/_emulator/invites/{code}/accept", json={"user_id": str(user)})
        assert accepted.status_code == 200, accepted.text
    kept_role = grantable_role(emu, "Regular")
    admin(emu, "PUT", f"/guilds/{GUILD_ID}/members/{CAROL}/roles/{kept_role}")   # a role: no longer temporary

    async def scenario() -> None:
        watcher = await _bot_session(emu, GUILDS | GUILD_MEMBERS)
        sessions = [await sdk_session(emu, user) for user in (BOB, CAROL, DAVE)]
        second_bob = await sdk_session(emu, BOB)
        await sessions[0].close()   # Bob is still connected through his second session
        await watcher.no_dispatch("GUILD_MEMBER_REMOVE")
        assert is_member(emu, BOB)
        await second_bob.close()
        removed = (await watcher.dispatch("GUILD_MEMBER_REMOVE"))["d"]
        assert removed["user"]["id"] == str(BOB)
        for client in sessions[1:]:
            await client.close()
        await watcher.no_dispatch("GUILD_MEMBER_REMOVE", wait=0.5)
        await watcher.close()

    asyncio.run(scenario())
    assert not is_member(emu, BOB) and is_member(emu, CAROL) and is_member(emu, DAVE)
