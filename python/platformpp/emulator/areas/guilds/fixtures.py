"""The ``guilds`` fixture section: guilds with their roles, channels and members."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING

from ...core.clock import format_instant, parse_instant
from ...core.fixtures import fixture_id, insert_checked, row_exists
from ...core.snowflake import snowflake_time
from ...core.validation import Form
from ...core.permissions import DEFAULT_EVERYONE as DEFAULT_EVERYONE_PERMISSIONS

if TYPE_CHECKING:
    from ...state import EmulatorState


CHANNEL_TYPES = (0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 15, 16)


def load_guilds(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    for index, raw in enumerate(form.array(name) or []):
        item = form.item(name, index, raw)
        item.unknown_keys({"id", "name", "owner_id", "icon", "description", "features", "roles", "channels",
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
            insert_checked(conn, item, "INSERT INTO roles (id, guild_id, name, permissions) VALUES (?, ?, '@everyone', ?)",
                         (guild_id, guild_id, str(DEFAULT_EVERYONE_PERMISSIONS)))
        for r_index, r_raw in enumerate(roles):
            role = item.item("roles", r_index, r_raw)
            role.unknown_keys({"id", "name", "color", "hoist", "icon", "unicode_emoji", "position",
                               "permissions", "managed", "mentionable", "flags"})
            permissions = role.string("permissions", required=False, default="0", max_len=20) or "0"
            if not permissions.isdigit():
                role.fail("permissions", "PERMISSIONS_TYPE_CONVERT", "Permissions are a decimal string.")
            insert_checked(conn, role,
                "INSERT INTO roles (id, guild_id, name, color, hoist, icon, unicode_emoji, position, permissions,"
                " managed, mentionable, flags) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (fixture_id(state, role), guild_id, role.string("name", min_len=1, max_len=100),
                 role.integer("color", required=False, minimum=0, maximum=0xFFFFFF, default=0),
                 int(role.boolean("hoist")), role.string("icon", required=False),
                 role.string("unicode_emoji", required=False), role.integer("position", required=False, default=0),
                 permissions, int(role.boolean("managed")), int(role.boolean("mentionable")),
                 role.integer("flags", required=False, minimum=0, default=0)))
        for c_index, c_raw in enumerate(item.array("channels", required=False) or []):
            channel = item.item("channels", c_index, c_raw)
            channel.unknown_keys({"id", "type", "name", "position", "parent_id", "topic", "nsfw", "bitrate",
                                  "user_limit", "flags", "application_id", "permission_overwrites"})
            overwrites = []
            for o_index, o_raw in enumerate(channel.array("permission_overwrites", required=False) or []):
                overwrite = channel.item("permission_overwrites", o_index, o_raw)
                overwrite.unknown_keys({"id", "type", "allow", "deny"})
                allow = overwrite.string("allow", required=False, default="0", max_len=20) or "0"
                deny = overwrite.string("deny", required=False, default="0", max_len=20) or "0"
                for field_name, value in (("allow", allow), ("deny", deny)):
                    if not value.isdigit():
                        overwrite.fail(field_name, "PERMISSIONS_TYPE_CONVERT", "Permissions are a decimal string.")
                overwrites.append({"id": str(overwrite.snowflake("id")),
                                   "type": overwrite.choice("type", (0, 1)), "allow": allow, "deny": deny})
            insert_checked(conn, channel,
                "INSERT INTO channels (id, guild_id, type, name, position, parent_id, topic, nsfw, bitrate,"
                " user_limit, flags, application_id, permission_overwrites)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (fixture_id(state, channel), guild_id, channel.choice("type", CHANNEL_TYPES),
                 channel.string("name", min_len=1, max_len=100),
                 channel.integer("position", required=False, minimum=0, default=0),
                 channel.snowflake("parent_id", required=False), channel.string("topic", required=False,
                                                                                max_len=1024),
                 int(channel.boolean("nsfw")), channel.integer("bitrate", required=False, minimum=8000),
                 channel.integer("user_limit", required=False, minimum=0, maximum=99),
                 channel.integer("flags", required=False, minimum=0, default=0),
                 channel.snowflake("application_id", required=False), json.dumps(overwrites)))
        for m_index, m_raw in enumerate(item.array("members", required=False) or []):
            member = item.item("members", m_index, m_raw)
            member.unknown_keys({"user_id", "nick", "roles", "joined_at"})
            role_ids = [str(member.coerce_snowflake("roles", r)) for r in member.array("roles", required=False) or []]
            joined = member.string("joined_at", required=False)
            try:
                joined_at = format_instant(parse_instant(joined)) if joined else state.clock.iso()
            except ValueError as exc:
                member.fail("joined_at", "DATE_TYPE_CONVERT", str(exc))
                joined_at = ""
            insert_checked(conn, member, "INSERT INTO members (guild_id, user_id, nick, roles, joined_at) VALUES (?, ?, ?, ?, ?)",
                         (guild_id, member.snowflake("user_id"), member.string("nick", required=False, max_len=32),
                          json.dumps(role_ids), joined_at))
