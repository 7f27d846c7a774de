"""Lobby channel invites: need a linked channel, single use, valid one hour on the emulator clock."""

from __future__ import annotations

from datetime import timedelta

import httpx
from platformpp.emulator import Emulator
from social_helpers import ALICE, BOB, DAVE, GUILD_ID, api, bot, user_token

GENERAL = 1200000000000000101


def _lobby_with_link(emu: Emulator) -> str:
    with bot(emu) as http:
        lobby = http.post("/lobbies", json={"members": [{"id": str(ALICE), "flags": 1}, {"id": str(DAVE)}]}).json()
    with api(emu, user_token(emu, ALICE)) as http:
        assert http.patch(f"/lobbies/{lobby['id']}/channel-linking", json={"channel_id": str(GENERAL)}).status_code == 200
    return lobby["id"]


def test_invite_for_self_is_single_use(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    lobby_id = _lobby_with_link(emu)
    emu.state.db.execute("DELETE FROM members WHERE guild_id = ? AND user_id = ?", (GUILD_ID, DAVE))
    dave = user_token(emu, DAVE)
    with api(emu, dave) as http:
        code = http.post(f"/lobbies/{lobby_id}/members/@me/invites").json()["code"]
        invite = http.get(f"/invites/{code}").json()
        assert invite["channel"]["id"] == str(GENERAL) and invite["guild"]["id"] == str(GUILD_ID)
        assert invite["max_uses"] == 1 and invite["uses"] == 0
        with api(emu, user_token(emu, ALICE)) as other:
            assert other.post(f"/invites/{code}").status_code == 403  # made for Dave only
        accepted = http.post(f"/invites/{code}")
        assert accepted.status_code == 200 and accepted.json()["uses"] == 1
        assert emu.state.db.query_one("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?", (GUILD_ID, DAVE))
        again = http.post(f"/invites/{code}")
        assert again.status_code == 404 and again.json()["code"] == 10006


def test_invite_for_a_user_by_bot_expires_after_one_hour(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    lobby_id = _lobby_with_link(emu)
    with bot(emu) as http:
        code = http.post(f"/lobbies/{lobby_id}/members/{DAVE}/invites").json()["code"]
        assert http.post(f"/lobbies/{lobby_id}/members/{BOB}/invites").json()["code"] == 10007  # not a member
    now = emu.state.clock.now()
    httpx.put(f"{emu.base_url}/_emulator/clock", json={"now": (now + timedelta(minutes=59)).isoformat()})
    with api(emu, user_token(emu, DAVE)) as http:
        assert http.get(f"/invites/{code}").status_code == 200
        httpx.put(f"{emu.base_url}/_emulator/clock", json={"now": (now + timedelta(minutes=61)).isoformat()})
        assert http.get(f"/invites/{code}").json()["code"] == 10006
        assert http.post(f"/invites/{code}").status_code == 404


def test_invite_needs_a_linked_channel_and_membership(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with bot(emu) as http:
        lobby = http.post("/lobbies", json={"members": [{"id": str(ALICE)}]}).json()
    with api(emu, user_token(emu, ALICE)) as http:
        refused = http.post(f"/lobbies/{lobby['id']}/members/@me/invites")
        assert refused.status_code == 400 and refused.json()["code"] == 10003
    with api(emu, user_token(emu, BOB)) as http:
        assert http.post(f"/lobbies/{lobby['id']}/members/@me/invites").json()["code"] == 10007
