"""Linked channels: which guild channels a lobby may be linked to, and what an SDK user's channel list
says about linking (the platform's linked-channels guide). A channel is linkable by a user when it is a
guild text or announcement channel, not NSFW, not linked to another lobby, and the user has
MANAGE_CHANNELS, VIEW_CHANNEL and SEND_MESSAGES in it. The HTTP route is ``link_channel`` in routes.py;
the messages that then flow between the lobby and the channel are in bridge.py."""

from __future__ import annotations

import sqlite3
from typing import Any

from ...core import errors
from ...core.errors import ApiError
from ...core.permissions import MemberContext, Permission, channel_permissions
from ...core.validation import field_error
from ..guilds.access import Standing, overwrites_of, permissions_in

LINKABLE_TYPES = (0, 5)  # guild text, announcement
LINK_PERMISSIONS = Permission.MANAGE_CHANNELS | Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES
EVERYONE_TALKS = Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES


def linked_lobby_of(conn: sqlite3.Connection, channel_id: int) -> sqlite3.Row | None:
    """The lobby linked to the channel (the platform allows one), or None."""
    return conn.execute("SELECT id, application_id FROM lobbies WHERE linked_channel_id = ?",
                        (channel_id,)).fetchone()


def link_refusal(conn: sqlite3.Connection, who: Standing, channel: sqlite3.Row,
                 lobby_id: int | None) -> ApiError | None:
    """Why ``who`` may not link ``channel`` to lobby ``lobby_id`` (None: they may)."""
    have = permissions_in(who, channel)
    if not have & Permission.VIEW_CHANNEL:
        return ApiError(403, errors.MISSING_ACCESS, "Missing Access: you cannot view this channel.")
    if channel["type"] not in LINKABLE_TYPES or channel["nsfw"]:
        return field_error("channel_id", "CHANNEL_NOT_LINKABLE", "Only a guild text channel that is not NSFW can be linked.")
    if have & LINK_PERMISSIONS != LINK_PERMISSIONS:
        return ApiError(403, errors.MISSING_PERMISSIONS,
                        "Missing Permissions: linking needs MANAGE_CHANNELS, VIEW_CHANNEL and SEND_MESSAGES.")
    other = linked_lobby_of(conn, channel["id"])
    if other is not None and other["id"] != lobby_id:
        return field_error("channel_id", "CHANNEL_ALREADY_LINKED", "The channel is linked to another lobby.")
    return None


def open_to_all_members(who: Standing, channel: sqlite3.Row) -> bool:
    """Whether a member with only @everyone can view the channel and send messages in it."""
    anyone = MemberContext(who.context.guild_id, who.context.owner_id, 0, who.context.everyone, {})
    return channel_permissions(anyone, overwrites_of(channel)) & EVERYONE_TALKS == EVERYONE_TALKS


def sdk_channel_fields(conn: sqlite3.Connection, who: Standing, channel: sqlite3.Row) -> dict[str, Any]:
    """What an SDK user's channel list adds to a channel object (emulator fields, docs/emulator-gateway.md):
    the user's ``permissions`` in it (a published field), ``is_linkable``,
    ``is_viewable_and_writeable_by_all_members`` and ``linked_lobby``."""
    fields: dict[str, Any] = {
        "permissions": str(permissions_in(who, channel)),
        "is_linkable": link_refusal(conn, who, channel, None) is None,
        "is_viewable_and_writeable_by_all_members": open_to_all_members(who, channel),
    }
    lobby = linked_lobby_of(conn, channel["id"])
    if lobby is not None:
        fields["linked_lobby"] = {"application_id": str(lobby["application_id"]), "lobby_id": str(lobby["id"])}
    return fields
