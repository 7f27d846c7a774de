"""Conformance of the lobby operations of the calling member itself (``@me``): leaving a lobby and an
invite for oneself to its linked channel; success and error bodies."""

from __future__ import annotations

import pytest
from conformance_client import ClientFactory
from emulator_world import ALICE, BOB, BOT_TOKEN, DAVE, GUILD_ID
from platformpp.emulator import Emulator
from social_helpers import user_token

BOT = f"Bot {BOT_TOKEN}"
GENERAL = GUILD_ID + 101


@pytest.mark.covers("DELETE /lobbies/{lobby_id}/members/@me")
def test_leave_lobby(emu: Emulator, client: ClientFactory) -> None:
    bot, alice = client(BOT), client(f"Bearer {user_token(emu, ALICE)}")
    lobby = bot.post("/lobbies", json={"members": [{"id": str(ALICE)}]}).json()["id"]
    assert alice.delete(f"/lobbies/{lobby}/members/@me").status_code == 204
    unknown = alice.delete("/lobbies/1234/members/@me")
    assert unknown.status_code == 404 and unknown.json()["code"] == 10031
    assert client().delete(f"/lobbies/{lobby}/members/@me").status_code == 401


@pytest.mark.covers("POST /lobbies/{lobby_id}/members/@me/invites")
def test_invite_for_self(emu: Emulator, client: ClientFactory) -> None:
    bot, alice = client(BOT), client(f"Bearer {user_token(emu, ALICE)}")
    lobby = bot.post("/lobbies", json={"members": [{"id": str(ALICE), "flags": 1}, {"id": str(DAVE)}]}).json()["id"]
    unlinked = alice.post(f"/lobbies/{lobby}/members/@me/invites")
    assert unlinked.status_code == 400 and unlinked.json()["code"] == 10003
    assert alice.patch(f"/lobbies/{lobby}/channel-linking", json={"channel_id": str(GENERAL)}).status_code == 200
    made = client(f"Bearer {user_token(emu, DAVE)}").post(f"/lobbies/{lobby}/members/@me/invites")
    assert made.status_code == 200 and made.json()["code"]
    outsider = client(f"Bearer {user_token(emu, BOB)}").post(f"/lobbies/{lobby}/members/@me/invites")
    assert outsider.status_code == 404 and outsider.json()["code"] == 10007
