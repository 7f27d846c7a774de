"""Property tests of platformpp.ipc's own frame decoder (hypothesis, bounded): any split of valid frames
decodes to the same frames; arbitrary bytes decode or raise FrameError (a ValueError), never anything
else, and the decoder never holds more than one frame; and it agrees with the emulator's encoder."""

from __future__ import annotations

import struct

from hypothesis import given, settings
from hypothesis import strategies as st
from platformpp.emulator.ipc import codec as emulator_codec

from platformpp.ipc import frames as client_frames
from platformpp.ipc.frames import HEADER, MAX_FRAME_BYTES, FrameDecoder, FrameError, Opcode, encode

json_values = st.recursive(st.none() | st.booleans() | st.integers(-2**53, 2**53) | st.text(max_size=20),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                        max_size=4),
                           max_leaves=12)
payloads = st.dictionaries(st.text(max_size=8), json_values, max_size=4)
frame_lists = st.lists(st.tuples(st.sampled_from(list(Opcode)), payloads), min_size=1, max_size=5)


@settings(max_examples=200, deadline=None)
@given(frame_lists, st.lists(st.integers(1, 64), min_size=1, max_size=20))
def test_any_split_of_valid_frames_decodes_to_the_same_frames(items: list, cuts: list[int]) -> None:
    stream = b"".join(encode(op, payload) for op, payload in items)
    decoder, got, at = FrameDecoder(), [], 0
    for size in cuts * (len(stream) // max(1, sum(cuts)) + 1):
        got += decoder.feed(stream[at:at + size])
        at += size
        if at >= len(stream):
            break
    got += decoder.feed(stream[at:])
    assert [(f.opcode, f.payload) for f in got] == [(op, payload) for op, payload in items]
    assert decoder.pending == 0


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=200), max_size=8))
def test_arbitrary_bytes_decode_or_raise_frame_error_only(chunks: list[bytes]) -> None:
    decoder = FrameDecoder()
    try:
        for chunk in chunks:
            decoder.feed(chunk)
            assert decoder.pending < MAX_FRAME_BYTES + 200
    except FrameError as exc:
        assert isinstance(exc, ValueError) and str(exc)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_a_bad_header_fails_before_its_payload_arrives(opcode: int, length: int) -> None:
    decoder = FrameDecoder()
    header = struct.pack("<II", opcode, length)
    if opcode in Opcode._value2member_map_ and 0 < length <= client_frames.MAX_PAYLOAD_BYTES:
        assert decoder.feed(header) == [] and decoder.pending == HEADER.size   # waits for the payload
    else:   # an empty payload is no JSON object either
        try:
            decoder.feed(header)
        except FrameError:
            return
        raise AssertionError("an unknown opcode or an over-long length must fail at the header")


@settings(max_examples=100, deadline=None)
@given(frame_lists)
def test_the_client_reads_what_the_emulator_writes(items: list) -> None:
    stream = b"".join(emulator_codec.encode(int(op), payload) for op, payload in items)
    assert [(f.opcode, f.payload) for f in FrameDecoder().feed(stream)] == items
    assert HEADER.size == emulator_codec.HEADER_BYTES
