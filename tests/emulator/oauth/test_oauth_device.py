"""The OAuth2 device authorization grant (RFC 8628) against the real server: codes, the verification
page, approval through the page and the admin API, polling answers and expiry on the emulator clock."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import httpx
from emulator_world import ALICE, APP_ID, CLIENT_SECRET, bearer

DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"


def _start(http: httpx.Client, scope: str = "openid sdk.social_layer") -> dict:
    response = http.post("/api/v10/oauth2/device/authorize",
                         data={"client_id": str(APP_ID), "client_secret": CLIENT_SECRET, "scope": scope})
    assert response.status_code == 200, response.text
    return response.json()


def _poll(http: httpx.Client, device_code: str, **extra: str) -> httpx.Response:
    return http.post("/api/v10/oauth2/token", data={"grant_type": DEVICE_GRANT, "device_code": device_code,
                                                    "client_id": str(APP_ID), "client_secret": CLIENT_SECRET,
                                                    **extra})


def _freeze(http: httpx.Client, at: datetime) -> None:
    assert http.put("/_emulator/clock", json={"now": at.isoformat(), "frozen": True}).status_code == 200


def test_device_authorization_answers_rfc8628_fields(http: httpx.Client) -> None:
    body = _start(http)
    assert set(body) == {"device_code", "user_code", "verification_uri", "verification_uri_complete",
                         "expires_in", "interval"}
    assert len(body["user_code"]) == 9 and body["user_code"][4] == "-"
    assert not set(body["user_code"].replace("-", "")) & set("AEIOUY0123456789")
    assert body["verification_uri"] == str(http.base_url).rstrip("/") + "/activate"
    assert body["verification_uri_complete"] == body["verification_uri"] + "?user_code=" + body["user_code"]
    assert body["expires_in"] == 600 and body["interval"] == 5
    assert body["device_code"] != _start(http)["device_code"]


def test_scope_is_checked_like_authorize(http: httpx.Client) -> None:
    response = http.post("/api/v10/oauth2/device/authorize",
                         data={"client_id": str(APP_ID), "client_secret": CLIENT_SECRET, "scope": ""})
    assert response.status_code == 400 and response.json()["error"] == "invalid_scope"
    response = http.post("/api/v10/oauth2/device/authorize", data={"client_id": "123", "scope": "identify"})
    assert response.status_code == 401 and response.json()["error"] == "invalid_client"


def test_pending_then_slow_down_then_tokens_after_page_approval(http: httpx.Client) -> None:
    start = datetime(2026, 9, 1, tzinfo=timezone.utc)
    _freeze(http, start)
    body = _start(http)
    first = _poll(http, body["device_code"])
    assert first.status_code == 400 and first.json()["error"] == "authorization_pending"
    too_soon = _poll(http, body["device_code"])
    assert too_soon.json()["error"] == "slow_down"
    assert "10 seconds" in too_soon.json()["error_description"]  # the interval grew by five seconds
    # The verification page lists the request; the user approves as alice (code typed in lower case).
    page = http.get("/activate", params={"user_code": body["user_code"].lower()})
    assert page.status_code == 200 and "Demo Game" in page.text and "@alice" in page.text
    approved = http.post("/activate", data={"user_code": body["user_code"].replace("-", "").lower(),
                                            "emulator_user": "alice", "emulator_consent": "allow"})
    assert approved.status_code == 200 and "authorized" in approved.text
    _freeze(http, start + timedelta(seconds=9))
    assert _poll(http, body["device_code"]).json()["error"] == "slow_down"  # 9 s < the new 10 s
    _freeze(http, start + timedelta(seconds=30))
    tokens = _poll(http, body["device_code"])
    assert tokens.status_code == 200, tokens.text
    assert {"access_token", "refresh_token", "expires_in", "scope"} <= set(tokens.json())
    me = http.get("/api/v10/users/@me", headers=bearer(tokens.json()["access_token"]))
    assert me.json()["id"] == str(ALICE)
    _freeze(http, start + timedelta(seconds=60))
    assert _poll(http, body["device_code"]).json()["error"] == "invalid_grant"  # used once only


def test_admin_api_approves_and_denies(http: httpx.Client) -> None:
    body = _start(http)
    approved = http.post(f"/_emulator/oauth/device/{body['user_code']}/approve", json={"user": str(ALICE)})
    assert approved.status_code == 200 and approved.json()["status"] == "approved"
    assert _poll(http, body["device_code"]).status_code == 200
    # A decided (or unknown) code cannot be decided again.
    again = http.post(f"/_emulator/oauth/device/{body['user_code']}/deny", json={})
    assert again.status_code == 404
    denied = _start(http)
    assert http.post(f"/_emulator/oauth/device/{denied['user_code']}/deny", json={}).status_code == 200
    assert _poll(http, denied["device_code"]).json()["error"] == "access_denied"
    bad_user = http.post(f"/_emulator/oauth/device/{_start(http)['user_code']}/approve", json={"user": "nobody"})
    assert bad_user.status_code == 400 and "user" in bad_user.json()["errors"]


def test_page_deny_and_unknown_code(http: httpx.Client) -> None:
    body = _start(http)
    denied = http.post("/activate", data={"user_code": body["user_code"], "emulator_consent": "deny"})
    assert denied.status_code == 200 and "denied" in denied.text
    assert _poll(http, body["device_code"]).json()["error"] == "access_denied"
    assert http.get("/activate", params={"user_code": "BCDF-GHJK"}).status_code == 400
    assert "<input name='user_code'" in http.get("/activate").text


def test_device_code_expires_on_the_emulator_clock(http: httpx.Client) -> None:
    start = datetime(2026, 9, 2, tzinfo=timezone.utc)
    _freeze(http, start)
    body = _start(http)
    _freeze(http, start + timedelta(seconds=601))
    assert _poll(http, body["device_code"]).json()["error"] == "expired_token"
    # The user can no longer approve it either.
    late = http.post(f"/_emulator/oauth/device/{body['user_code']}/approve", json={"user": "alice"})
    assert late.status_code == 404


def test_device_code_of_another_application_is_invalid(http: httpx.Client) -> None:
    assert _poll(http, "not-a-device-code").json()["error"] == "invalid_grant"
    assert _poll(http, "").json()["error"] == "invalid_request"


def test_admin_interval_sets_the_polling_interval(http: httpx.Client) -> None:
    assert http.put("/_emulator/oauth/device-interval", json={"interval": 1}).json() == {"interval": 1}
    assert _start(http)["interval"] == 1
    assert http.put("/_emulator/oauth/device-interval", json={"interval": 0}).status_code == 400
    assert http.post("/_emulator/reset").status_code == 204
    assert _start(http)["interval"] == 5  # a reset returns to the default
