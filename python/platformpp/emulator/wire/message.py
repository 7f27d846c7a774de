"""The guild message object and the objects it carries (attachment, reaction), and the guild
expression and scheduled event objects, as the platform's published schema shapes them. Pure
builders over rows and already-built parts; no storage."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

Payload = dict[str, Any]

# Message flags
HAS_SNAPSHOT = 1 << 14
# Attachment flags
IS_SPOILER = 1 << 3
SPOILER_PREFIX = "SPOILER_"
# Message reference types
REFERENCE_DEFAULT, REFERENCE_FORWARD = 0, 1


def json_list(text: str) -> list[Any]:
    """A stored JSON array; most are empty, and skipping the decoder for those halves a list's cost."""
    return [] if text == "[]" else list(json.loads(text))


def attachment_json(row: sqlite3.Row) -> Payload:
    body: Payload = {"id": str(row["id"]), "filename": row["filename"], "size": row["size"], "url": row["url"],
                     "proxy_url": row["url"], "flags": row["flags"]}
    if row["content_type"] is not None:
        body["content_type"] = row["content_type"]
    if row["description"] is not None:
        body["description"] = row["description"]
    if row["title"] is not None:
        body["title"] = row["title"]
    if row["flags"] & IS_SPOILER:
        body["spoiler"] = True
    return body


def emoji_key_json(emoji_id: int | None, name: str | None, animated: bool) -> Payload:
    body: Payload = {"id": str(emoji_id) if emoji_id is not None else None, "name": name}
    if emoji_id is not None:
        body["animated"] = animated
    return body


def reaction_json(emoji: Payload, count: int, me: bool) -> Payload:
    return {"emoji": emoji, "count": count, "count_details": {"burst": 0, "normal": count},
            "burst_colors": [], "me_burst": False, "me": me}


def message_json(row: Mapping[str, Any], *, author: Payload, mentions: list[Payload], attachments: list[Payload],
                 reactions: list[Payload]) -> Payload:
    """A guild channel message (MessageResponse)."""
    body: Payload = {
        "id": str(row["id"]), "type": row["type"], "channel_id": str(row["channel_id"]),
        "guild_id": str(row["guild_id"]), "author": author, "content": row["content"],
        "timestamp": row["created_at"], "edited_timestamp": row["edited_at"], "tts": bool(row["tts"]),
        "mention_everyone": bool(row["mention_everyone"]), "mentions": mentions,
        "mention_roles": json_list(row["mention_roles"]), "attachments": attachments,
        "embeds": json_list(row["embeds"]), "components": json_list(row["components"]),
        "pinned": row["pinned_at"] is not None, "flags": row["flags"],
    }
    if reactions:
        body["reactions"] = reactions
    stickers = json_list(row["sticker_items"])
    if stickers:
        body["sticker_items"] = stickers
    if row["poll"] is not None:
        body["poll"] = json.loads(row["poll"])
    if row["nonce"] is not None:
        body["nonce"] = row["nonce"]
    if row["message_reference"] is not None:
        body["message_reference"] = json.loads(row["message_reference"])
    if row["message_snapshots"] is not None:
        body["message_snapshots"] = json.loads(row["message_snapshots"])
    if row["interaction"] is not None:   # an interaction's answer: webhook_id, application_id, interaction_metadata
        body.update(json.loads(row["interaction"]))
    if row["webhook_author"] is not None:   # a webhook's message shows the webhook as its author
        body.update(author=json.loads(row["webhook_author"]), webhook_id=str(row["webhook_id"]))
    return body


def snapshot_json(message: Payload) -> Payload:
    """The part of a message a forward carries (MessageSnapshotResponse.message)."""
    keys = ("type", "content", "embeds", "attachments", "timestamp", "edited_timestamp", "flags", "mentions",
            "mention_roles", "components", "sticker_items")
    return {key: message[key] for key in keys if key in message}


def without_content(message: Payload) -> Payload:
    """What a bot without the MESSAGE_CONTENT intent receives: content, embeds, attachments, components
    and poll empty (and the same inside forwarded snapshots)."""
    body = {**message, "content": "", "embeds": [], "attachments": [], "components": []}
    body.pop("poll", None)
    if "message_snapshots" in body:
        body["message_snapshots"] = [
            {"message": {**s["message"], "content": "", "embeds": [], "attachments": [], "components": []}}
            for s in body["message_snapshots"]]
    return body


def emoji_json(row: sqlite3.Row, user: Payload | None) -> Payload:
    body: Payload = {"id": str(row["id"]), "name": row["name"], "roles": json.loads(row["roles"]),
                     "require_colons": True, "managed": False, "animated": bool(row["animated"]),
                     "available": True}
    if user is not None:
        body["user"] = user
    return body


def sticker_json(row: sqlite3.Row, user: Payload | None) -> Payload:
    body: Payload = {"id": str(row["id"]), "name": row["name"], "tags": row["tags"], "type": 2,
                     "format_type": row["format_type"], "description": row["description"], "available": True,
                     "guild_id": str(row["guild_id"])}
    if user is not None:
        body["user"] = user
    return body


def scheduled_event_json(row: sqlite3.Row, creator: Payload | None, user_count: int | None,
                         exceptions: list[Payload] | None = None) -> Payload:
    body: Payload = {
        "id": str(row["id"]), "guild_id": str(row["guild_id"]), "name": row["name"],
        "description": row["description"],
        "channel_id": str(row["channel_id"]) if row["channel_id"] is not None else None,
        "creator_id": str(row["creator_id"]) if row["creator_id"] is not None else None,
        "image": row["image"], "scheduled_start_time": row["scheduled_start_time"],
        "scheduled_end_time": row["scheduled_end_time"], "status": row["status"],
        "entity_type": row["entity_type"], "entity_id": None,
        "recurrence_rule": json.loads(row["recurrence_rule"]) if row["recurrence_rule"] else None,
        "privacy_level": row["privacy_level"], "guild_scheduled_event_exceptions": exceptions or [],
        "entity_metadata": json.loads(row["entity_metadata"]) if row["entity_metadata"] is not None else None,
    }
    if creator is not None:
        body["creator"] = creator
    if user_count is not None:
        body["user_count"] = user_count
    return body
