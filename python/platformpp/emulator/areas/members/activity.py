"""Each member's last activity on the emulator clock (a message sent, activity on the Gateway), which
prune reads. A member never active since joining counts from ``joined_at``."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from ...core.clock import format_instant


def touch(conn: sqlite3.Connection, guild_id: int, user_id: int, now: datetime) -> None:
    conn.execute("UPDATE members SET last_active_at = ? WHERE guild_id = ? AND user_id = ?",
                 (format_instant(now), guild_id, user_id))


def touch_everywhere(conn: sqlite3.Connection, user_id: int, now: datetime) -> None:
    """Gateway activity counts in every guild of the user."""
    conn.execute("UPDATE members SET last_active_at = ? WHERE user_id = ?", (format_instant(now), user_id))
