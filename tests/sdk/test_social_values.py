"""The social value classes and handles from Python: properties, bool(), nullobj, copy (no network)."""

from __future__ import annotations

import copy

import pytest

import platformpp


def test_activity_properties_copy_and_nullobj() -> None:
    activity = platformpp.Activity()
    activity.name = "Demo Game"
    activity.type = platformpp.ActivityTypes.CustomStatus
    assets = platformpp.ActivityAssets()
    assets.invite_cover_image = "cover-key"
    activity.assets = assets
    party = platformpp.ActivityParty()
    party.current_size, party.max_size = 1, 4
    activity.party = party
    twin = copy.copy(activity)
    twin.name = "Other"
    assert activity.name == "Demo Game" and not twin.equals(activity)
    assert activity.assets is not None and activity.assets.invite_cover_image == "cover-key"
    assert activity.party is not None and activity.party.max_size == 4
    assert int(platformpp.ActivityTypes.CustomStatus) == 4
    assert bool(activity) and not platformpp.Activity.nullobj
    with pytest.raises(platformpp.NullHandleError):
        _ = platformpp.Activity.nullobj.name


@pytest.mark.parametrize(("handle", "getter"), [
    (platformpp.LobbyHandle, "id"), (platformpp.LobbyMemberHandle, "lobby_id"),
    (platformpp.MessageHandle, "content"),
    (platformpp.UserHandle, "username"), (platformpp.RelationshipHandle, "id"),
    (platformpp.UserApplicationProfileHandle, "provider_type")])
def test_sdk_handles_are_made_by_the_sdk_only(handle: type, getter: str) -> None:
    assert not handle.nullobj
    assert not copy.copy(handle.nullobj)
    with pytest.raises(TypeError):
        handle()
    with pytest.raises(platformpp.NullHandleError):
        getattr(handle.nullobj, getter)


def test_guild_channels_sort_for_display() -> None:
    def channel(id_: int, name: str, type_: platformpp.ChannelType, position: int,
                parent: int | None) -> platformpp.GuildChannel:
        made = platformpp.GuildChannel()
        made.id, made.name, made.type = id_, name, type_
        made.position, made.parent_id = position, parent
        return made

    kind = platformpp.ChannelType
    channels = [channel(9, "Voice", kind.GuildCategory, 1, None), channel(7, "lounge", kind.GuildVoice, 0, 9),
                channel(2, "Text", kind.GuildCategory, 0, None), channel(6, "afk", kind.GuildVoice, 0, None),
                channel(4, "rules", kind.GuildText, 1, 2), channel(3, "news", kind.GuildNews, 0, 2),
                channel(8, "welcome", kind.GuildText, 5, None)]
    ordered = platformpp.sort_guild_channels_for_display(channels)
    assert [c.name for c in ordered] == ["welcome", "afk", "Text", "news", "rules", "Voice", "lounge"]
