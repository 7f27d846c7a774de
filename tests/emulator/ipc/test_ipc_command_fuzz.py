"""Property test of the IPC endpoint's handling of frames a game sends after its handshake
(hypothesis, bounded, derandomized): every opcode, every command with random arguments, JSON nested
too deep or with lone surrogates. Each FRAME is answered (its result or an ERROR) or the endpoint
sends CLOSE with a code before closing; it never drops the connection without CLOSE, and the next
game is served as before."""

from __future__ import annotations

import json
import struct
from typing import Any

from emulator_world import APP_ID
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ipc_client import CLOSE, FRAME, HANDSHAKE, PING, PONG, IpcClient
from platformpp.emulator import Emulator
from platformpp.emulator.ipc.protocol import COMMANDS

json_leaves = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False),
                        st.text(max_size=10))
json_values = st.recursive(json_leaves, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
args = st.dictionaries(st.sampled_from(["pid", "activity", "guild_id", "channel_id", "user_id", "client_id",
                                        "scopes", "access_token", "input", "output", "mode", "state", "name",
                                        "type", "timeout"]), json_values, max_size=4)
commands = st.builds(lambda cmd, a, evt: json.dumps({"cmd": cmd, "nonce": "x", "args": a, "evt": evt}),
                     st.sampled_from(sorted(COMMANDS - {"AUTHORIZE"})) | st.text(max_size=8), args,
                     st.none() | st.sampled_from(["GUILD_STATUS", "ACTIVITY_JOIN", "NOPE"]))
payloads = st.one_of(
    commands, json_values.map(json.dumps),
    st.sampled_from([65, 1000, 5000]).map(lambda n: "[" * n + "]" * n),
    st.sampled_from(['{"cmd": "SET_ACTIVITY", "nonce": "x", "args": {"pid": 1, "activity": {"state": "\\ud800"}}}',
                     '{"\\udfff": 1}', '{"cmd": NaN}', "{", ""]),
).map(str.encode) | st.binary(max_size=40)
frames = st.tuples(st.sampled_from([FRAME, FRAME, FRAME, PING, PONG, HANDSHAKE, CLOSE]), payloads)


def _frame(opcode: int, body: bytes) -> bytes:
    return struct.pack("<II", opcode, len(body)) + body


def _outcome(client: IpcClient) -> Any:
    """Read until the answer to the closing probe command (the connection goes on: None) or a CLOSE
    (its code); an end of the stream without CLOSE fails."""
    while True:
        opcode, payload = client.recv()
        if opcode == CLOSE:
            return payload["code"]
        if opcode == FRAME and payload.get("nonce") == "probe":
            assert payload["evt"] == "ERROR" and payload["data"]["code"] == 4002, payload
            return None


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(frames, min_size=1, max_size=4))
def test_every_frame_is_answered_or_closed_with_a_code(desktop: Emulator, sent: list[tuple[int, bytes]]) -> None:
    with IpcClient(desktop.ipc_path, timeout=5) as client:
        client.handshake(APP_ID)
        probe = _frame(FRAME, json.dumps({"cmd": "NOPE", "nonce": "probe", "args": {}}).encode())
        try:
            for opcode, body in sent:
                client.send_raw(_frame(opcode, body))
            client.send_raw(probe)
        except BrokenPipeError:
            pass   # the endpoint closed after a frame (its CLOSE is still there to read)
        try:
            code = _outcome(client)
        except EOFError:
            raise AssertionError("the endpoint closed the connection without CLOSE") from None
        assert code is None or code in (1000, 1003, 4000, 4002, 4004), code
    with IpcClient(desktop.ipc_path) as client:   # the next game is served as before
        client.handshake(APP_ID)
