"""Linked channels and the message members of SDK 1.10 from Python against the emulator:
link_channel_to_lobby / unlink_channel_from_lobby / join_linked_lobby_guild, LobbyHandle.linked_channel,
messages both ways, MessageHandle.raw_content / sent_from_game / disclosure_type / additional_content /
lobby / channel / recipient, get_channel_handle, can_open / open_message_in_platform,
get_user_message_summaries, set_showing_chat."""

from __future__ import annotations

from typing import Any

import httpx
from sdk_support import Outcome, pump_until
from test_guild_channels_linking import BOT_TOKEN, GENERAL, bot_lobby
from test_social_lobbies import ALICE, BOB, GUILD, ready_player

import platformpp


def test_linked_lobby_and_channel_share_messages(platformpp_emulator: Any) -> None:
    emu = platformpp_emulator
    alice, bob = ready_player(emu, "alice"), ready_player(emu, "bob")
    lobby_id = bot_lobby(emu)
    pump_until(lambda: alice.get_lobby_handle(lobby_id) is not None and bob.get_lobby_handle(lobby_id) is not None)
    bob_messages: list[int] = []
    bob.set_message_created_callback(bob_messages.append)

    linked = Outcome()
    alice.link_channel_to_lobby(lobby_id, GENERAL, linked)
    assert linked.wait()[0].successful, linked.args
    lobby = alice.get_lobby_handle(lobby_id)
    assert lobby is not None and lobby.linked_channel is not None
    assert (lobby.linked_channel.id, lobby.linked_channel.name, lobby.linked_channel.guild_id) == (GENERAL, "general", GUILD)
    channel = alice.get_channel_handle(GENERAL)
    assert channel is not None and channel.type is platformpp.ChannelType.GuildText and channel.name == "general"

    pump_until(lambda: len(bob_messages) == 1)  # the platform's disclosure
    disclosure = bob.get_message_handle(bob_messages[0])
    assert disclosure is not None
    assert disclosure.disclosure_type is platformpp.DisclosureTypes.MessageDataVisibleOnPlatform
    assert not disclosure.sent_from_game

    sent = Outcome()
    alice.send_lobby_message(lobby_id, f"hi <@{BOB}>", sent)
    result, message_id = sent.wait()
    assert result.successful
    pump_until(lambda: message_id in bob_messages)
    seen = bob.get_message_handle(message_id)
    assert seen is not None
    assert seen.raw_content == f"hi <@{BOB}>" and seen.content == "hi @Bob"
    assert seen.sent_from_game and seen.additional_content is None and seen.recipient_id == 0
    assert seen.lobby is not None and seen.lobby.id == lobby_id
    assert seen.channel is not None and seen.channel.type is platformpp.ChannelType.Lobby
    assert sorted(seen.channel.recipients) == [ALICE, BOB]
    assert bob.can_open_message_in_platform(message_id)
    opened: list[str] = []
    bob.set_authorize_url_opener(opened.append)
    open_result = Outcome()
    bob.open_message_in_platform(message_id, None, open_result)
    assert open_result.wait()[0].successful
    assert opened == [f"{emu.base_url}/channels/{GUILD}/{GENERAL}/{message_id}"]

    posted = httpx.post(f"{emu.api_base}/channels/{GENERAL}/messages", headers={"Authorization": f"Bot {BOT_TOKEN}"},
                        json={"embeds": [{"title": "Match report"}]})
    assert posted.status_code == 200, posted.text
    from_guild = int(posted.json()["id"])
    pump_until(lambda: bob.get_message_handle(from_guild) is not None)
    guild_message = bob.get_message_handle(from_guild)
    assert guild_message is not None and not guild_message.sent_from_game
    extra = guild_message.additional_content
    assert extra is not None and extra.type is platformpp.AdditionalContentType.Embed
    assert (extra.title, extra.count) == ("Match report", 1)
    assert platformpp.AdditionalContent.type_to_string(extra.type) == "Embed"

    invite = Outcome()
    alice.join_linked_lobby_guild(lobby_id, None, invite)
    result, url = invite.wait()
    assert result.successful and url.startswith(f"{emu.base_url}/invite/")

    unlinked = Outcome()
    alice.unlink_channel_from_lobby(lobby_id, unlinked)
    assert unlinked.wait()[0].successful
    assert alice.get_lobby_handle(lobby_id).linked_channel is None


def test_direct_message_members_and_summaries(platformpp_emulator: Any) -> None:
    alice, bob = ready_player(platformpp_emulator, "alice"), ready_player(platformpp_emulator, "bob")
    logged: list[str] = []
    bob.add_log_callback(lambda line, severity: logged.append(line), platformpp.LoggingSeverity.Info)
    bob.set_showing_chat(False)
    sent = Outcome()
    alice.send_user_message(BOB, "hello", sent)
    result, message_id = sent.wait()
    assert result.successful
    mine = alice.get_message_handle(message_id)
    assert mine is not None and mine.recipient_id == BOB and mine.lobby is None
    assert mine.channel is not None and mine.channel.type is platformpp.ChannelType.EphemeralDm
    assert alice.can_open_message_in_platform(message_id)
    pump_until(lambda: any("does not show its chat" in line for line in logged))
    received = bob.get_message_handle(message_id)
    assert received is not None and received.recipient is not None and received.recipient.username == "bob"

    summaries = Outcome()
    bob.get_user_message_summaries(summaries)
    result, listed = summaries.wait()
    assert result.successful
    assert [(s.user_id, s.last_message_id) for s in listed] == [(ALICE, message_id)]
    assert not platformpp.UserMessageSummary.nullobj
