"""Users' profiles and enum names from Python against the emulator: enum_to_string of the
remaining enums, the relationship callbacks, UserHandle.avatar_url fetched from the emulator's CDN, the
typed members of UserApplicationProfileHandle and open_connected_games_settings_in_platform."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sdk_support import GAME_ID, Outcome, pump_until, sign_in

import platformpp
from platformpp import (
    AdditionalContentType,
    AudioModeType,
    AudioSystem,
    Call,
    ChannelType,
    DisclosureTypes,
    ExternalIdentityProviderType,
    StatusType,
    UserHandle,
)

ALICE, BOB = 1100000000000000001, 1100000000000000002
# The default world's bot token (the emulator's fixed world, not a secret).
BOT_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.ZW11bGF0b3I.ZGVmYXVsdC13b3JsZC1ib3QtdG9rZW4tbm90LXNlY3JldA"
PNG = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGA"
       "WjR9awAAAABJRU5ErkJggg==")


def connect(client: platformpp.Client, access: str) -> None:
    updated = Outcome()
    client.update_token(platformpp.AuthorizationTokenType.Bearer, access, updated)
    assert updated.wait()[0].successful
    client.connect()
    pump_until(lambda: client.get_status() == platformpp.Client.Status.Ready)


def ready_player(emulator: Any, user: str) -> platformpp.Client:
    player = platformpp.Client(emulator.api_base, emulator.web_base)
    player.set_application_id(GAME_ID)
    access, _ = sign_in(player, user)
    connect(player, access)
    return player


def test_enum_to_string_of_the_remaining_enums() -> None:
    cases = [(ChannelType.GuildForum, "GuildForum"), (ChannelType.EphemeralDm, "EphemeralDm"),
             (AdditionalContentType.VoiceMessage, "VoiceMessage"), (AudioSystem.Standard, "Standard"),
             (Call.Error.SignalingUnexpectedClose, "SignalingUnexpectedClose"), (AudioModeType.MODE_VAD, "MODE_VAD"),
             (Call.Status.Disconnecting, "Disconnecting"), (StatusType.Invisible, "Invisible"),
             (DisclosureTypes.MessageDataVisibleOnPlatform, "MessageDataVisibleOnPlatform"),
             (ExternalIdentityProviderType.EpicOnlineServices, "EpicOnlineServices"),
             (ExternalIdentityProviderType.None_, "None")]
    for value, name in cases:
        assert platformpp.enum_to_string(value) == name, value
    # Overloads are chosen by enum type: equal numbers of different enums name different values.
    assert platformpp.enum_to_string(StatusType.Offline) == "Offline"
    assert platformpp.enum_to_string(AudioSystem.Game) == "Game"
    with pytest.raises(TypeError):
        platformpp.enum_to_string(3)


def test_relationship_callbacks(platformpp_emulator: Any) -> None:
    alice, _bob = ready_player(platformpp_emulator, "alice"), ready_player(platformpp_emulator, "bob")
    created: list[tuple[int, bool]] = []
    deleted: list[tuple[int, bool]] = []
    alice.set_relationship_created_callback(lambda user, platform: created.append((user, platform)))
    alice.set_relationship_deleted_callback(lambda user, platform: deleted.append((user, platform)))
    sent = Outcome()
    alice.send_game_friend_request_by_id(BOB, sent)
    assert sent.wait()[0].successful
    pump_until(lambda: bool(created))
    assert created[0] == (BOB, False)
    cancelled = Outcome()
    alice.cancel_game_friend_request(BOB, cancelled)
    assert cancelled.wait()[0].successful
    pump_until(lambda: bool(deleted))
    assert deleted[0][0] == BOB


def test_avatar_url_and_typed_application_profiles(platformpp_emulator: Any) -> None:
    emu = platformpp_emulator
    minted = httpx.post(emu.api_base + "/partner-sdk/token/bot", json={"external_user_id": "ext-py-1"},
                        headers={"Authorization": f"Bot {BOT_TOKEN}"}, timeout=10)
    assert minted.status_code == 200, minted.text
    access = minted.json()["access_token"]
    me = httpx.get(emu.api_base + "/users/@me", headers={"Authorization": f"Bearer {access}"}, timeout=10).json()
    user_id = int(me["id"])
    avatar = httpx.put(f"{emu.base_url}/_emulator/users/{user_id}/avatar", json={"image": PNG}, timeout=10)
    assert avatar.status_code == 200, avatar.text
    avatar_hash = avatar.json()["avatar"]

    client = platformpp.Client(emu.api_base, emu.web_base)
    client.set_application_id(GAME_ID)
    connect(client, access)
    user = client.get_current_user_v2()
    assert user is not None and user.avatar == avatar_hash
    url = user.avatar_url(UserHandle.AvatarType.Gif, UserHandle.AvatarType.Png)
    assert url == f"{emu.base_url}/avatars/{user_id}/{avatar_hash}.png"
    fetched = httpx.get(url, timeout=10)
    assert fetched.status_code == 200 and fetched.content.startswith(b"\x89PNG\r\n\x1a\n")
    webp = httpx.get(user.avatar_url(animated_type=UserHandle.AvatarType.Gif,
                                     static_type=UserHandle.AvatarType.Webp), timeout=10)
    assert webp.status_code == 200 and webp.headers["content-type"] == "image/webp"
    with pytest.raises(platformpp.ValidationError):
        user.avatar_url(UserHandle.AvatarType.Gif, UserHandle.AvatarType.Gif)  # a still avatar has no GIF

    profiles = Outcome()
    client.get_user_application_profiles(user_id, profiles)
    result, found = profiles.wait()
    assert result.successful, result.to_string()
    [profile] = found
    assert profile.provider_type is ExternalIdentityProviderType.PlatformBot
    assert profile.provider_issued_user_id == "ext-py-1"
    assert profile.username == user.username
    assert profile.avatar_hash == avatar_hash
    assert profile.provider_id is None


def test_connected_games_settings_and_default_avatar(platformpp_emulator: Any) -> None:
    alice = ready_player(platformpp_emulator, "alice")
    opened: list[str] = []
    alice.set_authorize_url_opener(opened.append)
    done = Outcome()
    alice.open_connected_games_settings_in_platform(done)
    assert done.wait()[0].successful
    assert opened == [platformpp_emulator.web_base + "/settings/connected-games"]
    me = alice.get_current_user_v2()
    assert me is not None and me.avatar is None
    assert me.avatar_url(UserHandle.AvatarType.Gif, UserHandle.AvatarType.Png) == (
        f"{platformpp_emulator.web_base}/embed/avatars/{(ALICE >> 22) % 6}.png")


def test_open_connected_games_settings_needs_a_signed_in_client(client: platformpp.Client) -> None:
    opened: list[str] = []
    client.set_authorize_url_opener(opened.append)
    done = Outcome()
    client.open_connected_games_settings_in_platform(done)
    assert not done.wait()[0].successful
    assert opened == []
