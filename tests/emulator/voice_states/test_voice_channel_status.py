"""Voice channel status and Channel Info (seed): PUT /channels/{id}/voice-status with its permission
rule (SET_VOICE_CHANNEL_STATUS, and MANAGE_CHANNELS unless the bot is in that channel's call), the
500-character limit (501: 50035, nothing changed), voice_start_time following the first join and
the last leave, VOICE_CHANNEL_STATUS_UPDATE / VOICE_CHANNEL_START_TIME_UPDATE, opcode 43 answered
with both fields, never in the channel object, audit entries 192/193; stage channels (suppress,
PATCH voice-states); and the admin API's voice faults (UDP drop, closing a voice gateway socket)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import httpx
from channel_helpers import BOT_ROLE, set_role_permissions
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission
from social_helpers import ALICE, BOT_ID, BOT_TOKEN, GUILD_ID, GatewayClient, bot, user_token

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "emulator_voice"))
from voice_client import VoiceClient  # noqa: E402

GUILDS, GUILD_VOICE_STATES = 1 << 0, 1 << 7
LOUNGE = 1200000000000000201
VOICE_CATEGORY = 1200000000000000200


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def bot_session(emu: Emulator) -> tuple[GatewayClient, str]:
    client = await GatewayClient.connect(emu)
    ready = await client.identify(BOT_TOKEN, intents=GUILDS | GUILD_VOICE_STATES)
    await client.dispatch("GUILD_CREATE")
    return client, ready["d"]["session_id"]


async def join(client: GatewayClient, channel_id: int | None) -> None:
    await client.send({"op": 4, "d": {"guild_id": str(GUILD_ID), "self_mute": False, "self_deaf": False,
                                      "channel_id": None if channel_id is None else str(channel_id)}})


async def channel_info(client: GatewayClient, *fields: str) -> dict[str, Any]:
    await client.send({"op": 43, "d": {"guild_id": str(GUILD_ID), "fields": list(fields)}})
    info = (await client.dispatch("CHANNEL_INFO"))["d"]
    return {c["id"]: c for c in info["channels"]}


def put_status(emu: Emulator, body: Any, channel_id: int = LOUNGE) -> httpx.Response:
    with bot(emu) as http:
        return http.put(f"/channels/{channel_id}/voice-status", json=body)


def test_status_needs_manage_channels_unless_connected_and_start_time_follows_the_call(
        platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    set_role_permissions(emu, BOT_ROLE, Permission.SET_VOICE_CHANNEL_STATUS | Permission.VIEW_AUDIT_LOG)

    async def scenario() -> None:
        client, _ = await bot_session(emu)
        refused = await asyncio.to_thread(put_status, emu, {"status": "raid night"})
        assert refused.status_code == 403 and refused.json()["code"] == 50013
        assert "MANAGE_CHANNELS" in refused.json()["message"]
        assert await channel_info(client, "status", "voice_start_time") == {str(LOUNGE): {"id": str(LOUNGE)}}

        await join(client, LOUNGE)
        started = (await client.dispatch("VOICE_CHANNEL_START_TIME_UPDATE"))["d"]
        assert started["id"] == str(LOUNGE) and started["guild_id"] == str(GUILD_ID)
        assert isinstance(started["voice_start_time"], int)   # unix seconds
        assert started["voice_start_time"] > 1.7e9
        accepted = await asyncio.to_thread(put_status, emu, {"status": "raid night"})   # connected: enough
        assert accepted.status_code == 204
        update = (await client.dispatch("VOICE_CHANNEL_STATUS_UPDATE"))["d"]
        assert update == {"id": str(LOUNGE), "guild_id": str(GUILD_ID), "status": "raid night"}

        too_long = await asyncio.to_thread(put_status, emu, {"status": "x" * 501})
        assert too_long.status_code == 400 and too_long.json()["code"] == 50035
        assert "status" in too_long.json()["errors"]
        info = await channel_info(client, "status", "voice_start_time")
        assert info[str(LOUNGE)] == {"id": str(LOUNGE), "status": "raid night",
                                     "voice_start_time": started["voice_start_time"]}
        assert await channel_info(client, "status") == {str(LOUNGE): {"id": str(LOUNGE), "status": "raid night"}}
        with bot(emu) as http:
            channel = (await asyncio.to_thread(http.get, f"/channels/{LOUNGE}")).json()
        assert "status" not in channel and "voice_start_time" not in channel

        cleared = await asyncio.to_thread(put_status, emu, {"status": ""})
        assert cleared.status_code == 204
        assert (await client.dispatch("VOICE_CHANNEL_STATUS_UPDATE"))["d"]["status"] is None
        await join(client, None)
        ended = (await client.dispatch("VOICE_CHANNEL_START_TIME_UPDATE"))["d"]
        assert ended["voice_start_time"] is None
        assert await channel_info(client, "status", "voice_start_time") == {str(LOUNGE): {"id": str(LOUNGE)}}

        with bot(emu) as http:
            log = (await asyncio.to_thread(http.get, f"/guilds/{GUILD_ID}/audit-logs")).json()
        entries = [(e["action_type"], e.get("options")) for e in log["audit_log_entries"]
                   if e["action_type"] in (192, 193)]
        assert entries == [(193, {"channel_id": str(LOUNGE)}),   # newest first
                           (192, {"channel_id": str(LOUNGE), "status": "raid night"})]
        await client.close()

    run(scenario())


def test_status_on_a_channel_that_is_not_voice_and_unknown_channels(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    set_role_permissions(emu, BOT_ROLE, Permission.SET_VOICE_CHANNEL_STATUS | Permission.MANAGE_CHANNELS)
    assert put_status(emu, {"status": "x"}, channel_id=1200000000000000101).json()["code"] == 50035
    assert put_status(emu, {"status": "x"}, channel_id=1).json()["code"] == 10003
    assert put_status(emu, {"status": 5}).json()["code"] == 50035
    assert put_status(emu, {"status": "ok"}).status_code == 204


def test_connected_channel_counts_as_viewable(platformpp_emulator: Emulator) -> None:
    """docs/wire.md: a channel also counts as viewable when the bot is connected to it."""
    emu = platformpp_emulator
    from platformpp.emulator.areas.guilds.access import standing, visible_channel_ids
    from platformpp.emulator.core.clock import parse_instant

    def visible() -> set[int]:
        with emu.state.db.transaction() as conn:
            who = standing(conn, GUILD_ID, BOT_ID, parse_instant("2026-01-01T00:00:00Z"))
            return visible_channel_ids(conn, who, categories_by_children=False)

    async def scenario() -> None:
        client, _ = await bot_session(emu)
        await join(client, LOUNGE)
        await client.dispatch("VOICE_SERVER_UPDATE")
        # Now hide the channel from everyone: the bot, still connected, still sees it.
        emu.state.db.execute("UPDATE channels SET permission_overwrites = ? WHERE id = ?",
                             (f'[{{"id": "{GUILD_ID}", "type": 0, "allow": "0", "deny": "1024"}}]', LOUNGE))
        assert LOUNGE in await asyncio.to_thread(visible)
        await join(client, None)
        await client.dispatch("VOICE_STATE_UPDATE")
        assert LOUNGE not in await asyncio.to_thread(visible)
        await client.close()

    run(scenario())


def test_stage_channel_joins_suppressed_and_patch_voice_state(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    stage = 1200000000000000299
    emu.state.db.execute("INSERT INTO channels (id, guild_id, type, name, parent_id) VALUES (?, ?, 13, 'stage', ?)",
                         (stage, GUILD_ID, VOICE_CATEGORY))

    async def scenario() -> None:
        client, _ = await bot_session(emu)
        await join(client, stage)
        state = (await client.dispatch("VOICE_STATE_UPDATE"))["d"]
        assert state["suppress"] is True
        with bot(emu) as http:
            # Un-suppressing oneself needs MUTE_MEMBERS; the bot has none yet.
            refused = await asyncio.to_thread(http.patch, f"/guilds/{GUILD_ID}/voice-states/@me",
                                              json={"channel_id": str(stage), "suppress": False})
            assert refused.status_code == 403 and refused.json()["code"] == 50013
            set_role_permissions(emu, BOT_ROLE, Permission.MUTE_MEMBERS)
            done = await asyncio.to_thread(http.patch, f"/guilds/{GUILD_ID}/voice-states/@me",
                                           json={"channel_id": str(stage), "suppress": False})
            assert done.status_code == 204
            assert (await client.dispatch("VOICE_STATE_UPDATE"))["d"]["suppress"] is False
            wrong = await asyncio.to_thread(http.patch, f"/guilds/{GUILD_ID}/voice-states/@me",
                                            json={"channel_id": str(LOUNGE), "suppress": True})
            assert wrong.json()["code"] == 10065       # not in that channel
            past = await asyncio.to_thread(http.patch, f"/guilds/{GUILD_ID}/voice-states/@me",
                                           json={"channel_id": str(stage),
                                                 "request_to_speak_timestamp": "2020-01-01T00:00:00Z"})
            assert past.json()["code"] == 50035
        await client.close()

    run(scenario())


def test_admin_voice_faults_drop_udp_and_close_the_voice_socket(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        client, session_id = await bot_session(emu)
        alice = await GatewayClient.connect(emu)
        alice_session = (await alice.identify(user_token(emu, ALICE)))["d"]["session_id"]
        voices = []
        for gateway, user_id, sid in ((client, BOT_ID, session_id), (alice, ALICE, alice_session)):
            await join(gateway, LOUNGE)
            server = (await gateway.dispatch("VOICE_SERVER_UPDATE"))["d"]
            voice = VoiceClient(server["endpoint"], GUILD_ID, user_id, sid, server["token"])
            voice.enable_dave(LOUNGE)
            await voice.join()
            await voice.speak()
            voices.append(voice)
        bot_voice, alice_voice = voices
        admin = f"{emu.base_url}/_emulator/voice"
        overview = (await asyncio.to_thread(httpx.get, admin)).json()
        assert sorted(overview["calls"][str(LOUNGE)]) == sorted([str(BOT_ID), str(ALICE)])

        bad = await asyncio.to_thread(httpx.put, f"{admin}/calls/{LOUNGE}/udp", json={"drop_ratio": 2})
        assert bad.status_code == 400 and "drop_ratio" in bad.json()["errors"]
        assert (await asyncio.to_thread(httpx.put, f"{admin}/calls/1/udp", json={})).status_code == 404
        assert (await asyncio.to_thread(httpx.put, f"{admin}/calls/{LOUNGE}/udp",
                                        json={"drop_ratio": 1})).status_code == 204
        before = (await asyncio.to_thread(httpx.get, admin)).json()["stats"].get("dropped_fault", 0)
        alice_voice.drain()
        for _ in range(5):
            bot_voice.send_audio(b"\xf8\xff\xfe", e2ee=False)
        assert await asyncio.to_thread(alice_voice.nothing_received, 0.3)
        after = (await asyncio.to_thread(httpx.get, admin)).json()["stats"]["dropped_fault"]
        assert after - before == 5

        closed = await asyncio.to_thread(httpx.post, f"{admin}/close",
                                         json={"server_id": str(GUILD_ID), "user_id": str(ALICE)})
        assert closed.status_code == 204
        assert await alice_voice.closed() == 4015
        nobody = await asyncio.to_thread(httpx.post, f"{admin}/close",
                                         json={"server_id": str(GUILD_ID), "user_id": "5"})
        assert nobody.status_code == 404
        for v in voices:
            await v.close()
        await client.close()
        await alice.close()

    run(scenario())
