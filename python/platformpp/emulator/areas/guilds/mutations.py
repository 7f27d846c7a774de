"""Changes to a guild, its roles, members and channels, with the dispatches they cause. Routes check
the caller's permissions first; the admin API calls these directly (it acts as the platform would,
without a caller). Every function reads its input from a ``Form`` so a bad field fails the whole
request (50035 naming it) before anything is written."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import datetime
from typing import Any

from ...core.clock import format_instant, parse_instant
from ...core.permissions import MEMBER_OVERWRITE, ROLE_OVERWRITE, parse_bits
from ...core.validation import Form
from ...events.outbox import Outbox
from ...wire.channel import CATEGORY, REQUEST_TYPES, TEXT_LIKE, VOICE_LIKE
from ...wire.member import member_json
from ...wire.role import role_json
from ..auto_moderation.screening import screen_profile
from ..cdn import store as cdn
from ..cdn.images import Upload
from ..guild_settings import join_requests
from ..threads.store import forum_settings, list_sync, member_left_guild
from .dispatch import GUILD_MEMBERS_INTENT, GuildBots, channel_event, guild_bots, to_guild, visibility_changes
from .store import existing_member_row, guild_create_payload, guild_object

INVALID_GUILD = 50055
MAX_OVERWRITES = 100


# --- small readers ----------------------------------------------------------------------------------

def requested_bits(data: dict[str, Any], name: str) -> int:
    """The bits a request asks for, to check before validation reports a bad value (as 0)."""
    try:
        return parse_bits(data[name], name) if data.get(name) is not None else 0
    except ValueError:
        return 0


def read_bits(form: Form, name: str) -> int | None:
    """A permission field: an integer or an integer string of any bit (None when absent or null)."""
    value = form.data.get(name)
    if value is None:
        return None
    try:
        return parse_bits(value, name)
    except ValueError as exc:
        form.fail(name, "NUMBER_TYPE_COERCE", str(exc))
        return None


def read_image(form: Form, name: str, uploads: dict[str, Upload]) -> str | None:
    """An image field (``data:image/...;base64,...``, or null to clear): the hash the platform answers
    with; the decoded image goes in ``uploads`` for the caller to save once the form is valid."""
    upload = cdn.read_image(form, name)
    if upload is None:
        return None
    uploads[name] = upload
    return upload.hash


def read_overwrites(form: Form, name: str, guild_id: int,
                    conn: sqlite3.Connection) -> list[dict[str, Any]] | None:
    raw = form.array(name, required=False, max_items=MAX_OVERWRITES)
    if raw is None:
        return None
    result: list[dict[str, Any]] = []
    for index, item_raw in enumerate(raw):
        item = form.item(name, index, item_raw)
        target = item.snowflake("id")
        kind = item.choice("type", (ROLE_OVERWRITE, MEMBER_OVERWRITE), required=False, default=ROLE_OVERWRITE)
        allow, deny = read_bits(item, "allow") or 0, read_bits(item, "deny") or 0
        if target is not None and kind is not None:
            if not target_exists(conn, guild_id, target, kind):
                item.fail("id", "UNKNOWN_OVERWRITE_TARGET",
                          f"No {'role' if kind == 0 else 'member'} {target} in this guild.")
            result.append({"id": str(target), "type": kind, "allow": str(allow), "deny": str(deny)})
    return result


def target_exists(conn: sqlite3.Connection, guild_id: int, target: int, kind: int) -> bool:
    if kind == ROLE_OVERWRITE:
        sql, params = "SELECT 1 FROM roles WHERE id = ? AND guild_id = ?", (target, guild_id)
    else:
        sql, params = "SELECT 1 FROM members WHERE user_id = ? AND guild_id = ?", (target, guild_id)
    return conn.execute(sql, params).fetchone() is not None


def _set(conn: sqlite3.Connection, table: str, key: str, key_value: Any, changes: dict[str, Any]) -> None:
    if changes:
        assignments = ", ".join(f"{column} = ?" for column in changes)
        conn.execute(f"UPDATE {table} SET {assignments} WHERE {key} = ?", (*changes.values(), key_value))


# --- guild -------------------------------------------------------------------------------------------

def modify_guild(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild_id: int,
                 form: Form) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    uploads: dict[str, Upload] = {}
    if "name" in form.data:
        changes["name"] = form.string("name", min_len=2, max_len=100)
    if "icon" in form.data:
        changes["icon"] = read_image(form, "icon", uploads)
    if "description" in form.data:
        changes["description"] = form.string("description", required=False, nullable=True, max_len=300)
    for field in ("afk_channel_id", "system_channel_id"):
        if field in form.data:
            value = form.snowflake(field, required=False, nullable=True)
            if value is not None and conn.execute("SELECT 1 FROM channels WHERE id = ? AND guild_id = ?",
                                                  (value, guild_id)).fetchone() is None:
                form.fail(field, "UNKNOWN_CHANNEL", "Not a channel of this guild.")
            changes[field] = value
    if "afk_timeout" in form.data:
        changes["afk_timeout"] = form.choice("afk_timeout", (60, 300, 900, 1800, 3600))
    if "verification_level" in form.data:
        changes["verification_level"] = form.choice("verification_level", (0, 1, 2, 3, 4))
    if "preferred_locale" in form.data:
        changes["preferred_locale"] = form.string("preferred_locale", min_len=2, max_len=10)
    if "features" in form.data:
        features = form.array("features") or []
        if not all(isinstance(f, str) for f in features):
            form.fail("features", "BASE_TYPE_STRING", "Features are strings.")
        changes["features"] = json.dumps(sorted(set(features)))
    form.done()
    _set(conn, "guilds", "id", guild_id, changes)
    if "icon" in uploads:
        cdn.save(conn, cdn.guild_icon_path(guild_id, uploads["icon"].hash), uploads["icon"], now)
    guild = guild_object(conn, guild_id)
    to_guild(outbox, guild_bots(conn, guild_id, now), "GUILD_UPDATE", guild)
    return guild


def delete_guild(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild_id: int) -> None:
    bots = guild_bots(conn, guild_id, now)
    conn.execute("DELETE FROM guilds WHERE id = ?", (guild_id,))
    to_guild(outbox, bots, "GUILD_DELETE", {"id": str(guild_id)}, intent=0)
    for user_id in bots.visible:
        outbox.publish("guild.bot_left", {"guild_id": str(guild_id), "user_id": str(user_id)},
                       user_ids=(user_id,))


# --- roles -------------------------------------------------------------------------------------------

def _role_changes(form: Form, creating: bool, uploads: dict[str, Upload]) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    if "name" in form.data or creating:
        changes["name"] = form.string("name", required=False, min_len=1, max_len=100, default="new role")
    if "permissions" in form.data:
        bits = read_bits(form, "permissions")
        changes["permissions"] = str(bits or 0)
    if "color" in form.data:
        changes["color"] = form.integer("color", required=False, minimum=0, maximum=0xFFFFFF, default=0)
    colors = form.obj("colors", required=False, nullable=True)
    if colors is not None:
        changes["color"] = colors.integer("primary_color", required=False, minimum=0, maximum=0xFFFFFF,
                                          default=0)
        for field in ("secondary_color", "tertiary_color"):
            changes[field] = colors.integer(field, required=False, minimum=0, maximum=0xFFFFFF)
    for field in ("hoist", "mentionable"):
        if field in form.data:
            changes[field] = int(form.boolean(field))
    if "icon" in form.data:
        changes["icon"] = read_image(form, "icon", uploads)
    if "unicode_emoji" in form.data:
        changes["unicode_emoji"] = form.string("unicode_emoji", required=False, nullable=True, max_len=100)
    return changes


def _save_role_icon(conn: sqlite3.Connection, role_id: int, uploads: dict[str, Upload],
                    now: datetime) -> None:
    if "icon" in uploads:
        cdn.save(conn, cdn.role_icon_path(role_id, uploads["icon"].hash), uploads["icon"], now)


def create_role(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild_id: int, role_id: int,
                form: Form) -> dict[str, Any]:
    """A new role at position 1 (just above @everyone); the others move up one."""
    uploads: dict[str, Upload] = {}
    changes = _role_changes(form, creating=True, uploads=uploads)
    form.done()
    _save_role_icon(conn, role_id, uploads, now)
    conn.execute("UPDATE roles SET position = position + 1 WHERE guild_id = ? AND id != ?",
                 (guild_id, guild_id))
    changes.setdefault("permissions", "0")
    columns = ["id", "guild_id", "position", *changes]
    conn.execute(f"INSERT INTO roles ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                 (role_id, guild_id, 1, *changes.values()))
    role = role_json(conn.execute("SELECT * FROM roles WHERE id = ?", (role_id,)).fetchone())
    to_guild(outbox, guild_bots(conn, guild_id, now), "GUILD_ROLE_CREATE",
             {"guild_id": str(guild_id), "role": role})
    return role


def modify_role(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild_id: int, role_id: int,
                form: Form) -> dict[str, Any]:
    uploads: dict[str, Upload] = {}
    changes = _role_changes(form, creating=False, uploads=uploads)
    form.done()
    _save_role_icon(conn, role_id, uploads, now)
    before = guild_bots(conn, guild_id, now)
    _set(conn, "roles", "id", role_id, changes)
    role = role_json(conn.execute("SELECT * FROM roles WHERE id = ?", (role_id,)).fetchone())
    after = guild_bots(conn, guild_id, now)
    to_guild(outbox, after, "GUILD_ROLE_UPDATE", {"guild_id": str(guild_id), "role": role})
    visibility_changes(conn, outbox, before, after)
    list_sync(conn, outbox, now, before, after)
    return role


def delete_role(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild_id: int, role_id: int) -> None:
    before = guild_bots(conn, guild_id, now)
    conn.execute("DELETE FROM roles WHERE id = ?", (role_id,))
    for member in conn.execute("SELECT user_id, roles FROM members WHERE guild_id = ?",
                               (guild_id,)).fetchall():
        roles = json.loads(member["roles"])
        if str(role_id) in roles:
            roles.remove(str(role_id))
            conn.execute("UPDATE members SET roles = ? WHERE guild_id = ? AND user_id = ?",
                         (json.dumps(roles), guild_id, member["user_id"]))
    for channel in conn.execute("SELECT id, permission_overwrites FROM channels WHERE guild_id = ?",
                                (guild_id,)).fetchall():
        overwrites = json.loads(channel["permission_overwrites"])
        kept = [o for o in overwrites if not (int(o["type"]) == ROLE_OVERWRITE and int(o["id"]) == role_id)]
        if kept != overwrites:
            conn.execute("UPDATE channels SET permission_overwrites = ? WHERE id = ?",
                         (json.dumps(kept), channel["id"]))
    after = guild_bots(conn, guild_id, now)
    to_guild(outbox, after, "GUILD_ROLE_DELETE", {"guild_id": str(guild_id), "role_id": str(role_id)})
    visibility_changes(conn, outbox, before, after)
    list_sync(conn, outbox, now, before, after)


def set_role_positions(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild_id: int,
                       positions: dict[int, int]) -> list[dict[str, Any]]:
    bots = guild_bots(conn, guild_id, now)
    for role_id, position in positions.items():
        row = conn.execute("SELECT position FROM roles WHERE id = ?", (role_id,)).fetchone()
        if row["position"] != position:
            conn.execute("UPDATE roles SET position = ? WHERE id = ?", (position, role_id))
            role = role_json(conn.execute("SELECT * FROM roles WHERE id = ?", (role_id,)).fetchone())
            to_guild(outbox, bots, "GUILD_ROLE_UPDATE", {"guild_id": str(guild_id), "role": role})
    return [role_json(r) for r in conn.execute("SELECT * FROM roles WHERE guild_id = ? ORDER BY position, id",
                                                (guild_id,))]


# --- members -----------------------------------------------------------------------------------------

def member_payload(conn: sqlite3.Connection, guild_id: int, user_id: int) -> dict[str, Any]:
    return {"guild_id": str(guild_id), **member_json(existing_member_row(conn, guild_id, user_id))}


def member_added(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild_id: int,
                 user_id: int) -> None:
    """After a member row was inserted: GUILD_MEMBER_ADD to the other bots; a bot that joined gets
    the guild (GUILD_CREATE)."""
    screen_profile(conn, outbox, now, guild_id, user_id)
    join_requests.member_joining(conn, outbox, now, guild_id, user_id)   # member verification: pending
    bots = guild_bots(conn, guild_id, now)
    member = member_payload(conn, guild_id, user_id)
    to_guild(outbox, _without(bots, user_id), "GUILD_MEMBER_ADD", member, intent=GUILD_MEMBERS_INTENT)
    if user_id in bots.visible:
        guild_created(conn, outbox, bots, user_id)


def _without(bots: GuildBots, user_id: int) -> GuildBots:
    return GuildBots(bots.guild_id, {k: v for k, v in bots.visible.items() if k != user_id},
                     bots.toggled_apps)


def guild_created(conn: sqlite3.Connection, outbox: Outbox, bots: GuildBots, user_id: int) -> None:
    """Bot ``user_id`` is in a new guild: its sessions count it (domain event ``guild.bot_joined``, read
    by the Gateway hub) and get GUILD_CREATE (channels obfuscated if that session opted in)."""
    guild_id = bots.guild_id
    outbox.publish("guild.bot_joined", {"guild_id": str(guild_id), "user_id": str(user_id)},
                   user_ids=(user_id,))
    plain = guild_create_payload(conn, guild_id, user_id, obfuscate=False)
    hidden = guild_create_payload(conn, guild_id, user_id, obfuscate=True)
    only = GuildBots(guild_id, {user_id: bots.visible[user_id]}, bots.toggled_apps)

    def render(viewer: Any) -> dict[str, Any] | None:
        if not only.admits(viewer):
            return None
        return hidden if only.obfuscates(viewer) else plain
    outbox.add("GUILD_CREATE", render)


def modify_member(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild_id: int, user_id: int,
                  changes: dict[str, Any]) -> dict[str, Any]:
    """``changes``: member columns (already validated), ``roles`` as a list of role ids. A role given
    makes a temporary membership (members/temporary.py) permanent."""
    before = guild_bots(conn, guild_id, now)
    if "roles" in changes:
        gained = {int(r) for r in changes["roles"]} - set(member_role_ids(conn, guild_id, user_id))
        changes = {**changes, "roles": json.dumps([str(r) for r in changes["roles"]])}
        if gained:
            changes["temporary"] = 0
    _set_member(conn, guild_id, user_id, changes)
    if "nick" in changes:
        screen_profile(conn, outbox, now, guild_id, user_id)
    after = guild_bots(conn, guild_id, now)
    member = member_payload(conn, guild_id, user_id)
    to_guild(outbox, after, "GUILD_MEMBER_UPDATE", member, intent=GUILD_MEMBERS_INTENT, also_user=user_id)
    visibility_changes(conn, outbox, before, after)
    list_sync(conn, outbox, now, before, after)
    return member


def _set_member(conn: sqlite3.Connection, guild_id: int, user_id: int, changes: dict[str, Any]) -> None:
    if changes:
        assignments = ", ".join(f"{column} = ?" for column in changes)
        conn.execute(f"UPDATE members SET {assignments} WHERE guild_id = ? AND user_id = ?",
                     (*changes.values(), guild_id, user_id))


def member_role_ids(conn: sqlite3.Connection, guild_id: int, user_id: int) -> list[int]:
    row = conn.execute("SELECT roles FROM members WHERE guild_id = ? AND user_id = ?",
                       (guild_id, user_id)).fetchone()
    return [int(r) for r in json.loads(row["roles"])] if row else []


def remove_member(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild_id: int,
                  user_id: int) -> None:
    bots = guild_bots(conn, guild_id, now)
    user = member_json(existing_member_row(conn, guild_id, user_id))["user"]
    member_left_guild(conn, outbox, now, guild_id, user_id)
    join_requests.member_leaving(conn, outbox, now, guild_id, user_id)   # an open request goes with them
    conn.execute("DELETE FROM members WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
    to_guild(outbox, _without(bots, user_id), "GUILD_MEMBER_REMOVE",
             {"guild_id": str(guild_id), "user": user}, intent=GUILD_MEMBERS_INTENT)
    if user_id in bots.visible:
        to_guild(outbox, GuildBots(guild_id, {user_id: frozenset()}, bots.toggled_apps), "GUILD_DELETE",
                 {"id": str(guild_id)}, intent=0)
        outbox.publish("guild.bot_left", {"guild_id": str(guild_id), "user_id": str(user_id)},
                       user_ids=(user_id,))


def set_member_role(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild_id: int, user_id: int,
                    role_id: int, add: bool) -> None:
    """Grant or revoke one role (nothing happens, and nothing is sent, when it is already so)."""
    roles = member_role_ids(conn, guild_id, user_id)
    if add and role_id not in roles:
        modify_member(conn, outbox, now, guild_id, user_id, {"roles": [*roles, role_id]})
    elif not add and role_id in roles:
        modify_member(conn, outbox, now, guild_id, user_id, {"roles": [r for r in roles if r != role_id]})


def read_timeout(form: Form, now: datetime) -> tuple[bool, str | None]:
    """``communication_disabled_until``: null (lift) or an instant up to 28 days ahead."""
    if "communication_disabled_until" not in form.data:
        return False, None
    raw = form.data["communication_disabled_until"]
    if raw is None:
        return True, None
    try:
        until = parse_instant(raw) if isinstance(raw, str) else None
    except ValueError:
        until = None
    if until is None:
        form.fail("communication_disabled_until", "DATE_TYPE_CONVERT", "Must be an ISO-8601 timestamp.")
        return True, None
    if (until - now).total_seconds() > 28 * 86400:
        form.fail("communication_disabled_until", "COMMUNICATION_DISABLED_TOO_LONG",
                  "Must be at most 28 days in the future.")
    return True, format_instant(until)


# --- channels ----------------------------------------------------------------------------------------

def channel_changes(conn: sqlite3.Connection, form: Form, guild_id: int, creating: bool,
                    kind_now: int | None = None, *, next_id: Callable[[], int] | None = None,
                    current_tags: str = "[]") -> dict[str, Any]:
    """The channel columns the form sets, checked against the channel's type; ``next_id`` names new
    forum tags (without it, forum settings are left alone)."""
    changes: dict[str, Any] = {}
    if creating or "name" in form.data:
        changes["name"] = form.string("name", min_len=1, max_len=100)
    if creating or "type" in form.data:
        changes["type"] = form.choice("type", REQUEST_TYPES, required=False, default=kind_now or 0)
    kind = changes.get("type", kind_now)
    if "position" in form.data:
        changes["position"] = form.integer("position", required=False, minimum=0, default=0)
    if "parent_id" in form.data:
        parent = form.snowflake("parent_id", required=False, nullable=True)
        if parent is not None:
            row = conn.execute("SELECT type FROM channels WHERE id = ? AND guild_id = ?",
                               (parent, guild_id)).fetchone()
            if row is None or row["type"] != CATEGORY or kind == CATEGORY:
                form.fail("parent_id", "CHANNEL_PARENT_INVALID",
                          "Must be a category of this guild (categories have none).")
        changes["parent_id"] = parent
    if "topic" in form.data:
        if kind not in TEXT_LIKE:
            form.fail("topic", "BASE_TYPE_UNKNOWN_FIELD",
                      "Only text, announcement, forum and media channels have a topic.")
        changes["topic"] = form.string("topic", required=False, nullable=True, max_len=4096)
    if "nsfw" in form.data:
        changes["nsfw"] = int(form.boolean("nsfw"))
    if "rate_limit_per_user" in form.data:
        changes["rate_limit_per_user"] = form.integer("rate_limit_per_user", required=False, minimum=0,
                                                      maximum=21600, default=0)
    for field, low, high in (("bitrate", 8000, 384000), ("user_limit", 0, 99)):
        if field in form.data:
            if kind not in VOICE_LIKE:
                form.fail(field, "BASE_TYPE_UNKNOWN_FIELD", "Only voice and stage channels have it.")
            changes[field] = form.integer(field, required=False, minimum=low, maximum=high)
    if "rtc_region" in form.data:
        changes["rtc_region"] = form.string("rtc_region", required=False, nullable=True, max_len=64)
    if "flags" in form.data:
        changes["flags"] = form.integer("flags", required=False, minimum=0, maximum=(1 << 31) - 1, default=0)
    overwrites = read_overwrites(form, "permission_overwrites", guild_id, conn)
    if overwrites is not None:
        changes["permission_overwrites"] = json.dumps(overwrites)
    if next_id is not None:
        changes.update(forum_settings(form, kind, current_tags, next_id))
    return changes


def create_channel(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild_id: int, channel_id: int,
                   changes: dict[str, Any]) -> sqlite3.Row:
    columns = ["id", "guild_id", *changes]
    conn.execute(f"INSERT INTO channels ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                 (channel_id, guild_id, *changes.values()))
    row = conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone()
    channel_event(outbox, guild_bots(conn, guild_id, now), "CHANNEL_CREATE", row)
    return row


def modify_channel(conn: sqlite3.Connection, outbox: Outbox, now: datetime, channel_id: int,
                   changes: dict[str, Any]) -> sqlite3.Row:
    """CHANNEL_UPDATE, each bot seeing the channel as it now can: an overwrite change that gives or
    takes a bot's VIEW_CHANNEL is told by this very update (overwrites act on their channel only)."""
    guild_id = conn.execute("SELECT guild_id FROM channels WHERE id = ?",
                            (channel_id,)).fetchone()["guild_id"]
    before = guild_bots(conn, guild_id, now) if "permission_overwrites" in changes else None
    _set(conn, "channels", "id", channel_id, changes)
    row = conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone()
    after = guild_bots(conn, guild_id, now)
    channel_event(outbox, after, "CHANNEL_UPDATE", row)
    if before is not None:   # a bot that now sees the channel learns its threads
        list_sync(conn, outbox, now, before, after)
    return row


def delete_channel(conn: sqlite3.Connection, outbox: Outbox, now: datetime, row: sqlite3.Row) -> None:
    """CHANNEL_DELETE; a deleted category's channels lose their parent (CHANNEL_UPDATE each)."""
    bots = guild_bots(conn, row["guild_id"], now)
    conn.execute("DELETE FROM channels WHERE parent_id = ? AND type IN (10, 11, 12)", (row["id"],))  # its threads
    children = [child["id"] for child in conn.execute("SELECT id FROM channels WHERE parent_id = ?",
                                                      (row["id"],))]
    conn.execute("DELETE FROM channels WHERE id = ?", (row["id"],))
    channel_event(outbox, bots, "CHANNEL_DELETE", row)
    for child_id in children:
        channel_event(outbox, bots, "CHANNEL_UPDATE",
                      conn.execute("SELECT * FROM channels WHERE id = ?", (child_id,)).fetchone())


def put_overwrite(conn: sqlite3.Connection, outbox: Outbox, now: datetime, row: sqlite3.Row,
                  overwrite: dict[str, Any]) -> sqlite3.Row:
    overwrites = [o for o in json.loads(row["permission_overwrites"])
                  if not (str(o["id"]) == overwrite["id"] and int(o["type"]) == overwrite["type"])]
    overwrites.append(overwrite)
    return modify_channel(conn, outbox, now, row["id"], {"permission_overwrites": json.dumps(overwrites)})


def delete_overwrite(conn: sqlite3.Connection, outbox: Outbox, now: datetime, row: sqlite3.Row,
                     target: int) -> sqlite3.Row:
    overwrites = [o for o in json.loads(row["permission_overwrites"]) if int(o["id"]) != target]
    return modify_channel(conn, outbox, now, row["id"], {"permission_overwrites": json.dumps(overwrites)})
