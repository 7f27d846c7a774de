"""Injected faults and rate limits, observed through a real client."""

from __future__ import annotations

import time

import httpx
import pytest
from emulator_world import bot_headers
from platformpp.emulator.core import ratelimit


def test_rate_limit_headers_on_every_api_response(http: httpx.Client) -> None:
    response = http.get("/api/v10/users/@me", headers=bot_headers())
    for header in ("x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "x-ratelimit-reset-after",
                   "x-ratelimit-bucket"):
        assert header in response.headers
    assert float(response.headers["x-ratelimit-reset"]) > time.time() - 1
    assert "x-ratelimit-limit" not in http.get("/_emulator/clock").headers


def test_exceeding_the_limit_answers_429(http: httpx.Client) -> None:
    assert http.put("/_emulator/rate-limits", json={"limit": 3, "window_s": 30}).status_code == 200
    remaining = [http.get("/api/v10/users/@me", headers=bot_headers()).headers["x-ratelimit-remaining"]
                 for _ in range(3)]
    assert remaining == ["2", "1", "0"]
    limited = http.get("/api/v10/users/@me", headers=bot_headers())
    assert limited.status_code == 429
    body = limited.json()
    assert body["message"] == "You are being rate limited." and body["global"] is False
    assert 0 < body["retry_after"] <= 30
    assert limited.headers["x-ratelimit-scope"] == "user" and limited.headers["x-ratelimit-global"] == "false"
    assert int(limited.headers["retry-after"]) >= 1 and "via" in limited.headers
    # Another route has its own bucket; another caller has their own window.
    assert http.get("/api/v10/applications/@me", headers=bot_headers()).status_code == 200
    assert http.get("/api/v10/users/@me").status_code == 401


def test_forced_429_for_a_number_of_requests(http: httpx.Client) -> None:
    http.put("/_emulator/faults", json={"rules": [{"path": "/api/v10/users/*", "force_429": 2, "retry_after": 2.5,
                                                   "global": True}]})
    first = http.get("/api/v10/users/@me", headers=bot_headers())
    assert first.status_code == 429 and first.json() == {"message": "You are being rate limited.",
                                                         "retry_after": 2.5, "global": True, "code": 0}
    assert first.headers["x-ratelimit-global"] == "true" and first.headers["x-ratelimit-scope"] == "global"
    assert http.get("/api/v10/users/@me", headers=bot_headers()).status_code == 429
    assert http.get("/api/v10/users/@me", headers=bot_headers()).status_code == 200


def test_error_rate_and_method_filter(http: httpx.Client) -> None:
    http.put("/_emulator/faults", json={"seed": 1, "rules": [
        {"path": "/api/v10/users/@me", "method": "GET", "error_rate": 1.0, "error_status": 503}]})
    failing = http.get("/api/v10/users/@me", headers=bot_headers())
    assert failing.status_code == 503 and failing.json()["code"] == 0
    assert http.get("/api/v10/applications/@me", headers=bot_headers()).status_code == 200
    # Admin routes are never faulted, so faults can always be turned off.
    assert http.put("/_emulator/faults", json={}).status_code == 200
    assert http.get("/api/v10/users/@me", headers=bot_headers()).status_code == 200


def test_added_latency(http: httpx.Client) -> None:
    http.put("/_emulator/faults", json={"latency_ms": 150})
    started = time.perf_counter()
    http.get("/api/v10/users/@me", headers=bot_headers())
    assert time.perf_counter() - started >= 0.15


def test_dropped_connection(http: httpx.Client) -> None:
    http.put("/_emulator/faults", json={"rules": [{"path": "/api/v10/users/@me", "drop_rate": 1.0}]})
    with pytest.raises(httpx.RemoteProtocolError):
        http.get("/api/v10/users/@me", headers=bot_headers())
    assert http.get("/_emulator/requests").json()[-1]["status"] == "dropped"


def test_fault_config_is_validated_as_a_whole(http: httpx.Client) -> None:
    http.put("/_emulator/faults", json={"latency_ms": 5})
    bad = http.put("/_emulator/faults", json={"latency_ms": 10, "rules": [
        {"path": "/x", "error_rate": 2}, {"error_status": 200}]})
    assert bad.status_code == 400
    errors = bad.json()["errors"]["rules"]
    assert set(errors) == {"0", "1"} and "error_rate" in errors["0"] and set(errors["1"]) == {"path", "error_status"}
    assert http.get("/_emulator/faults").json() == {"latency_ms": 5.0, "rules": []}


def test_finished_windows_are_forgotten() -> None:
    limiter = ratelimit.RateLimiter(limit=1, window_s=0.001)
    for caller in range(ratelimit._PRUNE_AT + 1):
        limiter.hit("GET", "/api/v10/users/@me", str(caller))
    time.sleep(0.01)
    limiter.hit("GET", "/api/v10/users/@me", "last")
    assert len(limiter._windows) == 1
