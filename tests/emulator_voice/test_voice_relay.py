"""The UDP relay over real loopback sockets: discovery, per-hop keys in both modes, who hears whom,
bad packets, RTCP, faults. DAVE is off here (clock before the E2EE instant) so payloads are readable."""

from __future__ import annotations

import asyncio
import socket
import struct
import time

import pytest
from voice_helpers import BEFORE_E2EE, run
from voice_client import AES, XCHACHA, VoiceClient, client_seal

from platformpp.emulator.voice.service import VoiceService

GUILD, CHANNEL = 51771983423143937, 227121515262115840


@pytest.fixture(autouse=True)
def before_e2ee(clock) -> None:
    clock.instant = BEFORE_E2EE


def client(voice: VoiceService, user_id: int) -> VoiceClient:
    token, endpoint = voice.allocate(GUILD, CHANNEL, user_id, f"s{user_id}")
    return VoiceClient(endpoint, GUILD, user_id, f"s{user_id}", token)


async def trio(voice: VoiceService, ids: list[int], modes: list[str]) -> list[VoiceClient]:
    clients = []
    for user_id, mode in zip(ids, modes):
        c = client(voice, user_id)
        await c.join(mode=mode, max_dave=0)
        await c.speak(1)
        clients.append(c)
    deadline = time.monotonic() + 5            # every Speaking processed: each client knows the others' SSRCs
    while any(len(c.ssrc_users) < len(clients) - 1 for c in clients) and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    return clients


def test_relay_reencrypts_per_receiver_in_both_modes(voice, new_user) -> None:
    ids = [new_user(), new_user(), new_user()]

    async def scenario() -> None:
        a, b, c = await trio(voice, ids, [AES, XCHACHA, AES])
        assert a.key != b.key != c.key
        sent = a.send_audio(b"opus-frame-1", e2ee=False)
        for receiver in (b, c):
            ssrc, seq, plaintext, raw = receiver.receive()
            assert (ssrc, seq, plaintext) == (a.ssrc, a.rtp_seq, sent)
            assert b"opus-frame-1" not in raw           # encrypted on the wire, under the receiver's key
        assert a.nothing_received()                      # a sender does not hear itself
        b.send_audio(b"\xf8\xff\xfe", e2ee=False)        # silence frames pass like any frame
        assert a.receive()[2] == b"\xf8\xff\xfe"
        for x in (a, b, c):
            await x.close()

    run(scenario())
    stats = voice.stats()["relay"]
    assert stats["rtp"] == 2 and stats["forwarded"] == 4 and stats["discovery"] == 3


def test_deafened_hear_nothing_and_those_who_may_not_speak_are_not_forwarded(voice, new_user) -> None:
    ids = [new_user(), new_user(), new_user()]

    async def scenario() -> None:
        a, b, c = await trio(voice, ids, [AES, AES, XCHACHA])
        assert voice.set_participant_state(GUILD, ids[2], self_deaf=True)
        a.send_audio(b"hello", e2ee=False)
        assert b.receive()[2] == b"hello"
        assert c.nothing_received()
        assert voice.set_participant_state(GUILD, ids[0], may_speak=False)
        silence = [b.receive()[2] for _ in range(5)]      # the SFU's silence for a source it stops
        assert silence == [b"\xf8\xff\xfe"] * 5
        a.send_audio(b"not allowed", e2ee=False)
        assert b.nothing_received()
        assert voice.set_participant_state(GUILD, ids[0], may_speak=True, mute=True)
        a.send_audio(b"server muted", e2ee=False)
        assert b.nothing_received()
        assert voice.set_participant_state(GUILD, ids[0], mute=False)
        a.send_audio(b"back", e2ee=False)
        assert b.receive()[2] == b"back"
        assert voice.disconnect(GUILD, ids[1])
        a.send_audio(b"after leaving", e2ee=False)
        assert b.nothing_received()                        # disconnected: nothing
        for x in (a, b, c):
            await x.close()

    run(scenario())
    assert voice.stats()["relay"]["dropped_not_permitted"] == 2


def test_bad_packets_are_dropped_and_counted_and_the_call_goes_on(voice, new_user) -> None:
    ids = [new_user(), new_user()]

    async def scenario() -> None:
        a, b = await trio(voice, ids, [AES, AES])
        stranger = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        header = struct.pack(">BBHII", 0x80, 0x78, 1, 960, a.ssrc)
        stranger.sendto(client_seal(AES, a.key, 99, header, b"spoofed"), ("127.0.0.1", voice.udp_port))
        stranger.close()
        assert a.sock is not None
        a.sock.sendto(client_seal(AES, bytes(32), 100, header, b"wrong key"), ("127.0.0.1", voice.udp_port))
        a.sock.sendto(b"\x80\x78" + bytes(1500), ("127.0.0.1", voice.udp_port))
        a.sock.sendto(b"\x01\x02", ("127.0.0.1", voice.udp_port))
        assert b.nothing_received()
        a.send_audio(b"still fine", e2ee=False)
        assert b.receive()[2] == b"still fine"
        for x in (a, b):
            await x.close()

    run(scenario())
    stats = voice.stats()["relay"]
    assert stats["dropped_unknown_address"] == 1
    assert stats["dropped_bad_tag"] == 1
    assert stats["dropped_oversized"] == 1
    assert stats["dropped_malformed"] == 1


def test_rtcp_sender_report_is_answered_with_a_receiver_report(voice, new_user) -> None:
    ids = [new_user(), new_user()]

    async def scenario() -> None:
        a, b = await trio(voice, ids, [XCHACHA, AES])
        a.send_audio(b"x", e2ee=False)
        b.receive()
        ntp = struct.pack(">II", 0x11223344, 0x55667788)
        sender_info = ntp + struct.pack(">III", 960, 1, 1)
        header = struct.pack(">BBHI", 0x80, 200, 6, a.ssrc)
        assert a.sock is not None
        a.sock.sendto(client_seal(XCHACHA, a.key, 50, header, sender_info), ("127.0.0.1", voice.udp_port))
        a.sock.settimeout(2)
        packet, _ = a.sock.recvfrom(2048)
        assert packet[1] == 201                                  # receiver report
        from voice_client import client_open
        block = client_open(XCHACHA, a.key, packet, 8)
        assert struct.unpack(">I", block[:4])[0] == a.ssrc        # about the reporter's own stream
        assert block[16:20] == ntp[2:6]                           # LSR: middle 32 bits of the SR's NTP time
        assert b.nothing_received()                               # RTCP is not forwarded
        for x in (a, b):
            await x.close()

    run(scenario())
    assert voice.stats()["relay"]["rtcp_answered"] == 1


def test_faults_drop_and_delay_udp(voice, new_user) -> None:
    ids = [new_user(), new_user()]

    async def scenario() -> None:
        a, b = await trio(voice, ids, [AES, AES])
        voice.faults.set_udp(CHANNEL, drop_ratio=1.0)
        a.send_audio(b"lost", e2ee=False)
        assert b.nothing_received()
        voice.faults.set_udp(CHANNEL, delay_ms=300)
        started = time.monotonic()
        a.send_audio(b"late", e2ee=False)
        assert b.receive()[2] == b"late"
        assert time.monotonic() - started >= 0.28
        voice.faults.clear_udp(CHANNEL)
        started = time.monotonic()
        a.send_audio(b"prompt", e2ee=False)
        assert b.receive()[2] == b"prompt"
        assert time.monotonic() - started < 0.2
        with pytest.raises(ValueError, match="drop_ratio"):
            voice.faults.set_udp(CHANNEL, drop_ratio=2)
        for x in (a, b):
            await x.close()

    run(scenario())
    assert voice.stats()["relay"]["dropped_fault"] == 1


def test_rtpsize_header_with_csrc_and_extension_is_kept_clear_and_forwarded(voice, new_user) -> None:
    ids = [new_user(), new_user()]

    async def scenario() -> None:
        a, b = await trio(voice, ids, [XCHACHA, AES])
        # V=2, X=1, CC=1; one CSRC; extension preamble (profile 0xBEDE, 1 word) in the clear header,
        # the extension body encrypted with the payload.
        header = struct.pack(">BBHII", 0x91, 0x78, 7, 6720, a.ssrc) + struct.pack(">I", 99) + b"\xbe\xde\x00\x01"
        body = b"\x10\xff\x00\x00" + b"opus"
        assert a.sock is not None
        a.sock.sendto(client_seal(XCHACHA, a.key, 77, header, body), ("127.0.0.1", voice.udp_port))
        assert b.sock is not None
        b.sock.settimeout(2)
        packet, _ = b.sock.recvfrom(2048)
        assert packet[:len(header)] == header
        from voice_client import client_open
        assert client_open(AES, b.key, packet, len(header)) == body
        for x in (a, b):
            await x.close()

    run(scenario())
