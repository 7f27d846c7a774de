"""The ``desktop_user`` fixture section: who is signed in to the platform's desktop client when the
emulator starts, as ``--desktop-user`` says on the command line (which wins over the fixture).

Kept in ``settings`` (``desktop_user`` = the user's id) because the desktop client's IPC endpoint starts
after the fixture is loaded and reads it there; no area imports the endpoint."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ...core.validation import Form
from .store import DESKTOP_USER_SETTING as SETTING

if TYPE_CHECKING:
    from ...state import EmulatorState

def load_desktop_user(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    """``desktop_user: "<username or id>"`` of a signed-up, non-bot user (of this fixture or already
    stored); ``null`` means no desktop client."""
    if form.data.get(name) is None:
        conn.execute("DELETE FROM settings WHERE key = ?", (SETTING,))
        return
    who = form.string(name, min_len=1, max_len=64)
    if who is None:
        return
    row = conn.execute(
        "SELECT id FROM users WHERE (username = ? OR CAST(id AS TEXT) = ?) AND bot = 0 AND provisional = 0"
        " AND merged_into IS NULL", (who, who)).fetchone()
    if row is None:
        form.fail(name, "REFERENCE_UNKNOWN", f"No signed-up, non-bot user {who!r} to sign in to the desktop client.")
        return
    conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (SETTING, str(row[0])))

