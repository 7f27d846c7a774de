"""Linked channels: who may link which guild channel to a lobby (the platform's linked-channels
rules), and what an SDK user's channel list says about it (is_linkable, open to all members, the
linked lobby)."""

from __future__ import annotations

from platformpp.emulator import Emulator
from social_helpers import ALICE, APP_ID, BOB, CAROL, GUILD_ID, api, bot, user_token

GENERAL, MODERATORS, LOUNGE = 1200000000000000101, 1200000000000000102, 1200000000000000201


def _lobby(emu: Emulator, *members: int) -> str:
    with bot(emu) as http:
        lobby = http.post("/lobbies", json={"members": [{"id": str(m), "flags": 1} for m in members]})
        assert lobby.status_code == 201, lobby.text
        return str(lobby.json()["id"])


def _channels(emu: Emulator, user_id: int) -> dict[str, dict]:
    with api(emu, user_token(emu, user_id)) as http:
        listed = http.get(f"/guilds/{GUILD_ID}/channels")
        assert listed.status_code == 200, listed.text
        return {c["name"]: c for c in listed.json()}


def test_channel_list_tells_an_sdk_user_what_they_may_link(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    owner = _channels(emu, ALICE)  # the guild's owner: every permission
    assert owner["general"]["is_linkable"] and owner["moderators"]["is_linkable"]
    assert not owner["Lounge"]["is_linkable"] and not owner["Text Channels"]["is_linkable"]  # voice, category
    assert owner["general"]["is_viewable_and_writeable_by_all_members"]
    assert not owner["moderators"]["is_viewable_and_writeable_by_all_members"]  # @everyone may not view it
    assert "linked_lobby" not in owner["general"]
    member = _channels(emu, BOB)  # no MANAGE_CHANNELS
    assert not member["general"]["is_linkable"] and "moderators" not in member
    assert int(member["general"]["permissions"]) & (1 << 10)  # VIEW_CHANNEL, the published field

    lobby_id = _lobby(emu, ALICE)
    with api(emu, user_token(emu, ALICE)) as http:
        assert http.patch(f"/lobbies/{lobby_id}/channel-linking", json={"channel_id": str(GENERAL)}).status_code == 200
    linked = _channels(emu, ALICE)["general"]
    assert linked["linked_lobby"] == {"application_id": str(APP_ID), "lobby_id": lobby_id}
    # Linked to a lobby, it is no longer linkable to another one.
    assert not linked["is_linkable"]


def test_linking_needs_manage_channels_and_a_channel_free_of_other_lobbies(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    first, second = _lobby(emu, ALICE, CAROL), _lobby(emu, ALICE)
    with api(emu, user_token(emu, CAROL)) as http:  # CanLinkLobby, but no MANAGE_CHANNELS
        refused = http.patch(f"/lobbies/{first}/channel-linking", json={"channel_id": str(GENERAL)})
        assert refused.status_code == 403 and refused.json()["code"] == 50013
    with api(emu, user_token(emu, ALICE)) as http:
        voice = http.patch(f"/lobbies/{first}/channel-linking", json={"channel_id": str(LOUNGE)})
        assert voice.status_code == 400 and "channel_id" in voice.json()["errors"]
        assert http.patch(f"/lobbies/{first}/channel-linking", json={"channel_id": str(GENERAL)}).status_code == 200
        # Linking the same channel again to the same lobby is fine; to another lobby it is not.
        assert http.patch(f"/lobbies/{first}/channel-linking", json={"channel_id": str(GENERAL)}).status_code == 200
        taken = http.patch(f"/lobbies/{second}/channel-linking", json={"channel_id": str(GENERAL)})
        assert taken.status_code == 400 and taken.json()["errors"]["channel_id"]["_errors"][0]["code"] == \
            "CHANNEL_ALREADY_LINKED"
        assert "linked_channel" not in http.get(f"/lobbies/{second}").json()
        # Unlinked, the channel is free again.
        assert http.patch(f"/lobbies/{first}/channel-linking", json={"channel_id": None}).status_code == 200
        assert http.patch(f"/lobbies/{second}/channel-linking", json={"channel_id": str(GENERAL)}).status_code == 200


def test_messages_flow_both_ways_between_a_linked_lobby_and_its_channel(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    lobby_id = _lobby(emu, ALICE)
    with api(emu, user_token(emu, ALICE)) as alice:
        assert alice.patch(f"/lobbies/{lobby_id}/channel-linking", json={"channel_id": str(GENERAL)}).status_code == 200
        # Linking posts the platform's disclosure to the lobby.
        (disclosure,) = alice.get(f"/lobbies/{lobby_id}/messages").json()
        assert disclosure["disclosure_type"] == 3 and "application_id" not in disclosure
        assert "#general" in disclosure["content"]
        from_game = alice.post(f"/lobbies/{lobby_id}/messages", json={"content": "gg <@1100000000000000002>"}).json()
    with bot(emu) as http:
        in_channel = {m["id"]: m for m in http.get(f"/channels/{GENERAL}/messages").json()}
        assert in_channel[from_game["id"]]["author"]["id"] == str(ALICE)
        # (the bot has no MESSAGE_CONTENT intent, so its answer leaves the text out: read the store)
        stored = emu.state.db.query_one("SELECT content FROM channel_messages WHERE id = ?", (int(from_game["id"]),))
        assert stored is not None and stored["content"] == "gg <@1100000000000000002>"
        from_guild = http.post(f"/channels/{GENERAL}/messages", json={
            "content": "welcome", "embeds": [{"title": "Match report", "description": "3-1"}]}).json()
    with api(emu, user_token(emu, ALICE)) as alice:
        lobby_messages = {m["id"]: m for m in alice.get(f"/lobbies/{lobby_id}/messages").json()}
    bridged = lobby_messages[from_guild["id"]]
    assert bridged["content"] == "welcome" and bridged["embeds"][0]["title"] == "Match report"
    assert "application_id" not in bridged  # written on the platform, not sent from the game
    assert lobby_messages[from_game["id"]]["application_id"] == str(APP_ID)
    # Unlinked, the two conversations are separate again.
    with api(emu, user_token(emu, ALICE)) as alice:
        alice.patch(f"/lobbies/{lobby_id}/channel-linking", json={"channel_id": None}).raise_for_status()
        alone = alice.post(f"/lobbies/{lobby_id}/messages", json={"content": "only here"}).json()
    with bot(emu) as http:
        assert alone["id"] not in {m["id"] for m in http.get(f"/channels/{GENERAL}/messages").json()}
