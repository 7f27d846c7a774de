"""The presence and relationships members from Python against the emulator: the SDK 1.10
Activity fields and enums reaching a friend, and the relationship additions (requests by username,
groups and their events, search, spam flags, implicit and suggested relationships, removal everywhere)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from sdk_support import GAME_ID, Outcome, pump_until, ready_player

import platformpp
from platformpp import (
    ActivityActionTypes,
    ActivityGamePlatforms,
    ActivityPartyPrivacy,
    ActivityTypes,
    RelationshipGroupType,
    RelationshipType,
    StatusDisplayTypes,
)

ALICE, BOB, CAROL, DAVE = 1100000000000000001, 1100000000000000002, 1100000000000000003, 1100000000000000004


@pytest.fixture
def friends(platformpp_emulator: Any) -> tuple[platformpp.Client, platformpp.Client]:
    alice, bob = ready_player(platformpp_emulator, "alice"), ready_player(platformpp_emulator, "bob")
    sent = Outcome()
    alice.send_platform_friend_request("bob", sent)
    assert sent.wait()[0].successful, sent.wait()[0].to_string()
    pump_until(lambda: bob.get_relationship_handle(ALICE).platform_relationship_type
               == RelationshipType.PendingIncoming)
    accepted = Outcome()
    bob.send_platform_friend_request("alice", accepted)       # by username, it accepts
    assert accepted.wait()[0].successful
    pump_until(lambda: alice.get_relationship_handle(BOB).platform_relationship_type == RelationshipType.Friend)
    return alice, bob


def test_enums_and_their_names() -> None:
    assert ActivityTypes.HangStatus == 6 and ActivityActionTypes.JoinRequest == 5
    assert platformpp.enum_to_string(StatusDisplayTypes.Details) == "Details"
    assert platformpp.enum_to_string(ActivityGamePlatforms.PS5) == "PS5"
    assert platformpp.enum_to_string(ActivityPartyPrivacy.Public) == "Public"
    assert platformpp.enum_to_string(RelationshipType.Suggestion) == "Suggestion"
    assert platformpp.enum_to_string(RelationshipGroupType.OnlineElsewhere) == "OnlineElsewhere"
    assert int(ActivityGamePlatforms.Desktop | ActivityGamePlatforms.IOS) == 9


def test_sdk_1_10_activity_fields_reach_a_friend(friends: tuple[platformpp.Client, platformpp.Client]) -> None:
    alice, bob = friends
    activity = platformpp.Activity()
    activity.name, activity.type, activity.state = "Demo Game", ActivityTypes.HangStatus, "Chilling"
    activity.state_url, activity.details, activity.details_url = "https://e.test/s", "Lobby", "https://e.test/d"
    activity.status_display_type = StatusDisplayTypes.State
    activity.parent_application_id = 1000000000000000009
    activity.supported_platforms = ActivityGamePlatforms.Desktop | ActivityGamePlatforms.PS5
    assets = platformpp.ActivityAssets()
    assets.large_url, assets.small_url = "https://e.test/l", "https://e.test/m"
    activity.assets = assets
    party = platformpp.ActivityParty()
    party.id, party.current_size, party.max_size, party.privacy = "p", 1, 4, ActivityPartyPrivacy.Public
    activity.party = party

    async def update() -> None:
        await alice.update_rich_presence_async(activity)
    asyncio.run(update())
    pump_until(lambda: (u := bob.get_user(ALICE)) is not None and u.game_activity is not None
               and u.game_activity.state == "Chilling")
    seen = bob.get_user(ALICE).game_activity
    assert seen.type is ActivityTypes.HangStatus and seen.status_display_type is StatusDisplayTypes.State
    assert (seen.state_url, seen.details_url) == ("https://e.test/s", "https://e.test/d")
    assert seen.parent_application_id == 1000000000000000009 and int(seen.supported_platforms) == 129
    assert (seen.assets.large_url, seen.assets.small_url) == ("https://e.test/l", "https://e.test/m")
    assert seen.party.privacy is ActivityPartyPrivacy.Public
    activity.status_display_type = None
    assert not activity.equals(seen)


def test_groups_search_and_removal_everywhere(friends: tuple[platformpp.Client, platformpp.Client]) -> None:
    alice, bob = friends
    assert [r.id for r in alice.get_relationships_by_group(RelationshipGroupType.OnlineElsewhere)] == [BOB]
    moved: list[int] = []
    alice.set_relationship_groups_updated_callback(moved.append)
    playing = platformpp.Activity()
    playing.name = "Demo Game"
    done = Outcome()
    bob.update_rich_presence(playing, done)
    assert done.wait()[0].successful
    pump_until(lambda: moved == [BOB])
    assert [r.user.username for r in alice.get_relationships_by_group(RelationshipGroupType.OnlinePlayingGame)] == ["bob"]
    assert [u.id for u in alice.search_friends_by_username("BO")] == [BOB]
    assert alice.search_friends_by_username("zzz") == []

    game = Outcome()
    alice.send_game_friend_request("bob", game)
    assert game.wait()[0].successful
    pump_until(lambda: bob.get_relationship_handle(ALICE).game_relationship_type == RelationshipType.PendingIncoming)
    accepted = Outcome()
    bob.accept_game_friend_request(ALICE, accepted)
    assert accepted.wait()[0].successful
    pump_until(lambda: alice.get_relationship_handle(BOB).game_relationship_type == RelationshipType.Friend)

    async def remove() -> None:
        await alice.remove_platform_and_game_friend_async(BOB)
    asyncio.run(remove())
    handle = alice.get_relationship_handle(BOB)
    assert (handle.platform_relationship_type, handle.game_relationship_type) == (RelationshipType.None_,) * 2
    pump_until(lambda: moved[-1:] == [BOB] and len(moved) == 2)   # bob left the friends list


def test_requests_by_username_fail_clearly(platformpp_emulator: Any) -> None:
    alice = ready_player(platformpp_emulator, "alice")

    async def send(name: str) -> None:
        await alice.send_platform_friend_request_async(name)
    with pytest.raises(platformpp.ValidationError, match="username"):
        asyncio.run(send(""))
    with pytest.raises(platformpp.HTTPError) as raised:
        asyncio.run(send("no-such-user"))
    assert raised.value.result.status == 404


def test_spam_implicit_and_suggested(platformpp_emulator: Any) -> None:
    seed = {"relationships": [
        {"user_id": str(CAROL), "other_id": str(DAVE), "type": "pending", "spam": True},
        {"user_id": str(DAVE), "other_id": str(ALICE), "type": "implicit"},
        {"user_id": str(DAVE), "other_id": str(BOB), "type": "suggestion"}]}
    assert httpx.post(f"{platformpp_emulator.base_url}/_emulator/seed", json=seed).status_code // 100 == 2
    dave = ready_player(platformpp_emulator, "dave")
    pump_until(lambda: len(dave.get_relationships()) == 3)
    assert dave.get_relationship_handle(CAROL).is_spam_request
    assert dave.get_relationship_handle(ALICE).platform_relationship_type is RelationshipType.Implicit
    assert not dave.get_relationship_handle(ALICE).is_spam_request
    assert dave.get_relationship_handle(BOB).platform_relationship_type is RelationshipType.Suggestion
    assert dave.search_friends_by_username("") == []


def test_online_status_reaches_a_friend(friends: tuple[platformpp.Client, platformpp.Client]) -> None:
    alice, bob = friends

    async def choose(status: platformpp.StatusType) -> None:
        await alice.set_online_status_async(status)
    with pytest.raises(platformpp.ValidationError, match="status"):
        asyncio.run(choose(platformpp.StatusType.Streaming))
    asyncio.run(choose(platformpp.StatusType.Idle))
    pump_until(lambda: bob.get_user(ALICE) is not None and bob.get_user(ALICE).status is platformpp.StatusType.Idle)


def test_launch_commands_write_the_desktop_entry(platformpp_emulator: Any, tmp_path: Any,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    client = platformpp.Client(platformpp_emulator.api_base, platformpp_emulator.web_base)
    entry = tmp_path / "share" / "applications" / f"platformpp-{GAME_ID}.desktop"
    assert client.register_launch_command(GAME_ID, "/opt/demo/game --from-platform")
    text = entry.read_text()
    assert "Exec=/opt/demo/game --from-platform %u\n" in text
    assert f"MimeType=x-scheme-handler/platform-{GAME_ID};" in text
    assert client.register_launch_steam_application(GAME_ID, 480)
    assert "Exec=xdg-open steam://rungameid/480 %u" in entry.read_text()
    assert not client.register_launch_command(GAME_ID, "game\nX-Injected=1")
    assert not client.register_launch_command(0, "game")
    assert "steam://rungameid/480" in entry.read_text()


def _party_activity(party_id: str, secret: str) -> platformpp.Activity:
    activity = platformpp.Activity()
    activity.name = "Demo Game"
    party = platformpp.ActivityParty()
    party.id, party.current_size, party.max_size = party_id, 1, 4
    activity.party = party
    secrets = platformpp.ActivitySecrets()
    secrets.join = secret
    activity.secrets = secrets
    return activity


def test_activity_invites_and_join_requests(friends: tuple[platformpp.Client, platformpp.Client]) -> None:
    alice, bob = friends
    bob_invites: list[platformpp.ActivityInvite] = []
    bob_updates: list[platformpp.ActivityInvite] = []
    alice_invites: list[platformpp.ActivityInvite] = []
    bob.set_activity_invite_created_callback(bob_invites.append)
    bob.set_activity_invite_updated_callback(bob_updates.append)
    alice.set_activity_invite_created_callback(alice_invites.append)

    async def flow() -> None:
        with pytest.raises(platformpp.HTTPError):            # no party to invite to yet
            await alice.send_activity_invite_async(BOB, "gg")
        await alice.update_rich_presence_async(_party_activity("party-a", "secret-a"))
        await alice.send_activity_invite_async(BOB, "gg")
    asyncio.run(flow())
    pump_until(lambda: len(bob_invites) == 1)
    invite = bob_invites[0]
    assert (invite.sender_id, invite.type, invite.party_id, invite.is_valid) == \
        (ALICE, ActivityActionTypes.Join, "party-a", True)

    async def accept(by: platformpp.Client, what: platformpp.ActivityInvite) -> str:
        return await by.accept_activity_invite_async(what)
    assert asyncio.run(accept(bob, invite)) == "secret-a"
    alice.clear_rich_presence()
    pump_until(lambda: bob.get_user(ALICE) is not None and bob.get_user(ALICE).game_activity is None)
    with pytest.raises(platformpp.HTTPError):
        asyncio.run(accept(bob, invite))
    pump_until(lambda: len(bob_updates) == 1)
    assert bob_updates[0].is_valid is False

    async def join_request() -> None:
        await bob.update_rich_presence_async(_party_activity("party-b", "secret-b"))
        await alice.send_activity_join_request_async(BOB)
    asyncio.run(join_request())
    pump_until(lambda: len(bob_invites) == 2)
    request = bob_invites[1]
    assert request.type is ActivityActionTypes.JoinRequest
    with pytest.raises(platformpp.ValidationError, match="invite.type"):
        asyncio.run(accept(bob, request))

    async def reply() -> None:
        await bob.send_activity_join_request_reply_async(request)
    asyncio.run(reply())
    pump_until(lambda: len(alice_invites) == 1)
    assert asyncio.run(accept(alice, alice_invites[0])) == "secret-b"
