"""The platform's dated permission changes of 2026-02-23 (seed; emulator clock). From that instant:
pinning needs PIN_MESSAGES (MANAGE_MESSAGES alone no longer does), skipping slowmode needs
BYPASS_SLOWMODE (MANAGE_MESSAGES or MANAGE_CHANNELS no longer do), creating emoji and stickers needs
CREATE_GUILD_EXPRESSIONS (MANAGE_GUILD_EXPRESSIONS before) and creating scheduled events needs
CREATE_EVENTS (MANAGE_EVENTS before). Each rule answers the bits that satisfy it at an instant: the
caller needs any one of them. Before the instant the new permission already counted alongside the
old one(s) (the platform introduced them ahead of the change); from it, only the new one does."""

from __future__ import annotations

from datetime import datetime, timezone

from .permissions import Permission

PERMISSION_CHANGES_AT = datetime(2026, 2, 23, tzinfo=timezone.utc)


def _after(now: datetime) -> bool:
    return now >= PERMISSION_CHANGES_AT


def pin_permissions(now: datetime) -> int:
    """Who may pin and unpin."""
    new = int(Permission.PIN_MESSAGES)
    return new if _after(now) else new | int(Permission.MANAGE_MESSAGES)


def slowmode_bypass_permissions(now: datetime) -> int:
    """Who posts without waiting for the channel's slowmode."""
    new = int(Permission.BYPASS_SLOWMODE)
    return new if _after(now) else new | int(Permission.MANAGE_MESSAGES | Permission.MANAGE_CHANNELS)


def expression_create_permissions(now: datetime) -> int:
    """Who may create emoji and stickers."""
    new = int(Permission.CREATE_GUILD_EXPRESSIONS)
    return new if _after(now) else new | int(Permission.MANAGE_GUILD_EXPRESSIONS)


def event_create_permissions(now: datetime) -> int:
    """Who may create scheduled events."""
    new = int(Permission.CREATE_EVENTS)
    return new if _after(now) else new | int(Permission.MANAGE_EVENTS)
