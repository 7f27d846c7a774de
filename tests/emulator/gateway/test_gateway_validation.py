"""Property tests of the Gateway's payload checks: whatever a client sends, the outcome is either a
valid command or a close with a docs/wire.md code naming the problem — never a crash."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from platformpp.emulator.gateway import validate
from platformpp.emulator.gateway.codec import GatewayClose, decode
from platformpp.emulator.gateway.protocol import ACCEPTED_INTENTS, MAX_PAYLOAD_BYTES

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children,
                                                                                        max_size=4), max_leaves=12)
PROPS = {"os": "linux", "browser": "b", "device": "d"}


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["token", "properties", "intents", "shard", "large_threshold", "compress",
                                        "capabilities", "presence", "other"]), JSON, max_size=8))
def test_identify_either_parses_or_closes_with_a_wire_code(d: dict) -> None:
    try:
        ident = validate.identify({"op": 2, "d": d})
    except GatewayClose as close:
        assert close.code in (4002, 4010, 4013)
        assert ":" in close.reason and len(close.reason.encode()) <= 123
    else:
        assert isinstance(ident.token, str) and ident.token
        assert 0 <= ident.intents and not ident.intents & ~ACCEPTED_INTENTS


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=-(1 << 40), max_value=1 << 40))
def test_intents_above_bit_25_are_4013(intents: int) -> None:
    payload = {"op": 2, "d": {"token": "t", "properties": PROPS, "intents": intents}}
    if intents < 0 or intents >= 1 << 26:
        try:
            validate.identify(payload)
        except GatewayClose as close:
            assert close.code == 4013
        else:
            raise AssertionError("accepted unknown intent bits")
    else:
        assert validate.identify(payload).intents == intents


@settings(max_examples=300, deadline=None)
@given(st.one_of(JSON.map(lambda v: json.dumps(v)), st.text(max_size=50), st.binary(max_size=50)))
def test_decode_accepts_only_objects_with_an_integer_op(raw: str | bytes) -> None:
    message = {"type": "websocket.receive", "text": raw} if isinstance(raw, str) else \
        {"type": "websocket.receive", "bytes": raw}
    try:
        payload = decode(message)
    except GatewayClose as close:
        assert close.code == 4002
    else:
        assert isinstance(payload, dict) and isinstance(payload["op"], int) and not isinstance(payload["op"], bool)


def test_decode_size_limit_is_exactly_4096_bytes() -> None:
    pad = MAX_PAYLOAD_BYTES - len(json.dumps({"op": 1, "d": None, "p": ""}))
    fits = json.dumps({"op": 1, "d": None, "p": "x" * pad})
    assert len(fits.encode()) == MAX_PAYLOAD_BYTES and decode({"text": fits})["op"] == 1
    too_big = json.dumps({"op": 1, "d": None, "p": "x" * (pad + 1)})
    try:
        decode({"text": too_big})
    except GatewayClose as close:
        assert close.code == 4002
    else:
        raise AssertionError("accepted 4097 bytes")
