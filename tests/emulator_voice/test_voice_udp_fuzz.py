"""Property tests (hypothesis, bounded) of the relay's decoders of UDP bytes: the RTP header length
(rtpsize rule), the RTCP test, the transport AEAD's open in both modes, IP discovery requests and
responses. Arbitrary bytes give a value or the module's typed error (ValueError / DecryptError),
never another exception; what the encoders write decodes back (the client side is an independent
implementation, voice_client.py). Then the live relay: random datagrams, from a participant's
address and from an unknown one, and authenticated packets with random headers, are dropped or
handled without an exception, leave the call's participants and addresses as they were, and the
participants still hear each other."""

from __future__ import annotations

import asyncio
import socket
import struct
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from voice_client import AES, XCHACHA, VoiceClient, client_open, client_seal
from voice_helpers import BEFORE_E2EE

from platformpp.emulator.voice.service import VoiceService
from platformpp.emulator.voice.relay import (DISCOVERY_SIZE, discovery_request, discovery_response,
                                             parse_discovery_request, parse_discovery_response)
from platformpp.emulator.voice.transport import (NONCE_SUFFIX, RTCP_HEADER, TAG_SIZE, DecryptError,
                                                 TransportCipher, is_rtcp, rtp_header_length)

GUILD, CHANNEL = 61771983423143937, 327121515262115840
KEY = bytes(range(32))
MODES = [AES, XCHACHA]


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=80))
def test_rtp_header_length_is_within_the_packet_or_a_value_error(packet: bytes) -> None:
    try:
        length = rtp_header_length(packet)
    except ValueError as exc:
        assert "RTP packet shorter" in str(exc)
        return
    csrcs = packet[0] & 0x0F
    assert 12 <= length <= len(packet) and length == 12 + 4 * csrcs + (4 if packet[0] & 0x10 else 0)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=8))
def test_rtcp_is_told_by_its_packet_type(packet: bytes) -> None:
    assert is_rtcp(packet) == (len(packet) >= 2 and 200 <= packet[1] <= 204)


@pytest.mark.parametrize("mode", MODES)
@settings(max_examples=200, deadline=None)
@given(packet=st.binary(max_size=120), header_length=st.integers(0, 60))
def test_transport_open_gives_plaintext_or_decrypt_error(mode: str, packet: bytes,
                                                         header_length: int) -> None:
    cipher = TransportCipher(mode, KEY)
    try:
        cipher.open(packet, header_length)
    except DecryptError:
        return
    pytest.fail("random bytes authenticated")   # 2^-128: a forgery means open() is broken


@pytest.mark.parametrize("mode", MODES)
@settings(max_examples=150, deadline=None)
@given(header=st.binary(min_size=8, max_size=40), plaintext=st.binary(max_size=200),
       counter=st.integers(0, 2**32 - 1), flip=st.integers(0, 10_000))
def test_transport_seal_and_open_round_trip_against_the_client(mode: str, header: bytes, plaintext: bytes,
                                                               counter: int, flip: int) -> None:
    relay_side = TransportCipher(mode, KEY)
    sealed = relay_side.seal(header, plaintext)
    assert len(sealed) == len(header) + len(plaintext) + TAG_SIZE + NONCE_SUFFIX
    assert client_open(mode, KEY, sealed, len(header)) == plaintext
    from_client = client_seal(mode, KEY, counter, header, plaintext)
    assert relay_side.open(from_client, len(header)) == plaintext
    altered = bytearray(from_client)
    altered[flip % len(altered)] ^= 0x01
    with pytest.raises(DecryptError):
        relay_side.open(bytes(altered), len(header))


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=90), st.binary(min_size=DISCOVERY_SIZE, max_size=DISCOVERY_SIZE),
                 st.binary(min_size=DISCOVERY_SIZE - 4, max_size=DISCOVERY_SIZE - 4).map(
                     lambda rest: b"\x00\x01\x00\x46" + rest)))
def test_discovery_requests_are_told_apart_from_anything_else(packet: bytes) -> None:
    ssrc = parse_discovery_request(packet)
    is_request = len(packet) == DISCOVERY_SIZE and packet[:4] == b"\x00\x01\x00\x46"
    assert (ssrc is not None) == is_request
    if ssrc is not None:
        assert ssrc == struct.unpack(">I", packet[4:8])[0]
    try:
        parse_discovery_response(packet)
    except ValueError:
        pass


ipv4 = st.tuples(*[st.integers(0, 255)] * 4).map(lambda parts: ".".join(map(str, parts)))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.one_of(ipv4, st.just("::1"), st.just("fe80::1:2:3:4")),
       st.integers(0, 65535))
def test_discovery_round_trips(ssrc: int, address: str, port: int) -> None:
    assert parse_discovery_request(discovery_request(ssrc)) == ssrc
    response = discovery_response(ssrc, address, port)
    assert len(response) == DISCOVERY_SIZE and parse_discovery_response(response) == (address, port)
    assert struct.unpack(">I", response[4:8])[0] == ssrc


# ------------------------------------------------------------------ the live relay

def _client(voice: VoiceService, user_id: int) -> VoiceClient:
    token, endpoint = voice.allocate(GUILD, CHANNEL, user_id, f"s{user_id}")
    return VoiceClient(endpoint, GUILD, user_id, f"s{user_id}", token)


def _authenticated(client: VoiceClient, header: bytes, body: bytes) -> bytes | None:
    """``header || body`` sealed with the client's key as the relay will read it (None: no header)."""
    try:
        clear = RTCP_HEADER if is_rtcp(header) else rtp_header_length(header + body)
    except ValueError:
        return None
    data = header + body
    client.counter += 1
    return client_seal(client.mode, client.key, client.counter, data[:clear], data[clear:])


def _relay_view(voice: VoiceService) -> Any:
    def read() -> Any:
        return ({ssrc: p.user_id for ssrc, p in voice.gateway.by_ssrc.items()},
                {addr: p.user_id for addr, p in voice.relay.by_addr.items()},
                {cid: sorted(call.participants) for cid, call in voice.gateway.calls.items()})
    return voice._run(read)


def test_the_live_relay_survives_random_datagrams(voice: VoiceService, clock: Any, new_user: Any) -> None:
    clock.instant = BEFORE_E2EE            # DAVE off: the frames the participants exchange are readable
    alice_id, bob_id = new_user(), new_user()
    loop = asyncio.new_event_loop()
    alice, bob = _client(voice, alice_id), _client(voice, bob_id)
    loop.run_until_complete(alice.join(mode=AES, max_dave=0))
    loop.run_until_complete(bob.join(mode=XCHACHA, max_dave=0))
    for c in (alice, bob):
        loop.run_until_complete(c.speak(1))
    assert alice.sock is not None and bob.sock is not None
    alice_addr = alice.sock.getsockname()
    stranger = ("127.0.0.1", 9)
    before = _relay_view(voice)

    rtp_shaped = st.tuples(st.integers(0, 0x3F), st.binary(min_size=11, max_size=200)).map(
        lambda fb: bytes([0x80 | fb[0]]) + fb[1])                     # version 2, anything after
    # Headers that reach the relay's checks after the transport layer: RTP or RTCP, alice's SSRC or not.
    headers = st.tuples(st.integers(0, 0x3F), st.sampled_from([0x78, 200, 201, 203]) | st.integers(0, 255),
                        st.binary(min_size=6, max_size=6),
                        st.sampled_from([alice.ssrc, bob.ssrc, 0, 0xFFFFFFFF]), st.binary(max_size=24)).map(
        lambda h: bytes([0x80 | h[0], h[1]]) + h[2] + struct.pack(">I", h[3]) + h[4])

    # Derandomized: the same datagrams every run, so the counters below always have something to count.
    @settings(max_examples=200, deadline=None, derandomize=True)
    @given(st.one_of(st.binary(max_size=1500).map(lambda d: ("raw", d)), rtp_shaped.map(lambda d: ("raw", d)),
                     st.tuples(headers, st.binary(max_size=60)).map(lambda hb: ("sealed", hb))),
           st.integers(0, 3))
    def feed(datagram: tuple[str, Any], source: int) -> None:
        if datagram[0] == "raw":
            data = datagram[1]
        else:
            sealed = _authenticated(alice, *datagram[1])
            if sealed is None:
                return
            data = sealed
        addr = stranger if source == 0 else alice_addr
        voice._run(lambda: voice.relay.datagram_received(data, addr))   # any exception surfaces here
        assert _relay_view(voice) == before

    try:
        feed()
        # The same over the real socket, from a socket the relay does not know.
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as junk:
            for size in (0, 1, 11, 12, 73, 74, 75, 1400, 1401):
                junk.sendto(bytes([0x80 if size % 2 else 0x00]) * size, ("127.0.0.1", alice.udp_port))
        time.sleep(0.1)
        assert _relay_view(voice) == before
        stats = voice.stats()["relay"]
        assert stats["dropped_unknown_address"] > 0 and stats["dropped_bad_tag"] > 0
        assert stats["rtp"] > 0 and stats["rtcp"] > 0 and stats["dropped_wrong_ssrc"] > 0
        alice.drain()
        bob.drain()
        sent = alice.send_audio(b"still-here", e2ee=False)
        ssrc, _, plaintext, _ = bob.receive()
        assert (ssrc, plaintext) == (alice.ssrc, sent)
        sent = bob.send_audio(b"me-too", e2ee=False)
        while True:
            ssrc, _, plaintext, _ = alice.receive()
            if ssrc == bob.ssrc:
                break
        assert plaintext == sent
    finally:
        for c in (alice, bob):
            loop.run_until_complete(c.close())
        loop.close()
