"""Shared steps of the auto moderation tests: rule bodies, the rules' paths and a bot call."""

from __future__ import annotations

from typing import Any

import httpx
from emulator_world import BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator

GUILDS, GUILD_MESSAGES, MESSAGE_CONTENT = 1 << 0, 1 << 9, 1 << 15
AUTOMOD_CONFIGURATION, AUTOMOD_EXECUTION = 1 << 20, 1 << 21


def rules_path(rule_id: int | str | None = None) -> str:
    base = f"/guilds/{GUILD_ID}/auto-moderation/rules"
    return base if rule_id is None else f"{base}/{rule_id}"


def call(emu: Emulator, method: str, path: str, body: Any = None) -> httpx.Response:
    with httpx.Client(base_url=emu.api_base, headers={"Authorization": f"Bot {BOT_TOKEN}"}, timeout=10) as http:
        return http.request(method, path, json=body)


def keyword_rule(keywords: list[str], *, regex: list[str] | None = None, allow: list[str] | None = None,
                 actions: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    """A KEYWORD rule's create body, enabled, blocking by default."""
    metadata: dict[str, Any] = {"keyword_filter": keywords}
    if regex is not None:
        metadata["regex_patterns"] = regex
    if allow is not None:
        metadata["allow_list"] = allow
    return {"name": "Keyword rule", "event_type": 1, "trigger_type": 1, "trigger_metadata": metadata,
            "actions": actions if actions is not None else [{"type": 1}], "enabled": True, **extra}
