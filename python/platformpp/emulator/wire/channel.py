"""The guild channel object (docs/wire.md "Channel"; the published ``GuildChannelResponse``) and its
obfuscated form, what a bot that opted in to channel obfuscation sees of a channel it cannot view.

Obfuscated, a channel keeps only ``id, type, position, parent_id`` (docs/wire.md), and ``guild_id`` where
the channel object carries it (REST, CHANNEL_* dispatches); its ``name`` is ``___hidden___``,
``flags`` gains CHANNEL_OBFUSCATED and ``permission_overwrites`` is exactly one overwrite denying
VIEW_CHANNEL to @everyone. Every other field is left out, the strongest way to reduce it: ``topic``,
``nsfw``, ``last_message_id``, ``rate_limit_per_user``, ``bitrate``, ``user_limit``, ``rtc_region``,
``application_id`` (and, when modelled, ``icon_emoji``, ``last_pin_timestamp``, forum tags).
docs/emulator.md lists the same."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from ..core.permissions import Permission

CHANNEL_OBFUSCATED = 1 << 17
HIDDEN_NAME = "___hidden___"

TEXT, DM, VOICE, GROUP_DM, CATEGORY, ANNOUNCEMENT = 0, 1, 2, 3, 4, 5
STAGE, DIRECTORY, FORUM, MEDIA = 13, 14, 15, 16
GUILD_TYPES = (TEXT, VOICE, CATEGORY, ANNOUNCEMENT, STAGE, DIRECTORY, FORUM, MEDIA)
# What POST /guilds/{id}/channels and PATCH /channels/{id} accept: every guild type. The published
# schema's channel enums stop at 15, but the platform's channel types docs list GUILD_MEDIA (16), with
# a topic and a slowmode like a forum's (docs/emulator.md says how the conformance tests treat it).
REQUEST_TYPES = GUILD_TYPES
VOICE_LIKE = frozenset({VOICE, STAGE})
# Channels with a topic and a slowmode (the message-bearing and post-bearing types).
TEXT_LIKE = frozenset({TEXT, ANNOUNCEMENT, FORUM, MEDIA})
DEFAULT_BITRATE = 64000
ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD = 10, 11, 12
THREAD_TYPES = frozenset({ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD})
POST_CHANNELS = frozenset({FORUM, MEDIA})   # channels whose threads are posts with tags


def overwrite_json(raw: dict[str, Any]) -> dict[str, Any]:
    """One stored overwrite ``{id, type, allow, deny}`` as the platform sends it, with ``_new`` forms."""
    allow, deny = str(int(raw["allow"])), str(int(raw["deny"]))
    return {"id": str(raw["id"]), "type": int(raw["type"]), "allow": allow, "deny": deny,
            "allow_new": allow, "deny_new": deny}


def _snowflake(value: int | None) -> str | None:
    return str(value) if value is not None else None


def _overwrites(raw: str) -> list[dict[str, Any]]:
    return [] if raw == "[]" else json.loads(raw)   # most channels have none: no decoding


def thread_json(row: sqlite3.Row) -> dict[str, Any]:
    """A thread (the published ``ThreadResponse``): no position and no overwrites (a thread has its
    parent's permissions); ``invitable`` only on private threads; ``applied_tags`` on posts."""
    metadata: dict[str, Any] = {
        "archived": bool(row["thread_archived"]), "archive_timestamp": row["thread_archive_timestamp"],
        "auto_archive_duration": row["thread_auto_archive_duration"], "locked": bool(row["thread_locked"]),
        "create_timestamp": row["thread_create_timestamp"]}
    if row["type"] == PRIVATE_THREAD:
        metadata["invitable"] = bool(row["thread_invitable"])
    return {
        "id": str(row["id"]), "type": row["type"], "guild_id": str(row["guild_id"]), "name": row["name"],
        "parent_id": _snowflake(row["parent_id"]), "owner_id": str(row["owner_id"]), "flags": row["flags"],
        "last_message_id": _snowflake(row["last_message_id"]),
        "rate_limit_per_user": row["rate_limit_per_user"], "thread_metadata": metadata,
        "message_count": row["message_count"], "member_count": row["member_count"],
        "total_message_sent": row["total_message_sent"], "applied_tags": json.loads(row["applied_tags"]),
    }


def forum_fields(row: sqlite3.Row) -> dict[str, Any]:
    """What forum and media channels add: tags, the default reaction, sort order, layout and the
    defaults of their posts."""
    return {"available_tags": json.loads(row["available_tags"]),
            "default_reaction_emoji": json.loads(row["default_reaction_emoji"])
            if row["default_reaction_emoji"] else None,
            "default_sort_order": row["default_sort_order"],
            "default_forum_layout": row["default_forum_layout"],
            "default_auto_archive_duration": row["default_auto_archive_duration"] or 4320,
            "default_thread_rate_limit_per_user": row["default_thread_rate_limit_per_user"]}


def channel_json(row: sqlite3.Row, *, with_guild_id: bool = True) -> dict[str, Any]:
    """The full channel. GUILD_CREATE's ``channels`` leave ``guild_id`` out (``with_guild_id=False``)."""
    kind = row["type"]
    if kind in THREAD_TYPES:
        return thread_json(row)
    channel: dict[str, Any] = {
        "id": str(row["id"]), "type": kind, "name": row["name"], "position": row["position"],
        "parent_id": _snowflake(row["parent_id"]), "flags": row["flags"], "nsfw": bool(row["nsfw"]),
        "permission_overwrites": [overwrite_json(o) for o in _overwrites(row["permission_overwrites"])],
    }
    if with_guild_id:
        channel["guild_id"] = str(row["guild_id"])
    if row["application_id"] is not None:
        channel["application_id"] = str(row["application_id"])
    if kind in TEXT_LIKE:
        channel.update(topic=row["topic"], rate_limit_per_user=row["rate_limit_per_user"],
                       last_message_id=_snowflake(row["last_message_id"]))
        if kind in POST_CHANNELS:
            channel.update(forum_fields(row))
    elif kind in VOICE_LIKE:
        channel.update(bitrate=row["bitrate"] if row["bitrate"] is not None else DEFAULT_BITRATE,
                       user_limit=row["user_limit"] or 0, rtc_region=row["rtc_region"],
                       rate_limit_per_user=row["rate_limit_per_user"],
                       last_message_id=_snowflake(row["last_message_id"]))
    return channel


def obfuscated_channel_json(row: sqlite3.Row, *, with_guild_id: bool = True) -> dict[str, Any]:
    view = str(int(Permission.VIEW_CHANNEL))
    channel: dict[str, Any] = {
        "id": str(row["id"]), "type": row["type"], "name": HIDDEN_NAME, "position": row["position"],
        "parent_id": _snowflake(row["parent_id"]), "flags": row["flags"] | CHANNEL_OBFUSCATED,
        "permission_overwrites": [{"id": str(row["guild_id"]), "type": 0, "allow": "0", "deny": view,
                                   "allow_new": "0", "deny_new": view}],
    }
    if with_guild_id:
        channel["guild_id"] = str(row["guild_id"])
    return channel


def group_dm_json(row: sqlite3.Row, recipients: list[dict[str, Any]]) -> dict[str, Any]:
    """A group DM (the published ``PrivateGroupChannelResponse``); ``recipients`` are the others."""
    channel: dict[str, Any] = {
        "id": str(row["id"]), "type": GROUP_DM, "flags": row["flags"], "name": row["name"], "icon": None,
        "owner_id": str(row["owner_id"]), "recipients": recipients,
        "last_message_id": _snowflake(row["last_message_id"]),
    }
    if row["application_id"] is not None:
        channel["application_id"] = str(row["application_id"])
    return channel
