"""platformpp.ipc, the pure-Python asyncio client of the desktop client, against the emulator's IPC
endpoint over a real Unix socket: discovery as the SDK does it, READY, rich presence seen by a friend
and cleared on close, events, commands with errors, the end of the connection, the package's error
types — and, in a fresh interpreter, that it never loads the C++ extension."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from emulator_world import ALICE, APP_ID, BOB
from platformpp.emulator import Emulator
from social_helpers import api, sdk_session, user_token

import platformpp
from platformpp import ipc


def _admin(emu: Emulator, method: str, path: str, **kwargs: object) -> httpx.Response:
    return httpx.request(method, f"{emu.base_url}/_emulator/desktop{path}", timeout=10, **kwargs)


@pytest.fixture
def found_as_the_sdk_finds_it(socket_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLATFORMPP_IPC_PATH", str(socket_dir / "pp-ipc"))


def test_discovery_follows_the_sdk_order() -> None:
    assert ipc.socket_candidates({"XDG_RUNTIME_DIR": "/run/u/", "TMPDIR": "/t"})[0] == "/run/u/platformpp-ipc-0"
    assert ipc.socket_candidates({"TEMP": "/y"})[9] == "/y/platformpp-ipc-9"
    assert ipc.socket_candidates({})[0] == "/tmp/platformpp-ipc-0"
    assert ipc.socket_candidates({"PLATFORMPP_IPC_PATH": "/x/p", "TMPDIR": "/t"})[3] == "/x/p-3"


def test_connect_reads_ready(desktop: Emulator,
                                                           found_as_the_sdk_finds_it: None) -> None:
    async def scenario() -> None:
        async with await ipc.connect(APP_ID) as conn:
            assert conn.user["username"] == "alice" and conn.user["id"] == str(ALICE)
            assert conn.config["api_endpoint"] == desktop.api_base
            assert conn.path == str(desktop.ipc_path)
            await conn.ping()
        assert conn.closed
    asyncio.run(scenario())


# A fresh interpreter: another test in this worker may have loaded the extension already.
_CONNECT_WITHOUT_THE_EXTENSION = """
import asyncio, sys
from platformpp import ipc

async def main():
    async with await ipc.connect(int(sys.argv[1])) as conn:
        await conn.ping()

asyncio.run(main())
print("loaded" if "platformpp._platformpp" in sys.modules else "not loaded")
"""


def test_the_ipc_client_never_loads_the_extension(desktop: Emulator, found_as_the_sdk_finds_it: None) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run([sys.executable, "-c", _CONNECT_WITHOUT_THE_EXTENSION, str(APP_ID)],
                          env=env, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "not loaded"


def test_activity_is_seen_by_a_friend_and_cleared_when_the_connection_closes(desktop: Emulator,
                                                                              found_as_the_sdk_finds_it: None) -> None:
    alice, bob = api(desktop, user_token(desktop, ALICE)), api(desktop, user_token(desktop, BOB))
    alice.put(f"/users/@me/relationships/{BOB}")
    assert bob.put(f"/users/@me/relationships/{ALICE}").json()["type"] == 1

    async def scenario() -> None:
        friend = await sdk_session(desktop, BOB)
        try:
            async with await ipc.connect(APP_ID) as conn:
                stored = await conn.set_activity({"state": "In a match", "details": "Ranked"}, pid=4242)
                assert stored["name"] == "Demo Game" and stored["application_id"] == str(APP_ID)
                update = await friend.dispatch("PRESENCE_UPDATE")
                assert [a["state"] for a in update["d"]["activities"]] == ["In a match"]
                await conn.clear_activity()
                assert (await friend.dispatch("PRESENCE_UPDATE"))["d"]["activities"] == []
                await conn.set_activity({"state": "Again"})
                assert (await friend.dispatch("PRESENCE_UPDATE"))["d"]["activities"][0]["state"] == "Again"
            assert (await friend.dispatch("PRESENCE_UPDATE"))["d"]["activities"] == []   # closed: cleared
        finally:
            await friend.close()
    asyncio.run(scenario())


def test_events_after_subscribing(desktop: Emulator, found_as_the_sdk_finds_it: None) -> None:
    async def scenario() -> None:
        async with await ipc.connect(APP_ID) as conn:
            await conn.subscribe("ACTIVITY_JOIN")
            delivered = await asyncio.to_thread(_admin, desktop, "POST", "/activity-join",
                                                json={"application_id": str(APP_ID), "secret": "s3cret"})
            assert delivered.json()["delivered"] == 1
            event = await conn.next_event("ACTIVITY_JOIN", timeout=5)
            assert event == ipc.Event("ACTIVITY_JOIN", {"secret": "s3cret"})
            await conn.unsubscribe("ACTIVITY_JOIN")
            again = await asyncio.to_thread(_admin, desktop, "POST", "/activity-join",
                                            json={"application_id": str(APP_ID), "secret": "x"})
            assert again.json()["delivered"] == 0
    asyncio.run(scenario())


def test_command_errors_are_rpc_errors_with_the_code(desktop: Emulator, found_as_the_sdk_finds_it: None) -> None:
    async def scenario() -> None:
        async with await ipc.connect(APP_ID) as conn:
            with pytest.raises(platformpp.RPCError, match="authenticate first") as raised:
                await conn.command("GET_GUILDS")
            assert raised.value.code == 4006 and isinstance(raised.value, platformpp.ClientError)
            with pytest.raises(platformpp.RPCError) as raised:
                await conn.subscribe("NOPE")
            assert raised.value.code == 4004
            with pytest.raises(platformpp.RPCError) as raised:
                await conn.set_activity({"state": 5})
            assert raised.value.code == 4000 and "state" in str(raised.value)
            # The connection goes on after an ERROR answer.
            token = await asyncio.to_thread(user_token, desktop, ALICE, "openid sdk.social_layer guilds")
            await conn.command("AUTHENTICATE", {"access_token": token})
            assert [g["name"] for g in (await conn.command("GET_GUILDS"))["guilds"]] == ["Demo Guild"]
    asyncio.run(scenario())


def test_bad_arguments_are_validation_errors_naming_the_field(desktop: Emulator,
                                                              found_as_the_sdk_finds_it: None) -> None:
    async def scenario() -> None:
        for bad in (0, -1, 1 << 64, "1000", True):
            with pytest.raises(platformpp.ValidationError) as raised:
                await ipc.connect(bad)  # type: ignore[arg-type]
            assert raised.value.field == "client_id"
        async with await ipc.connect(APP_ID) as conn:
            with pytest.raises(platformpp.ValidationError) as raised:
                await conn.set_activity(["not", "a", "mapping"])  # type: ignore[arg-type]
            assert raised.value.field == "activity" and isinstance(raised.value, ValueError)
            with pytest.raises(platformpp.ValidationError, match="over the limit") as raised:
                await conn.set_activity({"state": "x" * (ipc.MAX_FRAME_BYTES + 1)})
            assert raised.value.field == "args"
            with pytest.raises(platformpp.ValidationError):
                await conn.set_activity({"state": "x"}, pid=-3)
            await conn.ping()    # nothing was sent: the connection is intact
    asyncio.run(scenario())


def test_refused_handshake_and_no_desktop_client(desktop: Emulator, socket_dir: Path,
                                                 found_as_the_sdk_finds_it: None) -> None:
    async def scenario() -> None:
        with pytest.raises(platformpp.RPCError, match="refused the handshake") as raised:
            await ipc.connect(424242424242424242)
        assert raised.value.code == 4000
        await asyncio.to_thread(_admin, desktop, "DELETE", "")
        with pytest.raises(platformpp.RPCError, match="no desktop client is running"):
            await ipc.connect(APP_ID)
        with pytest.raises(platformpp.RPCError, match="no desktop client is running"):
            await ipc.connect(APP_ID, path=str(socket_dir / "nothing-here"))
    asyncio.run(scenario())


def test_the_desktop_client_quitting_ends_the_connection(desktop: Emulator, found_as_the_sdk_finds_it: None) -> None:
    async def scenario() -> None:
        conn = await ipc.connect(APP_ID)
        await conn.subscribe("ACTIVITY_JOIN")
        await asyncio.to_thread(_admin, desktop, "DELETE", "")
        with pytest.raises(platformpp.RPCError, match="quit") as raised:
            await conn.next_event(timeout=5)
        assert raised.value.code == 1000 and conn.closed
        assert [e async for e in conn.events()] == []
        with pytest.raises(platformpp.RPCError):
            await conn.set_activity({"state": "late"})
        await conn.close()
    asyncio.run(scenario())
