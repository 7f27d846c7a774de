"""A user's role connection to an application (Bearer with ``role_connections.write``): platform
name and username, metadata values stringified and checked against the application's records."""

from __future__ import annotations

from typing import Any

import pytest
from platformpp.emulator import Emulator
from social_helpers import ALICE, APP_ID, api, bot, user_token

URL = f"/users/@me/applications/{APP_ID}/role-connection"
RECORDS = [{"type": 2, "key": "level", "name": "Level", "description": "Character level"},
           {"type": 6, "key": "joined", "name": "Joined", "description": "Playing since"},
           {"type": 7, "key": "verified", "name": "Verified", "description": "Verified player"}]


@pytest.fixture
def alice(platformpp_emulator: Emulator) -> Any:
    with bot(platformpp_emulator) as http:
        assert http.put(f"/applications/{APP_ID}/role-connections/metadata", json=RECORDS).status_code == 200
    with api(platformpp_emulator, user_token(platformpp_emulator, ALICE, scopes="role_connections.write")) as http:
        yield http


def test_a_connection_is_set_read_and_deleted(alice: Any) -> None:
    assert alice.get(URL).json() == {"platform_username": None, "metadata": {}}
    put = alice.put(URL, json={"platform_name": "Dungeon Crawl", "platform_username": "alice_the_bold",
                               "metadata": {"level": 12, "joined": "2024-01-02T03:04:05Z", "verified": True}})
    assert put.status_code == 200, put.text
    assert put.json() == {"platform_name": "Dungeon Crawl", "platform_username": "alice_the_bold",
                          "metadata": {"level": "12", "joined": "2024-01-02T03:04:05.000000+00:00", "verified": "1"}}
    assert alice.get(URL).json() == put.json()
    renamed = alice.put(URL, json={"platform_username": "alice_the_wise"}).json()
    assert renamed["platform_username"] == "alice_the_wise" and renamed["metadata"]["level"] == "12"
    assert alice.put(URL, json={"metadata": {"level": "-3", "verified": 0}}).json()["metadata"] == {
        "level": "-3", "verified": "0"}
    assert alice.delete(URL).status_code == 204
    assert alice.get(URL).json() == {"platform_username": None, "metadata": {}}


@pytest.mark.parametrize(("body", "path"), [
    ({"platform_name": "x" * 51}, ("platform_name",)),
    ({"platform_username": "x" * 101}, ("platform_username",)),
    ({"metadata": {"unknown_key": 1}}, ("metadata", "unknown_key")),
    ({"metadata": {"level": "twelve"}}, ("metadata", "level")),
    ({"metadata": {"level": True}}, ("metadata", "level")),
    ({"metadata": {"joined": "last tuesday"}}, ("metadata", "joined")),
    ({"metadata": {"verified": 2}}, ("metadata", "verified")),
    ({"metadata": {k: 1 for k in "abcdef"}}, ("metadata",)),
    ({"metadata": [1]}, ("metadata",)),
])
def test_bad_connections_are_refused_and_change_nothing(alice: Any, body: dict[str, Any],
                                                        path: tuple[str, ...]) -> None:
    before = alice.put(URL, json={"platform_name": "Game", "metadata": {"level": 3}}).json()
    refused = alice.put(URL, json=body)
    assert refused.status_code == 400 and refused.json()["code"] == 50035
    errors = refused.json()["errors"]
    for part in path:
        errors = errors[part]
    assert "_errors" in errors, refused.json()
    assert alice.get(URL).json() == before


def test_the_token_needs_the_scope_and_the_same_application(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with api(emu, user_token(emu, ALICE, scopes="identify")) as http:
        refused = http.get(URL)
        assert refused.status_code == 403 and refused.json()["code"] == 50001
    with api(emu, user_token(emu, ALICE, scopes="role_connections.write")) as http:
        other = http.put("/users/@me/applications/1234/role-connection", json={})
        assert other.status_code == 403 and other.json()["code"] == 50001
    with bot(emu) as http:
        assert http.get(URL).status_code == 401
