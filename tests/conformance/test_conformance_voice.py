"""Conformance of the voice operations (voice states, voice regions, voice channel status): every
success and error body checked against the published schema, with a real voice state made through
the Gateway's opcode 4."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from emulator_world import BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission
from social_helpers import GatewayClient

from conformance_client import ClientFactory

BOT = f"Bot {BOT_TOKEN}"
LOUNGE, GENERAL, BOT_ROLE = 1200000000000000201, 1200000000000000101, 1200000000000000011
STAGE = 1200000000000000299


async def joined(emu: Emulator, channel_id: int) -> GatewayClient:
    gateway = await GatewayClient.connect(emu)
    await gateway.identify(BOT_TOKEN, intents=1 | 1 << 7)
    await gateway.send({"op": 4, "d": {"guild_id": str(GUILD_ID), "channel_id": str(channel_id),
                                       "self_mute": False, "self_deaf": False}})
    await gateway.dispatch("VOICE_SERVER_UPDATE")
    return gateway


def with_voice_state(emu: Emulator, channel_id: int, check: Any) -> None:
    async def scenario() -> None:
        gateway = await joined(emu, channel_id)
        try:
            await asyncio.to_thread(check)
        finally:
            await gateway.close()
    asyncio.run(scenario())


@pytest.mark.covers("GET /guilds/{guild_id}/voice-states/@me", "GET /guilds/{guild_id}/voice-states/{user_id}",
                    "PATCH /guilds/{guild_id}/voice-states/@me", "PATCH /guilds/{guild_id}/voice-states/{user_id}")
def test_voice_states(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.get(f"/guilds/{GUILD_ID}/voice-states/@me").status_code == 404
    assert bot.get("/guilds/1/voice-states/@me").status_code == 404
    assert bot.get(f"/guilds/{GUILD_ID}/voice-states/1").status_code == 404
    emu.state.db.execute("INSERT INTO channels (id, guild_id, type, name) VALUES (?, ?, 13, 'stage')",
                         (STAGE, GUILD_ID))

    def check() -> None:
        me = bot.get(f"/guilds/{GUILD_ID}/voice-states/@me")
        assert me.status_code == 200 and me.json()["channel_id"] == str(STAGE)
        assert bot.get(f"/guilds/{GUILD_ID}/voice-states/{me.json()['user_id']}").status_code == 200
        assert bot.patch(f"/guilds/{GUILD_ID}/voice-states/@me",
                         json={"channel_id": str(STAGE), "suppress": True}).status_code == 204
        assert bot.patch(f"/guilds/{GUILD_ID}/voice-states/@me",
                         json={"channel_id": str(STAGE), "suppress": False}).status_code == 403
        assert bot.patch(f"/guilds/{GUILD_ID}/voice-states/@me",
                         json={"channel_id": str(STAGE), "suppress": "no"}).status_code == 400
        assert bot.patch(f"/guilds/{GUILD_ID}/voice-states/{me.json()['user_id']}",
                         json={"channel_id": str(STAGE), "suppress": True}).status_code == 403
        emu.state.db.execute("UPDATE roles SET permissions = ? WHERE id = ?",
                             (str(int(Permission.MUTE_MEMBERS)), BOT_ROLE))
        assert bot.patch(f"/guilds/{GUILD_ID}/voice-states/{me.json()['user_id']}",
                         json={"channel_id": str(STAGE), "suppress": False}).status_code == 204
        assert bot.patch(f"/guilds/{GUILD_ID}/voice-states/1",
                         json={"channel_id": str(STAGE), "suppress": True}).status_code == 404

    with_voice_state(emu, STAGE, check)


@pytest.mark.covers("GET /voice/regions", "GET /guilds/{guild_id}/regions")
def test_voice_regions(client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.get("/voice/regions").status_code == 200
    assert bot.get(f"/guilds/{GUILD_ID}/regions").status_code == 200
    assert bot.get("/guilds/1/regions").status_code == 404
    assert client().get("/voice/regions").status_code == 401


@pytest.mark.covers("PUT /channels/{channel_id}/voice-status")
def test_voice_status(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.put(f"/channels/{LOUNGE}/voice-status", json={"status": "hi"}).status_code == 403
    assert bot.put("/channels/1/voice-status", json={"status": "hi"}).status_code == 404
    assert bot.put(f"/channels/{LOUNGE}/voice-status", json={"status": "x" * 501}).status_code == 400
    assert bot.put(f"/channels/{GENERAL}/voice-status", json={"status": "hi"}).status_code == 400

    def check() -> None:
        assert bot.put(f"/channels/{LOUNGE}/voice-status", json={"status": "hi"}).status_code == 204
        assert bot.put(f"/channels/{LOUNGE}/voice-status", json={"status": None}).status_code == 204

    with_voice_state(emu, LOUNGE, check)


@pytest.mark.covers("PATCH /guilds/{guild_id}/members/{user_id}")
def test_server_mute_and_deafen(emu: Emulator, client: ClientFactory) -> None:
    """Modify Guild Member's ``mute`` / ``deaf``: 400 (40032) for a member not connected to voice, the
    member with the flags for one who is (and the flags on the voice state)."""
    bot = client(BOT)
    emu.state.db.execute("UPDATE roles SET permissions = ? WHERE id = ?",
                         (str(int(Permission.MUTE_MEMBERS | Permission.DEAFEN_MEMBERS)), BOT_ROLE))
    me = bot.get("/users/@me").json()["id"]
    refused = bot.patch(f"/guilds/{GUILD_ID}/members/{me}", json={"mute": True})
    assert refused.status_code == 400 and refused.json()["code"] == 40032

    def check() -> None:
        member = bot.patch(f"/guilds/{GUILD_ID}/members/{me}", json={"mute": True, "deaf": True})
        assert member.status_code == 200 and (member.json()["mute"], member.json()["deaf"]) == (True, True)
        state = bot.get(f"/guilds/{GUILD_ID}/voice-states/@me").json()
        assert (state["mute"], state["deaf"]) == (True, True)

    with_voice_state(emu, LOUNGE, check)
