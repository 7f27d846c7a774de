"""Property tests (hypothesis, bounded) of the voice gateway's decoders of client input: the frame
decoder (JSON text and binary opcodes), each opcode's payload parser, the URL's version, and the
emulator Gateway's opcode 4 (voice_states.parse_request). Arbitrary input gives a value or the
module's typed error (ProtocolViolation with one of the platform's close codes, InvalidVoiceState),
never another exception; well-formed frames decode to what was sent. Then the live voice gateway:
random frames, before and after Identify, end in one of the platform's close codes (never the
1011 of a crashed handler), and the call of the participant already there goes on."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from voice_client import VoiceClient
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from platformpp.emulator.areas.voice_states.store import InvalidVoiceState, VoiceRequest, parse_request
from platformpp.emulator.voice.service import VoiceService
from platformpp.emulator.voice.protocol import (CLIENT_BINARY_OPS, CLIENT_JSON_OPS, MAX_PAYLOAD_BYTES, Close,
                                                ClientFrame, ProtocolViolation, decode_client_frame,
                                                parse_heartbeat, parse_identify, parse_resume,
                                                parse_select_protocol, parse_speaking, parse_transition_id,
                                                parse_version)

GUILD, CHANNEL = 41771983423143937, 127121515262115840
CLOSE_CODES = {int(code) for code in Close}

scalars = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
           | st.text(max_size=24) | st.sampled_from(["1", "²", "0", "18446744073709551616", "123",
                                                     "१२३",
                                                     "127.0.0.1", "::1", "localhost", "udp",
                                                     "aead_aes256_gcm_rtpsize"]))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=10), inner, max_size=4), max_leaves=12)
FIELDS = ["server_id", "user_id", "session_id", "token", "max_dave_protocol_version", "seq_ack", "protocol",
          "data", "address", "port", "mode", "t", "speaking", "transition_id", "guild_id", "channel_id",
          "self_mute", "self_deaf", "self_video"]
# Objects with the names the parsers look for, holding anything.
payloads = st.one_of(json_values, st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=8),
                     st.fixed_dictionaries({"protocol": st.just("udp"), "data": st.dictionaries(
                         st.sampled_from(["address", "port", "mode"]), json_values, max_size=3)}))
nested = st.integers(1, 20_000).map(lambda depth: "[" * depth + "]" * depth)
frames: st.SearchStrategy[str | bytes] = st.one_of(
    st.binary(max_size=200),
    st.text(max_size=200),
    nested,
    st.builds(lambda op, d: json.dumps({"op": op, "d": d}), st.integers(-3, 40) | json_values, payloads),
    st.builds(lambda op, body: bytes([op]) + body, st.integers(0, 255), st.binary(max_size=120)),
)
PARSERS = [parse_identify, parse_resume, parse_select_protocol, parse_heartbeat, parse_speaking,
           parse_transition_id]


def violation_or(value_of: Any, *args: Any) -> Any:
    try:
        return value_of(*args)
    except ProtocolViolation as violation:
        assert int(violation.code) in CLOSE_CODES and violation.detail
        return None


@settings(max_examples=400, deadline=None)
@given(frames)
def test_any_frame_decodes_or_names_its_close_code(message: str | bytes) -> None:
    frame = violation_or(decode_client_frame, message)
    if frame is not None:
        assert isinstance(frame, ClientFrame)
        assert frame.op in (CLIENT_BINARY_OPS if frame.payload is not None else CLIENT_JSON_OPS)


def test_frames_too_deep_or_too_large_are_decode_errors() -> None:
    for message in ("[" * 15_000 + "]" * 15_000, json.dumps({"op": 3, "d": "x" * MAX_PAYLOAD_BYTES}), b""):
        with pytest.raises(ProtocolViolation) as refused:
            decode_client_frame(message)
        assert refused.value.code == Close.FAILED_TO_DECODE


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(CLIENT_JSON_OPS)), payloads, st.sampled_from(sorted(CLIENT_BINARY_OPS)),
       st.binary(max_size=200))
def test_well_formed_frames_decode_to_what_was_sent(op: int, d: Any, binary_op: int, body: bytes) -> None:
    frame = decode_client_frame(json.dumps({"op": op, "d": d}))
    assert (frame.op, frame.d, frame.payload) == (op, json.loads(json.dumps(d)), None)
    frame = decode_client_frame(bytes([binary_op]) + body)
    assert (frame.op, frame.payload) == (binary_op, body)
    assert "token" not in repr(decode_client_frame(json.dumps({"op": 0, "d": {"token": "secret-token"}})))


@pytest.mark.parametrize("parse", PARSERS, ids=lambda p: p.__name__)
@settings(max_examples=120, deadline=None)
@given(d=payloads)
def test_each_payload_parser_gives_a_value_or_a_protocol_violation(parse: Any, d: Any) -> None:
    violation_or(parse, d)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=30), st.builds(lambda v: f"v={v}", st.text(max_size=8)),
                 st.integers(-5, 10**6).map(lambda v: f"v={v}&encoding=json")))
def test_the_version_query_is_a_number_from_4_or_bad_request(query: str) -> None:
    version = violation_or(parse_version, query)
    assert version is None or version >= 4


@settings(max_examples=150, deadline=None)
@given(d=payloads)
def test_gateway_opcode_4_parses_or_names_the_field(d: Any) -> None:
    try:
        request = parse_request(d)
    except InvalidVoiceState as invalid:
        assert str(invalid).startswith("d")
        return
    assert isinstance(request, VoiceRequest)
    for field in (request.guild_id, request.channel_id):
        assert field is None or 0 < field < 1 << 64


def _client(voice: VoiceService, user_id: int) -> VoiceClient:
    token, endpoint = voice.allocate(GUILD, CHANNEL, user_id, f"session-{user_id}")
    return VoiceClient(endpoint, GUILD, user_id, f"session-{user_id}", token)


async def _send_all(voice: VoiceService, user_id: int, messages: list[str | bytes],
                    identify: bool) -> int | None:
    """Open a socket (Identify first if asked), send the messages, then close; the close code it got."""
    fuzzer = _client(voice, user_id)
    await fuzzer.open()
    if identify:
        await fuzzer.identify()
    assert fuzzer.ws is not None
    try:
        for message in messages:
            await fuzzer.ws.send(message)
        await asyncio.sleep(0.01)
    except ConnectionClosed:
        pass
    if fuzzer.ws.close_code is None:
        await fuzzer.ws.close()
    code = await fuzzer.closed()
    await fuzzer.close()
    return code


def _wait_for(condition: Any, timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.01)


def test_the_live_gateway_survives_random_frames(voice: VoiceService, new_user: Any) -> None:
    witness_id = new_user()
    witness = _client(voice, witness_id)
    witness.enable_dave(CHANNEL)
    loop = asyncio.new_event_loop()
    loop.run_until_complete(witness.join())
    ids = iter(range(10**6))

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(frames, min_size=1, max_size=4), st.booleans())
    def feed(messages: list[str | bytes], identify: bool) -> None:
        user_id = 95_000_000_000_000_000 + next(ids)
        code = loop.run_until_complete(_send_all(voice, user_id, messages, identify))
        assert code in CLOSE_CODES | {1000}, f"closed with {code}"
        _wait_for(lambda: voice.participants(CHANNEL) == [witness_id])
        assert witness.close_code is None

    try:
        feed()
        assert voice.participants(CHANNEL) == [witness_id]
        # The witness is still served: a heartbeat is answered.
        loop.run_until_complete(witness.send(3, {"t": 7, "seq_ack": witness.seq_ack}))
        loop.run_until_complete(witness.expect(6))
        with_bad_version = loop.run_until_complete(_bad_version(witness.endpoint))
        assert with_bad_version == Close.BAD_REQUEST
    finally:
        loop.run_until_complete(witness.close())
        loop.close()


async def _bad_version(endpoint: str) -> int | None:
    async with connect(f"ws://{endpoint}/?v=%C2%B2") as ws:    # "²": a digit int() refuses
        try:
            await ws.recv()
        except ConnectionClosed:
            pass
        await ws.wait_closed()
        return ws.close_code
