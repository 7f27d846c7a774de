"""Guild channels as linking candidates (GuildChannel.parent_id, is_linkable,
is_viewable_and_writeable_by_all_members, linked_lobby), the new ChannelType values, and the
LinkedLobby / LinkedChannel values, from Python against the emulator."""

from __future__ import annotations

import copy
from typing import Any

import httpx
import pytest
from sdk_support import GAME_ID, Outcome
from test_social_lobbies import ALICE, BOB, GUILD, ready_player

import platformpp

GENERAL = 1200000000000000101
BOT_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.ZW11bGF0b3I.ZGVmYXVsdC13b3JsZC1ib3QtdG9rZW4tbm90LXNlY3JldA"


def bot_lobby(emulator: Any, link: int | None = None) -> int:
    """A lobby of alice (CanLinkLobby) and bob made by the game's bot, linked to ``link`` if given."""
    headers = {"Authorization": f"Bot {BOT_TOKEN}"}
    made = httpx.post(f"{emulator.api_base}/lobbies", headers=headers,
                      json={"members": [{"id": str(ALICE), "flags": 1}, {"id": str(BOB)}]})
    assert made.status_code == 201, made.text
    lobby_id = int(made.json()["id"])
    if link is not None:
        linked = httpx.patch(f"{emulator.api_base}/lobbies/{lobby_id}/channel-linking", headers=headers,
                             json={"channel_id": str(link)})
        assert linked.status_code == 200, linked.text
    return lobby_id


def channels_of(client: platformpp.Client) -> dict[str, platformpp.GuildChannel]:
    listed = Outcome()
    client.get_guild_channels(GUILD, listed)
    result, channels = listed.wait()
    assert result.successful, result.to_string()
    return {c.name: c for c in channels}


def test_guild_channels_say_what_the_user_may_link(platformpp_emulator: Any) -> None:
    alice, bob = ready_player(platformpp_emulator, "alice"), ready_player(platformpp_emulator, "bob")
    owner = channels_of(alice)
    assert owner["general"].is_linkable and owner["general"].is_viewable_and_writeable_by_all_members
    assert owner["general"].parent_id == owner["Text Channels"].id
    assert owner["moderators"].is_linkable and not owner["moderators"].is_viewable_and_writeable_by_all_members
    assert not owner["Lounge"].is_linkable and owner["general"].linked_lobby is None
    assert not any(c.is_linkable for c in channels_of(bob).values())

    lobby_id = bot_lobby(platformpp_emulator, link=GENERAL)
    general = channels_of(alice)["general"]
    assert general.linked_lobby is not None
    assert (general.linked_lobby.application_id, general.linked_lobby.lobby_id) == (GAME_ID, lobby_id)
    assert not general.is_linkable


def test_channel_types_and_linked_values() -> None:
    kinds = platformpp.ChannelType
    assert (kinds.GuildStore, kinds.GuildDirectory, kinds.Lobby, kinds.EphemeralDm) == (6, 14, 17, 18)
    channel = platformpp.GuildChannel()
    channel.parent_id = 5
    channel.is_linkable = True
    channel.is_viewable_and_writeable_by_all_members = True
    lobby = platformpp.LinkedLobby()
    lobby.application_id, lobby.lobby_id = GAME_ID, 9
    channel.linked_lobby = lobby
    kept = copy.copy(channel)
    assert kept.parent_id == 5 and kept.is_linkable and kept.is_viewable_and_writeable_by_all_members
    assert kept.linked_lobby is not None and kept.linked_lobby.lobby_id == 9
    channel.parent_id = None
    assert channel.parent_id is None and kept.parent_id == 5
    linked = platformpp.LinkedChannel()
    linked.id, linked.name, linked.guild_id = GENERAL, "general", GUILD
    assert (copy.copy(linked).id, linked.name, linked.guild_id) == (GENERAL, "general", GUILD)
    assert not platformpp.LinkedLobby.nullobj and not platformpp.LinkedChannel.nullobj
    with pytest.raises(platformpp.NullHandleError):
        _ = platformpp.LinkedChannel.nullobj.name
    assert not platformpp.ChannelHandle.nullobj
