"""Event webhooks over real HTTP: envelope, Ed25519 signature, retries with backoff, admin visibility."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from emulator_world import ALICE, APP_ID, login
from platformpp.emulator import Emulator
from webhook_receiver import Receiver

FAST_RETRIES = (0.05, 0.1, 0.2)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with Receiver() as running:
        yield running


def _point_app_at(http: httpx.Client, url: str) -> str:
    """Re-seed the default world with the app's event webhook URL; returns the app's verify key."""
    from platformpp.emulator.core.fixtures import default_world

    world = default_world()
    world["applications"][0]["event_webhooks_url"] = url
    assert http.post("/_emulator/seed?reset=true", json=world).status_code == 204
    verify_key: str = http.get(f"/_emulator/applications/{APP_ID}").json()["verify_key"]
    return verify_key


def _wait_for_status(http: httpx.Client, status: str, timeout: float = 10.0) -> list[dict[str, object]]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        deliveries: list[dict[str, object]] = http.get("/_emulator/webhooks/deliveries").json()
        if deliveries and all(d["status"] == status for d in deliveries):
            return deliveries
        time.sleep(0.02)
    raise AssertionError(f"deliveries did not all become {status}: {deliveries}")


def test_revoke_sends_signed_application_deauthorized(http: httpx.Client, receiver: Receiver) -> None:
    verify_key = _point_app_at(http, receiver.url)
    tokens = login(http, "alice", scope="identify")
    http.post("/api/v10/oauth2/token/revoke", data={"token": tokens["access_token"], "client_id": str(APP_ID)})
    [delivery] = receiver.wait_for(1)
    assert delivery.signature_valid(verify_key)
    body = delivery.json
    assert body["version"] == 1 and body["application_id"] == str(APP_ID) and body["type"] == 1
    assert body["event"]["type"] == "APPLICATION_DEAUTHORIZED"
    assert body["event"]["data"]["user"]["id"] == str(ALICE)
    assert "timestamp" in body["event"]
    assert delivery.headers["content-type"] == "application/json"
    [record] = _wait_for_status(http, "delivered")
    assert record["event_type"] == "APPLICATION_DEAUTHORIZED" and record["attempts"] == 1


def test_tampered_body_fails_verification(http: httpx.Client, receiver: Receiver) -> None:
    verify_key = _point_app_at(http, receiver.url)
    assert http.post(f"/_emulator/applications/{APP_ID}/webhooks/ping").status_code == 202
    [delivery] = receiver.wait_for(1)
    assert delivery.json == {"version": 1, "application_id": str(APP_ID), "type": 0}
    assert delivery.signature_valid(verify_key)
    delivery.body = delivery.body.replace(b'"type":0', b'"type":1')
    assert not delivery.signature_valid(verify_key)


def test_removing_the_app_notifies_it(http: httpx.Client, receiver: Receiver) -> None:
    _point_app_at(http, receiver.url)
    tokens = login(http, "alice", scope="identify")
    assert http.delete(f"/_emulator/users/{ALICE}/applications/{APP_ID}").status_code == 204
    [delivery] = receiver.wait_for(1)
    assert delivery.json["event"]["type"] == "APPLICATION_DEAUTHORIZED"
    assert httpx.get(http.base_url.join("/api/v10/users/@me"),
                     headers={"Authorization": f"Bearer {tokens['access_token']}"}).status_code == 401
    assert http.delete(f"/_emulator/users/{ALICE}/applications/{APP_ID}").status_code == 404


def test_failed_deliveries_are_retried_with_backoff() -> None:
    with Receiver(fail_first=2) as receiver, Emulator(webhook_retry_delays_s=FAST_RETRIES) as emu, \
            httpx.Client(base_url=emu.base_url) as http:
        _point_app_at(http, receiver.url)
        http.post(f"/_emulator/applications/{APP_ID}/webhooks/ping")
        deliveries = receiver.wait_for(3)
        assert len({d.body for d in deliveries}) == 1     # the same delivery each time
        [record] = _wait_for_status(http, "delivered")
        assert record["attempts"] == 3 and record["last_status"] == 204


def test_retries_are_bounded() -> None:
    with Receiver(fail_first=100) as receiver, Emulator(webhook_retry_delays_s=FAST_RETRIES) as emu, \
            httpx.Client(base_url=emu.base_url) as http:
        _point_app_at(http, receiver.url)
        http.post(f"/_emulator/applications/{APP_ID}/webhooks/ping")
        [record] = _wait_for_status(http, "failed")
        assert record["attempts"] == len(FAST_RETRIES) + 1 and record["last_status"] == 500
        time.sleep(0.3)
        assert len(receiver.deliveries) == len(FAST_RETRIES) + 1


def test_unreachable_receiver_is_recorded_as_failed() -> None:
    with Receiver() as receiver:
        url = receiver.url            # a port that is closed once the receiver stops
    with Emulator(webhook_retry_delays_s=(0.01,)) as emu, httpx.Client(base_url=emu.base_url) as http:
        _point_app_at(http, url)
        http.post(f"/_emulator/applications/{APP_ID}/webhooks/ping")
        [record] = _wait_for_status(http, "failed")
        assert record["last_status"] is None and "Connection" in str(record["last_error"])


def test_app_without_webhook_url_records_nothing(http: httpx.Client) -> None:
    tokens = login(http, "alice", scope="identify")
    http.post("/api/v10/oauth2/token/revoke", data={"token": tokens["access_token"], "client_id": str(APP_ID)})
    assert http.get("/_emulator/webhooks/deliveries").json() == []
    assert http.post(f"/_emulator/applications/{APP_ID}/webhooks/ping").status_code == 404


def test_pending_deliveries_resume_after_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "world.sqlite3"
    with Receiver(fail_first=1) as receiver:
        with Emulator(db=db, webhook_retry_delays_s=(60.0,)) as emu, httpx.Client(base_url=emu.base_url) as http:
            _point_app_at(http, receiver.url)
            http.post(f"/_emulator/applications/{APP_ID}/webhooks/ping")
            receiver.wait_for(1)      # the first attempt failed; the retry is a minute away
            [record] = http.get("/_emulator/webhooks/deliveries").json()
            assert record["status"] == "pending"
        with Emulator(db=db) as emu, httpx.Client(base_url=emu.base_url) as http:
            receiver.wait_for(2)
            [record] = _wait_for_status(http, "delivered")
            assert record["attempts"] == 2
