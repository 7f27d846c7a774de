"""Conformance of the role connection operations: an application's metadata records and a user's
role connection; success and error bodies."""

from __future__ import annotations

import pytest
from conformance_client import ClientFactory
from emulator_world import ALICE, APP_ID, BOT_TOKEN
from platformpp.emulator import Emulator
from social_helpers import user_token

BOT = f"Bot {BOT_TOKEN}"
METADATA = f"/applications/{APP_ID}/role-connections/metadata"
CONNECTION = f"/users/@me/applications/{APP_ID}/role-connection"
RECORDS = [{"type": 2, "key": "level", "name": "Level", "description": "Character level",
            "name_localizations": {"fr": "Niveau"}},
           {"type": 7, "key": "verified", "name": "Verified", "description": "Verified player"}]


@pytest.mark.covers("GET /applications/{application_id}/role-connections/metadata",
                    "PUT /applications/{application_id}/role-connections/metadata")
def test_metadata_records(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    assert bot.put(METADATA, json=RECORDS).status_code == 200
    assert bot.put(METADATA, json=[{**RECORDS[0], "key": "Bad Key"}]).status_code == 400
    assert bot.get(METADATA).status_code == 200
    assert bot.get("/applications/1234/role-connections/metadata").status_code == 403


@pytest.mark.covers("GET /users/@me/applications/{application_id}/role-connection",
                    "PUT /users/@me/applications/{application_id}/role-connection",
                    "DELETE /users/@me/applications/{application_id}/role-connection")
def test_user_role_connection(emu: Emulator, client: ClientFactory) -> None:
    client(BOT).put(METADATA, json=RECORDS)
    alice = client(f"Bearer {user_token(emu, ALICE, scopes='role_connections.write')}")
    assert alice.get(CONNECTION).status_code == 200
    put = alice.put(CONNECTION, json={"platform_name": "Game", "platform_username": "alice",
                                      "metadata": {"level": 7, "verified": True}})
    assert put.status_code == 200 and put.json()["metadata"] == {"level": "7", "verified": "1"}
    assert alice.put(CONNECTION, json={"metadata": {"level": "seven"}}).status_code == 400
    assert alice.get(CONNECTION).json() == put.json()
    assert alice.delete(CONNECTION).status_code == 204
    assert client(f"Bearer {user_token(emu, ALICE, scopes='identify')}").get(CONNECTION).status_code == 403
    assert client(BOT).delete(CONNECTION).status_code == 401
