"""Go Live streams over real sockets: SDK users' Gateway sessions send opcodes 18-22, the streamer and a
viewer then connect to the voice service with the stream's rtc_server_id and the token of
STREAM_SERVER_UPDATE (``davey`` as the DAVE client, as tests/emulator_voice do), and VP8 frames from the
streamer reach the viewer end-to-end encrypted over UDP. Also: refusals (STREAM, CONNECT, not in the
channel), bad payloads, a stream ending with its voice state, the admin API, and the dated E2EE rule on
both sides of 2026-03-01."""

from __future__ import annotations

import asyncio
import os
import socket
import struct
import sys
from pathlib import Path
from typing import Any

import davey
import httpx
import pytest
from platformpp.emulator import Emulator
from social_helpers import ALICE, BOB, CAROL, GROUP_DM, GUILD_ID, GatewayClient

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "emulator_voice"))
from voice_client import VoiceClient, client_seal
from voice_helpers import agreed
from voice_state_helpers import LOUNGE, bot_session, sdk_session, until, voice_update

STREAM, VIEW_CHANNEL, CONNECT = 1 << 9, 1 << 10, 1 << 20
VP8_PAYLOAD_TYPE = 103
KEY = f"guild:{GUILD_ID}:{LOUNGE}:{BOB}"
VP8_CODECS = [{"name": "opus", "type": "audio", "priority": 1000, "payload_type": 120},
              {"name": "VP8", "type": "video", "priority": 1000, "payload_type": VP8_PAYLOAD_TYPE,
               "rtx_payload_type": VP8_PAYLOAD_TYPE + 1}]


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def vp8_key_frame() -> bytes:
    """A VP8 key frame as an encoder emits it: the 3-byte frame tag (bit 0 clear: key frame), the start
    code 9d 01 2a, width and height (RFC 6386 9.1), then compressed data (random: nobody decodes it)."""
    size = 600
    tag = (0 << 0) | (0 << 1) | (1 << 4) | (size << 5)   # key frame, version 0, shown, first partition size
    return struct.pack("<I", tag)[:3] + b"\x9d\x01\x2a" + struct.pack("<HH", 1280, 720) + os.urandom(size)


async def announce_video(client: VoiceClient) -> int:
    """Voice op 12 as a Go Live client sends it: its video SSRC (its audio SSRC + 1) and the RTX one."""
    video_ssrc = client.ssrc + 1
    await client.send(12, {"audio_ssrc": client.ssrc, "video_ssrc": video_ssrc, "rtx_ssrc": video_ssrc + 1,
                           "streams": [{"type": "screen", "rid": "100", "ssrc": video_ssrc, "rtx_ssrc": video_ssrc + 1,
                                        "active": True, "quality": 100}]})
    return video_ssrc


def send_video(client: VoiceClient, frame: bytes, ssrc: int | None = None) -> bytes:
    """One video frame in one RTP packet with the VP8 payload type; the DAVE frame when E2EE is on."""
    assert client.sock is not None
    client.rtp_seq = (client.rtp_seq + 1) & 0xFFFF
    client.counter += 1
    payload = client.dave.encrypt(davey.MediaType.video, davey.Codec.vp8, frame) if client.dave_version else frame
    header = struct.pack(">BBHII", 0x80, VP8_PAYLOAD_TYPE, client.rtp_seq, client.rtp_seq * 3000,
                         client.ssrc if ssrc is None else ssrc)
    client.sock.sendto(client_seal(client.mode, client.key, client.counter, header, payload),
                       ("127.0.0.1", client.udp_port))
    return payload


async def join_voice(client: GatewayClient) -> None:
    await voice_update(client, LOUNGE)
    await client.dispatch("VOICE_SERVER_UPDATE")


async def dispatches_until(client: GatewayClient, last: str) -> dict[str, dict[str, Any]]:
    """The dispatches up to and including ``last``, by name (the latest of each)."""
    seen: dict[str, dict[str, Any]] = {}
    while last not in seen:
        payload = await client.recv()
        if payload["op"] == 0:
            seen[payload["t"]] = payload["d"]
    return seen


async def start_stream(client: GatewayClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """Opcode 18 in the Lounge: (STREAM_CREATE, STREAM_SERVER_UPDATE); the voice state says it streams."""
    await client.send({"op": 18, "d": {"type": "guild", "guild_id": str(GUILD_ID), "channel_id": LOUNGE,
                                       "preferred_region": None}})
    seen = await dispatches_until(client, "STREAM_SERVER_UPDATE")
    assert seen["VOICE_STATE_UPDATE"]["self_stream"] is True
    return seen["STREAM_CREATE"], seen["STREAM_SERVER_UPDATE"]


async def stream_session(server: dict[str, Any], rtc_server_id: int, user_id: int, session_id: str,
                         max_dave: int = 1) -> tuple[VoiceClient, dict[str, Any]]:
    voice = VoiceClient(server["endpoint"], rtc_server_id, user_id, session_id, server["token"])
    if max_dave:
        voice.enable_dave(rtc_server_id)
    await voice.open()
    await voice.identify(max_dave)
    voice.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    voice.sock.bind(("127.0.0.1", 0))
    address, port = voice.discover()
    await voice.send(1, {"protocol": "udp", "codecs": VP8_CODECS,
                         "data": {"address": address, "port": port, "mode": "aead_aes256_gcm_rtpsize"}})
    description = (await voice.expect(4))["d"]
    voice.mode, voice.key = description["mode"], bytes(description["secret_key"])
    return voice, description


async def bob_streams_to_carol(emu: Emulator) -> tuple[GatewayClient, GatewayClient]:
    """Bob streams in the lounge and Carol watches (her STREAM_SERVER_UPDATE read)."""
    bob, _ = await sdk_session(emu, BOB)
    carol, _ = await sdk_session(emu, CAROL)
    await join_voice(bob)
    await start_stream(bob)
    await carol.send({"op": 20, "d": {"stream_key": KEY}})
    await carol.dispatch("STREAM_SERVER_UPDATE")
    return bob, carol


def set_overwrite(emu: Emulator, target: int, kind: int, deny: int) -> None:
    """A permission overwrite on the Lounge denying ``deny`` to a role (0) or member (1)."""
    import json
    emu.state.db.execute("UPDATE channels SET permission_overwrites = ? WHERE id = ?",
                         (json.dumps([{"id": str(target), "type": kind, "allow": "0", "deny": str(deny)}]), LOUNGE))


def live_streams(emu: Emulator) -> list[dict[str, Any]]:
    with httpx.Client(base_url=emu.base_url, timeout=10) as http:
        return http.get("/_emulator/streams").json()


async def receive_from(viewer: VoiceClient, ssrc: int) -> tuple[int, bytes]:
    """(payload type, transport plaintext) of the next packet from ``ssrc``."""
    loop = asyncio.get_running_loop()
    while True:
        got, _, plaintext, packet = await loop.run_in_executor(None, viewer.receive)
        if got == ssrc:
            return packet[1] & 0x7F, plaintext


def test_a_viewer_watches_and_receives_the_streamers_vp8_frames_end_to_end_encrypted(
        platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        bob, bob_session = await sdk_session(emu, BOB)
        carol, carol_session = await sdk_session(emu, CAROL)
        await join_voice(bob)
        created, server = await start_stream(bob)
        assert created == {"stream_key": KEY, "rtc_server_id": created["rtc_server_id"], "region": "emulator",
                           "viewer_ids": [], "paused": False}
        assert server["stream_key"] == KEY and server["token"] and server["endpoint"] == emu.state.voice.endpoint
        rtc_server_id = int(created["rtc_server_id"])

        await carol.send({"op": 20, "d": {"stream_key": KEY}})
        watched = (await carol.dispatch("STREAM_CREATE"))["d"]
        assert watched["viewer_ids"] == [str(CAROL)] and watched["rtc_server_id"] == created["rtc_server_id"]
        carol_server = (await carol.dispatch("STREAM_SERVER_UPDATE"))["d"]
        assert carol_server["token"] != server["token"]
        assert (await bob.dispatch("STREAM_UPDATE"))["d"] == {"stream_key": KEY, "region": "emulator",
                                                             "viewer_ids": [str(CAROL)], "paused": False}

        streamer, description = await stream_session(server, rtc_server_id, BOB, bob_session)
        viewer, _ = await stream_session(carol_server, rtc_server_id, CAROL, carol_session)
        assert description["video_codec"] == "VP8" and description["dave_protocol_version"] == 1
        await until(lambda: agreed([streamer, viewer]))
        assert sorted(await asyncio.to_thread(emu.state.voice.participants, rtc_server_id)) == [BOB, CAROL]

        await streamer.speak(2)
        await viewer.speak(2)
        video_ssrc = await announce_video(streamer)
        announced = (await viewer.expect(12))["d"]
        assert announced["user_id"] == str(BOB) and announced["video_ssrc"] == video_ssrc
        assert announced["streams"][0]["rid"] == "100"
        await asyncio.sleep(0.2)
        frame = vp8_key_frame()
        sent = send_video(streamer, frame, video_ssrc)
        payload_type, e2ee = await receive_from(viewer, video_ssrc)
        assert payload_type == VP8_PAYLOAD_TYPE and e2ee == sent and e2ee.endswith(b"\xfa\xfa")
        # DAVE's VP8 rule: a key frame's first 10 bytes (tag, start code, size) stay clear, the rest not.
        assert e2ee[:10] == frame[:10] and frame[10:40] not in e2ee
        assert viewer.dave.decrypt(BOB, davey.MediaType.video, e2ee) == frame
        delta = b"\x31" + os.urandom(300)          # bit 0 set: an interframe, its first byte stays clear
        send_video(streamer, delta, video_ssrc)
        _, e2ee = await receive_from(viewer, video_ssrc)
        assert e2ee[:1] == delta[:1] and delta[1:30] not in e2ee
        assert viewer.dave.decrypt(BOB, davey.MediaType.video, e2ee) == delta

        send_video(viewer, vp8_key_frame())      # a viewer sends nothing to the stream
        assert await asyncio.to_thread(streamer.nothing_received, 0.4)

        await bob.send({"op": 22, "d": {"stream_key": KEY, "paused": True}})
        assert (await carol.dispatch("STREAM_UPDATE"))["d"]["paused"] is True
        assert (await bob.dispatch("STREAM_UPDATE"))["d"]["paused"] is True

        await carol.send({"op": 19, "d": {"stream_key": KEY}})
        assert (await carol.dispatch("STREAM_DELETE"))["d"] == {"stream_key": KEY, "unavailable": False,
                                                              "reason": "user_requested"}
        assert (await bob.dispatch("STREAM_UPDATE"))["d"]["viewer_ids"] == []
        assert await viewer.closed() == 4014

        await bob.send({"op": 19, "d": {"stream_key": KEY}})
        ended = await dispatches_until(bob, "VOICE_STATE_UPDATE")
        assert ended["STREAM_DELETE"]["reason"] == "user_requested"
        assert ended["VOICE_STATE_UPDATE"]["self_stream"] is False and ended["VOICE_STATE_UPDATE"]["user_id"] == str(BOB)
        assert await streamer.closed() == 4014
        assert await asyncio.to_thread(live_streams, emu) == []
        for client in (bob, carol):
            await client.close()

    run(scenario())


def test_refusals_stream_permission_voice_channel_and_viewer_connect(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        bob, _ = await sdk_session(emu, BOB)
        carol, _ = await sdk_session(emu, CAROL)
        # Not in the voice channel: refused.
        await bob.send({"op": 18, "d": {"type": "guild", "guild_id": GUILD_ID, "channel_id": str(LOUNGE)}})
        assert (await bob.dispatch("STREAM_DELETE"))["d"]["reason"] == "unauthorized"
        await join_voice(bob)
        set_overwrite(emu, GUILD_ID, 0, STREAM)             # @everyone may not stream in the Lounge
        await bob.send({"op": 18, "d": {"type": "guild", "guild_id": GUILD_ID, "channel_id": str(LOUNGE)}})
        assert (await bob.dispatch("STREAM_DELETE"))["d"] == {"stream_key": KEY, "unavailable": False,
                                                            "reason": "unauthorized"}
        await bob.no_dispatch("STREAM_SERVER_UPDATE")
        assert await asyncio.to_thread(live_streams, emu) == []

        set_overwrite(emu, CAROL, 1, CONNECT)               # Carol may not connect: she may not watch
        await start_stream(bob)
        await carol.send({"op": 20, "d": {"stream_key": KEY}})
        assert (await carol.dispatch("STREAM_DELETE"))["d"]["reason"] == "unauthorized"
        await bob.no_dispatch("STREAM_UPDATE")
        await carol.send({"op": 20, "d": {"stream_key": f"guild:{GUILD_ID}:{LOUNGE}:{CAROL}"}})
        assert (await carol.dispatch("STREAM_DELETE"))["d"]["reason"] == "stream_ended"
        # A viewer may not pause or end someone else's stream.
        await carol.send({"op": 22, "d": {"stream_key": KEY, "paused": True}})
        await carol.send({"op": 19, "d": {"stream_key": KEY}})
        await bob.no_dispatch("STREAM_UPDATE")
        assert [s["stream_key"] for s in await asyncio.to_thread(live_streams, emu)] == [KEY]
        for client in (bob, carol):
            await client.close()

    run(scenario())


def test_the_stream_ends_when_the_streamer_leaves_the_channel(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        bob, carol = await bob_streams_to_carol(emu)
        await voice_update(bob, None)
        assert (await bob.dispatch("STREAM_DELETE"))["d"]["reason"] == "stream_ended"
        assert (await carol.dispatch("STREAM_DELETE"))["d"]["reason"] == "stream_ended"
        assert await asyncio.to_thread(live_streams, emu) == []
        for client in (bob, carol):
            await client.close()

    run(scenario())


def test_a_viewer_whose_gateway_session_ends_leaves_the_stream(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        bob, carol = await bob_streams_to_carol(emu)
        assert (await bob.dispatch("STREAM_UPDATE"))["d"]["viewer_ids"] == [str(CAROL)]
        await carol.close()                       # a normal close ends the session
        assert (await bob.dispatch("STREAM_UPDATE"))["d"]["viewer_ids"] == []
        assert [s["viewer_ids"] for s in await asyncio.to_thread(live_streams, emu)] == [[]]
        await bob.close()

    run(scenario())


def test_a_world_reset_closes_the_stream_sessions(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        bob, bob_session = await sdk_session(emu, BOB)
        await join_voice(bob)
        created, server = await start_stream(bob)
        streamer, _ = await stream_session(server, int(created["rtc_server_id"]), BOB, bob_session)
        with httpx.Client(base_url=emu.base_url, timeout=10) as http:
            assert (await asyncio.to_thread(http.post, "/_emulator/reset")).status_code == 204
        assert await bob.close_code() == 4009          # the world is gone: so are its sessions...
        assert await streamer.closed() == 4014         # ...and their stream sessions
        await streamer.close()

    run(scenario())


def test_a_stream_in_a_group_dm_call_is_watched_by_its_recipients_only(group_dm_emulator: Emulator) -> None:
    emu = group_dm_emulator
    key = f"call:{GROUP_DM}:{ALICE}"

    async def scenario() -> None:
        alice, _ = await sdk_session(emu, ALICE)
        bob, _ = await sdk_session(emu, BOB)
        carol, _ = await sdk_session(emu, CAROL)
        await voice_update(alice, GROUP_DM, guild_id=None)
        await alice.dispatch("VOICE_SERVER_UPDATE")
        await alice.send({"op": 18, "d": {"type": "call", "channel_id": str(GROUP_DM)}})
        seen = await dispatches_until(alice, "STREAM_SERVER_UPDATE")
        assert seen["STREAM_CREATE"]["stream_key"] == key and seen["VOICE_STATE_UPDATE"]["self_stream"] is True
        state = (await bob.dispatch("VOICE_STATE_UPDATE"))["d"]     # the join, then the stream
        if not state["self_stream"]:
            state = (await bob.dispatch("VOICE_STATE_UPDATE"))["d"]
        assert state["user_id"] == str(ALICE) and state["self_stream"] is True
        await carol.send({"op": 20, "d": {"stream_key": key}})      # not a recipient
        assert (await carol.dispatch("STREAM_DELETE"))["d"]["reason"] == "unauthorized"
        await bob.send({"op": 20, "d": {"stream_key": key}})
        assert (await bob.dispatch("STREAM_CREATE"))["d"]["viewer_ids"] == [str(BOB)]
        await bob.dispatch("STREAM_SERVER_UPDATE")
        await voice_update(alice, None, guild_id=None)              # the streamer leaves the call
        assert (await alice.dispatch("STREAM_DELETE"))["d"]["reason"] == "stream_ended"
        assert (await bob.dispatch("STREAM_DELETE"))["d"]["reason"] == "stream_ended"
        assert await asyncio.to_thread(live_streams, emu) == []
        for client in (alice, bob, carol):
            await client.close()

    run(scenario())


def test_admin_ends_a_stream_and_bots_see_self_stream_only(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        bot, _ = await bot_session(emu)            # GUILDS | GUILD_VOICE_STATES
        bob, _ = await sdk_session(emu, BOB)
        await join_voice(bob)
        created, _ = await start_stream(bob)
        # The guild's bots learn of the stream from the voice state only; STREAM_* are the users' own.
        state = (await bot.dispatch("VOICE_STATE_UPDATE"))["d"]
        if not state["self_stream"]:
            state = (await bot.dispatch("VOICE_STATE_UPDATE"))["d"]
        assert state["user_id"] == str(BOB) and state["self_stream"] is True
        await bot.no_dispatch("STREAM_CREATE")
        listed = await asyncio.to_thread(live_streams, emu)
        assert listed == [{**created, "guild_id": str(GUILD_ID), "channel_id": str(LOUNGE), "user_id": str(BOB)}]
        with httpx.Client(base_url=emu.base_url, timeout=10) as http:
            assert (await asyncio.to_thread(http.delete, f"/_emulator/streams/{KEY}")).status_code == 204
            missing = await asyncio.to_thread(http.delete, f"/_emulator/streams/{KEY}")
            assert missing.status_code == 404
        assert (await bob.dispatch("STREAM_DELETE"))["d"]["reason"] == "stream_ended"
        state = (await bot.dispatch("VOICE_STATE_UPDATE"))["d"]
        assert state["user_id"] == str(BOB) and state["self_stream"] is False
        await bot.no_dispatch("STREAM_DELETE")
        for client in (bob, bot):
            await client.close()

    run(scenario())


@pytest.mark.parametrize("payload, field", [
    ({"type": "guild", "guild_id": "not-a-snowflake", "channel_id": str(LOUNGE)}, "d.guild_id"),
    ({"type": "lobby", "channel_id": str(LOUNGE)}, "d.type"),
    ({"type": "guild", "guild_id": str(GUILD_ID), "channel_id": str(LOUNGE), "preferred_region": 5},
     "d.preferred_region"),
    ({"type": "guild", "guild_id": str(GUILD_ID)}, "d.channel_id"),
])
def test_a_malformed_stream_create_closes_4002_naming_the_field(platformpp_emulator: Emulator,
                                                                 payload: dict[str, Any], field: str) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        bob, _ = await sdk_session(emu, BOB)
        await bob.send({"op": 18, "d": payload})
        assert await bob.close_code() == 4002
        assert field in (bob.ws.close_reason or "")   # type: ignore[attr-defined]
        assert await asyncio.to_thread(live_streams, emu) == []

    run(scenario())


def test_bad_paused_closes_4002_and_a_bot_session_has_no_stream_opcodes(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator

    async def scenario() -> None:
        bob, _ = await sdk_session(emu, BOB)
        await bob.send({"op": 22, "d": {"stream_key": KEY, "paused": "yes"}})
        assert await bob.close_code() == 4002
        bot, _ = await bot_session(emu)
        await bot.send({"op": 18, "d": {"type": "guild", "guild_id": str(GUILD_ID), "channel_id": str(LOUNGE)}})
        assert await bot.close_code() == 4001

    run(scenario())


@pytest.mark.parametrize("now, e2ee_required", [("2026-02-28T23:59:00Z", False), ("2026-03-01T00:00:00Z", True)])
def test_a_stream_session_without_dave_is_refused_from_2026_03_01(platformpp_emulator: Emulator, now: str,
                                                                   e2ee_required: bool) -> None:
    emu = platformpp_emulator
    with httpx.Client(base_url=emu.base_url, timeout=10) as http:
        assert http.put("/_emulator/clock", json={"now": now}).status_code == 200

    async def scenario() -> None:
        bob, bob_session = await sdk_session(emu, BOB)
        carol, carol_session = await sdk_session(emu, CAROL)
        await join_voice(bob)
        created, server = await start_stream(bob)
        rtc_server_id = int(created["rtc_server_id"])
        await carol.send({"op": 20, "d": {"stream_key": KEY}})
        carol_server = (await carol.dispatch("STREAM_SERVER_UPDATE"))["d"]
        if e2ee_required:
            refused = VoiceClient(server["endpoint"], rtc_server_id, BOB, bob_session, server["token"])
            await refused.open()
            await refused.send(0, {"server_id": str(rtc_server_id), "user_id": str(BOB), "session_id": bob_session,
                                   "token": server["token"], "max_dave_protocol_version": 0})
            assert await refused.closed() == 4017
            await refused.close()
        else:   # before the date a stream without DAVE carries bare frames
            streamer, description = await stream_session(server, rtc_server_id, BOB, bob_session, max_dave=0)
            viewer, _ = await stream_session(carol_server, rtc_server_id, CAROL, carol_session, max_dave=0)
            assert description["dave_protocol_version"] == 0
            await streamer.speak(2)
            await asyncio.sleep(0.2)
            frame = vp8_key_frame()
            send_video(streamer, frame)
            assert (await receive_from(viewer, streamer.ssrc)) == (VP8_PAYLOAD_TYPE, frame)
            # A video SSRC another source of the call already uses is refused (4020).
            await viewer.send(12, {"audio_ssrc": viewer.ssrc, "video_ssrc": streamer.ssrc, "rtx_ssrc": 0})
            assert await viewer.closed() == 4020
            for voice in (streamer, viewer):
                await voice.close()
        for client in (bob, carol):
            await client.close()

    run(scenario())
