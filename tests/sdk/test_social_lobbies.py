"""Lobbies, messages, presence, relationships and guilds from Python against the emulator (issue:
SDK social features)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from sdk_support import Outcome, pump_until, ready_player

import platformpp

ALICE = 1100000000000000001
BOB = 1100000000000000002
GUILD = 1200000000000000000


@pytest.fixture
def players(platformpp_emulator: Any) -> tuple[platformpp.Client, platformpp.Client]:
    return ready_player(platformpp_emulator, "alice"), ready_player(platformpp_emulator, "bob")


def test_lobby_join_and_messages_both_ways(players: tuple[platformpp.Client, platformpp.Client]) -> None:
    alice, bob = players
    added: list[tuple[int, int]] = []
    alice.set_lobby_member_added_callback(lambda lobby, member: added.append((lobby, member)))
    received: list[int] = []
    bob.set_message_created_callback(received.append)

    created = Outcome()
    alice.create_or_join_lobby_with_metadata("py-match", {"mode": "ctf"}, {"team": "red"}, created)
    result, lobby_id = created.wait()
    assert result.successful, result.to_string()
    joined = Outcome()
    bob.create_or_join_lobby("py-match", joined)
    assert joined.wait()[1] == lobby_id
    pump_until(lambda: (lobby_id, BOB) in added)

    lobby = bob.get_lobby_handle(lobby_id)
    assert lobby is not None and lobby.metadata == {"mode": "ctf"}
    assert sorted(lobby.lobby_member_ids) == [ALICE, BOB]
    member = lobby.get_lobby_member_handle(ALICE)
    assert member is not None and member.metadata == {"team": "red"}
    assert bool(copy.copy(lobby)) and not platformpp.LobbyHandle.nullobj
    with pytest.raises(platformpp.NullHandleError):
        _ = platformpp.LobbyHandle.nullobj.id

    sent = Outcome()
    alice.send_lobby_message(lobby_id, "gl hf", sent)
    message_id = sent.wait()[1]
    pump_until(lambda: message_id in received)
    message = bob.get_message_handle(message_id)
    assert message is not None
    assert (message.content, message.author_id, message.lobby_id) == ("gl hf", ALICE, lobby_id)
    assert message.moderation_metadata == {} and message.additional_name is None

    history = Outcome()
    bob.get_lobby_messages_with_limit(lobby_id, 201, history)
    result, messages = history.wait()
    assert result.type is platformpp.ErrorType.ValidationError and result.error.startswith("limit:")


def test_direct_messages_come_from_the_cache(players: tuple[platformpp.Client, platformpp.Client],
                                             platformpp_emulator: Any) -> None:
    import httpx

    alice, bob = players
    received: list[int] = []
    bob.set_message_created_callback(received.append)
    for text in ("one", "two"):
        sent = Outcome()
        alice.send_user_message(BOB, text, sent)
        assert sent.wait()[0].successful
    pump_until(lambda: len(received) == 2)
    httpx.delete(platformpp_emulator.base_url + "/_emulator/requests")
    cached = Outcome()
    bob.get_user_messages_with_limit(ALICE, 2, cached)
    result, messages = cached.wait()
    assert result.successful
    assert [m.content for m in messages] == ["one", "two"]
    log = httpx.get(platformpp_emulator.base_url + "/_emulator/requests").json()
    assert not [entry for entry in log if "/messages" in entry["path"]]


Players = tuple[platformpp.Client, platformpp.Client]


def test_presence_relationships_and_guild_channels(players: Players) -> None:
    alice, bob = players
    requested = Outcome()
    alice.send_friend_request_by_id(BOB, requested)
    assert requested.wait()[0].successful
    pump_until(lambda: bob.get_relationship_handle(ALICE).platform_relationship_type
               is platformpp.RelationshipType.PendingIncoming)
    accepted = Outcome()
    bob.accept_friend_request(ALICE, accepted)
    assert accepted.wait()[0].successful
    assert [r.id for r in bob.get_relationships()] == [ALICE]

    activity = platformpp.Activity()
    activity.name = "Demo Game"
    activity.state = "In lobby"
    assets = platformpp.ActivityAssets()
    assets.invite_cover_image = "https://cdn.example.test/cover.png"
    activity.assets = assets
    button = platformpp.ActivityButton()
    button.label = "Join"
    button.url = "https://example.test/join"
    activity.add_button(button)
    updated = Outcome()
    alice.update_rich_presence(activity, updated)
    assert updated.wait()[0].successful, updated.args
    pump_until(lambda: (u := bob.get_user(ALICE)) is not None and u.game_activity is not None)
    seen = bob.get_user(ALICE)
    assert seen is not None and seen.game_activity is not None
    assert seen.game_activity.assets is not None
    assert seen.game_activity.assets.invite_cover_image == "https://cdn.example.test/cover.png"
    assert [(b.label, b.url) for b in seen.game_activity.get_buttons()] == [("Join", "https://example.test/join")]
    assert seen.status is platformpp.StatusType.Online
    assert seen.relationship.platform_relationship_type is platformpp.RelationshipType.Friend

    channels = Outcome()
    alice.get_guild_channels(GUILD, channels)
    result, listed = channels.wait()
    assert result.successful
    assert [c.name for c in listed] == ["Text Channels", "general", "moderators", "Voice Channels", "Lounge"]
    assert listed[1].parent_id == listed[0].id
    assert listed[4].type is platformpp.ChannelType.GuildVoice


def test_the_guide_example_runs_as_written(players: tuple[platformpp.Client, platformpp.Client]) -> None:
    import re
    from pathlib import Path

    guide = Path(__file__).resolve().parents[2] / "docs" / "social.md"
    (example,) = re.findall(r"```python\n(.*?)```", guide.read_text(), re.S)
    alice, _ = players
    shown: list[str] = []
    exec(example, {"client": alice, "show": shown.append})
    pump_until(lambda: shown == ["gl hf"])
