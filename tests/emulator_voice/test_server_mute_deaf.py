"""Server mute and deafen (PATCH /guilds/{guild_id}/members/{user_id} ``mute`` / ``deaf``) over real
sockets: refused for a member not in voice (400 / 40032) and without MUTE_MEMBERS / DEAFEN_MEMBERS;
otherwise on the member and the voice state (VOICE_STATE_UPDATE), kept across calls, written to the
audit log, and obeyed by the relay: a server-muted user's audio is not forwarded, a server-deafened
user receives nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission
from voice_state_helpers import (LOUNGE, agreed, bot_session, grant_bot, hears, join_call, next_voice_state,
                                 sdk_session, until, voice_update)

from social_helpers import BOB, BOT_ID, CAROL, GUILD_ID, bot

MEMBER_UPDATE = 24


async def patch_member(emu: Emulator, user_id: int, body: dict[str, Any]) -> httpx.Response:
    def send() -> httpx.Response:
        with bot(emu) as http:
            return http.patch(f"/guilds/{GUILD_ID}/members/{user_id}", json=body)
    return await asyncio.to_thread(send)


def member_flags(emu: Emulator, user_id: int) -> tuple[bool, bool]:
    row = emu.state.db.query_one("SELECT mute, deaf FROM members WHERE guild_id = ? AND user_id = ?",
                                 (GUILD_ID, user_id))
    return bool(row["mute"]), bool(row["deaf"])


def test_server_mute_and_deafen_reach_the_voice_state_and_the_relay(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, Permission.MUTE_MEMBERS, Permission.DEAFEN_MEMBERS, Permission.VIEW_AUDIT_LOG)

    async def scenario() -> None:
        watcher, bot_sid = await bot_session(emu)
        bob, bob_sid = await sdk_session(emu, BOB)
        vbot = await join_call(watcher, bot_sid, BOT_ID, LOUNGE)
        vbob = await join_call(bob, bob_sid, BOB, LOUNGE)
        assert (await next_voice_state(watcher, BOB))["mute"] is False
        for v in (vbot, vbob):
            await v.speak()
        await until(lambda: agreed([vbot, vbob]))
        assert await hears(vbot, vbob)

        # Not in voice: the platform's 400, and nothing changed.
        refused = await patch_member(emu, CAROL, {"mute": True})
        assert refused.status_code == 400 and refused.json()["code"] == 40032
        assert member_flags(emu, CAROL) == (False, False)

        muted = await patch_member(emu, BOB, {"mute": True})
        assert muted.status_code == 200 and muted.json()["mute"] is True and muted.json()["deaf"] is False
        state = await next_voice_state(watcher, BOB)
        assert state["mute"] is True and state["deaf"] is False and state["channel_id"] == str(LOUNGE)
        assert (await next_voice_state(bob, BOB))["mute"] is True      # bob's own session
        await asyncio.sleep(0.2)                          # the relay's silence frames for bob arrive first
        vbot.drain()
        vbob.send_audio(b"\xfc" + bytes(40))
        assert await asyncio.to_thread(vbot.nothing_received, 0.4)
        assert await hears(vbob, vbot)                    # muted, not deafened: bob still hears

        deafened = await patch_member(emu, BOB, {"mute": False, "deaf": True})
        assert deafened.status_code == 200
        state = await next_voice_state(watcher, BOB)
        assert (state["mute"], state["deaf"]) == (False, True)
        assert await hears(vbot, vbob)                    # unmuted: forwarded again
        vbob.drain()
        vbot.send_audio(b"\xfc" + bytes(40))
        assert await asyncio.to_thread(vbob.nothing_received, 0.4)

        # Server deafen belongs to the member: a new call starts deafened.
        await voice_update(bob, None)
        assert (await next_voice_state(watcher, BOB))["channel_id"] is None
        await vbob.close()
        vbob = await join_call(bob, bob_sid, BOB, LOUNGE)
        again = await next_voice_state(watcher, BOB)
        assert again["channel_id"] == str(LOUNGE) and again["deaf"] is True and again["mute"] is False

        def audit() -> list[dict[str, Any]]:
            with bot(emu) as http:
                answer = http.get(f"/guilds/{GUILD_ID}/audit-logs", params={"action_type": MEMBER_UPDATE})
                assert answer.status_code == 200, answer.text
                return answer.json()["audit_log_entries"]
        entries = await asyncio.to_thread(audit)
        changes = [{c["key"]: c.get("new_value") for c in e["changes"]}
                   for e in entries if e["target_id"] == str(BOB)]
        assert {"mute": True} in changes and {"mute": False, "deaf": True} in changes
        assert all(e["user_id"] == str(BOT_ID) for e in entries)

        for v in (vbot, vbob):
            await v.close()
        for g in (watcher, bob):
            await g.close()

    asyncio.run(scenario())


def test_mute_and_deaf_need_their_permissions(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, Permission.MUTE_MEMBERS)

    async def scenario() -> None:
        watcher, bot_sid = await bot_session(emu)
        bob, bob_sid = await sdk_session(emu, BOB)
        vbob = await join_call(bob, bob_sid, BOB, LOUNGE)
        denied = await patch_member(emu, BOB, {"deaf": True})
        assert denied.status_code == 403 and denied.json()["code"] == 50013
        assert member_flags(emu, BOB) == (False, False)
        bad = await patch_member(emu, BOB, {"mute": "yes"})
        assert bad.status_code == 400 and "mute" in bad.json()["errors"]
        assert member_flags(emu, BOB) == (False, False)
        assert (await patch_member(emu, BOB, {"mute": True})).status_code == 200
        assert member_flags(emu, BOB) == (True, False)
        await vbob.close()
        for g in (watcher, bob):
            await g.close()

    asyncio.run(scenario())


def test_losing_speak_during_a_call_stops_forwarding_and_regaining_it_resumes(
        platformpp_emulator: Emulator) -> None:
    """SPEAK governs sending audio during the call, not only at its start: a new overwrite denying it
    (CHANNEL_UPDATE) is followed by the relay, and so is its removal."""
    emu = platformpp_emulator
    grant_bot(emu, Permission.MANAGE_ROLES, Permission.SPEAK, Permission.CONNECT, Permission.VIEW_CHANNEL)
    overwrite = f"/channels/{LOUNGE}/permissions/{BOB}"

    async def scenario() -> None:
        watcher, bot_sid = await bot_session(emu)
        bob, bob_sid = await sdk_session(emu, BOB)
        vbot = await join_call(watcher, bot_sid, BOT_ID, LOUNGE)
        vbob = await join_call(bob, bob_sid, BOB, LOUNGE)
        for v in (vbot, vbob):
            await v.speak()
        await until(lambda: agreed([vbot, vbob]))
        assert await hears(vbot, vbob)

        def http(method: str, **body: Any) -> int:
            with bot(emu) as client:
                return client.request(method, overwrite, **body).status_code
        denied = {"json": {"type": 1, "allow": "0", "deny": str(int(Permission.SPEAK))}}
        assert await asyncio.to_thread(http, "PUT", **denied) == 204
        await asyncio.sleep(0.2)                          # the relay's silence frames for bob arrive first
        vbot.drain()
        vbob.send_audio(b"\xfc" + bytes(40))
        assert await asyncio.to_thread(vbot.nothing_received, 0.4)
        assert await hears(vbob, vbot)                    # the bot still may speak

        assert await asyncio.to_thread(http, "DELETE") == 204
        await until(lambda: emu.state.voice.stats()["relay"]["silence_synthesised"] > 0)
        assert await hears(vbot, vbob)
        for v in (vbot, vbob):
            await v.close()
        for g in (watcher, bob):
            await g.close()

    asyncio.run(scenario())
