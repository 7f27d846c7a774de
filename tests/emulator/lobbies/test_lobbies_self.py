"""The calling member's own lobby routes (``@me``, Bearer): leaving (safe to repeat) and an invite
for oneself."""

from __future__ import annotations

from platformpp.emulator import Emulator
from social_helpers import ALICE, BOB, BOT_ID, api, bot, user_token

GENERAL = 1200000000000000101


def _members(emu: Emulator, lobby_id: str) -> set[int]:
    return {row["user_id"] for row in emu.state.db.query(
        "SELECT user_id FROM lobby_members WHERE lobby_id = ?", (int(lobby_id),))}


def test_a_member_leaves_and_only_they_are_removed(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with bot(emu) as http:
        lobby = http.post("/lobbies", json={"members": [{"id": str(ALICE)}, {"id": str(BOB)}]}).json()["id"]
    with api(emu, user_token(emu, ALICE)) as http:
        assert http.delete(f"/lobbies/{lobby}/members/@me").status_code == 204
        assert _members(emu, lobby) == {BOB}
        assert http.delete(f"/lobbies/{lobby}/members/@me").status_code == 204   # safe to repeat
        assert _members(emu, lobby) == {BOB}
        assert http.delete("/lobbies/1234/members/@me").json()["code"] == 10031


def test_leaving_needs_the_social_scope(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with bot(emu) as http:
        lobby = http.post("/lobbies", json={"members": [{"id": str(ALICE)}]}).json()["id"]
    with api(emu, user_token(emu, ALICE, scopes="identify")) as http:
        refused = http.delete(f"/lobbies/{lobby}/members/@me")
        assert refused.status_code == 403 and refused.json()["code"] == 50001
    assert _members(emu, lobby) == {ALICE}


def test_a_bot_cannot_leave_as_itself(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with bot(emu) as http:
        lobby = http.post("/lobbies", json={"members": [{"id": str(BOT_ID)}]}).json()["id"]
        refused = http.delete(f"/lobbies/{lobby}/members/@me")
        assert refused.status_code == 401 and refused.json()["code"] == 40001
        assert http.post(f"/lobbies/{lobby}/members/@me/invites").status_code == 401
    assert _members(emu, lobby) == {BOT_ID}


def test_an_invite_for_oneself_is_made_out_to_the_caller(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with bot(emu) as http:
        lobby = http.post("/lobbies", json={"members": [{"id": str(ALICE), "flags": 1}]}).json()["id"]
    with api(emu, user_token(emu, ALICE)) as http:
        assert http.patch(f"/lobbies/{lobby}/channel-linking", json={"channel_id": str(GENERAL)}).status_code == 200
        code = http.post(f"/lobbies/{lobby}/members/@me/invites").json()["code"]
    row = emu.state.db.query_one("SELECT target_user_id, channel_id FROM lobby_invites WHERE code = ?", (code,))
    assert (row["target_user_id"], row["channel_id"]) == (ALICE, GENERAL)
