"""nextcord and voice, against an emulator serving TLS (HTTPS API, WSS Gateway), as bots reach the platform:
the bot joins a guild voice channel through its Gateway voice state (op 4), the library's cache and events
follow it (VOICE_STATE_UPDATE, the channel's members), the emulator hands it a voice server
(VOICE_SERVER_UPDATE: endpoint and token), and it leaves.

nextcord 2.6's own voice client cannot join the platform's voice servers of today, so it is not run here:
it offers only the xsalsa20 transport modes (the platform lists only the two AEAD "rtpsize" modes since
2024-11, so the library finds no mode in common), it has no DAVE (refused from 2026-03-01 with 4017), and it
drops the port of the voice endpoint (it reaches only a voice server on 443)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nextcord
import pytest
from emulator_world import BOT_ID, GUILD_ID
from nextcord_bot import NextcordBot, admin
from platformpp.emulator import Emulator, local_certificate

LOUNGE = 1200000000000000201


@pytest.fixture
def tls_emulator(tmp_path: Path) -> Iterator[Emulator]:
    emulator = Emulator(tls=local_certificate(tmp_path)).start()
    try:
        yield emulator
    finally:
        emulator.stop(wait=False)


def test_voice_state_join_and_leave_over_tls(tls_emulator: Emulator) -> None:
    emu = tls_emulator
    assert emu.base_url.startswith("https://")
    servers: list[dict[str, Any]] = []

    def record_voice_servers(client: nextcord.Client) -> None:
        @client.event
        async def on_socket_raw_receive(message: str) -> None:   # the library's debug event of every payload
            payload = json.loads(message)
            if payload.get("t") == "VOICE_SERVER_UPDATE":
                servers.append(payload["d"])

    with NextcordBot(emu, setup=record_voice_servers, enable_debug_events=True) as bot:
        guild = bot.client.get_guild(GUILD_ID)
        assert guild is not None
        lounge = guild.get_channel(LOUNGE)
        assert isinstance(lounge, nextcord.VoiceChannel)

        joined = bot.expect("voice_state_update", lambda member, before, after: member.id == BOT_ID)
        bot.run(guild.change_voice_state(channel=lounge, self_deaf=True))
        member, before, after = joined()
        assert before.channel is None and after.channel == lounge
        assert after.self_deaf and not after.self_mute and after.session_id
        assert guild.me.voice is not None and guild.me.voice.channel == lounge
        assert [m.id for m in lounge.members] == [BOT_ID]
        assert lounge.voice_states[BOT_ID].self_deaf

        bot.run(_wait_until(lambda: servers))
        server = servers[0]
        assert int(server["guild_id"]) == GUILD_ID and server["token"]
        with admin(emu) as http:
            voice = http.get("/voice").json()
        assert server["endpoint"] == voice["endpoint"]

        moved = bot.expect("voice_state_update", lambda member, before, after: member.id == BOT_ID)
        bot.run(guild.change_voice_state(channel=lounge, self_mute=True))
        _, before, after = moved()
        assert (before.self_mute, after.self_mute, after.self_deaf) == (False, True, False)

        left = bot.expect("voice_state_update", lambda member, before, after: member.id == BOT_ID)
        bot.run(guild.change_voice_state(channel=None))
        _, before, after = left()
        assert before.channel == lounge and after.channel is None
        assert guild.me.voice is None and lounge.members == []


async def _wait_until(condition: Any) -> None:
    while not condition():
        await asyncio.sleep(0.02)
