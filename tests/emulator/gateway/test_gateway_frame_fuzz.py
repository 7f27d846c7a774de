"""Property test of the Gateway's frame handling (hypothesis, bounded, derandomized): any frames a
client sends (every opcode with random JSON, nested too deep, lone surrogates, random text and bytes),
before or after Identify, plain or with zlib-stream answers, end in one of two ways only: the session
goes on (a heartbeat is acknowledged) or the socket closes with a Gateway close code (4000-4014).
Never a crash without a close frame; another session is unaffected."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from platformpp.emulator import Emulator
from social_helpers import ALICE, BOT_TOKEN, GatewayClient, user_token
from websockets.exceptions import ConnectionClosed

PROPS = {"os": "linux", "browser": "tests", "device": "tests"}
GATEWAY_CLOSE_CODES = range(4000, 4015)

json_leaves = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False),
                        st.text(max_size=10))
json_values = st.recursive(json_leaves, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
d_fields = st.dictionaries(st.sampled_from(["token", "intents", "properties", "shard", "presence", "seq",
                                            "session_id", "guild_id", "channel_id", "self_mute", "self_deaf",
                                            "status", "activities", "afk", "since", "query", "limit",
                                            "user_ids", "nonce", "fields", "large_threshold", "capabilities"]),
                           json_values, max_size=5)
opcodes = st.one_of(st.integers(0, 50), st.sampled_from([1, 2, 3, 4, 6, 8, 43]), st.integers(-2**40, 2**40))


def _text(value: Any) -> str:
    return json.dumps(value)


frames = st.one_of(
    st.builds(lambda op, d: _text({"op": op, "d": d}), opcodes, st.one_of(json_values, d_fields)),
    st.builds(lambda op, d, s, t: _text({"op": op, "d": d, "s": s, "t": t}), opcodes, d_fields, json_values,
              json_values),
    # Nested past the 64-level limit (the 4096-byte limit keeps frames shallower than the recursion
    # limit hypothesis sets while it runs; test_bad_input.py sends deeper ones).
    st.sampled_from([65, 1000, 2000]).map(
        lambda n: '{"op":1,"d":' + "[" * n + "]" * n + "}"),
    st.sampled_from(['{"op":1,"d":"\\ud800"}', '{"op":2,"d":{"token":"\\udfff"}}', '{"\\ud800":1,"op":1}',
                     '{"op":1,"d":NaN}', '{"op":true}', '{"op":1.0}', "[]", "null", "", "{", '{"op":1}']),
    st.text(max_size=40),
    st.binary(max_size=40),
    st.builds(lambda value: _text(value).encode(), json_values),   # JSON in a binary frame
)


class Target:
    def __init__(self, emu: Emulator) -> None:
        self.emu = emu

    def __repr__(self) -> str:
        return "Target()"


@pytest.fixture(scope="module")
def gateway() -> Iterator[Target]:
    with Emulator() as emu:
        yield Target(emu)


async def _session_outcome(emu: Emulator, query: str, identify: str | None, sent: list[str | bytes]) -> int | None:
    """None when the session goes on (a heartbeat after the frames is acknowledged), else the close code
    (0 when the socket closed without a close frame)."""
    client = await GatewayClient.connect(emu, query)
    try:
        if identify == "bot":   # identify() reads Hello first
            await client.identify(BOT_TOKEN)
        elif identify == "sdk":
            await client.identify(user_token(emu, ALICE))
        else:
            assert (await client.recv())["op"] == 10
        for frame in sent:
            await client.ws.send(frame)
        await client.send({"op": 1, "d": None})
        while True:
            payload = await client.recv(timeout=5)
            if payload["op"] == 11:
                return None
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else 0
    finally:
        await client.close()


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(query=st.sampled_from(["v=10&encoding=json", "v=10&encoding=json&compress=zlib-stream"]),
       identify=st.sampled_from([None, "bot", "sdk"]), sent=st.lists(frames, min_size=1, max_size=3))
def test_any_frames_end_in_the_session_going_on_or_a_gateway_close_code(
        gateway: Target, query: str, identify: str | None, sent: list[str | bytes]) -> None:
    emu = gateway.emu

    async def scenario() -> None:
        watcher = await GatewayClient.connect(emu)   # another session, alive throughout
        assert (await watcher.recv())["op"] == 10
        outcome = await _session_outcome(emu, query, identify, sent)
        assert outcome is None or outcome in GATEWAY_CLOSE_CODES, f"closed with {outcome}"
        await watcher.send({"op": 1, "d": None})
        assert (await watcher.recv())["op"] == 11
        await watcher.close()

    asyncio.run(scenario())
