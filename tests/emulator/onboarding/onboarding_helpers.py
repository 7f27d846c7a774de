"""Shared steps of the welcome screen, onboarding and new member welcome tests: the bot's API and the
admin API, channels made through the admin API (some where @everyone may not send), audit entries."""

from __future__ import annotations

from typing import Any

import httpx
from emulator_world import BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission

SEND_MESSAGES = str(int(Permission.SEND_MESSAGES))


def bot(emu: Emulator) -> httpx.Client:
    return httpx.Client(base_url=emu.api_base, headers={"Authorization": f"Bot {BOT_TOKEN}"}, timeout=10)


def admin(emu: Emulator) -> httpx.Client:
    return httpx.Client(base_url=emu.base_url + "/_emulator", timeout=10)


def make_channels(emu: Emulator, count: int, *, muted: bool = False, prefix: str = "room") -> list[str]:
    """``count`` text channels; ``muted``: @everyone may read but not send there."""
    overwrites = [{"id": str(GUILD_ID), "type": 0, "allow": "0", "deny": SEND_MESSAGES}] if muted else []
    ids = []
    with admin(emu) as http:
        for n in range(count):
            response = http.post(f"/guilds/{GUILD_ID}/channels",
                                 json={"type": 0, "name": f"{prefix}-{n}", "permission_overwrites": overwrites})
            assert response.status_code == 201, response.text
            ids.append(response.json()["id"])
    return ids


def audit_entries(emu: Emulator, action_type: int) -> list[dict[str, Any]]:
    rows = emu.state.db.query("SELECT * FROM audit_log_entries WHERE guild_id = ? AND action_type = ?"
                              " ORDER BY id", (GUILD_ID, action_type))
    return [dict(row) for row in rows]


def features(emu: Emulator) -> list[str]:
    import json
    row = emu.state.db.query_one("SELECT features FROM guilds WHERE id = ?", (GUILD_ID,))
    return list(json.loads(row["features"]))
