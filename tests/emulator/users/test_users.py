"""Users and connections, including the seed's dated connection rules on the emulator clock."""

from __future__ import annotations

import httpx
import pytest
from emulator_world import ALICE, BOB, BOT_ID, bearer, bot_headers, login


def _connection_types(http: httpx.Client, token: str) -> list[str]:
    response = http.get("/api/v10/users/@me/connections", headers=bearer(token))
    assert response.status_code == 200
    return [c["type"] for c in response.json()]


@pytest.mark.parametrize("now, expected", [
    ("2026-07-09T23:59:59Z", ["game_studio_1", "game_studio_2", "github"]),
    ("2026-07-10T00:00:00Z", ["game_studio_1", "github"]),
    ("2026-09-21T23:59:59Z", ["game_studio_1", "github"]),
    ("2026-09-22T00:00:00Z", ["github"]),
])
def test_legacy_game_studio_connections_follow_the_clock(http: httpx.Client, now: str, expected: list[str]) -> None:
    tokens = login(http, "alice", scope="identify connections")
    http.put("/_emulator/clock", json={"now": now})
    assert _connection_types(http, tokens["access_token"]) == expected


def test_new_game_studio_connections_are_never_returned(http: httpx.Client) -> None:
    http.put("/_emulator/clock", json={"now": "2026-01-01T00:00:00Z"})
    tokens = login(http, "bob", scope="identify connections")
    assert _connection_types(http, tokens["access_token"]) == []   # bob's only one is a new game_studio_1 link


def test_connections_need_the_connections_scope(http: httpx.Client) -> None:
    tokens = login(http, "alice", scope="identify")
    response = http.get("/api/v10/users/@me/connections", headers=bearer(tokens["access_token"]))
    assert (response.status_code, response.json()["code"]) == (403, 50001)


def test_connection_objects_hide_emulator_fields(http: httpx.Client) -> None:
    http.put("/_emulator/clock", json={"now": "2026-01-01T00:00:00Z"})
    tokens = login(http, "alice", scope="connections")
    github = next(c for c in http.get("/api/v10/users/@me/connections", headers=bearer(tokens["access_token"])).json()
                  if c["type"] == "github")
    assert github == {"id": "90001", "name": "alice-codes", "type": "github", "verified": True, "revoked": False,
                      "visibility": 1, "friend_sync": False, "show_activity": True, "two_way_link": False,
                      "integrations": []}


def test_me_needs_identify(http: httpx.Client) -> None:
    tokens = login(http, "alice", scope="connections")
    response = http.get("/api/v10/users/@me", headers=bearer(tokens["access_token"]))
    assert (response.status_code, response.json()["code"]) == (403, 50001)


def test_email_only_with_email_scope(http: httpx.Client) -> None:
    without = login(http, "alice", scope="identify")
    assert "email" not in http.get("/api/v10/users/@me", headers=bearer(without["access_token"])).json()
    with_email = login(http, "alice", scope="identify email")
    assert http.get("/api/v10/users/@me", headers=bearer(with_email["access_token"])).json()["email"] \
        == "alice@example.test"


def test_get_user_by_id(http: httpx.Client) -> None:
    body = http.get(f"/api/v10/users/{BOB}", headers=bot_headers()).json()
    assert body["username"] == "bob" and "email" not in body and "premium_type" not in body
    missing = http.get("/api/v10/users/5", headers=bot_headers())
    assert (missing.status_code, missing.json()["code"]) == (404, 10013)


def test_application_me_for_the_bot(http: httpx.Client) -> None:
    body = http.get("/api/v10/applications/@me", headers=bot_headers()).json()
    assert body["bot"]["id"] == str(BOT_ID) and body["owner"]["id"] == str(ALICE)
    assert isinstance(body["flags"], int) and isinstance(body["flags_new"], str)
    assert len(bytes.fromhex(body["verify_key"])) == 32


def test_flags_new_carries_the_bits_beyond_bit_30(http: httpx.Client) -> None:
    token = "NzUwMQ.AAAA.flags-bot-token"
    flags = (1 << 40) | (1 << 23) | 1
    http.post("/_emulator/seed", json={"applications": [{"id": "7500", "name": "Flags", "client_secret": "flags-secret",
                                                          "flags": flags, "bot": {"id": "7501", "username": "flags-bot",
                                                                                  "token": token}}]})
    body = http.get("/api/v10/applications/@me", headers=bot_headers(token)).json()
    assert body["flags"] == (1 << 23) | 1 and body["flags_new"] == str(flags)
