"""Bad input on the IPC socket: JSON nested too deep or with a lone surrogate is an ERROR 4000 (the
connection goes on); a handshake like that is CLOSE 1003."""

from __future__ import annotations

import struct

import pytest
from emulator_world import APP_ID
from ipc_client import FRAME, HANDSHAKE, IpcClient
from platformpp.emulator import Emulator

SURROGATE = '"\\ud800"'   # valid JSON text, but no UTF-8 form: the string holds a lone surrogate
DEEP = "[" * 5000 + "]" * 5000


def _ipc_frame(opcode: int, body: bytes) -> bytes:
    return struct.pack("<II", opcode, len(body)) + body


@pytest.mark.parametrize("body", [DEEP,
                                  '{"cmd": "SET_ACTIVITY", "nonce": "n", "args": {"pid": 1, "activity": {"state": '
                                  + SURROGATE + "}}}"])
def test_ipc_refuses_json_too_deep_or_with_a_lone_surrogate(desktop: Emulator, body: str) -> None:
    with IpcClient(desktop.ipc_path) as client:
        client.handshake(APP_ID)
        client.send_raw(_ipc_frame(FRAME, body.encode()))
        opcode, error = client.recv()
        assert opcode == FRAME and error["evt"] == "ERROR" and error["data"]["code"] == 4000, error
        # The connection goes on.
        assert client.command("SET_ACTIVITY", {"pid": 1, "activity": None})["evt"] is None
    with IpcClient(desktop.ipc_path) as client:   # a handshake that deep is refused with CLOSE 1003
        client.send_raw(_ipc_frame(HANDSHAKE, DEEP.encode()))
        assert client.closed_with()["code"] == 1003
