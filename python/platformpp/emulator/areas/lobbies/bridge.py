"""Linked channels, the guild side: a message written in a guild channel that a lobby is linked to
reaches the lobby's members as a lobby message with the same id (LOBBY_MESSAGE_CREATE), carrying
what it carries in the channel. The game side (lobby messages reaching the channel) is in
messages/channel_bridge.py. Edits, deletes and reactions are not mirrored."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ...events.audience import Payload
from ..messages.store import LobbyThread, post_from_channel
from .linking import linked_lobby_of

if TYPE_CHECKING:
    from ...events.outbox import Outbox

# The channel message's fields a lobby message keeps (what the SDK's AdditionalContent summarises).
CARRIED = ("attachments", "embeds", "sticker_items", "poll", "thread", "flags")


def channel_message_to_lobby(conn: sqlite3.Connection, outbox: Outbox, channel_id: int, message: Payload,
                             now: str) -> None:
    """Called in the transaction that wrote ``message`` (a rendered channel message) to ``channel_id``."""
    lobby = linked_lobby_of(conn, channel_id)
    if lobby is None:
        return
    extra = {name: message[name] for name in CARRIED if message.get(name)}
    post_from_channel(conn, LobbyThread(lobby["application_id"], lobby["id"]), outbox, message_id=int(message["id"]),
                      author_id=int(message["author"]["id"]), content=message.get("content") or "", extra=extra,
                      now=now)
