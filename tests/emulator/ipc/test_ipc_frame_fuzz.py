"""Property tests of the IPC frame decoder (hypothesis, bounded): any split of valid frames decodes to
the same frames; arbitrary bytes either decode or raise FrameError, never anything else, and the
decoder never holds more than one frame's worth; and the live endpoint survives random bytes."""

from __future__ import annotations

import json
import struct

import pytest
from emulator_world import APP_ID
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ipc_client import IpcClient
from platformpp.emulator import Emulator
from platformpp.emulator.ipc.codec import HEADER_BYTES, FrameDecoder, FrameError, PayloadError, encode
from platformpp.emulator.ipc.protocol import MAX_PAYLOAD_BYTES, Opcode

json_values = st.recursive(st.none() | st.booleans() | st.integers(-2**53, 2**53) | st.text(max_size=20),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                        max_size=4),
                           max_leaves=12)
frames = st.lists(st.tuples(st.sampled_from(list(Opcode)), st.dictionaries(st.text(max_size=8), json_values,
                                                                             max_size=4)), min_size=1, max_size=5)


@settings(max_examples=200, deadline=None)
@given(frames, st.lists(st.integers(1, 64), min_size=1, max_size=20))
def test_any_split_of_valid_frames_decodes_to_the_same_frames(items: list, cuts: list[int]) -> None:
    stream = b"".join(encode(op, payload) for op, payload in items)
    decoder, got, position = FrameDecoder(), [], 0
    for cut in cuts * (len(stream) // max(sum(cuts), 1) + 1):
        got += decoder.feed(stream[position:position + cut])
        position += cut
        if position >= len(stream):
            break
    got += decoder.feed(stream[position:])
    assert [(f.opcode, f.json()) for f in got] == items
    assert decoder.pending == 0


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_decode_or_raise_frame_error(data: bytes) -> None:
    decoder = FrameDecoder()
    try:
        for frame in decoder.feed(data):
            try:
                frame.json()
            except PayloadError:
                pass
    except FrameError as exc:
        assert "opcode" in str(exc) or "over the limit" in str(exc)
    assert decoder.pending <= HEADER_BYTES + MAX_PAYLOAD_BYTES


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_headers_are_refused_before_any_payload(opcode: int, length: int) -> None:
    decoder = FrameDecoder()
    header = struct.pack("<II", opcode, length)
    if opcode > 4 or length > MAX_PAYLOAD_BYTES:
        with pytest.raises(FrameError):
            decoder.feed(header)
    else:
        assert decoder.feed(header) == ([] if length else [decoder_frame(opcode)])


def decoder_frame(opcode: int) -> object:
    from platformpp.emulator.ipc.codec import Frame
    return Frame(Opcode(opcode), b"")


def test_encode_refuses_payloads_over_the_limit() -> None:
    with pytest.raises(FrameError, match="over the limit"):
        encode(Opcode.FRAME, {"x": "a" * MAX_PAYLOAD_BYTES})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(min_size=1, max_size=200))
def test_live_endpoint_survives_random_bytes(desktop: Emulator, junk: bytes) -> None:
    with IpcClient(desktop.ipc_path, timeout=3) as client:
        client.handshake(APP_ID)
        client.send_raw(junk)
    with IpcClient(desktop.ipc_path) as client:     # the next game is served as before
        client.handshake(APP_ID)
        body = json.dumps({"cmd": "NOPE", "nonce": "n", "args": {}}).encode()
        client.send_raw(struct.pack("<II", 1, len(body)) + body)
        while True:
            reply = client.recv()[1]
            if reply.get("nonce") == "n":
                assert reply["data"]["code"] == 4002
                break
