"""Guild onboarding: prompts (up to 15, each with 1–50 options that give roles and channels), the
channels every new member is opted into, ``enabled`` and ``mode``. A PUT replaces the fields it gives and
keeps the others.

While enabled, onboarding must meet the platform's requirements: at least 7 channels members are opted
into, at least 5 of them channels @everyone can send messages in. ``mode`` 0 (ONBOARDING_DEFAULT)
counts the default channels only; 1 (ONBOARDING_ADVANCED) also the channels of the prompts' options.
Enabling without them is 400 / 350000; changing an enabled onboarding so that it falls below them is
400 / 350001. Each change is written to the audit log: ONBOARDING_CREATE (166) the first time,
ONBOARDING_UPDATE (167) for the settings, ONBOARDING_PROMPT_CREATE / UPDATE / DELETE (163–165) per
prompt; the guild's GUILD_ONBOARDING, GUILD_ONBOARDING_EVER_ENABLED and GUILD_ONBOARDING_HAS_PROMPTS
features follow (GUILD_UPDATE when they change)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import datetime
from typing import Any

from ...core.errors import ApiError
from ...core.permissions import MemberContext, Permission, channel_permissions
from ...core.validation import Form
from ...events.outbox import Outbox
from ..audit_log import actions
from ..audit_log.store import diff, record
from ..guilds.access import guild_roles_of, overwrites_of
from .features import GUILD_ONBOARDING, GUILD_ONBOARDING_EVER_ENABLED, GUILD_ONBOARDING_HAS_PROMPTS, switch
from .welcome_screen import guild_channel_ids

CANNOT_ENABLE, BELOW_REQUIREMENTS = 350000, 350001
MIN_DEFAULT_CHANNELS, MIN_CHATTABLE_CHANNELS = 7, 5
MAX_PROMPTS, MAX_OPTIONS, MAX_IDS, MAX_DEFAULT_CHANNELS = 15, 50, 50, 500
MULTIPLE_CHOICE, DROPDOWN = 0, 1
DEFAULT_MODE, ADVANCED_MODE = 0, 1
SETTINGS_KEYS = ("enabled", "mode", "default_channel_ids")
PROMPT_KEYS = ("title", "type", "single_select", "required", "in_onboarding", "options")
_CHAT = int(Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES)


def stored(conn: sqlite3.Connection, guild_id: int) -> dict[str, Any] | None:
    row = conn.execute("SELECT * FROM guild_onboarding WHERE guild_id = ?", (guild_id,)).fetchone()
    if row is None:
        return None
    return {"enabled": bool(row["enabled"]), "mode": row["mode"],
            "default_channel_ids": json.loads(row["default_channel_ids"]), "prompts": json.loads(row["prompts"])}


def current(conn: sqlite3.Connection, guild_id: int) -> dict[str, Any]:
    return stored(conn, guild_id) or {"enabled": False, "mode": DEFAULT_MODE, "default_channel_ids": [],
                                      "prompts": []}


def render(conn: sqlite3.Connection, guild_id: int) -> dict[str, Any]:
    settings = current(conn, guild_id)
    return {"guild_id": str(guild_id), "prompts": [_prompt_json(p) for p in settings["prompts"]],
            "default_channel_ids": settings["default_channel_ids"], "enabled": settings["enabled"],
            "mode": settings["mode"]}


def _prompt_json(prompt: dict[str, Any]) -> dict[str, Any]:
    return {**{key: prompt[key] for key in ("id", "title", "single_select", "required", "in_onboarding", "type")},
            "options": [{"id": o["id"], "title": o["title"], "description": o["description"],
                         "emoji": {"id": o["emoji_id"], "name": o["emoji_name"], "animated": o["emoji_animated"]},
                         "role_ids": o["role_ids"], "channel_ids": o["channel_ids"]} for o in prompt["options"]]}


# --- reading a PUT ---------------------------------------------------------------------------------------

def _ids(form: Form, name: str, known: set[int], what: str, max_items: int) -> list[str]:
    """A list of snowflakes of ``known`` (duplicates kept once); null or absent: none."""
    if form.data.get(name) is None:
        return []
    result: list[str] = []
    for index, value in enumerate(form.array(name, required=False, max_items=max_items) or []):
        number = form.coerce_snowflake(name, value)
        if number is not None and number not in known:
            form.errors.add((*form.path, name, index), f"{what.upper()}_INVALID",
                            f"{what.capitalize()} {number} is not a {what} of this guild.")
        elif number is not None and str(number) not in result:
            result.append(str(number))
    return result


def _flag(form: Form, name: str, default: bool) -> bool:
    return default if form.data.get(name) is None else form.boolean(name, default=default)


def read_changes(form: Form, conn: sqlite3.Connection, guild_id: int, new_id: Callable[[], int]) -> dict[str, Any]:
    """The settings given (null: unchanged). Prompt and option ids are kept as sent, or given new ones."""
    channels = guild_channel_ids(conn, guild_id)
    roles = {row[0] for row in conn.execute("SELECT id FROM roles WHERE guild_id = ? AND id != guild_id",
                                            (guild_id,))}
    changes: dict[str, Any] = {}
    if form.data.get("enabled") is not None:
        changes["enabled"] = form.boolean("enabled")
    if form.data.get("mode") is not None:
        changes["mode"] = form.choice("mode", (DEFAULT_MODE, ADVANCED_MODE))
    if form.data.get("default_channel_ids") is not None:
        changes["default_channel_ids"] = _ids(form, "default_channel_ids", channels, "channel", MAX_DEFAULT_CHANNELS)
    if form.data.get("prompts") is not None:
        prompts = []
        for index, raw in enumerate(form.array("prompts", max_items=MAX_PROMPTS) or []):
            item = form.item("prompts", index, raw)
            prompt_id = item.snowflake("id", required=False, nullable=True)
            options = []
            for option_index, raw_option in enumerate(item.array("options", min_items=1, max_items=MAX_OPTIONS)
                                                      or []):
                option = item.item("options", option_index, raw_option)
                option_id = option.snowflake("id", required=False, nullable=True)
                emoji_id = option.snowflake("emoji_id", required=False, nullable=True)
                options.append({
                    "id": str(option_id or new_id()), "title": option.string("title", min_len=1, max_len=50),
                    "description": option.string("description", required=False, nullable=True, max_len=100),
                    "emoji_id": str(emoji_id) if emoji_id is not None else None,
                    "emoji_name": option.string("emoji_name", required=False, nullable=True, max_len=100),
                    "emoji_animated": _flag(option, "emoji_animated", False),
                    "role_ids": _ids(option, "role_ids", roles, "role", MAX_IDS),
                    "channel_ids": _ids(option, "channel_ids", channels, "channel", MAX_IDS)})
            prompts.append({
                "id": str(prompt_id or new_id()), "title": item.string("title", min_len=1, max_len=100),
                "type": MULTIPLE_CHOICE if item.data.get("type") is None
                else item.choice("type", (MULTIPLE_CHOICE, DROPDOWN)),
                "single_select": _flag(item, "single_select", False), "required": _flag(item, "required", False),
                "in_onboarding": _flag(item, "in_onboarding", True), "options": options})
        changes["prompts"] = prompts
    return changes


# --- requirements ----------------------------------------------------------------------------------------

def meets_requirements(conn: sqlite3.Connection, guild_id: int, settings: dict[str, Any]) -> bool:
    """At least 7 channels members are opted into, 5 of them where @everyone can send messages."""
    opted = set(settings["default_channel_ids"])
    if settings["mode"] == ADVANCED_MODE:
        opted |= {c for p in settings["prompts"] for o in p["options"] for c in o["channel_ids"]}
    if len(opted) < MIN_DEFAULT_CHANNELS:
        return False
    guild = guild_roles_of(conn, guild_id)
    assert guild is not None
    everyone = MemberContext(guild_id, guild.owner_id, 0, guild.everyone, {})
    marks = ", ".join("?" * len(opted))
    rows = conn.execute(f"SELECT permission_overwrites FROM channels WHERE id IN ({marks})",
                        [int(c) for c in opted]).fetchall()
    chattable = sum(1 for row in rows if channel_permissions(everyone, overwrites_of(row)) & _CHAT == _CHAT)
    return chattable >= MIN_CHATTABLE_CHANNELS


# --- writing ---------------------------------------------------------------------------------------------

def apply(conn: sqlite3.Connection, outbox: Outbox | None, now: datetime, guild_id: int, actor_id: int | None,
          changes: dict[str, Any]) -> dict[str, Any]:
    """Check the requirements and write (``outbox`` None: a world file, no dispatch, no audit entry)."""
    before = stored(conn, guild_id)
    was = before or current(conn, guild_id)
    after = {**was, **changes}
    if after["enabled"] and not meets_requirements(conn, guild_id, after):
        if was["enabled"]:
            raise ApiError(400, BELOW_REQUIREMENTS, "Cannot update onboarding while below requirements")
        raise ApiError(400, CANNOT_ENABLE, "Cannot enable onboarding, requirements are not met")
    conn.execute("INSERT OR REPLACE INTO guild_onboarding (guild_id, enabled, mode, default_channel_ids, prompts)"
                 " VALUES (?, ?, ?, ?, ?)", (guild_id, int(after["enabled"]), after["mode"],
                                             json.dumps(after["default_channel_ids"]), json.dumps(after["prompts"])))
    if outbox is not None and actor_id is not None:
        _audit(conn, guild_id, actor_id, before, after)
    add = ([GUILD_ONBOARDING, GUILD_ONBOARDING_EVER_ENABLED] if after["enabled"] else []) + \
        ([GUILD_ONBOARDING_HAS_PROMPTS] if after["prompts"] else [])
    remove = ([] if after["enabled"] else [GUILD_ONBOARDING]) + \
        ([] if after["prompts"] else [GUILD_ONBOARDING_HAS_PROMPTS])
    switch(conn, outbox, now, guild_id, add=add, remove=remove)
    return render(conn, guild_id)


def _settings(values: dict[str, Any]) -> dict[str, Any]:
    return {key: values[key] for key in SETTINGS_KEYS}


def _audit(conn: sqlite3.Connection, guild_id: int, actor_id: int, before: dict[str, Any] | None,
           after: dict[str, Any]) -> None:
    if before is None:
        record(conn, guild_id=guild_id, user_id=actor_id, action_type=actions.ONBOARDING_CREATE,
               target_id=guild_id, changes=diff(None, _settings(after)))
    else:
        changes = diff(_settings(before), _settings(after))
        if changes:
            record(conn, guild_id=guild_id, user_id=actor_id, action_type=actions.ONBOARDING_UPDATE,
                   target_id=guild_id, changes=changes)
    old = {p["id"]: p for p in (before or {}).get("prompts", [])}
    new = {p["id"]: p for p in after["prompts"]}
    for prompt_id in [*new, *(i for i in old if i not in new)]:
        was, now = old.get(prompt_id), new.get(prompt_id)
        if was == now:
            continue
        kind = (actions.ONBOARDING_PROMPT_CREATE if was is None else
                actions.ONBOARDING_PROMPT_DELETE if now is None else actions.ONBOARDING_PROMPT_UPDATE)
        record(conn, guild_id=guild_id, user_id=actor_id, action_type=kind, target_id=int(prompt_id),
               changes=diff(_prompt_fields(was), _prompt_fields(now)))


def _prompt_fields(prompt: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if prompt is None else {key: _prompt_json(prompt)[key] for key in PROMPT_KEYS}
