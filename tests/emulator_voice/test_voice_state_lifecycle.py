"""What ends a voice state besides opcode 4, over real sockets (emulator Gateway, voice gateway, UDP
relay, ``davey`` as the DAVE client): a deleted channel, a kicked, banned or departed member, and a
voice session that timed out (no heartbeats, or a dropped socket not resumed in time). Each time the
right sessions hear VOICE_STATE_UPDATE with ``channel_id`` null, the voice session closes 4014 (or
4009 for the timeout itself) and the rest of the call goes on."""

from __future__ import annotations

import asyncio
import json

import httpx
from platformpp.emulator import Emulator
from platformpp.emulator.areas.guilds import mutations
from platformpp.emulator.core.permissions import Permission
from platformpp.emulator.events.outbox import Outbox
from voice_state_helpers import (GUILDS, LOUNGE, add_voice_channel, agreed, bot_session, grant_bot, hears,
                                 join_call, next_voice_state, sdk_session, stored_voice_states, until)

from social_helpers import ALICE, BOB, BOT_ID, CAROL, DAVE, GUILD_ID, api, bot, user_token

DEN = 1200000000000000290
HIDDEN = 1200000000000000291


def run(coro: object) -> None:
    asyncio.run(coro)  # type: ignore[arg-type]


async def call(method: str, emu: Emulator, path: str, **kwargs: object) -> httpx.Response:
    def send() -> httpx.Response:
        with bot(emu) as http:
            return http.request(method, path, **kwargs)  # type: ignore[arg-type]
    return await asyncio.to_thread(send)


def test_deleting_a_channel_ends_its_voice_states_for_those_who_could_see_it(
        platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, Permission.MANAGE_CHANNELS)
    add_voice_channel(emu, DEN)
    add_voice_channel(emu, HIDDEN, "Hidden")
    deny_bot = [{"id": str(BOT_ID), "type": 1, "allow": "0", "deny": str(int(Permission.VIEW_CHANNEL))}]
    emu.state.db.execute("UPDATE channels SET permission_overwrites = ? WHERE id = ?",
                         (json.dumps(deny_bot), HIDDEN))

    async def scenario() -> None:
        watcher, bot_sid = await bot_session(emu)
        blind, _ = await bot_session(emu, intents=GUILDS)      # no GUILD_VOICE_STATES
        alice, alice_sid = await sdk_session(emu, ALICE)
        carol, carol_sid = await sdk_session(emu, CAROL)
        vbot = await join_call(watcher, bot_sid, BOT_ID, LOUNGE)
        valice = await join_call(alice, alice_sid, ALICE, DEN)
        vcarol = await join_call(carol, carol_sid, CAROL, HIDDEN)
        assert (await next_voice_state(watcher, ALICE))["channel_id"] == str(DEN)
        await next_voice_state(blind, BOT_ID)           # its own join: the only one it sees

        assert (await call("DELETE", emu, f"/channels/{DEN}")).status_code == 200
        gone = await next_voice_state(watcher, ALICE)
        assert gone["channel_id"] is None and gone["guild_id"] == str(GUILD_ID)
        assert (await next_voice_state(alice, ALICE))["channel_id"] is None
        assert await valice.closed() == 4014
        await blind.no_dispatch("VOICE_STATE_UPDATE")

        # The bot cannot view the hidden channel (so cannot delete it either): someone else does, through
        # the guild code a route uses. The bot saw neither carol's join nor her leave.
        assert (await call("DELETE", emu, f"/channels/{HIDDEN}")).status_code == 403
        with emu.state.db.transaction() as conn:
            row = conn.execute("SELECT * FROM channels WHERE id = ?", (HIDDEN,)).fetchone()
            mutations.delete_channel(conn, Outbox(emu.state), emu.state.clock.now(), row)
        assert (await next_voice_state(carol, CAROL))["channel_id"] is None
        assert await vcarol.closed() == 4014
        await watcher.no_dispatch("VOICE_STATE_UPDATE")

        assert stored_voice_states(emu) == [(BOT_ID, LOUNGE)]
        assert await asyncio.to_thread(emu.state.voice.participants, LOUNGE) == [BOT_ID]
        assert await asyncio.to_thread(emu.state.voice.participants, DEN) == []
        assert vbot.close_code is None                   # the other call goes on
        await vbot.close()
        for g in (watcher, blind, alice, carol):
            await g.close()

    run(scenario())


def test_kick_ban_and_leaving_the_guild_end_voice_states(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, Permission.KICK_MEMBERS, Permission.BAN_MEMBERS)

    async def scenario() -> None:
        watcher, bot_sid = await bot_session(emu)
        bob, bob_sid = await sdk_session(emu, BOB)
        carol, carol_sid = await sdk_session(emu, CAROL)
        dave, dave_sid = await sdk_session(emu, DAVE)
        vbot = await join_call(watcher, bot_sid, BOT_ID, LOUNGE)
        vbob = await join_call(bob, bob_sid, BOB, LOUNGE)
        vcarol = await join_call(carol, carol_sid, CAROL, LOUNGE)
        vdave = await join_call(dave, dave_sid, DAVE, LOUNGE)
        for user in (BOB, CAROL, DAVE):
            await next_voice_state(watcher, user)
        for v in (vbot, vbob, vcarol, vdave):
            await v.speak()
        await until(lambda: agreed([vbot, vbob, vcarol, vdave]), timeout=10)

        assert (await call("DELETE", emu, f"/guilds/{GUILD_ID}/members/{BOB}")).status_code == 204
        assert (await next_voice_state(watcher, BOB))["channel_id"] is None
        assert (await next_voice_state(bob, BOB))["channel_id"] is None
        assert await vbob.closed() == 4014

        assert (await call("PUT", emu, f"/guilds/{GUILD_ID}/bans/{CAROL}", json={})).status_code == 204
        assert (await next_voice_state(watcher, CAROL))["channel_id"] is None
        assert await vcarol.closed() == 4014
        assert sorted(await asyncio.to_thread(emu.state.voice.participants, LOUNGE)) == sorted([BOT_ID, DAVE])

        # The remaining two re-key without the removed ones and still hear each other.
        await until(lambda: agreed([vbot, vdave]), timeout=10)
        assert await hears(vdave, vbot) and await hears(vbot, vdave)

        assert (await call("DELETE", emu, f"/users/@me/guilds/{GUILD_ID}")).status_code == 204
        assert await vbot.closed() == 4014
        assert stored_voice_states(emu) == [(DAVE, LOUNGE)]
        await vdave.close()
        for g in (watcher, bob, carol, dave):
            await g.close()

    run(scenario())


def test_a_timed_out_voice_session_ends_the_voice_state(platformpp_emulator: Emulator) -> None:
    """No heartbeats for two intervals (4009), or a dropped socket not resumed within the window."""
    emu = platformpp_emulator
    timeouts = httpx.put(f"{emu.base_url}/_emulator/voice/timeouts",
                         json={"heartbeat_interval_ms": 400, "resume_window_ms": 600})
    assert timeouts.status_code == 200 and timeouts.json() == {"heartbeat_interval_ms": 400,
                                                               "resume_window_ms": 600}
    refused = httpx.put(f"{emu.base_url}/_emulator/voice/timeouts", json={"resume_window_ms": 10})
    assert refused.status_code == 400 and "resume_window_ms" in refused.json()["errors"]

    async def scenario() -> None:
        watcher, bot_sid = await bot_session(emu)
        alice, alice_sid = await sdk_session(emu, ALICE)
        carol, carol_sid = await sdk_session(emu, CAROL)
        vbot = await join_call(watcher, bot_sid, BOT_ID, LOUNGE)
        valice = await join_call(alice, alice_sid, ALICE, LOUNGE)
        vcarol = await join_call(carol, carol_sid, CAROL, LOUNGE)
        for user in (ALICE, CAROL):
            assert (await next_voice_state(watcher, user))["channel_id"] == str(LOUNGE)

        valice.stop_heartbeats()
        assert await valice.closed(timeout=5) == 4009
        assert (await next_voice_state(watcher, ALICE))["channel_id"] is None
        assert (await next_voice_state(alice, ALICE))["channel_id"] is None

        loop = asyncio.get_running_loop()
        vcarol.drop()
        dropped_at = loop.time()
        assert (await next_voice_state(watcher, CAROL))["channel_id"] is None
        assert loop.time() - dropped_at >= 0.5            # not before the resume window ran out
        assert stored_voice_states(emu) == [(BOT_ID, LOUNGE)]
        missing = await call("GET", emu, f"/guilds/{GUILD_ID}/voice-states/{CAROL}")
        assert missing.status_code == 404 and missing.json()["code"] == 10065
        assert vbot.close_code is None
        assert await asyncio.to_thread(emu.state.voice.participants, LOUNGE) == [BOT_ID]
        await vbot.close()
        for g in (watcher, alice, carol):
            await g.close()

    run(scenario())


def test_leaving_a_lobby_or_its_deletion_ends_its_call_for_those_members(
        platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with api(emu, user_token(emu, ALICE)) as a, api(emu, user_token(emu, BOB)) as b:
        lobby_id = int(a.put("/lobbies", json={"secret": "voice-night"}).json()["id"])
        b.put("/lobbies", json={"secret": "voice-night"}).raise_for_status()

    async def scenario() -> None:
        alice, alice_sid = await sdk_session(emu, ALICE)
        bob, bob_sid = await sdk_session(emu, BOB)
        valice = await join_call(alice, alice_sid, ALICE, lobby_id, guild_id=None)
        vbob = await join_call(bob, bob_sid, BOB, lobby_id, guild_id=None)
        assert (await next_voice_state(alice, BOB))["lobby_id"] == str(lobby_id)

        def leave() -> int:
            with api(emu, user_token(emu, BOB)) as http:
                return http.delete(f"/lobbies/{lobby_id}/members/@me").status_code
        assert await asyncio.to_thread(leave) == 204
        gone = await next_voice_state(alice, BOB)
        assert gone["channel_id"] is None and gone["lobby_id"] == str(lobby_id)
        assert await vbob.closed() == 4014
        assert stored_voice_states(emu) == [(ALICE, lobby_id)]

        assert (await call("DELETE", emu, f"/lobbies/{lobby_id}")).status_code == 204
        assert (await next_voice_state(alice, ALICE))["channel_id"] is None
        assert await valice.closed() == 4014
        assert stored_voice_states(emu) == []
        for g in (alice, bob):
            await g.close()

    run(scenario())


def test_deleting_the_guild_ends_its_voice_states(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        bob, bob_sid = await sdk_session(emu, BOB)
        vbob = await join_call(bob, bob_sid, BOB, LOUNGE)
        deleted = await asyncio.to_thread(httpx.delete, f"{emu.base_url}/_emulator/guilds/{GUILD_ID}")
        assert deleted.status_code == 204, deleted.text
        gone = await next_voice_state(bob, BOB)           # his own session still hears that it ended
        assert gone["channel_id"] is None and gone["guild_id"] == str(GUILD_ID)
        assert await vbob.closed() == 4014
        assert stored_voice_states(emu) == []
        await bob.close()

    run(scenario())
