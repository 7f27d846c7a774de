"""The guild object (docs/wire.md "GUILD_CREATE"; the published ``GuildResponse``): every required field,
the ones the emulator does not model at their defaults."""

from __future__ import annotations

import json
import sqlite3
from typing import Any


def _snowflake(value: int | None) -> str | None:
    return str(value) if value is not None else None


def guild_json(row: sqlite3.Row, roles: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": str(row["id"]), "name": row["name"], "icon": row["icon"], "description": row["description"],
        "home_header": None, "splash": None, "discovery_splash": None,
        "features": json.loads(row["features"]),
        "banner": None, "owner_id": str(row["owner_id"]), "application_id": None, "region": "deprecated",
        "afk_channel_id": _snowflake(row["afk_channel_id"]), "afk_timeout": row["afk_timeout"],
        "system_channel_id": _snowflake(row["system_channel_id"]), "system_channel_flags": 0,
        "widget_enabled": bool(row["widget_enabled"]), "widget_channel_id": _snowflake(row["widget_channel_id"]),
        "verification_level": row["verification_level"],
        "roles": roles, "default_message_notifications": 0, "mfa_level": 0, "explicit_content_filter": 0,
        "max_presences": None, "max_members": 500000, "max_stage_video_channel_users": 50,
        "max_video_channel_users": 25, "vanity_url_code": vanity_url_code(row), "premium_tier": 0,
        "premium_subscription_count": 0, "preferred_locale": row["preferred_locale"],
        "rules_channel_id": None, "safety_alerts_channel_id": None, "public_updates_channel_id": None,
        "premium_progress_bar_enabled": False, "nsfw": False, "nsfw_level": 0, "emojis": [], "stickers": [],
        "incidents_data": incidents_data(row),
    }


def vanity_url_code(row: sqlite3.Row) -> str | None:
    """The guild's vanity code, shown only while it has the VANITY_URL feature."""
    return row["vanity_url_code"] if "VANITY_URL" in json.loads(row["features"]) else None


def incidents_data(row: sqlite3.Row) -> dict[str, Any] | None:
    """Until when invites and DMs are paused (incident actions); None when neither is set."""
    if row["invites_disabled_until"] is None and row["dms_disabled_until"] is None:
        return None
    return {"invites_disabled_until": row["invites_disabled_until"],
            "dms_disabled_until": row["dms_disabled_until"]}
