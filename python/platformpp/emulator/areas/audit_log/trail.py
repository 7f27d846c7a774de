"""What each kind of change writes to the audit log, given the object before and after: one call at
each mutation point of the guild-model routes (guild, channels and their overwrites, roles, members).
Objects are passed as their wire JSON (dicts), so the ``changes`` keys are the platform's field names."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from . import actions
from .store import diff, record

Obj = Mapping[str, Any]
GUILD_KEYS = ("name", "icon", "description", "afk_channel_id", "afk_timeout", "system_channel_id",
              "verification_level", "preferred_locale", "features")
CHANNEL_KEYS = ("name", "type", "position", "topic", "nsfw", "rate_limit_per_user", "bitrate", "user_limit",
                "parent_id", "rtc_region", "flags")
ROLE_KEYS = ("name", "color", "hoist", "icon", "unicode_emoji", "permissions", "mentionable", "position")
OVERWRITE_KEYS = ("id", "type", "allow", "deny")
MEMBER_KEYS = ("nick", "mute", "deaf", "communication_disabled_until", "avatar", "banner", "bio")


def _pick(obj: Obj | None, keys: tuple[str, ...]) -> dict[str, Any] | None:
    return None if obj is None else {key: obj.get(key) for key in keys}


def guild(conn: sqlite3.Connection, guild_id: int, user_id: int, before: Obj, after: Obj) -> None:
    changes = diff(_pick(before, GUILD_KEYS), _pick(after, GUILD_KEYS))
    if changes:
        record(conn, guild_id=guild_id, user_id=user_id, action_type=actions.GUILD_UPDATE, target_id=guild_id,
               changes=changes)


def channel(conn: sqlite3.Connection, guild_id: int, user_id: int, before: Obj | None,
            after: Obj | None) -> None:
    """CHANNEL_CREATE / UPDATE / DELETE, and one CHANNEL_OVERWRITE_* per overwrite that changed."""
    target = int((after or before or {})["id"])
    changes = diff(_pick(before, CHANNEL_KEYS), _pick(after, CHANNEL_KEYS))
    if before is None or after is None:
        kind = actions.CHANNEL_CREATE if before is None else actions.CHANNEL_DELETE
        overwrites = (after or {}).get("permission_overwrites")
        shown = diff(None, {"permission_overwrites": overwrites}) if after else []
        record(conn, guild_id=guild_id, user_id=user_id, action_type=kind, target_id=target,
               changes=changes + shown)
        return
    if changes:
        record(conn, guild_id=guild_id, user_id=user_id, action_type=actions.CHANNEL_UPDATE, target_id=target,
               changes=changes)
    old = {o["id"]: o for o in before.get("permission_overwrites") or []}
    new = {o["id"]: o for o in after.get("permission_overwrites") or []}
    for overwrite_id in sorted(old.keys() | new.keys()):
        was, now = old.get(overwrite_id), new.get(overwrite_id)
        if was == now:
            continue
        kind = (actions.CHANNEL_OVERWRITE_CREATE if was is None else
                actions.CHANNEL_OVERWRITE_DELETE if now is None else actions.CHANNEL_OVERWRITE_UPDATE)
        overwrite = now or was
        assert overwrite is not None
        options = {"id": overwrite_id, "type": str(overwrite["type"])}
        if int(overwrite["type"]) == 0:
            role = conn.execute("SELECT name FROM roles WHERE id = ?", (int(overwrite_id),)).fetchone()
            if role is not None:
                options["role_name"] = role["name"]
        record(conn, guild_id=guild_id, user_id=user_id, action_type=kind, target_id=target,
               changes=diff(_pick(was, OVERWRITE_KEYS), _pick(now, OVERWRITE_KEYS)),
               options=options)


def role(conn: sqlite3.Connection, guild_id: int, user_id: int, before: Obj | None,
         after: Obj | None) -> None:
    kind = (actions.ROLE_CREATE if before is None else actions.ROLE_DELETE if after is None
            else actions.ROLE_UPDATE)
    changes = diff(_pick(before, ROLE_KEYS), _pick(after, ROLE_KEYS))
    if changes or kind != actions.ROLE_UPDATE:
        record(conn, guild_id=guild_id, user_id=user_id, action_type=kind,
               target_id=int((after or before or {})["id"]), changes=changes)


def member(conn: sqlite3.Connection, guild_id: int, user_id: int, target_id: int, before: Obj,
           after: Obj) -> None:
    """MEMBER_UPDATE for its own fields; MEMBER_ROLE_UPDATE with ``$add`` / ``$remove`` (partial roles)."""
    changes = diff(_pick(before, MEMBER_KEYS), _pick(after, MEMBER_KEYS))
    if changes:
        record(conn, guild_id=guild_id, user_id=user_id, action_type=actions.MEMBER_UPDATE,
               target_id=target_id, changes=changes)
    old, new = set(before.get("roles") or []), set(after.get("roles") or [])
    role_changes = []
    for key, ids in (("$add", new - old), ("$remove", old - new)):
        if ids:
            marks = ", ".join("?" * len(ids))
            rows = conn.execute(f"SELECT id, name FROM roles WHERE id IN ({marks}) ORDER BY id",
                                [int(i) for i in ids]).fetchall()
            shown_roles = [{"id": str(r["id"]), "name": r["name"]} for r in rows]
            role_changes.append({"key": key, "new_value": shown_roles})
    if role_changes:
        record(conn, guild_id=guild_id, user_id=user_id, action_type=actions.MEMBER_ROLE_UPDATE,
               target_id=target_id, changes=role_changes)


def simple(conn: sqlite3.Connection, guild_id: int, user_id: int, action_type: int, target_id: int,
           before: Any, after: Any, keys: tuple[str, ...], options: Mapping[str, Any] | None = None) -> None:
    """Any other object (emoji, sticker, scheduled event, message): ``keys`` of its row or dict before
    and after (None when created or deleted)."""
    old = None if before is None else {key: dict(before).get(key) for key in keys}
    new = None if after is None else {key: dict(after).get(key) for key in keys}
    record(conn, guild_id=guild_id, user_id=user_id, action_type=action_type, target_id=target_id,
           changes=diff(old, new), options=options)
