"""Conformance of the lobby operations (lobbies, members, channel linking, invites, lobby messages):
success and error bodies."""

from __future__ import annotations

import pytest
from emulator_world import ALICE, BOB, BOT_TOKEN, DAVE, GUILD_ID
from platformpp.emulator import Emulator
from social_helpers import user_token

from conformance_client import ClientFactory

BOT = f"Bot {BOT_TOKEN}"
GENERAL = GUILD_ID + 101
UNKNOWN = 1234


@pytest.mark.covers("PUT /lobbies", "POST /lobbies", "GET /lobbies/{lobby_id}", "PATCH /lobbies/{lobby_id}",
                    "DELETE /lobbies/{lobby_id}", "POST /lobbies/{lobby_id}/members/bulk",
                    "PUT /lobbies/{lobby_id}/members/{user_id}", "DELETE /lobbies/{lobby_id}/members/{user_id}")
def test_lobbies_and_members(emu: Emulator, client: ClientFactory) -> None:
    bot, alice = client(BOT), client(f"Bearer {user_token(emu, ALICE)}")
    assert alice.put("/lobbies", json={"secret": "s", "lobby_metadata": {"m": "1"}}).status_code == 200
    assert alice.put("/lobbies", json={}).status_code == 400
    created = bot.post("/lobbies", json={"metadata": {"map": "dust"}, "members": [{"id": str(ALICE)}]})
    assert created.status_code == 201
    lobby = created.json()["id"]
    assert bot.post("/lobbies", json={"members": "x"}).status_code == 400
    assert bot.get(f"/lobbies/{lobby}").status_code == 200
    assert bot.get(f"/lobbies/{UNKNOWN}").status_code == 404
    assert bot.patch(f"/lobbies/{lobby}", json={"metadata": {"map": "nuke"}}).status_code == 200
    assert bot.patch(f"/lobbies/{lobby}", json={"idle_timeout_seconds": 1}).status_code == 400
    assert bot.post(f"/lobbies/{lobby}/members/bulk", json=[{"id": str(BOB)}]).status_code == 200
    assert bot.post(f"/lobbies/{lobby}/members/bulk", json=[]).status_code == 400
    assert bot.put(f"/lobbies/{lobby}/members/{DAVE}", json={"metadata": {"team": "red"}}).status_code == 200
    assert bot.put(f"/lobbies/{lobby}/members/{DAVE}", json={"flags": 8}).status_code == 400
    assert bot.delete(f"/lobbies/{lobby}/members/{DAVE}").status_code == 204
    assert client().delete(f"/lobbies/{lobby}/members/{BOB}").status_code == 401
    assert bot.delete(f"/lobbies/{lobby}").status_code == 204
    assert bot.delete(f"/lobbies/{lobby}").status_code == 404


@pytest.mark.covers("PATCH /lobbies/{lobby_id}/channel-linking", "POST /lobbies/{lobby_id}/members/{user_id}/invites",
                    "GET /invites/{code}")
def test_channel_linking_and_invites(emu: Emulator, client: ClientFactory) -> None:
    bot, alice = client(BOT), client(f"Bearer {user_token(emu, ALICE)}")
    lobby = bot.post("/lobbies", json={"members": [{"id": str(ALICE), "flags": 1}, {"id": str(DAVE)}]}).json()["id"]
    assert bot.post(f"/lobbies/{lobby}/members/{DAVE}/invites").status_code == 400   # no linked channel yet
    assert alice.patch(f"/lobbies/{lobby}/channel-linking", json={"channel_id": str(GENERAL)}).status_code == 200
    assert alice.patch(f"/lobbies/{lobby}/channel-linking", json={"channel_id": "x"}).status_code == 400
    invite = bot.post(f"/lobbies/{lobby}/members/{DAVE}/invites")
    assert invite.status_code == 200
    dave = client(f"Bearer {user_token(emu, DAVE)}")
    assert dave.get(f"/invites/{invite.json()['code']}").status_code == 200
    assert dave.get("/invites/nonexistent").status_code == 404


@pytest.mark.covers("POST /lobbies/{lobby_id}/messages", "GET /lobbies/{lobby_id}/messages",
                    "PUT /lobbies/{lobby_id}/messages/{message_id}/moderation-metadata")
def test_lobby_messages(emu: Emulator, client: ClientFactory) -> None:
    bot, alice = client(BOT), client(f"Bearer {user_token(emu, ALICE)}")
    lobby = bot.post("/lobbies", json={"members": [{"id": str(ALICE)}]}).json()["id"]
    posted = alice.post(f"/lobbies/{lobby}/messages", json={"content": "gg"})
    assert posted.status_code == 201
    assert alice.post(f"/lobbies/{lobby}/messages", json={"content": ""}).status_code == 400
    assert alice.get(f"/lobbies/{lobby}/messages").status_code == 200
    assert alice.get(f"/lobbies/{lobby}/messages", params={"limit": 0}).status_code == 400
    url = f"/lobbies/{lobby}/messages/{posted.json()['id']}/moderation-metadata"
    assert bot.put(url, json={"flagged": "true"}).status_code == 204
    assert bot.put(url, json={"score": 3}).status_code == 400
