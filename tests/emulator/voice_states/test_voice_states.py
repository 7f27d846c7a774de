"""Voice states over real sockets: Gateway opcode 4 joins, moves and leaves guild voice channels, group
DMs and lobby calls; VOICE_STATE_UPDATE to those who may see it, VOICE_SERVER_UPDATE to the joining
session, which then connects to the voice service's gateway with that token (``davey`` as the DAVE
client, as tests/emulator_voice do); CONNECT and user_limit refusals; a voice state ends with its
Gateway session; voice states in GUILD_CREATE and in an SDK session's READY (lobby calls)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import httpx
from platformpp.emulator import Emulator
from social_helpers import (
    ALICE,
    BOB,
    BOT_ID,
    BOT_TOKEN,
    CAROL,
    GROUP_DM,
    GUILD_ID,
    GatewayClient,
    api,
    bot,
    user_token,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "emulator_voice"))
from voice_client import VoiceClient
from voice_state_helpers import agreed, bot_session, hears, until, voice_update

GUILDS = 1 << 0
LOUNGE = 1200000000000000201
CONNECT, VIEW = 1 << 20, 1 << 10


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def sdk(emu: Emulator, user_id: int) -> tuple[GatewayClient, str]:
    client = await GatewayClient.connect(emu)
    ready = await client.identify(user_token(emu, user_id))
    return client, ready["d"]["session_id"]


async def connect_voice(server_id: int, channel_id: int, user_id: int, session_id: str,
                        server_update: dict[str, Any]) -> VoiceClient:
    voice = VoiceClient(server_update["endpoint"], server_id, user_id, session_id, server_update["token"])
    voice.enable_dave(channel_id)
    description = await voice.join()
    assert description["dave_protocol_version"] == 1   # real time is after 2026-03-01: E2EE only
    return voice


def stored_state(emu: Emulator, user_id: int) -> httpx.Response:
    with bot(emu) as http:
        return http.get(f"/guilds/{GUILD_ID}/voice-states/{user_id}")


def test_bot_joins_guild_voice_connects_to_the_voice_gateway_and_leaves(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    assert emu.state.voice is None   # the voice service starts with the first call, not with the emulator

    async def scenario() -> None:
        client, session_id = await bot_session(emu)
        await voice_update(client, LOUNGE, self_deaf=True)
        state = (await client.dispatch("VOICE_STATE_UPDATE"))["d"]
        assert state["channel_id"] == str(LOUNGE) and state["guild_id"] == str(GUILD_ID)
        assert state["user_id"] == str(BOT_ID) and state["session_id"] == session_id
        assert state["self_deaf"] is True and state["suppress"] is False and state["member"]["user"]["id"] == str(BOT_ID)
        server = (await client.dispatch("VOICE_SERVER_UPDATE"))["d"]
        assert server["guild_id"] == str(GUILD_ID) and server["token"]
        assert server["endpoint"] == emu.state.voice.endpoint and "://" not in server["endpoint"]
        voice = await connect_voice(GUILD_ID, LOUNGE, BOT_ID, session_id, server)
        assert await asyncio.to_thread(emu.state.voice.participants, LOUNGE) == [BOT_ID]

        got = await asyncio.to_thread(stored_state, emu, BOT_ID)
        assert got.status_code == 200 and got.json()["channel_id"] == str(LOUNGE)
        with bot(emu) as http:
            assert (await asyncio.to_thread(http.get, f"/guilds/{GUILD_ID}/voice-states/@me")).json() == got.json()

        await voice_update(client, None)
        left = (await client.dispatch("VOICE_STATE_UPDATE"))["d"]
        assert left["channel_id"] is None and left["user_id"] == str(BOT_ID)
        assert await voice.closed() == 4014       # the voice service ended the voice session
        missing = await asyncio.to_thread(stored_state, emu, BOT_ID)
        assert missing.status_code == 404 and missing.json()["code"] == 10065
        await client.close()

    run(scenario())


def test_sdk_users_join_guild_voice_seen_by_bots_with_the_intent(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        watcher, _ = await bot_session(emu)
        blind, _ = await bot_session(emu, intents=GUILDS)
        alice, alice_session = await sdk(emu, ALICE)
        await voice_update(alice, LOUNGE, self_mute=True)
        own = (await alice.dispatch("VOICE_STATE_UPDATE"))["d"]
        assert own["user_id"] == str(ALICE) and own["self_mute"] is True
        server = (await alice.dispatch("VOICE_SERVER_UPDATE"))["d"]
        seen = (await watcher.dispatch("VOICE_STATE_UPDATE"))["d"]
        assert seen == own
        await blind.no_dispatch("VOICE_STATE_UPDATE")

        # A bot identifying now finds alice in GUILD_CREATE.
        late = await GatewayClient.connect(emu)
        await late.identify(BOT_TOKEN, intents=GUILDS)
        guild = (await late.dispatch("GUILD_CREATE"))["d"]
        assert [(v["user_id"], v["channel_id"]) for v in guild["voice_states"]] == [(str(ALICE), str(LOUNGE))]
        assert "guild_id" not in guild["voice_states"][0]

        voice = await connect_voice(GUILD_ID, LOUNGE, ALICE, alice_session, server)
        # Closing the Gateway session (1000) ends the voice state, and the voice session with it.
        await alice.close()
        gone = (await watcher.dispatch("VOICE_STATE_UPDATE"))["d"]
        assert gone["user_id"] == str(ALICE) and gone["channel_id"] is None
        assert await voice.closed() == 4014
        for c in (watcher, blind, late):
            await c.close()

    run(scenario())


def test_connect_permission_and_user_limit_refuse_a_join(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    emu.state.db.execute("UPDATE channels SET user_limit = 1 WHERE id = ?", (LOUNGE,))

    async def scenario() -> None:
        watcher, _ = await bot_session(emu)
        alice, _ = await sdk(emu, ALICE)
        bob, _ = await sdk(emu, BOB)
        await voice_update(alice, LOUNGE)
        await alice.dispatch("VOICE_SERVER_UPDATE")
        await watcher.dispatch("VOICE_STATE_UPDATE")
        await voice_update(bob, LOUNGE)                 # full: nothing changes, nothing is sent
        await bob.no_dispatch("VOICE_SERVER_UPDATE")
        await watcher.no_dispatch("VOICE_STATE_UPDATE")
        assert (await asyncio.to_thread(stored_state, emu, BOB)).json()["code"] == 10065

        await voice_update(alice, None)                 # room again, but CONNECT is now denied to @everyone
        await watcher.dispatch("VOICE_STATE_UPDATE")
        deny = [{"id": str(GUILD_ID), "type": 0, "allow": "0", "deny": str(CONNECT)}]
        emu.state.db.execute("UPDATE channels SET permission_overwrites = ? WHERE id = ?",
                             (json.dumps(deny), LOUNGE))
        await voice_update(bob, LOUNGE)
        await bob.no_dispatch("VOICE_SERVER_UPDATE")
        assert (await asyncio.to_thread(stored_state, emu, BOB)).json()["code"] == 10065
        for c in (watcher, alice, bob):
            await c.close()

    run(scenario())


def test_malformed_voice_state_update_closes_4002(platformpp_emulator: Emulator) -> None:
    async def scenario() -> None:
        client, _ = await bot_session(platformpp_emulator)
        await client.send({"op": 4, "d": {"guild_id": str(GUILD_ID), "channel_id": str(LOUNGE),
                                          "self_mute": "yes", "self_deaf": False}})
        assert await client.close_code() == 4002

    run(scenario())


def test_lobby_call_members_only_with_e2ee_audio_through_the_relay(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with api(emu, user_token(emu, ALICE)) as a, api(emu, user_token(emu, BOB)) as b:
        lobby_id = int(a.put("/lobbies", json={"secret": "voice-night"}).json()["id"])
        b.put("/lobbies", json={"secret": "voice-night"}).raise_for_status()

    async def scenario() -> None:
        alice, alice_session = await sdk(emu, ALICE)
        bob, bob_session = await sdk(emu, BOB)
        carol, _ = await sdk(emu, CAROL)
        await voice_update(carol, lobby_id, guild_id=None)          # not a member
        await carol.no_dispatch("VOICE_SERVER_UPDATE")

        await voice_update(alice, lobby_id, guild_id=None)
        state = (await bob.dispatch("VOICE_STATE_UPDATE"))["d"]
        assert state["lobby_id"] == str(lobby_id) and state["channel_id"] == str(lobby_id)
        assert state["user_id"] == str(ALICE) and "guild_id" not in state
        server_a = (await alice.dispatch("VOICE_SERVER_UPDATE"))["d"]
        assert server_a["channel_id"] == str(lobby_id) and "guild_id" not in server_a
        await carol.no_dispatch("VOICE_STATE_UPDATE")
        await voice_update(bob, lobby_id, guild_id=None)
        server_b = (await bob.dispatch("VOICE_SERVER_UPDATE"))["d"]

        va = await connect_voice(lobby_id, lobby_id, ALICE, alice_session, server_a)
        await va.speak()
        vb = await connect_voice(lobby_id, lobby_id, BOB, bob_session, server_b)
        await vb.speak()
        await until(lambda: agreed([va, vb]))
        assert await hears(vb, va) and await hears(va, vb)

        # A new SDK session of bob learns who is in the lobby's call from READY.
        again = await GatewayClient.connect(emu)
        ready = (await again.identify(user_token(emu, BOB)))["d"]
        assert sorted(v["user_id"] for v in ready["voice_states"]) == sorted([str(ALICE), str(BOB)])
        assert {v["lobby_id"] for v in ready["voice_states"]} == {str(lobby_id)}
        for c in (va, vb):
            await c.close()
        for g in (alice, bob, carol, again):
            await g.close()

    run(scenario())


def test_group_dm_call_is_seen_by_its_recipients_only(group_dm_emulator: Emulator) -> None:
    emu = group_dm_emulator

    async def scenario() -> None:
        alice, alice_session = await sdk(emu, ALICE)
        bob, _ = await sdk(emu, BOB)
        carol, _ = await sdk(emu, CAROL)
        await voice_update(alice, GROUP_DM, guild_id=None)
        seen = (await bob.dispatch("VOICE_STATE_UPDATE"))["d"]
        assert seen["channel_id"] == str(GROUP_DM) and seen["user_id"] == str(ALICE)
        server = (await alice.dispatch("VOICE_SERVER_UPDATE"))["d"]
        assert server["channel_id"] == str(GROUP_DM)
        await carol.no_dispatch("VOICE_STATE_UPDATE")
        await voice_update(carol, GROUP_DM, guild_id=None)            # not a recipient
        await carol.no_dispatch("VOICE_SERVER_UPDATE")
        voice = await connect_voice(GROUP_DM, GROUP_DM, ALICE, alice_session, server)
        await voice.close()
        for g in (alice, bob, carol):
            await g.close()

    run(scenario())


def test_voice_state_flags_reach_the_relay_and_a_move_reallocates(platformpp_emulator: Emulator) -> None:
    """self_deaf stops what a participant receives; without SPEAK nothing of the user is forwarded
    (applied when the client identifies on the voice gateway after opcode 4); a move to another
    channel is one VOICE_STATE_UPDATE, a new VOICE_SERVER_UPDATE and the end of the old voice session."""
    emu = platformpp_emulator
    speak_denied = [{"id": str(BOB), "type": 1, "allow": "0", "deny": str(1 << 21)}]
    emu.state.db.execute("UPDATE channels SET permission_overwrites = ? WHERE id = ?",
                         (json.dumps(speak_denied), LOUNGE))
    other = 1200000000000000202
    emu.state.db.execute("INSERT INTO channels (id, guild_id, type, name, parent_id) VALUES (?, ?, 2, 'Den', ?)",
                         (other, GUILD_ID, 1200000000000000200))

    async def scenario() -> None:
        client, bot_session_id = await bot_session(emu)
        bob, bob_session = await sdk(emu, BOB)   # bob: bob owns the guild
        await voice_update(client, LOUNGE)
        vbot = await connect_voice(GUILD_ID, LOUNGE, BOT_ID, bot_session_id,
                                   (await client.dispatch("VOICE_SERVER_UPDATE"))["d"])
        await voice_update(bob, LOUNGE)
        vbob = await connect_voice(GUILD_ID, LOUNGE, BOB, bob_session,
                                     (await bob.dispatch("VOICE_SERVER_UPDATE"))["d"])
        for v in (vbot, vbob):
            await v.speak()
        await until(lambda: agreed([vbot, vbob]))
        assert await hears(vbob, vbot)
        vbob.drain()
        vbot.drain()
        vbob.send_audio(b"\xfc" + bytes(40))             # bob may not speak in the Lounge
        assert await asyncio.to_thread(vbot.nothing_received, 0.4)

        await voice_update(bob, LOUNGE, self_deaf=True)    # flags only: no new voice server
        joined = (await client.dispatch("VOICE_STATE_UPDATE"))["d"]       # bob's join, seen earlier
        assert joined["user_id"] == str(BOB) and joined["self_deaf"] is False
        state = (await client.dispatch("VOICE_STATE_UPDATE"))["d"]
        assert state["user_id"] == str(BOB) and state["self_deaf"] is True
        await bob.no_dispatch("VOICE_SERVER_UPDATE")
        vbot.send_audio(b"\xfc" + bytes(40))
        assert await asyncio.to_thread(vbob.nothing_received, 0.4)

        await voice_update(client, other)                    # the bot moves
        moved = (await client.dispatch("VOICE_STATE_UPDATE"))["d"]
        assert moved["channel_id"] == str(other)
        server = (await client.dispatch("VOICE_SERVER_UPDATE"))["d"]
        assert await vbot.closed() == 4014
        assert await asyncio.to_thread(emu.state.voice.participants, LOUNGE) == [BOB]
        vother = await connect_voice(GUILD_ID, other, BOT_ID, bot_session_id, server)
        assert await asyncio.to_thread(emu.state.voice.participants, other) == [BOT_ID]
        for v in (vother, vbob):
            await v.close()
        for g in (client, bob):
            await g.close()

    run(scenario())


def test_a_world_reset_ends_voice_sessions_too(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        client, session_id = await bot_session(emu)
        await voice_update(client, LOUNGE)
        voice = await connect_voice(GUILD_ID, LOUNGE, BOT_ID, session_id,
                                    (await client.dispatch("VOICE_SERVER_UPDATE"))["d"])
        reset = await asyncio.to_thread(httpx.post, f"{emu.base_url}/_emulator/reset")
        assert reset.status_code < 300
        assert await client.close_code() == 4009
        assert await voice.closed() == 4014
        assert await asyncio.to_thread(emu.state.voice.participants, LOUNGE) == []

    run(scenario())
