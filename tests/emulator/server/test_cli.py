"""``platformpp emulator`` as a real process: its first lines, its default port, clean Ctrl-C,
durability of every acknowledged write across ``kill -9``, snapshots in and out, and its request log
lines."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import platformpp
import pytest
from emulator_world import bearer, bot_headers
from platformpp.emulator import local_certificate
from platformpp.emulator.state import open_database
from websockets.sync.client import connect

FIRST_LINE = re.compile(r"^platformpp emulator listening on (https?://127\.0\.0\.1:(\d+))$")


def _env() -> dict[str, str]:
    package_parent = str(Path(platformpp.__file__).resolve().parent.parent)
    return {**os.environ, "PYTHONPATH": os.pathsep.join([package_parent, os.environ.get("PYTHONPATH", "")])}


@contextmanager
def running(*args: str, env: dict[str, str] | None = None) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """The emulator as a process (on a free port unless ``args`` name one: tests run side by side)."""
    port = [] if any(arg == "--port" for arg in args) else ["--port", "0"]
    process = subprocess.Popen([sys.executable, "-m", "platformpp", "emulator", *port, *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env or _env())
    try:
        assert process.stdout is not None
        line = process.stdout.readline().rstrip("\n")
        match = FIRST_LINE.match(line)
        assert match, f"unexpected first line {line!r}; stderr: {process.stderr.read() if process.stderr else ''}"
        yield process, match.group(1)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


def test_no_flags_serves_where_the_client_points_and_keeps_the_world_in_the_user_data_directory(
        tmp_path: Path) -> None:
    env = {**_env(), "XDG_DATA_HOME": str(tmp_path / "data")}
    store = tmp_path / "data" / "platformpp" / "emulator.sqlite3"
    process = subprocess.Popen([sys.executable, "-m", "platformpp", "emulator"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        # Client()'s default API base is http://127.0.0.1:8787/api/v10 (docs/client.md).
        assert process.stdout.readline().rstrip("\n") == "platformpp emulator listening on http://127.0.0.1:8787"
        assert process.stdout.readline().rstrip("\n") == f"platformpp emulator store: {store}"
        assert httpx.get("http://127.0.0.1:8787/api/v10/users/@me", headers=bot_headers()).status_code == 200
        # A second emulator with no flags cannot have the port: it says so, and how to choose another.
        second = subprocess.run([sys.executable, "-m", "platformpp", "emulator", "--db", ":memory:"],
                                capture_output=True, text=True, env=env, timeout=30, check=False)
        assert second.returncode == 2 and "127.0.0.1:8787" in second.stderr and "--port" in second.stderr
        assert second.stdout == "" and "Traceback" not in second.stderr
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()
    assert store.is_file()


def test_acknowledged_writes_survive_kill_9(tmp_path: Path) -> None:
    db_path = tmp_path / "world.sqlite3"
    with running("--db", str(db_path)) as (process, url):
        with httpx.Client(base_url=url) as http:
            assert http.post("/_emulator/seed", json={"users": [{"id": "4242", "username": "durable"}]}).status_code \
                == 204
            minted = http.post("/api/v10/partner-sdk/token/bot", headers=bot_headers(),
                               json={"external_user_id": "survivor"})
            assert minted.status_code == 200
            token = minted.json()["access_token"]
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    db = open_database(db_path)
    assert db.query_one("SELECT username FROM users WHERE id = 4242")["username"] == "durable"
    assert db.query_one("SELECT 1 FROM external_identities WHERE external_user_id = 'survivor'") is not None
    db.close()
    # A restart on the same store keeps the world (no re-seed) and the token still works.
    with running("--db", str(db_path)) as (_, url):
        assert httpx.get(url + "/api/v10/users/@me", headers=bearer(token)).json()["is_provisional_account"] is True
        assert httpx.get(url + "/api/v10/users/4242", headers=bot_headers()).status_code == 200


@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_and_sigterm_shut_down_cleanly(stop_signal: signal.Signals) -> None:
    with running("--db", ":memory:", "--clock", "2026-07-10T00:00:00Z") as (process, url):
        assert httpx.get(url + "/_emulator/clock").json()["now"].startswith("2026-07-10T00:00")
        process.send_signal(stop_signal)
        assert process.wait(timeout=10) == 0
        assert process.stderr is not None and "Traceback" not in process.stderr.read()


def test_sigterm_right_after_the_first_line_still_shuts_down() -> None:
    # A test harness may stop the emulator at once (a test that needed nothing from it); the signal
    # then arrives before uvicorn has installed its handlers, and must not be lost.
    for _ in range(5):
        with running("--db", ":memory:") as (process, _url):
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=10) == 0


def test_seed_flag_and_bad_seed(tmp_path: Path) -> None:
    seed = tmp_path / "tiny.json"
    seed.write_text('{"users": [{"id": "31", "username": "only-one"}, {"id": "32", "username": "friend"}],'
                    ' "relationships": [{"user_id": "31", "other_id": "32", "type": "friend"}]}')
    with running("--db", ":memory:", "--seed", str(seed)) as (_, url):
        tables = httpx.get(url + "/_emulator/snapshot").json()["tables"]
        assert [u["username"] for u in tables["users"]] == ["only-one", "friend"]
        assert len(tables["relationships"]) == 2     # a section of another module, in a fresh process
    seed.write_text('{"users": [{"username": 5}]}')
    result = subprocess.run([sys.executable, "-m", "platformpp", "emulator", "--db", ":memory:", "--seed", str(seed)],
                            capture_output=True, text=True, env=_env(), timeout=30, check=False)
    assert result.returncode == 2 and "users.0.username" in result.stderr and result.stdout == ""


def test_tls_flag_serves_https_with_the_authority_it_keeps_and_prints(tmp_path: Path) -> None:
    env = {**_env(), "XDG_DATA_HOME": str(tmp_path / "data")}
    authority = tmp_path / "data" / "platformpp" / "tls" / "ca.pem"
    with running("--db", ":memory:", "--tls", env=env) as (process, url):
        assert url.startswith("https://")
        assert process.stdout is not None
        assert process.stdout.readline().rstrip("\n") == \
            f"platformpp emulator TLS: clients trust {authority} (e.g. SSL_CERT_FILE={authority})"
        answer = httpx.get(url + "/api/v10/users/@me", headers=bot_headers(), verify=ssl.create_default_context(cafile=authority))
        assert answer.status_code == 200
    first = authority.read_bytes()
    with running("--db", ":memory:", "--tls", env=env) as (_, url):   # the second run keeps the authority
        assert httpx.get(url + "/api/v10/users/@me", headers=bot_headers(), verify=ssl.create_default_context(cafile=authority)).status_code == 200
    assert authority.read_bytes() == first


def test_tls_cert_flags_bring_ones_own_certificate_and_bad_ones_exit_2(tmp_path: Path) -> None:
    own = local_certificate(tmp_path / "own")
    with running("--db", ":memory:", "--tls-cert", str(own.cert_file), "--tls-key", str(own.key_file)) as (_, url):
        assert url.startswith("https://")
        assert httpx.get(url + "/api/v10/users/@me", headers=bot_headers(), verify=own.client_context()).status_code == 200
    for flags, message in ((["--tls-cert", str(own.cert_file)], "--tls-cert and --tls-key go together"),
                           (["--tls-cert", str(tmp_path / "none.pem"), "--tls-key", str(own.key_file)], "none.pem"),
                           (["--tls-cert", str(own.cert_file), "--tls-key", str(own.ca_file)], "key")):
        result = subprocess.run([sys.executable, "-m", "platformpp", "emulator", "--db", ":memory:", *flags],
                                capture_output=True, text=True, env=_env(), timeout=30, check=False)
        assert result.returncode == 2 and message in result.stderr and result.stdout == "", result.stderr
        assert "Traceback" not in result.stderr


def test_port_in_use_exits_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "platformpp", "emulator", "--db", ":memory:", "--port",
                                 str(port)], capture_output=True, text=True, env=_env(), timeout=30, check=False)
    assert result.returncode == 2 and f"127.0.0.1:{port}" in result.stderr and result.stdout == ""


def test_missing_extra_is_a_clear_message() -> None:
    code = ("import sys\n"
            "sys.modules['uvicorn'] = None\n"
            "from platformpp.emulator.cli import main\n"
            "sys.exit(main(['--db', ':memory:']))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), timeout=30,
                            check=False)
    assert result.returncode == 2 and "pip install 'platformpp[emulator]'" in result.stderr
    assert "Traceback" not in result.stderr


def test_health_answers_while_serving() -> None:
    with running("--db", ":memory:") as (process, url):
        health = httpx.get(url + "/_emulator/health")
        assert health.status_code == 200 and health.json()["status"] == "ok"
        assert process.stdout is not None and process.stdout.readline().rstrip("\n") == \
            "platformpp emulator store: in memory"


def test_export_on_exit_then_import_carries_the_world_over(tmp_path: Path) -> None:
    snapshot = tmp_path / "world.json"
    with running("--db", ":memory:", "--export-on-exit", str(snapshot)) as (process, url):
        assert httpx.post(url + "/_emulator/seed", json={"users": [{"id": "4343", "username": "kept"}]}).status_code \
            == 204
        assert httpx.put(url + "/_emulator/clock", json={"now": "2026-05-01T12:00:00Z", "frozen": True}).status_code \
            == 200
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
    written = json.loads(snapshot.read_text())
    assert written["format"] == "platformpp-emulator-snapshot/1"
    assert any(user["username"] == "kept" for user in written["tables"]["users"])
    assert not (tmp_path / "world.json.partial").exists()
    with running("--db", ":memory:", "--import", str(snapshot)) as (_, url):
        assert httpx.get(url + "/api/v10/users/4343", headers=bot_headers()).json()["username"] == "kept"
        assert httpx.get(url + "/_emulator/clock").json()["now"].startswith("2026-05-01T12:00:00")


def test_a_snapshot_that_does_not_fit_exits_2_naming_what_is_wrong(tmp_path: Path) -> None:
    snapshot = tmp_path / "bad.json"
    snapshot.write_text('{"format": "platformpp-emulator-snapshot/1", "schema_version": -1, "tables": {}}')
    result = subprocess.run([sys.executable, "-m", "platformpp", "emulator", "--db", ":memory:", "--port", "0",
                             "--import", str(snapshot)], capture_output=True, text=True, env=_env(), timeout=30,
                            check=False)
    assert result.returncode == 2 and "schema_version" in result.stderr and result.stdout == ""
    assert "Traceback" not in result.stderr


def test_log_level_info_prints_a_redacted_line_per_request_and_the_gateway_sessions() -> None:
    with running("--db", ":memory:", "--log-level", "info") as (process, url):
        assert httpx.get(url + "/api/v10/users/@me", headers=bot_headers()).status_code == 200
        assert httpx.get(url + "/api/v10/invites/secretcode123").status_code == 404
        with connect(url.replace("http", "ws", 1) + "/gateway?v=10&encoding=json") as gateway:
            assert json.loads(gateway.recv(timeout=10))["op"] == 10
            gateway.send(json.dumps({"op": 2, "d": {"token": bot_headers()["Authorization"].split()[1],
                                                    "intents": 1, "properties": {}}}))
            assert json.loads(gateway.recv(timeout=10))["t"] == "READY"
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
        assert process.stderr is not None
        log = process.stderr.read()
    assert re.search(r"platformpp\.emulator\.requests: GET /api/v10/users/@me 200 [0-9.]+ ms", log), log
    assert "secretcode123" not in log and "GET /api/v10/invites/" in log
    assert re.search(r"platformpp\.emulator\.gateway: connected from 127\.0\.0\.1:\d+", log), log
    assert "platformpp.emulator.gateway: bot 1000000000000000001 identified (intents 1, shard none)" in log
    assert "platformpp.emulator.gateway: the client closed" in log
    assert bot_headers()["Authorization"].split()[1] not in log
