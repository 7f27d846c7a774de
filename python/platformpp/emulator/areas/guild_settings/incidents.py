"""Incident actions: a guild's moderators pause invites and DMs for up to 24 hours. The pause is
enforced where invites are made and accepted (areas/invites) and where a bot opens a way to message a
user through the guild (areas/private_channels): both call the checks below, on the emulator clock.
Stored on the guild row (``invites_disabled_until``, ``dms_disabled_until``), shown as the guild
object's ``incidents_data``."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta

from ...core.clock import format_instant, parse_instant
from ...core.errors import ApiError
from ...core.validation import Form

INVITES_PAUSED = 40008
INVITES_DISABLED = "INVITES_DISABLED"
MAX_AHEAD = timedelta(hours=24)
FIELDS = ("invites_disabled_until", "dms_disabled_until")


def _paused(value: str | None, now: datetime) -> bool:
    return value is not None and parse_instant(value) > now


def invites_paused(conn: sqlite3.Connection, guild_id: int, now: datetime) -> bool:
    row = conn.execute("SELECT invites_disabled_until FROM guilds WHERE id = ?", (guild_id,)).fetchone()
    return row is not None and _paused(row["invites_disabled_until"], now)


def require_invites_open(conn: sqlite3.Connection, guild_id: int, now: datetime, *, joining: bool = False) -> None:
    """403 / 40008 while the guild's invites are paused (making and accepting its invites). ``joining``:
    the guild's ``INVITES_DISABLED`` feature (the older switch) also refuses it; making invites it allows."""
    paused = invites_paused(conn, guild_id, now)
    if joining and not paused:
        row = conn.execute("SELECT features FROM guilds WHERE id = ?", (guild_id,)).fetchone()
        paused = row is not None and INVITES_DISABLED in json.loads(row["features"])
    if paused:
        raise ApiError(403, INVITES_PAUSED, "Invites are currently paused for this server. Please try again later.")


def dm_open_guilds_sql(now: datetime) -> tuple[str, str]:
    """A SQL condition on a guild alias ``g`` (and its parameter): the guild's DMs are not paused."""
    return "(g.dms_disabled_until IS NULL OR g.dms_disabled_until <= ?)", format_instant(now)


def read_until(form: Form, name: str, now: datetime) -> str | None:
    """A ``*_disabled_until`` field: null or absent (the PUT replaces both: absent clears), else an
    ISO-8601 instant at most 24 hours ahead; an instant already past is stored and pauses nothing."""
    raw = form.data.get(name)
    if raw is None:
        return None
    if not isinstance(raw, str):
        form.fail(name, "DATE_TYPE_CONVERT", "Must be an ISO-8601 date-time or null.")
        return None
    try:
        value = parse_instant(raw)
    except ValueError as exc:
        form.fail(name, "DATE_TYPE_CONVERT", str(exc))
        return None
    if value > now + MAX_AHEAD:
        form.fail(name, "DATE_TOO_FAR", "Must be at most 24 hours in the future.")
        return None
    return format_instant(value)
