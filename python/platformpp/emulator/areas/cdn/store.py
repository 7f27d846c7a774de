"""Stored CDN images: where each kind of image lives (the platform's CDN paths), reading an image
field of a request (a data URI: 50035 naming the field when it is not an image), and saving and
finding the bytes. Areas call ``read_image`` while validating and ``save`` in the change's own
transaction, so an image exists exactly when the hash that names it does."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from ...core.clock import format_instant
from ...core.validation import Form
from .images import BadImage, Upload, decode_data_uri

MAX_DATA_URI = 14 << 20   # 10 MiB of image as base64, with room for the prefix


def member_avatar_path(guild_id: int, user_id: int, image_hash: str) -> str:
    return f"guilds/{guild_id}/users/{user_id}/avatars/{image_hash}"


def member_banner_path(guild_id: int, user_id: int, image_hash: str) -> str:
    return f"guilds/{guild_id}/users/{user_id}/banners/{image_hash}"


def user_avatar_path(user_id: int, image_hash: str) -> str:
    return f"avatars/{user_id}/{image_hash}"


def user_banner_path(user_id: int, image_hash: str) -> str:
    return f"banners/{user_id}/{image_hash}"


def guild_icon_path(guild_id: int, image_hash: str) -> str:
    return f"icons/{guild_id}/{image_hash}"


def role_icon_path(role_id: int, image_hash: str) -> str:
    return f"role-icons/{role_id}/{image_hash}"


def soundboard_sound_path(sound_id: int) -> str:
    """A soundboard sound's file (served as uploaded, no extension)."""
    return f"soundboard-sounds/{sound_id}"


def read_image(form: Form, name: str) -> Upload | None:
    """An image field: a data URI decoded and checked (``form.fail`` naming the field otherwise), or
    None for ``null`` (clearing the image)."""
    value = form.string(name, required=False, nullable=True, max_len=MAX_DATA_URI)
    if value is None:
        return None
    try:
        return decode_data_uri(value)
    except BadImage as bad:
        form.fail(name, "IMAGE_INVALID", str(bad))
        return None


def save(conn: sqlite3.Connection, path: str, upload: Upload, now: datetime) -> None:
    conn.execute("INSERT OR REPLACE INTO cdn_images (path, content_type, animated, data, created_at)"
                 " VALUES (?, ?, ?, ?, ?)",
                 (path, upload.content_type, int(upload.animated), upload.data, format_instant(now)))


def find(conn: sqlite3.Connection, path: str) -> sqlite3.Row | None:
    return conn.execute("SELECT content_type, animated, data FROM cdn_images WHERE path = ?",
                        (path,)).fetchone()


def forget(conn: sqlite3.Connection, path: str) -> None:
    """The file's owner is gone (a deleted soundboard sound)."""
    conn.execute("DELETE FROM cdn_images WHERE path = ?", (path,))
