"""Where an interaction happens and what the platform tells the app about it: the user and member,
the channel (never obfuscated: an interaction shows the channel it happened in as it is), the app's
permissions there, and the ``resolved`` objects (users, members, roles, channels, messages,
attachments). Permissions come from the one engine through the guild model's and channel
messages' access functions."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ...core import errors
from ...core.clock import format_instant
from ...core.errors import ApiError
from ...core.permissions import MemberContext, Permission, channel_permissions
from ...core.uploads import upload_limit
from ...events.audience import Payload
from ...wire.channel import channel_json
from ...wire.member import MEMBER_SELECT, member_json
from ...wire.role import role_json
from ...wire.user import public_user_json
from ..channel_messages.access import permissions_in
from ..guilds.access import overwrites_of
from ..monetization.store import interaction_entitlements

GUILD_INSTALL, USER_INSTALL = 0, 1
CONTEXT_GUILD = 0


@dataclass
class Place:
    """A guild channel where a user acts with an application."""

    conn: sqlite3.Connection
    application_id: int
    bot_user_id: int | None
    user: sqlite3.Row
    guild: sqlite3.Row
    channel: sqlite3.Row
    member: sqlite3.Row
    user_permissions: int
    now: datetime
    bot_in_guild: bool = False
    resolved: dict[str, dict[str, Payload]] = field(default_factory=dict)

    @property
    def guild_id(self) -> int:
        return int(self.guild["id"])

    @property
    def channel_id(self) -> int:
        return int(self.channel["id"])

    def app_permissions(self, channel: sqlite3.Row) -> int:
        """The bot's permissions in ``channel`` when it is in the guild; otherwise (a user-installed
        app) what @everyone may do there, the most an app without its bot can act with."""
        if self.bot_in_guild and self.bot_user_id is not None:
            return permissions_in(self.conn, channel, self.bot_user_id, self.now)
        everyone = self.conn.execute("SELECT permissions FROM roles WHERE id = ?",
                                                     (self.guild_id,)).fetchone()
        context = MemberContext(self.guild_id, int(self.guild["owner_id"]), 0,
                                int(everyone["permissions"]) if everyone else 0, {})
        return channel_permissions(context, [o for o in overwrites_of(channel) if o.id == self.guild_id])


def locate(conn: sqlite3.Connection, application_id: int, user_id: int, channel_id: int, now: datetime) -> Place:
    """The user (a full account, member of the guild, able to view the channel) in a guild channel."""
    app = conn.execute("SELECT id, bot_user_id FROM applications WHERE id = ?", (application_id,)).fetchone()
    if app is None:
        raise errors.not_found(errors.UNKNOWN_APPLICATION, "Application")
    user = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    if user is None or user["bot"]:
        raise errors.not_found(errors.UNKNOWN_USER, "User")
    channel = conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone()
    if channel is None or channel["guild_id"] is None:
        raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
    guild = conn.execute("SELECT * FROM guilds WHERE id = ?", (channel["guild_id"],)).fetchone()
    member = conn.execute(MEMBER_SELECT + " WHERE m.guild_id = ? AND m.user_id = ?",
                          (channel["guild_id"], user_id)).fetchone()
    if member is None:
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access: the user is not a member of the channel's guild.")
    permissions = permissions_in(conn, channel, user_id, now)
    if not permissions & Permission.VIEW_CHANNEL:
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access: the user cannot view the channel.")
    bot_in_guild = app["bot_user_id"] is not None and conn.execute(
        "SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?", (guild["id"], app["bot_user_id"])).fetchone() \
        is not None
    return Place(conn, application_id, app["bot_user_id"], user, guild, channel, member, permissions, now,
                 bot_in_guild)


def member_payload(place: Place) -> Payload:
    return {**member_json(place.member), "permissions": str(place.user_permissions)}


def context_fields(place: Place, integration_types: list[int]) -> Payload:
    """The fields every interaction of a guild channel carries besides ``data``."""
    owners: dict[str, str] = {}
    if place.bot_in_guild and GUILD_INSTALL in integration_types:
        owners[str(GUILD_INSTALL)] = str(place.guild_id)
    if USER_INSTALL in integration_types or not owners:
        owners[str(USER_INSTALL)] = str(place.user["id"])
    return {
        "application_id": str(place.application_id), "guild_id": str(place.guild_id),
        "guild": {"id": str(place.guild_id), "locale": place.guild["preferred_locale"],
                  "features": _features(place.guild)},
        "channel_id": str(place.channel_id), "channel": channel_json(place.channel),
        "member": member_payload(place), "app_permissions": str(place.app_permissions(place.channel)),
        "locale": place.user["locale"], "guild_locale": place.guild["preferred_locale"],
        "entitlements": interaction_entitlements(place.conn, place.application_id, int(place.user["id"]),
                                                 place.guild_id, format_instant(place.now)),
        "authorizing_integration_owners": owners, "context": CONTEXT_GUILD,
        "attachment_size_limit": upload_limit(), "version": 1,
    }


def _features(guild: sqlite3.Row) -> list[str]:
    raw = guild["features"] if "features" in guild.keys() else "[]"
    return list(json.loads(raw or "[]"))


# --- resolved -------------------------------------------------------------------------------------------

def _add(place: Place, kind: str, key: int, value: Payload) -> None:
    place.resolved.setdefault(kind, {})[str(key)] = value


def resolve_user(conn: sqlite3.Connection, place: Place, user_id: int, *, need_member: bool = False) -> bool:
    user = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    if user is None:
        return False
    member = conn.execute(MEMBER_SELECT + " WHERE m.guild_id = ? AND m.user_id = ?",
                          (place.guild_id, user_id)).fetchone()
    if member is None and need_member:
        return False
    _add(place, "users", user_id, public_user_json(user))
    if member is not None:
        permissions = permissions_in(conn, place.channel, user_id, place.now)
        _add(place, "members", user_id, {**member_json(member, with_user=False), "permissions": str(permissions)})
    return True


def resolve_role(conn: sqlite3.Connection, place: Place, role_id: int) -> bool:
    row = conn.execute("SELECT * FROM roles WHERE id = ? AND guild_id = ?", (role_id, place.guild_id)).fetchone()
    if row is None:
        return False
    _add(place, "roles", role_id, role_json(row))
    return True


def resolve_channel(conn: sqlite3.Connection, place: Place, channel_id: int, channel_types: list[int] | None) -> bool:
    """A channel of the guild the user can view. ``app_permissions`` only when the bot is in the
    guild (an app used without its bot there acts through the interaction, not in the channel)."""
    row = conn.execute("SELECT * FROM channels WHERE id = ? AND guild_id = ?", (channel_id, place.guild_id)).fetchone()
    if row is None or (channel_types and row["type"] not in channel_types):
        return False
    permissions = permissions_in(conn, row, int(place.user["id"]), place.now)
    if not permissions & Permission.VIEW_CHANNEL:
        return False
    body: Payload = {"id": str(row["id"]), "name": row["name"], "type": row["type"],
                     "permissions": str(permissions), "parent_id": str(row["parent_id"]) if row["parent_id"] else None,
                     "guild_id": str(place.guild_id)}
    if place.bot_in_guild:
        body["app_permissions"] = str(place.app_permissions(row))
    _add(place, "channels", channel_id, body)
    return True


def resolve_attachment(place: Place, attachment: Payload) -> None:
    _add(place, "attachments", int(attachment["id"]), attachment)


def resolve_message(place: Place, message: Payload) -> None:
    _add(place, "messages", int(message["id"]), message)


def resolved_json(place: Place) -> Payload | None:
    return dict(place.resolved) if place.resolved else None


def require(condition: bool, field_path: tuple[str | int, ...], code: str, message: str) -> None:
    """A simulated user's input that the platform's client would never send: 50035 at its path."""
    if condition:
        return
    tree: dict[str, Any] = {}
    node = tree
    for part in field_path:
        node = node.setdefault(str(part), {})
    node["_errors"] = [{"code": code, "message": message}]
    raise ApiError(400, errors.INVALID_FORM_BODY, "Invalid Form Body", tree)
