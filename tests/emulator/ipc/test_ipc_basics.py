"""The desktop client's IPC endpoint over a real Unix socket: naming, handshake, READY, the framing
rules and the close codes, and that one bad client leaves the others served."""

from __future__ import annotations

import json
import os
import socket
import struct
import time
from pathlib import Path

import httpx
import pytest
from emulator_world import ALICE, APP_ID
from ipc_client import CLOSE, FRAME, HANDSHAKE, PING, PONG, IpcClient
from platformpp.emulator import Emulator
from platformpp.emulator.ipc import connection
from platformpp.emulator.ipc.paths import free_socket_path, socket_folder


def test_socket_is_the_first_free_index_with_owner_only_mode(desktop: Emulator, socket_dir: Path) -> None:
    assert desktop.ipc_path == socket_dir / "pp-ipc-0"
    assert oct(os.stat(desktop.ipc_path).st_mode & 0o777) == "0o600"
    # A second emulator takes the next slot while the first answers on slot 0.
    with Emulator(desktop_user="bob", ipc_path=str(socket_dir / "pp-ipc")) as other:
        assert other.ipc_path == socket_dir / "pp-ipc-1"


def test_folder_follows_the_platform_order() -> None:
    assert socket_folder({"XDG_RUNTIME_DIR": "/run/u", "TMPDIR": "/t"}) == Path("/run/u")
    assert socket_folder({"TMPDIR": "/t", "TMP": "/x"}) == Path("/t")
    assert socket_folder({"TMP": "/x", "TEMP": "/y"}) == Path("/x")
    assert socket_folder({"TEMP": "/y"}) == Path("/y")
    assert socket_folder({}) == Path("/tmp")


def test_stale_socket_file_is_reused(socket_dir: Path) -> None:
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(socket_dir / "x-ipc-0"))
    stale.close()   # the file stays, nobody answers: a crashed client's leftover
    assert free_socket_path(str(socket_dir / "x-ipc")) == socket_dir / "x-ipc-0"


def test_no_desktop_user_means_no_socket(socket_dir: Path) -> None:
    with Emulator(ipc_path=str(socket_dir / "pp-ipc")) as emu:
        assert emu.ipc_path is None
        assert list(socket_dir.iterdir()) == []


def test_unknown_desktop_user_fails_at_start(socket_dir: Path) -> None:
    with pytest.raises(ValueError, match="nobody"):
        Emulator(desktop_user="nobody", ipc_path=str(socket_dir / "pp-ipc")).start()


def test_handshake_then_ready_with_user_and_config(desktop: Emulator) -> None:
    with IpcClient(desktop.ipc_path) as client:
        ready = client.handshake(APP_ID)
        assert ready["cmd"] == "DISPATCH" and ready["data"]["v"] == 1
        assert ready["data"]["user"]["id"] == str(ALICE) and ready["data"]["user"]["username"] == "alice"
        assert ready["data"]["config"]["api_endpoint"] == desktop.api_base
        assert ready["data"]["config"]["environment"] == "emulator"


@pytest.mark.parametrize(("handshake", "code"), [
    ({"v": 2, "client_id": str(APP_ID)}, 4004),
    ({"v": 1, "client_id": "999"}, 4000),
    ({"v": 1, "client_id": "not-a-snowflake"}, 4000),
    ({"v": 1}, 4000),
])
def test_bad_handshake_closes_with_the_rpc_close_code(desktop: Emulator, handshake: dict, code: int) -> None:
    with IpcClient(desktop.ipc_path) as client:
        client.send(HANDSHAKE, handshake)
        closed = client.closed_with()
        assert closed["code"] == code
        if code == 4000:   # the platform's exact text, which libraries match on
            assert closed["message"] == "Invalid Client ID"


def test_frame_before_handshake_is_refused(desktop: Emulator) -> None:
    with IpcClient(desktop.ipc_path) as client:
        client.send(FRAME, {"cmd": "GET_GUILDS", "nonce": "1", "args": {}})
        closed = client.closed_with()
        assert closed["code"] == 1003 and "HANDSHAKE" in closed["message"]


def test_client_that_never_handshakes_is_closed(desktop: Emulator, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connection, "HANDSHAKE_TIMEOUT_S", 0.2)
    with IpcClient(desktop.ipc_path) as client:
        started = time.monotonic()
        assert client.closed_with()["code"] == 4000
        assert time.monotonic() - started < 3


def test_length_over_the_limit_closes_before_reading_the_payload(desktop: Emulator) -> None:
    with IpcClient(desktop.ipc_path) as client:
        client.handshake(APP_ID)
        client.send_raw(struct.pack("<II", FRAME, 64 * 1024))   # no payload follows: refused on the header
        closed = client.closed_with()
        assert closed["code"] == 1003 and "over the limit" in closed["message"]


def test_unknown_opcode_closes(desktop: Emulator) -> None:
    with IpcClient(desktop.ipc_path) as client:
        client.handshake(APP_ID)
        client.send(7, {})
        assert "unknown opcode 7" in client.closed_with()["message"]


def test_malformed_json_gets_an_error_and_the_connection_goes_on(desktop: Emulator) -> None:
    with IpcClient(desktop.ipc_path) as client:
        client.handshake(APP_ID)
        client.send_raw(struct.pack("<II", FRAME, 5) + b"{nope")
        opcode, error = client.recv()
        assert opcode == FRAME and error["evt"] == "ERROR" and error["data"]["code"] == 4000
        assert "not JSON" in error["data"]["message"]
        client.send_raw(struct.pack("<II", FRAME, 2) + b"[]")
        assert client.recv()[1]["data"]["message"] == "payload must be a JSON object"
        answer = client.command("NOPE")
        assert answer["evt"] == "ERROR" and answer["data"]["code"] == 4002


def test_ping_is_answered_with_pong_of_the_same_data(desktop: Emulator) -> None:
    with IpcClient(desktop.ipc_path) as client:
        client.handshake(APP_ID)
        client.send(PING, {"echo": 42})
        assert client.recv() == (PONG, {"echo": 42})


def test_close_frame_ends_the_connection_normally(desktop: Emulator) -> None:
    with IpcClient(desktop.ipc_path) as client:
        client.handshake(APP_ID)
        client.send(CLOSE, {})
        assert client.closed_with()["code"] == 1000


def test_flood_is_rate_limited_and_others_keep_being_served(desktop: Emulator) -> None:
    with IpcClient(desktop.ipc_path) as flooder, IpcClient(desktop.ipc_path) as calm:
        flooder.handshake(APP_ID)
        calm.handshake(APP_ID)
        limit = connection.RATE_LIMIT[0]
        body = json.dumps({"cmd": "NOPE", "nonce": None, "args": {}}).encode()
        flooder.send_raw((struct.pack("<II", FRAME, len(body)) + body) * (limit + 5))
        assert flooder.closed_with()["code"] == 4002
        client_ping = calm.command("NOPE")
        assert client_ping["data"]["code"] == 4002   # an ERROR answer: calm still served
        calm.send(PING, {"still": "here"})
        assert calm.recv() == (PONG, {"still": "here"})


def test_desktop_user_signs_out_and_in_through_the_admin_api(desktop: Emulator, socket_dir: Path) -> None:
    admin = f"{desktop.base_url}/_emulator/desktop"
    with IpcClient(desktop.ipc_path) as client:
        client.handshake(APP_ID)
        assert httpx.delete(admin).status_code == 204
        assert client.closed_with()["code"] == 1000
    assert not (socket_dir / "pp-ipc-0").exists() and desktop.ipc_path is None
    assert httpx.put(admin, json={"user": "nobody"}).status_code == 404
    assert httpx.put(admin, json={"user": 5}).json()["errors"]["user"]["_errors"][0]["code"]
    body = httpx.put(admin, json={"user": "bob"}).json()
    assert body["username"] == "bob" and body["socket_path"] == str(socket_dir / "pp-ipc-0")
    with IpcClient(desktop.ipc_path) as client:
        assert client.handshake(APP_ID)["data"]["user"]["username"] == "bob"
