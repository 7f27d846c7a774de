"""Emoji and stickers of a guild. Creating follows the dated rule of 2026-02-23 (before:
MANAGE_GUILD_EXPRESSIONS; from then: CREATE_GUILD_EXPRESSIONS). Modifying or deleting needs
MANAGE_GUILD_EXPRESSIONS, or, from that instant, CREATE_GUILD_EXPRESSIONS for one's own. Every change
sends the guild's whole list (GUILD_EMOJIS_UPDATE / GUILD_STICKERS_UPDATE) to bots with the
GUILD_EXPRESSIONS intent."""

from __future__ import annotations

import base64
import binascii
import json
import re
import sqlite3
from typing import TYPE_CHECKING, Any

from ...core import errors
from ...core.errors import ApiError
from ...core.permission_changes import PERMISSION_CHANGES_AT, expression_create_permissions
from ...core.permissions import Permission
from ...core.validation import field_error
from ...events.audience import Payload
from ...wire.message import emoji_json, sticker_json
from ..audit_log import actions
from ..audit_log import trail as audit_trail
from ..channel_messages.access import guild_permissions, require_guild_permission
from ..channel_messages.audience import GUILD_EXPRESSIONS, GuildBots
from .listing import creator as _creator
from .listing import emojis, stickers

if TYPE_CHECKING:
    from ...events.outbox import Outbox
    from ...state import EmulatorState

UNKNOWN_EMOJI, UNKNOWN_STICKER = 10014, 10060
MAX_EMOJIS, TOO_MANY_EMOJIS = 50, 30008   # per kind (static, animated) without boosts
MAX_STICKERS, TOO_MANY_STICKERS = 5, 30039
EMOJI_MAX_BYTES = 256 * 1024
STICKER_KEYS = ("name", "tags", "description", "format_type")
STICKER_MAX_BYTES = 512 * 1024
_DATA_URI = re.compile(r"^data:(image/(?:png|jpeg|gif|webp|avif));base64,(.*)$", re.DOTALL)
EMOJI_NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
# Sticker formats by content type: PNG 1, APNG 2, LOTTIE 3, GIF 4.
STICKER_FORMATS = {"image/png": 1, "image/apng": 2, "application/json": 3, "image/gif": 4}


def decode_image(data_uri: str, field: str, max_bytes: int) -> tuple[str, bytes]:
    """An image data URI (``data:image/png;base64,...``) → (content type, bytes); 50035 naming ``field``."""
    match = _DATA_URI.match(data_uri)
    if match is None:
        raise field_error(field, "IMAGE_INVALID", "Must be a data URI of a PNG, JPEG, GIF, WebP or AVIF image.")
    try:
        data = base64.b64decode(match.group(2), validate=True)
    except (binascii.Error, ValueError):
        raise field_error(field, "IMAGE_INVALID", "The image data is not valid base64.") from None
    if not data:
        raise field_error(field, "IMAGE_INVALID", "The image is empty.")
    if len(data) > max_bytes:
        raise field_error(field, "BINARY_TYPE_MAX_SIZE", f"Must be {max_bytes // 1024} KiB or smaller.")
    return match.group(1), data


def require_create(state: EmulatorState, conn: sqlite3.Connection, guild_id: int, user_id: int) -> None:
    now = state.clock.now()
    require_guild_permission(guild_permissions(conn, guild_id, user_id, now), expression_create_permissions(now))


def require_manage(state: EmulatorState, conn: sqlite3.Connection, guild_id: int, user_id: int,
                   creator_id: int | None) -> None:
    now = state.clock.now()
    permissions = guild_permissions(conn, guild_id, user_id, now)
    bits = int(Permission.MANAGE_GUILD_EXPRESSIONS)
    if now >= PERMISSION_CHANGES_AT and creator_id == user_id:
        bits |= int(Permission.CREATE_GUILD_EXPRESSIONS)
    require_guild_permission(permissions, bits)


# --- emoji -------------------------------------------------------------------------------------------------

def get_emoji_row(conn: sqlite3.Connection, guild_id: int, emoji_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM guild_emojis WHERE id = ? AND guild_id = ?", (emoji_id, guild_id)).fetchone()
    if row is None:
        raise errors.not_found(UNKNOWN_EMOJI, "Emoji")
    return row


def _announce_emojis(conn: sqlite3.Connection, outbox: Outbox, guild_id: int) -> None:
    outbox.add("GUILD_EMOJIS_UPDATE", GuildBots(guild_id, GUILD_EXPRESSIONS,
                                                {"guild_id": str(guild_id), "emojis": emojis(conn, guild_id)}))


def _role_ids(conn: sqlite3.Connection, guild_id: int, roles: list[int]) -> str:
    for index, role_id in enumerate(roles):
        if conn.execute("SELECT 1 FROM roles WHERE id = ? AND guild_id = ?", (role_id, guild_id)).fetchone() is None:
            raise field_error(("roles", index), "ROLE_UNKNOWN", f"No role {role_id} in this guild.")
    return json.dumps([str(r) for r in dict.fromkeys(roles)])


def create_emoji(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int, user_id: int,
                 name: str, image: str, roles: list[int]) -> Payload:
    require_create(state, conn, guild_id, user_id)
    content_type, data = decode_image(image, "image", EMOJI_MAX_BYTES)
    animated = content_type == "image/gif"
    count = conn.execute("SELECT COUNT(*) FROM guild_emojis WHERE guild_id = ? AND animated = ?",
                         (guild_id, int(animated))).fetchone()[0]
    if count >= MAX_EMOJIS:
        raise ApiError(400, TOO_MANY_EMOJIS, f"Maximum number of emojis reached ({MAX_EMOJIS})")
    emoji_id = state.ids.next()
    conn.execute("INSERT INTO guild_emojis (id, guild_id, name, roles, animated, image_type, image_size, user_id,"
                 " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (emoji_id, guild_id, name, _role_ids(conn, guild_id, roles), int(animated), content_type, len(data),
                  user_id, state.clock.iso()))
    _announce_emojis(conn, outbox, guild_id)
    row = get_emoji_row(conn, guild_id, emoji_id)
    audit_trail.simple(conn, guild_id, user_id, actions.EMOJI_CREATE, emoji_id, None, row, ("name",))
    return emoji_json(row, _creator(conn, row["user_id"]))


def modify_emoji(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int, user_id: int,
                 emoji_id: int, name: str | None, roles: list[int] | None) -> Payload:
    row = get_emoji_row(conn, guild_id, emoji_id)
    require_manage(state, conn, guild_id, user_id, row["user_id"])
    if name is not None:
        conn.execute("UPDATE guild_emojis SET name = ? WHERE id = ?", (name, emoji_id))
    if roles is not None:
        conn.execute("UPDATE guild_emojis SET roles = ? WHERE id = ?", (_role_ids(conn, guild_id, roles), emoji_id))
    _announce_emojis(conn, outbox, guild_id)
    audit_trail.simple(conn, guild_id, user_id, actions.EMOJI_UPDATE, emoji_id, row,
                       get_emoji_row(conn, guild_id, emoji_id), ("name",))
    row = get_emoji_row(conn, guild_id, emoji_id)
    return emoji_json(row, _creator(conn, row["user_id"]))


def delete_emoji(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int, user_id: int,
                 emoji_id: int) -> None:
    row = get_emoji_row(conn, guild_id, emoji_id)
    require_manage(state, conn, guild_id, user_id, row["user_id"])
    conn.execute("DELETE FROM guild_emojis WHERE id = ?", (emoji_id,))
    _announce_emojis(conn, outbox, guild_id)
    audit_trail.simple(conn, guild_id, user_id, actions.EMOJI_DELETE, emoji_id, row, None, ("name",))


# --- stickers ----------------------------------------------------------------------------------------------

def get_sticker_row(conn: sqlite3.Connection, guild_id: int, sticker_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM guild_stickers WHERE id = ? AND guild_id = ?", (sticker_id, guild_id)).fetchone()
    if row is None:
        raise errors.not_found(UNKNOWN_STICKER, "Sticker")
    return row


def _announce_stickers(conn: sqlite3.Connection, outbox: Outbox, guild_id: int) -> None:
    outbox.add("GUILD_STICKERS_UPDATE", GuildBots(guild_id, GUILD_EXPRESSIONS,
                                                  {"guild_id": str(guild_id), "stickers": stickers(conn, guild_id)}))


def create_sticker(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int, user_id: int,
                   name: str, tags: str, description: str | None, format_type: int, size: int) -> Payload:
    require_create(state, conn, guild_id, user_id)
    count = conn.execute("SELECT COUNT(*) FROM guild_stickers WHERE guild_id = ?", (guild_id,)).fetchone()[0]
    if count >= MAX_STICKERS:
        raise ApiError(400, TOO_MANY_STICKERS, f"Maximum number of stickers reached ({MAX_STICKERS})")
    sticker_id = state.ids.next()
    conn.execute("INSERT INTO guild_stickers (id, guild_id, name, tags, description, format_type, file_size, user_id,"
                 " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (sticker_id, guild_id, name, tags, description, format_type, size, user_id, state.clock.iso()))
    _announce_stickers(conn, outbox, guild_id)
    row = get_sticker_row(conn, guild_id, sticker_id)
    audit_trail.simple(conn, guild_id, user_id, actions.STICKER_CREATE, sticker_id, None, row, STICKER_KEYS)
    return sticker_json(row, _creator(conn, row["user_id"]))


def modify_sticker(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int, user_id: int,
                   sticker_id: int, changes: dict[str, Any]) -> Payload:
    row = get_sticker_row(conn, guild_id, sticker_id)
    require_manage(state, conn, guild_id, user_id, row["user_id"])
    for column, value in changes.items():   # column names come from the route's fixed list
        conn.execute(f"UPDATE guild_stickers SET {column} = ? WHERE id = ?", (value, sticker_id))
    _announce_stickers(conn, outbox, guild_id)
    audit_trail.simple(conn, guild_id, user_id, actions.STICKER_UPDATE, sticker_id, row,
                       get_sticker_row(conn, guild_id, sticker_id), STICKER_KEYS)
    row = get_sticker_row(conn, guild_id, sticker_id)
    return sticker_json(row, _creator(conn, row["user_id"]))


def delete_sticker(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, *, guild_id: int, user_id: int,
                   sticker_id: int) -> None:
    row = get_sticker_row(conn, guild_id, sticker_id)
    require_manage(state, conn, guild_id, user_id, row["user_id"])
    conn.execute("DELETE FROM guild_stickers WHERE id = ?", (sticker_id,))
    _announce_stickers(conn, outbox, guild_id)
    audit_trail.simple(conn, guild_id, user_id, actions.STICKER_DELETE, sticker_id, row, None, STICKER_KEYS)
