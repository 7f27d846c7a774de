"""``platformpp emulator`` as a real process: its first line, clean Ctrl-C, and durability of every
acknowledged write across ``kill -9``."""

from __future__ import annotations

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

FIRST_LINE = re.compile(r"^platformpp emulator listening on (https?://127\.0\.0\.1:(\d+))$")


def _env() -> dict[str, str]:
    package_parent = str(Path(platformpp.__file__).resolve().parent.parent)
    return {**os.environ, "PYTHONPATH": os.pathsep.join([package_parent, os.environ.get("PYTHONPATH", "")])}


@contextmanager
def running(*args: str, env: dict[str, str] | None = None) -> Iterator[tuple[subprocess.Popen[str], str]]:
    process = subprocess.Popen([sys.executable, "-m", "platformpp", "emulator", *args], stdout=subprocess.PIPE,
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


def test_no_flags_keeps_the_default_world_in_the_user_data_directory(tmp_path: Path) -> None:
    env = {**_env(), "XDG_DATA_HOME": str(tmp_path / "data")}
    with running(env=env) as (_, url):
        assert httpx.get(url + "/api/v10/users/@me", headers=bot_headers()).status_code == 200
    assert (tmp_path / "data" / "platformpp" / "emulator.sqlite3").is_file()


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
