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
from ...wire.channel import channel_json, group_dm_json
from ...wire.member import MEMBER_SELECT, member_json
from ...wire.role import role_json
from ...wire.user import public_user_json
from ..guilds.access import GuildRoles, Standing, guild_roles, overwrites_of, standing_in
from ..monetization.store import interaction_entitlements
from ..private_channels import store as private_channels

GUILD_INSTALL, USER_INSTALL = 0, 1
# Interaction context types: a guild, a DM with the app's bot user, any other DM or a group DM.
CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL = 0, 1, 2
DM, GROUP_DM = 1, 3
# What an app may do in a DM or group DM (the platform's docs on ``app_permissions``): attach files,
# embed links and mention everyone; in a DM with its own bot user also use external emojis.
PRIVATE_APP_PERMISSIONS = Permission.ATTACH_FILES | Permission.EMBED_LINKS | Permission.MENTION_EVERYONE
BOT_DM_APP_PERMISSIONS = PRIVATE_APP_PERMISSIONS | Permission.USE_EXTERNAL_EMOJIS
_VIEW_CHANNEL = int(Permission.VIEW_CHANNEL)   # a plain int: int & IntFlag builds a flag object


@dataclass
class Place:
    """Where a user acts with an application: a guild channel (``guild`` and ``member`` set), or a
    DM or group DM (both None, ``context`` 1 with the app's bot user, else 2)."""

    conn: sqlite3.Connection
    app: sqlite3.Row = field(repr=False)   # id, bot_user_id, interactions_endpoint_url, webhook_private_key
    user: sqlite3.Row
    guild: sqlite3.Row | None
    channel: sqlite3.Row
    member: sqlite3.Row | None
    user_permissions: int
    now: datetime
    context: int = CONTEXT_GUILD
    recipients: list[sqlite3.Row] = field(default_factory=list)   # of a DM or group DM, the user excepted
    resolved: dict[str, dict[str, Payload]] = field(default_factory=dict)
    # In a guild: its roles, the user's standing and the bot's (None: the bot is not a member), read
    # once for every permission the interaction needs (the unit of work changes none of them).
    guild_roles: GuildRoles | None = None
    user_standing: Standing | None = None
    bot_standing: Standing | None = None

    @property
    def application_id(self) -> int:
        return int(self.app["id"])

    @property
    def bot_user_id(self) -> int | None:
        bot: int | None = self.app["bot_user_id"]
        return bot

    @property
    def bot_in_guild(self) -> bool:
        return self.bot_standing is not None

    @property
    def guild_id(self) -> int | None:
        return int(self.guild["id"]) if self.guild is not None else None

    @property
    def channel_id(self) -> int:
        return int(self.channel["id"])

    def user_permissions_in(self, channel: sqlite3.Row) -> int:
        """The acting user's permissions in another channel of the guild."""
        assert self.user_standing is not None
        return channel_permissions(self.user_standing.context, overwrites_of(channel))

    def app_permissions(self, channel: sqlite3.Row) -> int:
        """The bot's permissions in ``channel`` when it is in the guild; otherwise (a user-installed
        app) what @everyone may do there, the most an app without its bot can act with. In a DM or
        group DM, the fixed set the platform gives apps there."""
        if self.guild is None:
            return int(BOT_DM_APP_PERMISSIONS if self.context == CONTEXT_BOT_DM else PRIVATE_APP_PERMISSIONS)
        if self.bot_standing is not None:
            return channel_permissions(self.bot_standing.context, overwrites_of(channel))
        assert self.guild_roles is not None
        guild_id = self.guild_roles.guild_id
        context = MemberContext(guild_id, self.guild_roles.owner_id, 0, self.guild_roles.everyone, {})
        return channel_permissions(context, [o for o in overwrites_of(channel) if o.id == guild_id])


def _application(conn: sqlite3.Connection, application_id: int) -> sqlite3.Row:
    app = conn.execute("SELECT id, bot_user_id, interactions_endpoint_url, webhook_private_key FROM applications"
                       " WHERE id = ?", (application_id,)).fetchone()
    if app is None:
        raise errors.not_found(errors.UNKNOWN_APPLICATION, "Application")
    return app


def _acting_user(conn: sqlite3.Connection, user_id: int) -> sqlite3.Row:
    user = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    if user is None or user["bot"]:
        raise errors.not_found(errors.UNKNOWN_USER, "User")
    return user


def locate(conn: sqlite3.Connection, application_id: int, user_id: int, channel_id: int, now: datetime) -> Place:
    """The user in a channel: a guild channel (a full account, member of the guild, able to view the
    channel), or a DM or group DM the user is a recipient of."""
    app = _application(conn, application_id)
    channel = conn.execute("SELECT * FROM channels WHERE id = ?", (channel_id,)).fetchone()
    if channel is None or channel["guild_id"] is None:
        user = _acting_user(conn, user_id)   # checked before the channel, as the client knows its user first
        if channel is None:
            raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
        return _private_place(conn, app, user, channel, now)
    guild = conn.execute("SELECT * FROM guilds WHERE id = ?", (channel["guild_id"],)).fetchone()
    # The member row carries the user's columns too: a member is a user (a bot is no acting user).
    member = conn.execute(MEMBER_SELECT + " WHERE m.guild_id = ? AND m.user_id = ?",
                          (channel["guild_id"], user_id)).fetchone()
    if member is None or member["bot"]:
        _acting_user(conn, user_id)
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access: the user is not a member of the channel's guild.")
    user = member
    roles = guild_roles(conn, int(guild["id"]), guild["owner_id"])
    who = standing_in(roles, user_id, member["member_roles"], member["communication_disabled_until"], now)
    bot = None if app["bot_user_id"] is None else conn.execute(
        "SELECT roles, communication_disabled_until FROM members WHERE guild_id = ? AND user_id = ?",
        (guild["id"], app["bot_user_id"])).fetchone()
    place = Place(conn, app, user, guild, channel, member, 0, now, guild_roles=roles, user_standing=who,
                  bot_standing=None if bot is None else standing_in(
                      roles, app["bot_user_id"], bot["roles"], bot["communication_disabled_until"], now))
    place.user_permissions = place.user_permissions_in(channel)
    if not place.user_permissions & _VIEW_CHANNEL:
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access: the user cannot view the channel.")
    return place


def _private_place(conn: sqlite3.Connection, app: sqlite3.Row, user: sqlite3.Row, channel: sqlite3.Row,
                   now: datetime) -> Place:
    if channel["type"] not in (DM, GROUP_DM):
        raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
    recipients = conn.execute("SELECT u.* FROM channel_recipients r JOIN users u ON u.id = r.user_id"
                              " WHERE r.channel_id = ? ORDER BY u.id", (channel["id"],)).fetchall()
    if not any(r["id"] == user["id"] for r in recipients):
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access: the user is not a recipient of the channel.")
    others = [r for r in recipients if r["id"] != user["id"]]
    with_bot = channel["type"] == DM and app["bot_user_id"] is not None and \
        [r["id"] for r in others] == [app["bot_user_id"]]
    return Place(conn, app, user, None, channel, None, 0, now, CONTEXT_BOT_DM if with_bot else CONTEXT_PRIVATE_CHANNEL,
                 others)


def direct_message_channel(state: Any, conn: sqlite3.Connection, user_id: int, recipient_id: int) -> int:
    """The DM channel (type 1) of two users, made on first use as the platform's client opens one."""
    _acting_user(conn, user_id)
    return int(private_channels.open_dm(conn, state.ids.next, user_id, recipient_id)["id"])


def member_payload(place: Place) -> Payload:
    assert place.member is not None
    return {**member_json(place.member), "permissions": str(place.user_permissions)}


def _private_channel_json(place: Place) -> Payload:
    """The DM or group DM as the interaction shows it: its recipients are the others."""
    others = [public_user_json(r) for r in place.recipients]
    if place.channel["type"] == GROUP_DM:
        return group_dm_json(place.channel, others)
    last = place.channel["last_message_id"] if "last_message_id" in place.channel.keys() else None
    return {"id": str(place.channel_id), "type": DM, "flags": place.channel["flags"],
            "last_message_id": str(last) if last else None, "recipients": others}


def owners(place: Place, integration_types: list[int]) -> dict[str, str]:
    """``authorizing_integration_owners``: the guild a guild install was made in ("0" in the DM with
    the app's bot user), and the user for a user install."""
    result: dict[str, str] = {}
    if GUILD_INSTALL in integration_types:
        if place.guild is not None and place.bot_in_guild:
            result[str(GUILD_INSTALL)] = str(place.guild_id)
        elif place.context == CONTEXT_BOT_DM:
            result[str(GUILD_INSTALL)] = "0"
    if USER_INSTALL in integration_types or not result:
        result[str(USER_INSTALL)] = str(place.user["id"])
    return result


def context_fields(place: Place, integration_types: list[int]) -> Payload:
    """The fields every interaction carries besides ``data``: in a guild the guild, the member and
    the guild's locale; in a DM or group DM the ``user`` instead."""
    common: Payload = {
        "application_id": str(place.application_id), "channel_id": str(place.channel_id),
        "app_permissions": str(place.app_permissions(place.channel)), "locale": place.user["locale"],
        "entitlements": interaction_entitlements(place.conn, place.application_id, int(place.user["id"]),
                                                 place.guild_id, format_instant(place.now)),
        "authorizing_integration_owners": owners(place, integration_types), "context": place.context,
        "attachment_size_limit": upload_limit(), "version": 1,
    }
    if place.guild is None:
        return {**common, "channel": _private_channel_json(place), "user": public_user_json(place.user)}
    return {
        **common, "guild_id": str(place.guild_id),
        "guild": {"id": str(place.guild_id), "locale": place.guild["preferred_locale"],
                  "features": _features(place.guild)},
        "channel": channel_json(place.channel), "member": member_payload(place),
        "guild_locale": place.guild["preferred_locale"],
    }


def _features(guild: sqlite3.Row) -> list[str]:
    raw = guild["features"] if "features" in guild.keys() else "[]"
    return [] if not raw or raw == "[]" else list(json.loads(raw))


# --- resolved -------------------------------------------------------------------------------------------

def _add(place: Place, kind: str, key: int, value: Payload) -> None:
    place.resolved.setdefault(kind, {})[str(key)] = value


def resolve_user(conn: sqlite3.Connection, place: Place, user_id: int, *, need_member: bool = False) -> bool:
    user = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    if user is None:
        return False
    member = None if place.guild is None else conn.execute(
        MEMBER_SELECT + " WHERE m.guild_id = ? AND m.user_id = ?", (place.guild_id, user_id)).fetchone()
    if member is None and need_member:
        return False
    _add(place, "users", user_id, public_user_json(user))
    if member is not None:
        assert place.guild_roles is not None
        who = standing_in(place.guild_roles, user_id, member["member_roles"], member["communication_disabled_until"],
                          place.now)
        permissions = channel_permissions(who.context, overwrites_of(place.channel))
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
    permissions = place.user_permissions_in(row)
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
