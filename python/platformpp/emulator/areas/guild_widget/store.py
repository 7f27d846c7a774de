"""The guild widget: its settings on the guild row, and what the public widget shows: the guild, an
instant invite to the widget's channel (the platform's own invite, made when first asked for and
reused while it lives), the voice channels anyone may join, and the members online, anonymised."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from typing import Any

from ...core import errors
from ...core.clock import format_instant
from ...core.errors import ApiError
from ...core.permissions import MemberContext, Permission, channel_permissions
from ...events.outbox import Outbox
from ..guild_settings import incidents
from ..guilds.access import overwrites_of
from ..invites import store as invites
from ..presence.store import presence_object

WIDGET_DISABLED = 50004
INVITE_MAX_AGE = int(timedelta(days=1).total_seconds())   # the widget's invite lives a day
MAX_MEMBERS = 100                                         # the widget lists at most this many online
VOICE_TYPES = (2, 13)
_JOIN = int(Permission.VIEW_CHANNEL | Permission.CONNECT)


def settings_json(row: sqlite3.Row) -> dict[str, Any]:
    channel = row["widget_channel_id"]
    return {"enabled": bool(row["widget_enabled"]), "channel_id": str(channel) if channel is not None else None}


def guild_row(conn: sqlite3.Connection, guild_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM guilds WHERE id = ?", (guild_id,)).fetchone()
    if row is None:
        raise errors.not_found(errors.UNKNOWN_GUILD, "Guild")
    return row


def enabled_guild(conn: sqlite3.Connection, guild_id: int) -> sqlite3.Row:
    """The guild, or 403 / 50004 when its widget is off."""
    row = guild_row(conn, guild_id)
    if not row["widget_enabled"]:
        raise ApiError(403, WIDGET_DISABLED, "Widget Disabled")
    return row


def _everyone(conn: sqlite3.Connection, guild: sqlite3.Row) -> MemberContext:
    """Anyone at all: the @everyone role alone (the widget is public)."""
    role = conn.execute("SELECT permissions FROM roles WHERE id = ?", (guild["id"],)).fetchone()
    return MemberContext(guild["id"], guild["owner_id"], 0, int(role["permissions"]) if role else 0, {})


def public_voice_channels(conn: sqlite3.Connection, guild: sqlite3.Row) -> list[sqlite3.Row]:
    anyone = _everyone(conn, guild)
    rows = conn.execute("SELECT * FROM channels WHERE guild_id = ? AND type IN (2, 13) ORDER BY position, id",
                        (guild["id"],)).fetchall()
    return [row for row in rows if channel_permissions(anyone, overwrites_of(row)) & _JOIN == _JOIN]


def online_members(conn: sqlite3.Connection, guild_id: int) -> list[tuple[sqlite3.Row, dict[str, Any]]]:
    """(user row, presence) of each member whose status is not offline, by name."""
    rows = conn.execute("SELECT u.* FROM members m JOIN users u ON u.id = m.user_id"
                        " JOIN presences p ON p.user_id = m.user_id"
                        " WHERE m.guild_id = ? AND p.status NOT IN ('offline', 'invisible')"
                        " ORDER BY u.username, u.id", (guild_id,)).fetchall()
    return [(row, presence_object(conn, row["id"])) for row in rows]


def instant_invite(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild: sqlite3.Row) -> str | None:
    """The code of the widget channel's invite: a live one the platform made, else a new one (INVITE_CREATE).
    None without a widget channel, or while the guild's invites are paused."""
    channel_id = guild["widget_channel_id"]
    channel = conn.execute("SELECT * FROM channels WHERE id = ? AND guild_id = ?",
                           (channel_id, guild["id"])).fetchone() if channel_id is not None else None
    if channel is None or incidents.invites_paused(conn, guild["id"], now):
        return None
    live = conn.execute("SELECT code FROM guild_invites WHERE channel_id = ? AND inviter_id IS NULL AND max_uses = 0"
                        " AND restricted = 0 AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at DESC",
                        (channel_id, format_instant(now))).fetchone()
    if live is not None:
        return str(live["code"])
    row = invites.create(conn, outbox, now, channel=channel, inviter_id=None, restricted=False, settings={
        "max_age": INVITE_MAX_AGE, "max_uses": 0, "temporary": False, "target_type": None, "target_user_id": None,
        "target_application_id": None, "role_ids": []})
    return str(row["code"])


def widget_json(conn: sqlite3.Connection, outbox: Outbox, now: datetime, guild: sqlite3.Row,
                base_url: str) -> dict[str, Any]:
    channels = public_voice_channels(conn, guild)
    listed = {row["id"] for row in channels}
    online = online_members(conn, guild["id"])
    members = []
    for index, (user, presence) in enumerate(online[:MAX_MEMBERS]):
        # Anonymised as the platform does: an index for an id, no avatar hash, a widget-only avatar URL.
        member: dict[str, Any] = {"id": str(index), "username": user["username"], "discriminator": "0000",
                                  "avatar": None, "status": presence["status"],
                                  "avatar_url": f"{base_url}widget-avatars/{guild['id']}/{index}.png"}
        games = [a for a in presence["activities"] if a.get("type") != 4]
        if games:
            member["activity"] = {"name": games[0]["name"]}
        voice = conn.execute("SELECT * FROM voice_states WHERE guild_id = ? AND user_id = ?",
                             (guild["id"], user["id"])).fetchone()
        if voice is not None and voice["channel_id"] in listed:
            member.update(channel_id=str(voice["channel_id"]), deaf=bool(voice["deaf"]), mute=bool(voice["mute"]),
                          self_deaf=bool(voice["self_deaf"]), self_mute=bool(voice["self_mute"]),
                          suppress=bool(voice["suppress"]))
        members.append(member)
    code = instant_invite(conn, outbox, now, guild)
    return {"id": str(guild["id"]), "name": guild["name"],
            "instant_invite": f"{base_url}invite/{code}" if code is not None else None,
            "channels": [{"id": str(row["id"]), "name": row["name"], "position": row["position"]} for row in channels],
            "members": members, "presence_count": len(online)}
