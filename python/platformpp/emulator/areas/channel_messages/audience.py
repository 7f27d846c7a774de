"""Who hears about a guild's messages, reactions, typing, pins, expressions and scheduled events: the
bot sessions whose shard holds the guild, that asked for the event's intent, and (for channel events)
whose bot can view the channel. Bots without the MESSAGE_CONTENT intent get messages with the content
emptied, except messages that mention them and their own."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...events.audience import Payload, Viewer

# Gateway intents (the platform's bits).
GUILDS = 1 << 0
GUILD_EXPRESSIONS = 1 << 3
GUILD_MESSAGES = 1 << 9
GUILD_MESSAGE_REACTIONS = 1 << 10
GUILD_MESSAGE_TYPING = 1 << 11
MESSAGE_CONTENT = 1 << 15
GUILD_SCHEDULED_EVENTS = 1 << 16


@dataclass(frozen=True)
class GuildBots:
    """Bot sessions of ``guild_id`` with ``intent``; only ``viewers`` when given (channel events).
    ``stripped`` is the payload for bots without MESSAGE_CONTENT, unless in ``sees_content``."""

    guild_id: int
    intent: int
    payload: Payload
    viewers: frozenset[int] | None = None
    stripped: Payload | None = None
    sees_content: frozenset[int] = field(default_factory=frozenset)

    def __call__(self, viewer: Viewer) -> Payload | None:
        if viewer.kind != "bot" or self.guild_id not in viewer.guild_ids or not viewer.intents & self.intent:
            return None
        if self.viewers is not None and viewer.user_id not in self.viewers:
            return None
        if self.stripped is not None and not viewer.intents & MESSAGE_CONTENT \
                and viewer.user_id not in self.sees_content:
            return self.stripped
        return self.payload


class DeferredGuildBots:
    """``GuildBots`` made only when the first bot session that could receive the event is asked (a
    bot, its shard holding the guild, the intent asked for): no session, no work. Sessions are asked
    while the dispatch is published, right after the commit and under the database's lock, so
    ``make`` reads the state the transaction committed; for a writer whose transaction changes
    nothing ``make`` depends on after announcing (an interaction's answer)."""

    __slots__ = ("guild_id", "intent", "_make", "_made")

    def __init__(self, guild_id: int, intent: int, make: Callable[[], GuildBots]) -> None:
        self.guild_id, self.intent = guild_id, intent
        self._make: Callable[[], GuildBots] | None = make
        self._made: GuildBots | None = None

    def __call__(self, viewer: Viewer) -> Payload | None:
        if viewer.kind != "bot" or self.guild_id not in viewer.guild_ids or not viewer.intents & self.intent:
            return None
        if self._made is None:
            assert self._make is not None
            self._made, self._make = self._make(), None
        return self._made(viewer)
