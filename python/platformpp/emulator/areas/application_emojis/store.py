"""An application's emoji: at most 2000, names unique within the application (the platform's limits).
The emoji object is the guild emoji's (``wire.message.emoji_json``, with no roles), its ``user`` the
bot that uploaded it."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ...core import errors
from ...core.errors import ApiError
from ...core.validation import Form
from ...events.audience import Payload
from ...wire.message import emoji_json
from ...wire.user import public_user_json
from ..expressions.store import EMOJI_MAX_BYTES, TOO_MANY_EMOJIS, UNKNOWN_EMOJI, decode_image

if TYPE_CHECKING:
    from ...state import EmulatorState

MAX_APPLICATION_EMOJIS = 2000


def _json(conn: sqlite3.Connection, row: sqlite3.Row) -> Payload:
    user = conn.execute("SELECT * FROM users WHERE id = ?", (row["user_id"],)).fetchone() \
        if row["user_id"] is not None else None
    return emoji_json(row, None if user is None else public_user_json(user))


def _row(conn: sqlite3.Connection, application_id: int, emoji_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT *, '[]' AS roles FROM application_emojis WHERE id = ? AND application_id = ?",
                       (emoji_id, application_id)).fetchone()
    if row is None:
        raise errors.not_found(UNKNOWN_EMOJI, "Emoji")
    return row


def _refuse_taken_name(conn: sqlite3.Connection, application_id: int, name: str, emoji_id: int = 0) -> None:
    if conn.execute("SELECT 1 FROM application_emojis WHERE application_id = ? AND name = ? AND id != ?",
                    (application_id, name, emoji_id)).fetchone() is not None:
        taken = Form({})
        taken.fail("name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
                   "An emoji of this application has this name.")
        taken.done()


def list_emojis(conn: sqlite3.Connection, application_id: int) -> Payload:
    rows = conn.execute("SELECT *, '[]' AS roles FROM application_emojis WHERE application_id = ?"
                        " ORDER BY id", (application_id,)).fetchall()
    return {"items": [_json(conn, row) for row in rows]}


def get_emoji(conn: sqlite3.Connection, application_id: int, emoji_id: int) -> Payload:
    return _json(conn, _row(conn, application_id, emoji_id))


def create_emoji(state: EmulatorState, conn: sqlite3.Connection, *, application_id: int, user_id: int,
                 name: str, image: str) -> Payload:
    content_type, data = decode_image(image, "image", EMOJI_MAX_BYTES)
    _refuse_taken_name(conn, application_id, name)
    count = conn.execute("SELECT COUNT(*) FROM application_emojis WHERE application_id = ?",
                         (application_id,)).fetchone()[0]
    if count >= MAX_APPLICATION_EMOJIS:
        raise ApiError(400, TOO_MANY_EMOJIS, f"Maximum number of emojis reached ({MAX_APPLICATION_EMOJIS})")
    emoji_id = state.ids.next()
    conn.execute("INSERT INTO application_emojis (id, application_id, name, animated, image_type, image_size,"
                 " user_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                 (emoji_id, application_id, name, int(content_type == "image/gif"), content_type, len(data),
                  user_id, state.clock.iso()))
    return get_emoji(conn, application_id, emoji_id)


def rename_emoji(conn: sqlite3.Connection, application_id: int, emoji_id: int, name: str | None) -> Payload:
    _row(conn, application_id, emoji_id)
    if name is not None:
        _refuse_taken_name(conn, application_id, name, emoji_id)
        conn.execute("UPDATE application_emojis SET name = ? WHERE id = ?", (name, emoji_id))
    return get_emoji(conn, application_id, emoji_id)


def delete_emoji(conn: sqlite3.Connection, application_id: int, emoji_id: int) -> None:
    _row(conn, application_id, emoji_id)
    conn.execute("DELETE FROM application_emojis WHERE id = ?", (emoji_id,))


def usable_emoji(conn: sqlite3.Connection, user_id: int, emoji_id: int) -> sqlite3.Row | None:
    """An emoji of the application whose bot ``user_id`` is (what that bot may use anywhere), or None."""
    return conn.execute("SELECT e.id, e.name, e.animated FROM application_emojis e"
                        " JOIN applications a ON a.id = e.application_id"
                        " WHERE e.id = ? AND a.bot_user_id = ?",
                        (emoji_id, user_id)).fetchone()
