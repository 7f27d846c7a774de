"""The admin API (``/_emulator``) beyond loopback: a bearer secret is required, given in
PLATFORMPP_EMULATOR_ADMIN_TOKEN or generated (and printed once by the CLI); without it 401 with the
platform's error body. On loopback nothing changes. Tested over real sockets bound to an address of
this machine's own non-loopback interface, and to 0.0.0.0 reached through 127.0.0.1: no traffic
leaves the machine."""

from __future__ import annotations

import ipaddress
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator

import httpx
import pytest
from platformpp.emulator import Emulator
from platformpp.emulator.core.admin_secret import ENV, AdminSecret, is_loopback

ADMIN = "/_emulator"


def _own_non_loopback_ipv4() -> str | None:
    """An IPv4 address of one of this machine's interfaces other than lo (read from ``ip``)."""
    if shutil.which("ip") is None:
        return None
    listing = subprocess.run(["ip", "-4", "-o", "addr", "show"], capture_output=True, text=True, check=False)
    for line in listing.stdout.splitlines():
        fields = line.split()
        if len(fields) >= 4 and fields[2] == "inet":
            address = ipaddress.ip_interface(fields[3]).ip
            if not address.is_loopback:
                return str(address)
    return None


OWN_ADDRESS = _own_non_loopback_ipv4()
needs_address = pytest.mark.skipif(OWN_ADDRESS is None,
                                   reason="this machine has no non-loopback IPv4 address to bind to")


@pytest.fixture()
def off_loopback(monkeypatch: pytest.MonkeyPatch) -> Iterator[Emulator]:
    monkeypatch.delenv(ENV, raising=False)
    assert OWN_ADDRESS is not None
    with Emulator(db=":memory:", host=OWN_ADDRESS) as emu:
        yield emu


def test_loopback_hosts_need_no_secret() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost") and is_loopback("[::1]")
    assert not is_loopback("0.0.0.0") and not is_loopback("::") and not is_loopback("192.0.2.7")
    assert not is_loopback("emulator.example")   # a name could resolve anywhere
    assert AdminSecret.for_host("127.0.0.1", {ENV: "x" * 20}) is None


def test_the_secret_comes_from_the_environment_or_is_generated() -> None:
    given = AdminSecret.for_host("0.0.0.0", {ENV: "a-secret-of-enough-length"})
    assert given is not None and given.reveal() == "a-secret-of-enough-length" and not given.generated
    made = AdminSecret.for_host("0.0.0.0", {})
    other = AdminSecret.for_host("0.0.0.0", {})
    assert made is not None and other is not None and made.generated
    assert len(made.reveal()) >= 32 and made.reveal() != other.reveal()
    assert made.reveal() not in repr(made)
    with pytest.raises(ValueError, match=ENV):
        AdminSecret.for_host("0.0.0.0", {ENV: "short"})


@needs_address
def test_admin_api_off_loopback_requires_the_bearer_secret(off_loopback: Emulator) -> None:
    emu = off_loopback
    secret = emu.admin_secret
    assert secret is not None and emu.base_url.startswith(f"http://{OWN_ADDRESS}:")
    with httpx.Client(base_url=emu.base_url, timeout=10) as http:
        for headers in ({}, {"Authorization": "Bearer wrong-secret-of-some-length"},
                        {"Authorization": f"Bot {secret}"}, {"Authorization": secret}):
            refused = http.get(f"{ADMIN}/clock", headers=headers)
            assert refused.status_code == 401
            assert refused.json() == {"code": 40001, "message": "401: Unauthorized"}
            assert refused.headers["www-authenticate"].startswith("Bearer")
        # Refused writes change nothing.
        assert http.post(f"{ADMIN}/reset").status_code == 401
        admitted = http.get(f"{ADMIN}/clock", headers={"Authorization": f"Bearer {secret}"})
        assert admitted.status_code == 200 and "now" in admitted.json()
        # The platform API itself is not behind the admin secret.
        assert http.get("/api/v10/gateway").status_code == 200
        log = http.get(f"{ADMIN}/requests", headers={"Authorization": f"Bearer {secret}"})
        assert log.status_code == 200
    entries = log.json()
    statuses = [entry["status"] for entry in entries if entry["path"] == f"{ADMIN}/clock"]
    assert statuses == [401, 401, 401, 401, 200]
    assert secret not in json.dumps(entries)
    assert secret not in repr(emu) and secret not in repr(emu.state)


@needs_address
def test_the_secret_can_be_given_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "given-admin-secret-1234")
    assert OWN_ADDRESS is not None
    with Emulator(db=":memory:", host=OWN_ADDRESS) as emu, httpx.Client(base_url=emu.base_url, timeout=10) as http:
        assert emu.admin_secret == "given-admin-secret-1234"
        assert http.get(f"{ADMIN}/clock").status_code == 401
        assert http.get(f"{ADMIN}/clock", headers={"Authorization": "Bearer given-admin-secret-1234"}).status_code == 200


def test_bound_to_every_interface_the_secret_is_required_even_from_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    with Emulator(db=":memory:", host="0.0.0.0") as emu, \
            httpx.Client(base_url=f"http://127.0.0.1:{emu.port}", timeout=10) as http:
        assert emu.admin_secret is not None
        assert http.get(f"{ADMIN}/clock").status_code == 401
        assert http.get(f"{ADMIN}/clock", headers={"Authorization": f"Bearer {emu.admin_secret}"}).status_code == 200


def test_on_loopback_the_admin_api_stays_open() -> None:
    with Emulator(db=":memory:") as emu, httpx.Client(base_url=emu.base_url, timeout=10) as http:
        assert emu.admin_secret is None
        assert http.get(f"{ADMIN}/clock").status_code == 200


@needs_address
def test_the_cli_prints_a_generated_secret_once() -> None:
    env = {k: v for k, v in os.environ.items() if k != ENV}
    process = subprocess.Popen([sys.executable, "-m", "platformpp", "emulator", "--host", str(OWN_ADDRESS),
                                "--port", "0", "--db", ":memory:"], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        listening = process.stdout.readline().strip()
        assert "listening on" in listening
        secret_line = process.stdout.readline().strip()
        assert "admin API secret" in secret_line
        secret = secret_line.rsplit(" ", 1)[1]
        base = listening.rsplit(" ", 1)[1]
        with httpx.Client(base_url=base, timeout=10) as http:
            assert http.get(f"{ADMIN}/clock").status_code == 401
            assert http.get(f"{ADMIN}/clock", headers={"Authorization": f"Bearer {secret}"}).status_code == 200
            log = http.get(f"{ADMIN}/requests", headers={"Authorization": f"Bearer {secret}"}).json()
        assert secret not in json.dumps(log)
    finally:
        process.terminate()
        rest, _ = process.communicate(timeout=10)
    assert secret not in rest   # printed once, never again


def _headless_authorize(emu: Emulator, **extra: str) -> httpx.Response:
    from emulator_world import APP_ID, CALLBACK, pkce_pair

    _, challenge = pkce_pair()
    params = {"response_type": "code", "client_id": str(APP_ID), "scope": "openid sdk.social_layer",
              "state": "s1", "redirect_uri": CALLBACK, "code_challenge": challenge,
              "code_challenge_method": "S256", "emulator_user": "alice", "emulator_consent": "allow", **extra}
    return httpx.get(f"{emu.base_url}/oauth2/authorize", params=params, timeout=10)


@needs_address
def test_headless_consent_off_loopback_needs_the_admin_secret(off_loopback: Emulator) -> None:
    refused = _headless_authorize(off_loopback)
    assert refused.status_code == 401 and "emulator_admin_secret" in refused.text
    assert "code=" not in refused.headers.get("location", "")
    wrong = _headless_authorize(off_loopback, emulator_admin_secret="not-the-secret-at-all")
    assert wrong.status_code == 401
    secret = off_loopback.admin_secret
    assert secret is not None
    granted = _headless_authorize(off_loopback, emulator_admin_secret=secret)
    assert granted.status_code == 302 and "code=" in granted.headers["location"]
    # The consent page asks for it, and the request log never shows it.
    from emulator_world import APP_ID, CALLBACK

    page = httpx.get(f"{off_loopback.base_url}/oauth2/authorize", timeout=10, params={
        "response_type": "code", "client_id": str(APP_ID), "scope": "identify", "state": "s",
        "redirect_uri": CALLBACK})
    assert page.status_code == 200 and "name='emulator_admin_secret'" in page.text
    log = httpx.get(f"{off_loopback.base_url}/_emulator/requests", headers={"Authorization": f"Bearer {secret}"},
                    timeout=10).text
    assert secret not in log


def test_headless_consent_on_loopback_needs_no_secret() -> None:
    with Emulator(db=":memory:") as emu:
        granted = _headless_authorize(emu)
        assert granted.status_code == 302 and "code=" in granted.headers["location"]
        assert "emulator_admin_secret" not in httpx.get(f"{emu.base_url}/oauth2/authorize", timeout=10, params={
            "response_type": "code", "client_id": "1000000000000000000", "scope": "identify", "state": "s",
            "redirect_uri": "platform-1000000000000000000:/authorize/callback"}).text
