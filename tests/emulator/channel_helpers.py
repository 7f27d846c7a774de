"""Shared pieces of the guild channel message tests: the default world's channels and roles, and
white-box switches for the bot's permissions and its application's MESSAGE_CONTENT flag."""

from __future__ import annotations

from typing import Any

import httpx
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import DEFAULT_EVERYONE, Permission

GENERAL, MODERATORS, LOUNGE = 1200000000000000101, 1200000000000000102, 1200000000000000201
MODERATOR_ROLE, BOT_ROLE = 1200000000000000010, 1200000000000000011
APP_FLAG_MESSAGE_CONTENT = 1 << 18


def set_role_permissions(emu: Emulator, role_id: int, bits: int) -> None:
    emu.state.db.execute("UPDATE roles SET permissions = ? WHERE id = ?", (str(int(bits)), role_id))


def grant_bot(emu: Emulator, bits: int) -> None:
    """The bot's managed role holds exactly ``bits`` (on top of @everyone's defaults)."""
    set_role_permissions(emu, BOT_ROLE, bits)


def set_message_content(emu: Emulator, application_id: int, enabled: bool) -> None:
    emu.state.db.execute("UPDATE applications SET flags = (flags & ~?) | ? WHERE id = ?",
                         (APP_FLAG_MESSAGE_CONTENT, APP_FLAG_MESSAGE_CONTENT if enabled else 0, application_id))


def set_slowmode(emu: Emulator, channel_id: int, seconds: int) -> None:
    emu.state.db.execute("UPDATE channels SET rate_limit_per_user = ? WHERE id = ?", (seconds, channel_id))


def set_clock(emu: Emulator, iso: str) -> None:
    response = httpx.put(f"{emu.base_url}/_emulator/clock", json={"now": iso, "frozen": True})
    assert response.status_code == 200, response.text


def user_posts(emu: Emulator, channel_id: int, author_id: int, **body: Any) -> httpx.Response:
    return httpx.post(f"{emu.base_url}/_emulator/channels/{channel_id}/messages",
                      json={"author_id": str(author_id), **body}, timeout=10)


__all__ = ["DEFAULT_EVERYONE", "Permission"]
