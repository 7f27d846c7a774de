"""The voice gateway v8 step by step over a real WebSocket, and its close codes."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from datetime import datetime, timezone

from voice_helpers import BEFORE_E2EE, FakeNowClock, run
from voice_client import AES, VoiceClient
from websockets.asyncio.client import connect

from platformpp.emulator.voice.service import VoiceService

GUILD, CHANNEL = 41771983423143937, 127121515262115840


def client(voice: VoiceService, user_id: int, server_id: int = GUILD, channel_id: int = CHANNEL) -> VoiceClient:
    token, endpoint = voice.allocate(server_id, channel_id, user_id, f"session-{user_id}")
    return VoiceClient(endpoint, server_id, user_id, f"session-{user_id}", token)


def test_service_starts_fast_and_endpoint_has_no_scheme() -> None:
    timings = []
    for _ in range(3):                  # best of three: a shared machine can stall any single start
        started = time.perf_counter()
        service = VoiceService(now=lambda: datetime.now(timezone.utc)).start()
        timings.append(time.perf_counter() - started)
        service.stop()
    service = VoiceService(now=lambda: datetime.now(timezone.utc)).start()
    try:
        assert min(timings) < 0.1
        token, endpoint = service.allocate(GUILD, CHANNEL, 1, "s")
        assert endpoint == f"127.0.0.1:{service.ws_port}" and "://" not in endpoint
        assert len(token) >= 32
    finally:
        service.stop()


def test_handshake_step_by_step(voice, new_user, events) -> None:
    alice_id, bob_id = new_user(), new_user()

    async def scenario() -> None:
        alice = client(voice, alice_id)
        hello = await alice.open()
        assert hello["op"] == 8 and hello["d"]["heartbeat_interval"] == 1000
        ready = await alice.identify()
        assert ready["ip"] == "127.0.0.1" and ready["port"] == voice.udp_port and ready["ssrc"] > 0
        assert ready["modes"][:2] == ["aead_aes256_gcm_rtpsize", "aead_xchacha20_poly1305_rtpsize"]
        await alice.send(3, {"t": 1501184119561, "seq_ack": alice.seq_ack})
        ack = await alice.expect(6)
        assert ack["d"] == {"t": 1501184119561}
        alice.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        alice.sock.bind(("127.0.0.1", 0))
        alice.sock.settimeout(2)
        address, port = alice.discover()
        assert (address, port) == alice.sock.getsockname()
        await alice.send(1, {"protocol": "udp", "data": {"address": address, "port": port, "mode": AES}})
        description = await alice.expect(4)
        assert description["d"]["mode"] == AES and len(description["d"]["secret_key"]) == 32
        assert description["d"]["dave_protocol_version"] == 1
        assert isinstance(description["seq"], int)

        bob = client(voice, bob_id)
        await bob.join()
        joined = await alice.expect(11)
        assert joined["d"]["user_ids"] == [str(bob_id)]
        await bob.speak(5)
        speaking = await alice.expect(5)
        assert speaking["d"] == {"user_id": str(bob_id), "ssrc": bob.ssrc, "speaking": 5}
        assert voice.participants(CHANNEL) == sorted([alice_id, bob_id])
        assert voice.disconnect(GUILD, bob_id)
        left = await alice.expect(13)
        assert left["d"] == {"user_id": str(bob_id)}
        assert await bob.closed() == 4014
        await alice.close()
        await bob.close()

    run(scenario())
    deadline = time.monotonic() + 2          # alice's close (1000) ends her session just after
    while ("call_ended", GUILD, CHANNEL, None) not in events and time.monotonic() < deadline:
        time.sleep(0.01)
    kinds = [(kind, user) for kind, _, channel, user in events if channel == CHANNEL]
    assert kinds[:3] == [("call_started", None), ("participant_joined", alice_id), ("participant_joined", bob_id)]
    assert ("participant_left", bob_id) in kinds
    assert kinds[-1] == ("call_ended", None)


async def _closed_with(voice: VoiceService, user_id: int, frames: list[object], identify: bool = True) -> int | None:
    c = client(voice, user_id)
    await c.open()
    if identify:
        await c.identify()
    for frame in frames:
        assert c.ws is not None
        await c.ws.send(frame if isinstance(frame, (str, bytes)) else json.dumps(frame))
    code = await c.closed()
    await c.close()
    return code


def test_close_codes_for_bad_payloads(voice, new_user) -> None:
    async def scenario() -> None:
        assert await _closed_with(voice, new_user(), ["{not json"], identify=False) == 4002
        assert await _closed_with(voice, new_user(), [{"op": 99, "d": {}}]) == 4001
        assert await _closed_with(voice, new_user(), [{"op": 2, "d": {}}]) == 4001     # a server opcode
        assert await _closed_with(voice, new_user(), [b"\x1d\x00"]) == 4001               # binary op 29
        assert await _closed_with(voice, new_user(), [{"op": 5, "d": {"speaking": 1}}], identify=False) == 4003
        assert await _closed_with(voice, new_user(), [b"\x1a\x00"], identify=False) == 4003
        assert await _closed_with(voice, new_user(), [{"op": 0, "d": {"server_id": "x"}}], identify=False) == 4002
        assert await _closed_with(voice, new_user(), [{"op": 1, "d": {"protocol": "tcp"}}]) == 4012
        assert await _closed_with(voice, new_user(), [
            {"op": 1, "d": {"protocol": "udp", "data": {"address": "127.0.0.1", "port": 9, "mode": "xsalsa20_poly1305"}}}]) == 4016
        assert await _closed_with(voice, new_user(), [{"op": 1, "d": {"protocol": "udp", "data": {"port": 9}}}]) == 4020
        assert await _closed_with(voice, new_user(), [{"op": 3, "d": "soon"}]) == 4020

    run(scenario())


def test_identify_errors(voice, new_user) -> None:
    async def scenario() -> None:
        user = new_user()
        stale = client(voice, user)
        fresh = client(voice, user)                 # a new VOICE_SERVER_UPDATE for the same user
        await stale.open()
        await stale.send(0, {"server_id": str(GUILD), "user_id": str(user), "session_id": stale.session_id,
                             "token": stale.token, "max_dave_protocol_version": 1})
        assert await stale.closed() == 4004
        wrong_server = VoiceClient(fresh.endpoint, GUILD + 1, user, fresh.session_id, fresh.token)
        await wrong_server.open()
        await wrong_server.send(0, {"server_id": str(GUILD + 1), "user_id": str(user),
                                    "session_id": fresh.session_id, "token": fresh.token})
        assert await wrong_server.closed() == 4011
        await fresh.open()
        await fresh.identify()
        await fresh.send(0, {"server_id": str(GUILD), "user_id": str(user), "session_id": fresh.session_id,
                             "token": fresh.token})
        assert await fresh.closed() == 4005
        for c in (stale, wrong_server, fresh):
            await c.close()

    run(scenario())


def test_heartbeat_timeout_closes_4009_and_ends_the_session(voice, new_user) -> None:
    async def scenario() -> None:
        user = new_user()
        c = client(voice, user)
        await c.open(heartbeat=False)
        await c.identify()
        assert await c.closed(timeout=5) == 4009
        await c.close()

    run(scenario())
    deadline = time.monotonic() + 2         # the server finishes the session just after the close frame
    while voice.participants(CHANNEL) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert voice.participants(CHANNEL) == []


def test_resume_replays_missed_messages(voice, new_user) -> None:
    alice_id, bob_id = new_user(), new_user()

    async def scenario() -> None:
        alice, bob = client(voice, alice_id), client(voice, bob_id)
        await alice.join(max_dave=0)
        await bob.join(max_dave=0)
        await alice.expect(11)
        seen = alice.seq_ack
        assert voice.faults.close_gateway(GUILD, alice_id)          # 4015: "try resuming"
        assert await alice.closed() == 4015
        await bob.speak(1)                                          # sent while alice is away
        await asyncio.sleep(0.2)
        resumed = VoiceClient(alice.endpoint, GUILD, alice_id, alice.session_id, alice.token)
        await resumed.open()
        await resumed.send(7, {"server_id": str(GUILD), "session_id": alice.session_id, "token": alice.token,
                               "seq_ack": seen})
        assert (await resumed.expect(9))["d"] is None
        replayed = await resumed.expect(5)
        assert replayed["d"]["user_id"] == str(bob_id) and replayed["seq"] == (seen + 1) & 0xFFFF
        unknown = VoiceClient(alice.endpoint, GUILD, alice_id, "other-session", alice.token)
        await unknown.open()
        await unknown.send(7, {"server_id": str(GUILD), "session_id": "other-session", "token": alice.token,
                               "seq_ack": 0})
        assert await unknown.closed() == 4006
        for c in (alice, bob, resumed, unknown):
            await c.close()

    clock_before = FakeNowClock(BEFORE_E2EE)
    voice._now = clock_before.now        # non-DAVE clients are allowed before the E2EE instant
    run(scenario())


def test_dave_required_from_2026_03_01(voice, clock, new_user) -> None:
    async def attempt() -> int | None:
        c = client(voice, new_user())
        await c.open()
        await c.send(0, {"server_id": str(GUILD), "user_id": str(c.user_id), "session_id": c.session_id,
                         "token": c.token})        # no max_dave_protocol_version: no DAVE
        try:
            await c.expect(2, timeout=1)
            code = None
        except ConnectionError:
            code = c.close_code
        await c.close()
        return code

    clock.instant = datetime(2026, 2, 28, 23, 59, 59, tzinfo=timezone.utc)
    assert run(attempt()) is None
    clock.instant = datetime(2026, 3, 1, tzinfo=timezone.utc)
    assert run(attempt()) == 4017


def test_version_query_is_required() -> None:
    async def scenario(service: VoiceService) -> int | None:
        async with connect(f"ws://{service.endpoint}/") as ws:
            await ws.wait_closed()
            return ws.close_code

    with VoiceService(now=lambda: datetime.now(timezone.utc)) as service:
        assert run(scenario(service)) == 4020
