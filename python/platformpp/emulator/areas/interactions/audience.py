"""Who receives INTERACTION_CREATE: the bot sessions of the interaction's application, on the
shard of the guild when the bot is sharded (an app without an interactions endpoint URL)."""

from __future__ import annotations

from dataclasses import dataclass

from ...events.audience import Payload, Viewer


@dataclass(frozen=True)
class AppBotSessions:
    """The bot sessions of one application, on the shard of ``guild_id`` when sharded."""

    application_id: int
    guild_id: int | None
    payload: Payload

    def __call__(self, viewer: Viewer) -> Payload | None:
        if viewer.kind != "bot" or viewer.application_id != self.application_id:
            return None
        if viewer.shard is not None and self.guild_id is not None:
            shard_id, count = viewer.shard
            if (self.guild_id >> 22) % max(count, 1) != shard_id:
                return None
        elif viewer.shard is not None and viewer.shard[0] != 0:
            return None
        return self.payload
