"""The server itself: it serves over a real loopback socket, speaks docs/wire.md's error and header
conventions, and stays out of the SDK's C++ extension."""

from __future__ import annotations

import socket
import subprocess
import sys
import textwrap
import time

import httpx
from emulator_world import BOT_ID, BOT_TOKEN, CLIENT_SECRET, bot_headers
from platformpp.emulator import Emulator
from platformpp.emulator.server import KEEP_ALIVE_S


def test_serves_default_world_on_loopback(emu: Emulator, http: httpx.Client) -> None:
    assert emu.base_url.startswith("http://127.0.0.1:")
    assert emu.api_base == emu.base_url + "/api/v10"
    response = http.get("/api/v10/users/@me", headers=bot_headers())
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert response.json()["id"] == str(BOT_ID)
    assert response.json()["bot"] is True


def test_an_idle_keep_alive_connection_stays_usable(emu: Emulator) -> None:
    """Clients' pools reuse a connection idle for up to about 15 s: the server keeps it longer than
    that (a minute and more), and one idle past uvicorn's default 5 s still answers."""
    assert KEEP_ALIVE_S >= 65
    host, port = emu.base_url.removeprefix("http://").split(":")
    request = f"GET /api/v10/gateway HTTP/1.1\r\nHost: {host}\r\nConnection: keep-alive\r\n\r\n".encode()
    with socket.create_connection((host, int(port)), timeout=5) as conn:
        for attempt in range(2):
            conn.sendall(request)
            answer = conn.recv(65536)
            assert answer.startswith(b"HTTP/1.1 200"), (attempt, answer[:80])
            if attempt == 0:
                time.sleep(6)


def test_unknown_route_is_a_json_404(http: httpx.Client) -> None:
    response = http.get("/api/v10/no/such/route")
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/json"
    assert response.json() == {"code": 0, "message": "404: Not Found"}


def test_wrong_method_is_a_json_405(http: httpx.Client) -> None:
    response = http.delete("/api/v10/users/@me", headers=bot_headers())
    assert response.status_code == 405
    assert response.json()["message"] == "405: Method Not Allowed"


def test_missing_and_invalid_auth(http: httpx.Client) -> None:
    missing = http.get("/api/v10/users/@me")
    assert (missing.status_code, missing.json()["code"]) == (401, 40001)
    wrong = http.get("/api/v10/users/@me", headers=bot_headers("MTAwMDAwMDAwMDAwMDAwMDAwMQ.AAAA.not-the-token"))
    assert (wrong.status_code, wrong.json()["code"]) == (401, 50014)
    assert "not-the-token" not in wrong.text
    garbage = http.get("/api/v10/users/@me", headers={"Authorization": "Token abc"})
    assert garbage.status_code == 401


def test_bot_token_on_bearer_only_route_is_rejected(http: httpx.Client) -> None:
    response = http.get("/api/v10/users/@me/connections", headers=bot_headers())
    assert (response.status_code, response.json()["code"]) == (401, 40001)


def test_emulator_stops_and_frees_its_port() -> None:
    emulator = Emulator().start()
    url = emulator.base_url
    emulator.stop()
    try:
        httpx.get(url + "/_emulator/clock", timeout=1)
    except httpx.ConnectError:
        pass
    else:
        raise AssertionError("the emulator still answers after stop()")


def test_running_the_emulator_never_loads_the_extension() -> None:
    code = textwrap.dedent("""
        import sys, httpx
        from platformpp.emulator import Emulator
        with Emulator() as emu:
            assert httpx.get(emu.base_url + "/_emulator/clock").status_code == 200
        assert "platformpp._platformpp" not in sys.modules, "the emulator loaded the C++ extension"
        print("ok")
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_reprs_hold_no_credentials(emu: Emulator) -> None:
    for text in (repr(emu), repr(emu.state)):
        assert BOT_TOKEN not in text and CLIENT_SECRET not in text


def test_ids_that_cannot_exist_are_not_found(http: httpx.Client) -> None:
    too_long = http.get("/api/v10/users/123456789012345678901234", headers=bot_headers())
    assert too_long.status_code == 404 and too_long.json()["code"] == 0
    beyond_int64 = http.get(f"/api/v10/users/{1 << 63}", headers=bot_headers())
    assert beyond_int64.status_code == 404 and beyond_int64.json()["code"] == 10013
    unicode_digits = http.get("/oauth2/authorize", params={"client_id": "١٢٣", "response_type": "code"})
    assert unicode_digits.status_code == 400


def test_the_pytest_plugin_loads_without_the_emulator_extra() -> None:
    # pytest imports the plugin in every run of an environment where platformpp is installed.
    code = textwrap.dedent("""
        import sys
        for missing in ("starlette", "uvicorn", "cryptography", "platformdirs", "yaml"):
            sys.modules[missing] = None      # as if the emulator extra were not installed
        import platformpp.emulator.pytest_plugin as plugin
        assert callable(plugin.platformpp_emulator)
        print("ok")
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
