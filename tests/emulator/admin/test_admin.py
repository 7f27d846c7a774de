"""The admin API: clock, snapshots, seeding, reset, and the redacted request log."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import httpx
import pytest
from emulator_world import ALICE, APP_ID, BOT_TOKEN, CLIENT_SECRET, bot_headers, login


def test_clock_defaults_to_real_time_and_can_be_moved_and_frozen(http: httpx.Client) -> None:
    assert http.get("/_emulator/clock").json()["real_time"] is True
    moved = http.put("/_emulator/clock", json={"now": "2026-09-22T00:00:00Z", "frozen": True})
    assert moved.status_code == 200
    assert moved.json() == {"now": "2026-09-22T00:00:00.000000+00:00", "frozen": True, "real_time": False}
    assert http.get("/_emulator/clock").json()["now"] == "2026-09-22T00:00:00.000000+00:00"
    running = http.put("/_emulator/clock", json={"now": "2026-01-01T00:00:00+02:00"}).json()
    assert running["now"].startswith("2025-12-31T22:00:00") and running["frozen"] is False
    back = http.put("/_emulator/clock", json={"now": None}).json()
    assert back["real_time"] is True


@pytest.mark.parametrize("body, field, code", [
    ({"now": "yesterday"}, "now", "DATE_TYPE_CONVERT"),
    ({"now": 5}, "now", "BASE_TYPE_STRING"),
    ({}, "now", "BASE_TYPE_REQUIRED"),
    ({"now": None, "frozen": "yes"}, "frozen", "BOOLEAN_TYPE_COERCE"),
])
def test_clock_rejects_bad_input_and_keeps_its_time(http: httpx.Client, body: dict[str, object], field: str,
                                                    code: str) -> None:
    http.put("/_emulator/clock", json={"now": "2026-02-23T00:00:00Z", "frozen": True})
    response = http.put("/_emulator/clock", json=body)
    assert response.status_code == 400 and response.json()["code"] == 50035
    assert response.json()["errors"][field]["_errors"][0]["code"] == code
    assert http.get("/_emulator/clock").json()["now"].startswith("2026-02-23T00:00:00")


def test_clock_ignores_a_field_it_does_not_know(http: httpx.Client) -> None:
    moved = http.put("/_emulator/clock", json={"now": "2026-02-23T00:00:00Z", "frozen": True, "speed": 2})
    assert moved.status_code == 200 and "speed" not in moved.json()
    assert moved.json()["now"].startswith("2026-02-23T00:00:00") and moved.json()["frozen"] is True


def test_malformed_json_is_50109(http: httpx.Client) -> None:
    response = http.put("/_emulator/clock", content=b'{"now": ', headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.json() == {"code": 50109, "message": "The request body contains invalid JSON."}
    not_object = http.put("/_emulator/clock", json=["now"])
    assert not_object.json()["code"] == 50035


def test_snapshot_round_trip(http: httpx.Client) -> None:
    tokens = login(http, "alice", scope="identify")
    snapshot = http.get("/_emulator/snapshot").json()
    assert snapshot["format"] == "platformpp-emulator-snapshot/1"
    assert {"users", "applications", "authorizations", "oauth_tokens"} <= set(snapshot["tables"])
    text = json.dumps(snapshot)
    assert tokens["access_token"] not in text and CLIENT_SECRET not in text and BOT_TOKEN not in text
    assert http.post("/_emulator/reset?world=empty").status_code == 204
    assert http.get("/api/v10/users/@me", headers=bot_headers()).status_code == 401
    assert http.post("/_emulator/snapshot", json=snapshot).status_code == 204
    assert http.get("/api/v10/users/@me", headers={"Authorization": f"Bearer {tokens['access_token']}"}).json()[
        "id"] == str(ALICE)


def test_bad_snapshot_changes_nothing(http: httpx.Client) -> None:
    huge = http.get("/_emulator/snapshot").json()
    huge["tables"]["settings"].append({"key": "huge", "value": 1 << 70})
    assert http.post("/_emulator/snapshot", json=huge).status_code == 400
    snapshot = http.get("/_emulator/snapshot").json()
    snapshot["tables"]["users"].append({"id": 5, "username": "x", "no_such_column": 1, "created_at": "2026"})
    response = http.post("/_emulator/snapshot", json=snapshot)
    assert response.status_code == 400 and "tables" in response.json()["errors"]
    wrong_version = http.post("/_emulator/snapshot", json={**snapshot, "schema_version": 1})
    assert wrong_version.json()["errors"]["schema_version"]["_errors"][0]["code"] == "BASE_TYPE_CHOICES"
    dangling = http.get("/_emulator/snapshot").json()
    dangling["tables"]["members"].append({"guild_id": 1, "user_id": 2, "roles": "[]", "joined_at": "x"})
    assert http.post("/_emulator/snapshot", json=dangling).status_code == 400
    assert http.get("/api/v10/users/@me", headers=bot_headers()).status_code == 200


def test_seed_adds_to_the_world_and_reset_restores_it(http: httpx.Client) -> None:
    fixture = {"users": [{"id": "5000", "username": "erin", "global_name": "Erin"}]}
    assert http.post("/_emulator/seed", json=fixture).status_code == 204
    assert http.get("/api/v10/users/5000", headers=bot_headers()).json()["username"] == "erin"
    again = http.post("/_emulator/seed", json=fixture)
    assert again.status_code == 400 and again.json()["errors"]["users"]["0"]["id"]["_errors"][0]["code"] \
        == "ALREADY_EXISTS"
    http.put("/_emulator/clock", json={"now": "2030-01-01T00:00:00Z"})
    assert http.post("/_emulator/reset").status_code == 204
    assert http.get("/api/v10/users/5000", headers=bot_headers()).status_code == 404
    assert http.get("/api/v10/users/@me", headers=bot_headers()).status_code == 200
    assert http.get("/_emulator/clock").json()["real_time"] is True


def test_requests_log_redacts_every_secret(http: httpx.Client) -> None:
    tokens = login(http, "alice", scope="openid identify")
    http.get("/api/v10/users/@me", headers={"Authorization": f"Bearer {tokens['access_token']}"})
    http.post("/api/v10/oauth2/token", data={"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"],
                                             "client_id": str(APP_ID), "client_secret": CLIENT_SECRET})
    http.post("/api/v10/partner-sdk/token/bot", headers=bot_headers(), json={"external_user_id": "x"})
    http.post("/api/v10/partner-sdk/token", json={"client_id": str(APP_ID), "external_auth_type": "OIDC",
                                                  "external_auth_token": "provider-secret-token"})
    log = http.get("/_emulator/requests")
    text = log.text
    for secret in (tokens["access_token"], tokens["refresh_token"], tokens["id_token"], CLIENT_SECRET, BOT_TOKEN,
                   "provider-secret-token"):
        assert secret not in text
    entries = log.json()
    authorize = next(e for e in entries if e["path"] == "/oauth2/authorize")
    assert authorize["query"]["code_challenge"] == "[REDACTED]" and authorize["query"]["state"] == "st-42"
    exchange = next(e for e in entries if e["path"] == "/api/v10/oauth2/token")
    assert exchange["body"]["code"] == "[REDACTED]" and exchange["body"]["code_verifier"] == "[REDACTED]"
    assert exchange["body"]["grant_type"] == "authorization_code"
    me = next(e for e in entries if e["path"] == "/api/v10/users/@me")
    assert me["authorization"] == "Bearer [REDACTED]" and me["principal"]["user_id"] == str(ALICE)
    assert me["status"] == 200
    assert http.delete("/_emulator/requests").status_code == 204
    assert http.get("/_emulator/requests").json() == []


def test_requests_log_keeps_no_keys(http: httpx.Client) -> None:
    private_key = "ab" * 32
    http.post("/_emulator/seed", json={"applications": [{"id": "7300", "name": "Keyed", "client_secret": "keyed-secret",
                                                          "webhook_private_key": private_key}]})
    login(http, "alice", scope="openid")          # makes the OIDC signing key, a PEM in the snapshot
    snapshot = http.get("/_emulator/snapshot").json()
    [pem] = [row["value"] for row in snapshot["tables"]["settings"] if row["value"].startswith("-----BEGIN")]
    http.post("/_emulator/snapshot", json=snapshot)
    http.post("/_emulator/seed", json={"users": [{"username": "-----BEGIN PRIVATE KEY----- pretend"}]})
    log = http.get("/_emulator/requests").text
    assert private_key not in log and "keyed-secret" not in log and "-----BEGIN" not in log
    assert pem.splitlines()[1] not in log


def test_reset_turns_faults_off_and_restores_the_rate_limit(http: httpx.Client) -> None:
    http.put("/_emulator/rate-limits", json={"limit": 1, "window_s": 60})
    http.put("/_emulator/faults", json={"latency_ms": 10, "rules": [{"path": "/api/*", "error_rate": 1.0}]})
    assert http.post("/_emulator/reset").status_code == 204
    assert http.get("/_emulator/faults").json() == {"latency_ms": 0.0, "rules": []}
    response = http.get("/api/v10/users/@me", headers=bot_headers())
    assert response.status_code == 200 and response.headers["x-ratelimit-limit"] == "50"


def test_new_ids_are_larger_than_loaded_ones(http: httpx.Client) -> None:
    far_future_id = str(((2840140800000 - 1420070400000) << 22) | 5)     # a snowflake from the year 2060
    http.post("/_emulator/seed", json={"users": [{"id": far_future_id, "username": "from-the-future"}]})
    minted = http.post("/api/v10/partner-sdk/token/bot", headers=bot_headers(), json={"external_user_id": "n"})
    me = http.get("/api/v10/users/@me", headers={"Authorization": f"Bearer {minted.json()['access_token']}"}).json()
    assert int(me["id"]) > int(far_future_id)



def test_token_lifetime_shortens_new_access_tokens_until_reset(http: httpx.Client) -> None:
    before = login(http)
    assert http.put("/_emulator/token-lifetime", json={"access_token_s": 60}).json() == {"access_token_s": 60}
    short = login(http)
    assert short["expires_in"] == 60 and before["expires_in"] == 604800
    # Two minutes later on the emulator clock the short token has expired; the earlier one has not.
    now = datetime.fromisoformat(http.get("/_emulator/clock").json()["now"])
    http.put("/_emulator/clock", json={"now": (now + timedelta(minutes=2)).isoformat()})
    me = "/api/v10/users/@me"
    assert http.get(me, headers={"Authorization": f"Bearer {short['access_token']}"}).status_code == 401
    assert http.get(me, headers={"Authorization": f"Bearer {before['access_token']}"}).status_code == 200
    for body in ({"access_token_s": 0}, {"access_token_s": 604801}, {"access_token_s": "60"}):
        refused = http.put("/_emulator/token-lifetime", json=body)
        assert refused.status_code == 400 and "access_token_s" in refused.json()["errors"]
    # A field the route does not know is ignored.
    assert http.put("/_emulator/token-lifetime", json={"access_token_s": 60, "refresh_token_s": 5}).json() == {
        "access_token_s": 60}
    assert http.post("/_emulator/reset").status_code == 204
    assert login(http)["expires_in"] == 604800
