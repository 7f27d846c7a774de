"""DeferredGuildBots (channel_messages/audience.py): the audience of an interaction answer's
MESSAGE_CREATE is worked out only when a bot session that could receive it is asked, once, and then
answers every session exactly as the GuildBots it made."""

from __future__ import annotations

from platformpp.emulator.areas.channel_messages.audience import (
    GUILD_MESSAGES, MESSAGE_CONTENT, DeferredGuildBots, GuildBots)
from platformpp.emulator.events.audience import Viewer

GUILD = 7


def _bot(user_id: int, intents: int, guilds: frozenset[int] = frozenset({GUILD})) -> Viewer:
    return Viewer("bot", user_id, user_id, intents, guilds)


def test_made_only_for_a_session_that_could_receive_it_and_only_once() -> None:
    made: list[GuildBots] = []
    payload, stripped = {"content": "hi"}, {"content": ""}

    def make() -> GuildBots:
        made.append(GuildBots(GUILD, GUILD_MESSAGES, payload, frozenset({1, 2}), stripped, frozenset({1})))
        return made[-1]

    audience = DeferredGuildBots(GUILD, GUILD_MESSAGES, make)
    assert audience(_bot(1, MESSAGE_CONTENT)) is None                       # no GUILD_MESSAGES
    assert audience(_bot(1, GUILD_MESSAGES, frozenset({8}))) is None         # another guild's shard
    assert audience(Viewer("bearer", 1, 1, GUILD_MESSAGES, frozenset({GUILD}))) is None
    assert made == []
    assert audience(_bot(1, GUILD_MESSAGES)) is payload                       # its own message: content
    assert audience(_bot(2, GUILD_MESSAGES)) is stripped                      # no MESSAGE_CONTENT
    assert audience(_bot(2, GUILD_MESSAGES | MESSAGE_CONTENT)) is payload
    assert audience(_bot(3, GUILD_MESSAGES | MESSAGE_CONTENT)) is None        # cannot view the channel
    assert len(made) == 1
