"""The webhook object (the published ``GuildIncomingWebhookResponse`` / ``ChannelFollowerWebhookResponse``)
and the author a webhook's messages show."""

from __future__ import annotations

import sqlite3
from typing import Any

INCOMING, CHANNEL_FOLLOWER, APPLICATION = 1, 2, 3

Payload = dict[str, Any]


def webhook_json(row: sqlite3.Row, *, user: Payload | None, base_url: str | None,
                 source: tuple[sqlite3.Row, sqlite3.Row] | None = None) -> Payload:
    """``base_url`` given: the token and url are shown (to whoever holds the token or created the
    webhook); ``source``: a follower webhook's (source guild, source channel)."""
    body: Payload = {
        "id": str(row["id"]), "type": row["type"], "guild_id": str(row["guild_id"]),
        "channel_id": str(row["channel_id"]), "name": row["name"], "avatar": row["avatar"],
        "application_id": None if row["application_id"] is None else str(row["application_id"]),
    }
    if user is not None:
        body["user"] = user
    if row["type"] == INCOMING and base_url is not None and row["token"]:
        body["token"] = row["token"]
        body["url"] = f"{base_url.rstrip('/')}/api/webhooks/{row['id']}/{row['token']}"
    if source is not None:
        guild, channel = source
        body["source_guild"] = {"id": str(guild["id"]), "name": guild["name"], "icon": guild["icon"]}
        body["source_channel"] = {"id": str(channel["id"]), "name": channel["name"]}
    return body


def webhook_author_json(webhook_id: int, name: str, avatar: str | None) -> Payload:
    """The author of a webhook's message: a bot user named as the webhook (or the execute's override)."""
    return {"id": str(webhook_id), "username": name, "discriminator": "0000", "global_name": None,
            "avatar": avatar, "public_flags": 0, "flags": 0, "bot": True, "primary_guild": None}
