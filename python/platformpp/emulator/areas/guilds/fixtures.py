"""The ``guilds`` fixture section: guilds with their roles, channels (with overwrites) and members.
Roles, channels and members may also be added to a guild that already exists (the admin API's
``POST /_emulator/guilds/{id}/...`` load through the same readers)."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

from ...core.clock import format_instant, parse_instant
from ...core.fixtures import fixture_id, insert_checked, row_exists
from ...core.permissions import DEFAULT_EVERYONE, parse_bits
from ...core.snowflake import snowflake_time
from ...core.validation import Form
from ...wire.channel import GROUP_DM, GUILD_TYPES

if TYPE_CHECKING:
    from ...state import EmulatorState

ROLE_KEYS = {"id", "name", "color", "secondary_color", "tertiary_color", "hoist", "icon", "unicode_emoji",
             "position", "permissions", "managed", "mentionable", "flags", "tags"}
CHANNEL_KEYS = {"id", "type", "name", "position", "parent_id", "topic", "nsfw", "bitrate", "user_limit",
                "flags", "application_id", "permission_overwrites", "rate_limit_per_user", "rtc_region"}
MEMBER_KEYS = {"user_id", "nick", "roles", "joined_at", "avatar", "banner", "bio",
               "communication_disabled_until", "pending", "deaf", "mute"}


def load_guilds(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    for index, raw in enumerate(form.array(name) or []):
        item = form.item(name, index, raw)
        item.refuse_unknown_keys({"id", "name", "owner_id", "icon", "description", "features", "roles", "channels",
                           "members"})
        guild_id = fixture_id(state, item)
        if row_exists(conn, "guilds", guild_id):
            item.fail("id", "ALREADY_EXISTS", f"Guild {guild_id} already exists.")
            continue
        insert_checked(conn, item,
            "INSERT INTO guilds (id, name, owner_id, icon, description, features, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (guild_id, item.string("name", min_len=2, max_len=100), item.snowflake("owner_id"),
             item.string("icon", required=False), item.string("description", required=False, max_len=300),
             json.dumps(item.array("features", required=False) or []),
             format_instant(snowflake_time(guild_id))))
        roles = item.array("roles", required=False) or []
        if not any(isinstance(r, dict) and str(r.get("id")) == str(guild_id) for r in roles):
            insert_checked(conn, item, "INSERT INTO roles (id, guild_id, name, permissions)"
                           " VALUES (?, ?, '@everyone', ?)", (guild_id, guild_id, str(DEFAULT_EVERYONE)))
        load_parts(state, conn, item, guild_id)
        if not item.errors:
            check_references(conn, item, guild_id)


def load_parts(state: EmulatorState, conn: sqlite3.Connection, item: Form, guild_id: int) -> None:
    """The ``roles``, ``channels`` and ``members`` arrays of ``item`` into guild ``guild_id``."""
    for r_index, r_raw in enumerate(item.array("roles", required=False) or []):
        load_role(state, conn, item.item("roles", r_index, r_raw), guild_id)
    for c_index, c_raw in enumerate(item.array("channels", required=False) or []):
        load_channel(state, conn, item.item("channels", c_index, c_raw), guild_id)
    for m_index, m_raw in enumerate(item.array("members", required=False) or []):
        load_member(state, conn, item.item("members", m_index, m_raw), guild_id)


def check_references(conn: sqlite3.Connection, item: Form, guild_id: int) -> None:
    """References inside one guild, checked once all its parts are in: members' roles are roles of
    the guild, a channel's parent is a category of the guild, an overwrite names a role (type 0) or a
    member (type 1) of the guild. Each bad one is a field error at its path."""
    roles = {row["id"] for row in conn.execute("SELECT id FROM roles WHERE guild_id = ?", (guild_id,))}
    members = {row["user_id"] for row in conn.execute("SELECT user_id FROM members WHERE guild_id = ?",
                                                      (guild_id,))}
    categories = {row["id"] for row in conn.execute("SELECT id FROM channels WHERE guild_id = ? AND type = 4",
                                                    (guild_id,))}
    for m_index, member in enumerate(_objects(item.data.get("members"))):
        for r_index, role in enumerate(member.get("roles") or []):
            if int(role) not in roles or int(role) == guild_id:
                item.errors.add((*item.path, "members", m_index, "roles", r_index), "UNKNOWN_ROLE",
                                f"No role {role} to grant in this guild.")
    for c_index, channel in enumerate(_objects(item.data.get("channels"))):
        parent = channel.get("parent_id")
        if parent is not None and int(parent) not in categories:
            item.errors.add((*item.path, "channels", c_index, "parent_id"), "CHANNEL_PARENT_INVALID",
                            "Must be a category of this guild.")
        for o_index, overwrite in enumerate(_objects(channel.get("permission_overwrites"))):
            known = roles if overwrite.get("type") == 0 else members
            if int(overwrite["id"]) not in known:
                item.errors.add((*item.path, "channels", c_index, "permission_overwrites", o_index, "id"),
                                "UNKNOWN_OVERWRITE_TARGET",
                                "No such role (type 0) or member (type 1) in this guild.")


def _objects(value: object) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _bits(form: Form, name: str) -> str:
    value = form.data.get(name, "0")
    try:
        return str(parse_bits(value, name))
    except ValueError as exc:
        form.fail(name, "PERMISSIONS_TYPE_CONVERT", str(exc))
        return "0"


def load_role(state: EmulatorState, conn: sqlite3.Connection, role: Form, guild_id: int) -> int:
    role.refuse_unknown_keys(ROLE_KEYS)
    role_id = fixture_id(state, role)
    color = {"minimum": 0, "maximum": 0xFFFFFF}
    insert_checked(conn, role,
        "INSERT INTO roles (id, guild_id, name, color, secondary_color, tertiary_color, hoist, icon,"
        " unicode_emoji, position, permissions, managed, mentionable, flags)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (role_id, guild_id, role.string("name", min_len=1, max_len=100),
         role.integer("color", required=False, default=0, **color),
         role.integer("secondary_color", required=False, **color),
         role.integer("tertiary_color", required=False, **color),
         int(role.boolean("hoist")), role.string("icon", required=False),
         role.string("unicode_emoji", required=False), role.integer("position", required=False, minimum=0,
                                                                    default=0),
         _bits(role, "permissions"), int(role.boolean("managed")), int(role.boolean("mentionable")),
         role.integer("flags", required=False, minimum=0, default=0)))
    tags = role.obj("tags", required=False)
    if tags is not None:   # the bot or integration that manages the role
        tags.refuse_unknown_keys({"bot_id", "integration_id"})
        conn.execute("UPDATE roles SET bot_id = ?, integration_id = ? WHERE id = ?",
                     (tags.snowflake("bot_id", required=False),
                      tags.snowflake("integration_id", required=False), role_id))
    return role_id


def load_channel(state: EmulatorState, conn: sqlite3.Connection, channel: Form, guild_id: int | None) -> int:
    """A guild channel; with ``guild_id`` None, a group DM (type 3), which may carry ``application_id``."""
    channel.refuse_unknown_keys(CHANNEL_KEYS)
    overwrites = []
    for o_index, o_raw in enumerate(channel.array("permission_overwrites", required=False) or []):
        overwrite = channel.item("permission_overwrites", o_index, o_raw)
        overwrite.refuse_unknown_keys({"id", "type", "allow", "deny"})
        overwrites.append({"id": str(overwrite.snowflake("id")), "type": overwrite.choice("type", (0, 1)),
                           "allow": _bits(overwrite, "allow"), "deny": _bits(overwrite, "deny")})
    channel_id = fixture_id(state, channel)
    types = GUILD_TYPES if guild_id is not None else (GROUP_DM,)
    insert_checked(conn, channel,
        "INSERT INTO channels (id, guild_id, type, name, position, parent_id, topic, nsfw, bitrate,"
        " user_limit, flags, application_id, permission_overwrites, rate_limit_per_user, rtc_region)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (channel_id, guild_id, channel.choice("type", types),
         channel.string("name", min_len=1, max_len=100),
         channel.integer("position", required=False, minimum=0, default=0),
         channel.snowflake("parent_id", required=False), channel.string("topic", required=False,
                                                                        max_len=4096),
         int(channel.boolean("nsfw")), channel.integer("bitrate", required=False, minimum=8000,
                                                       maximum=384000),
         channel.integer("user_limit", required=False, minimum=0, maximum=99),
         channel.integer("flags", required=False, minimum=0, default=0),
         channel.snowflake("application_id", required=False, nullable=True), json.dumps(overwrites),
         channel.integer("rate_limit_per_user", required=False, minimum=0, maximum=21600, default=0),
         channel.string("rtc_region", required=False, max_len=64)))
    return channel_id


def _instant(form: Form, name: str, default: str | None) -> str | None:
    raw = form.string(name, required=False, nullable=True)
    if raw is None:
        return default
    try:
        return format_instant(parse_instant(raw))
    except ValueError as exc:
        form.fail(name, "DATE_TYPE_CONVERT", str(exc))
        return None


def load_member(state: EmulatorState, conn: sqlite3.Connection, member: Form, guild_id: int) -> int | None:
    member.refuse_unknown_keys(MEMBER_KEYS)
    role_ids = [str(member.coerce_snowflake("roles", r)) for r in member.array("roles", required=False) or []]
    user_id = member.snowflake("user_id")
    insert_checked(conn, member,
        "INSERT INTO members (guild_id, user_id, nick, roles, joined_at, avatar, banner, bio,"
        " communication_disabled_until, pending, deaf, mute) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (guild_id, user_id, member.string("nick", required=False, max_len=32), json.dumps(role_ids),
         _instant(member, "joined_at", state.clock.iso()), member.string("avatar", required=False),
         member.string("banner", required=False), member.string("bio", required=False, max_len=190),
         _instant(member, "communication_disabled_until", None), int(member.boolean("pending")),
         int(member.boolean("deaf")), int(member.boolean("mute"))))
    return user_id
