"""Reading a rule's fields from a request body or a world file: the platform's types and field limits,
each bad field named in the 50035. What needs the database (the guild's channels and roles, the
per-guild limits, which actions a trigger allows) is checked by store.py."""

from __future__ import annotations

from typing import Any

from ...core.validation import Form
from .matching import regex_problem

# Trigger types
KEYWORD, SPAM, KEYWORD_PRESET, MENTION_SPAM, MEMBER_PROFILE = 1, 3, 4, 5, 6
TRIGGER_TYPES = (KEYWORD, SPAM, KEYWORD_PRESET, MENTION_SPAM, MEMBER_PROFILE)
# Event types
MESSAGE_SEND, MEMBER_UPDATE = 1, 2
# Action types
BLOCK_MESSAGE, SEND_ALERT_MESSAGE, TIMEOUT, BLOCK_MEMBER_INTERACTION = 1, 2, 3, 4
ACTION_TYPES = (BLOCK_MESSAGE, SEND_ALERT_MESSAGE, TIMEOUT, BLOCK_MEMBER_INTERACTION)
PRESETS = (1, 2, 3)   # profanity, sexual content, slurs

NAME_MAX = 100
KEYWORDS_MAX, KEYWORD_LEN_MAX = 1000, 60
PATTERNS_MAX, PATTERN_LEN_MAX = 10, 260
ALLOW_LIST_MAX = {KEYWORD: 100, MEMBER_PROFILE: 100, KEYWORD_PRESET: 1000}
MENTION_TOTAL_MAX = 50
CUSTOM_MESSAGE_MAX = 150
TIMEOUT_MAX_SECONDS = 2419200   # four weeks
ACTIONS_MAX = 5
EXEMPT_ROLES_MAX, EXEMPT_CHANNELS_MAX = 20, 50


def _strings(form: Form, name: str, *, max_items: int, max_len: int) -> list[str] | None:
    items = form.array(name, required=False, max_items=max_items)
    if items is None:
        return None
    result: list[str] = []
    for index, item in enumerate(items):
        if not isinstance(item, str):
            form.errors.add((*form.path, name, index), "BASE_TYPE_STRING", "Must be a string.")
        elif not 1 <= len(item) <= max_len:
            form.errors.add((*form.path, name, index), "BASE_TYPE_BAD_LENGTH",
                            f"Must be between 1 and {max_len} in length.")
        else:
            result.append(item)
    return result


def _snowflakes(form: Form, name: str, *, max_items: int) -> list[int] | None:
    items = form.array(name, required=False, max_items=max_items)
    if items is None:
        return None
    listed = Form({}, form.errors, (*form.path, name))   # names each bad id by its index
    result: list[int] = []
    for index, item in enumerate(items):
        number = listed.coerce_snowflake(index, item)
        if number is not None and number not in result:   # repeats are one id, as the platform keeps them
            result.append(number)
    return result


def read_trigger_metadata(form: Form, trigger_type: int) -> dict[str, Any]:
    """``trigger_metadata`` (absent or null: the trigger's defaults) in the shape the platform answers."""
    meta = (form.obj("trigger_metadata", required=False, nullable=True)
            or Form({}, form.errors, (*form.path, "trigger_metadata")))
    allow_max = ALLOW_LIST_MAX.get(trigger_type, 100)
    if trigger_type in (KEYWORD, MEMBER_PROFILE):
        patterns = _strings(meta, "regex_patterns", max_items=PATTERNS_MAX, max_len=PATTERN_LEN_MAX) or []
        for index, pattern in enumerate(patterns):
            problem = regex_problem(pattern)
            if problem is not None:
                meta.errors.add((*meta.path, "regex_patterns", index), "AUTO_MODERATION_INVALID_REGEX", problem)
        return {"keyword_filter": _strings(meta, "keyword_filter", max_items=KEYWORDS_MAX,
                                           max_len=KEYWORD_LEN_MAX) or [],
                "regex_patterns": patterns,
                "allow_list": _strings(meta, "allow_list", max_items=allow_max, max_len=KEYWORD_LEN_MAX) or []}
    if trigger_type == KEYWORD_PRESET:
        presets: list[int] = []
        for index, raw in enumerate(meta.array("presets", required=False) or []):
            if raw not in PRESETS or isinstance(raw, bool):
                meta.errors.add((*meta.path, "presets", index), "BASE_TYPE_CHOICES",
                                f"Value must be one of {list(PRESETS)}.")
            elif raw not in presets:
                presets.append(raw)
        return {"presets": presets,
                "allow_list": _strings(meta, "allow_list", max_items=allow_max, max_len=KEYWORD_LEN_MAX) or []}
    if trigger_type == MENTION_SPAM:
        return {"mention_total_limit": meta.integer("mention_total_limit", required=False, minimum=0,
                                                    maximum=MENTION_TOTAL_MAX, default=0) or 0,
                "mention_raid_protection_enabled": meta.boolean("mention_raid_protection_enabled")}
    return {}


def read_actions(form: Form) -> list[dict[str, Any]] | None:
    """``actions`` (1–5) in the shape the platform answers; None when absent."""
    items = form.array("actions", required=False, min_items=1, max_items=ACTIONS_MAX)
    if items is None:
        return None
    actions: list[dict[str, Any]] = []
    for index, raw in enumerate(items):
        item = form.item("actions", index, raw)
        kind = item.choice("type", ACTION_TYPES)
        meta = item.obj("metadata", required=kind in (SEND_ALERT_MESSAGE, TIMEOUT), nullable=True)
        shown: dict[str, Any] = {}
        if kind == BLOCK_MESSAGE and meta is not None:
            message = meta.string("custom_message", required=False, nullable=True, max_len=CUSTOM_MESSAGE_MAX)
            if message:
                shown["custom_message"] = message
        elif kind == SEND_ALERT_MESSAGE and meta is not None:
            channel_id = meta.snowflake("channel_id")
            shown["channel_id"] = None if channel_id is None else str(channel_id)
        elif kind == TIMEOUT and meta is not None:
            shown["duration_seconds"] = meta.integer("duration_seconds", minimum=0, maximum=TIMEOUT_MAX_SECONDS)
        if kind is not None:
            actions.append({"type": kind, "metadata": shown})
    return actions


def read_rule(form: Form, *, partial: bool, trigger_type: int | None = None) -> dict[str, Any]:
    """The rule's fields that ``form`` gives, as stored (JSON columns still as Python values).
    ``partial`` (PATCH): every field optional, the rule's ``trigger_type`` given by the caller."""
    fields: dict[str, Any] = {}
    if not partial or "name" in form.data:
        fields["name"] = form.string("name", min_len=1, max_len=NAME_MAX)
    if not partial or form.data.get("event_type") is not None:
        fields["event_type"] = form.choice("event_type", (MESSAGE_SEND, MEMBER_UPDATE))
    if partial:
        given = form.data.get("trigger_type")
        if given is not None and given != trigger_type:
            form.fail("trigger_type", "AUTO_MODERATION_TRIGGER_TYPE_IMMUTABLE", "A rule's trigger type cannot change.")
    else:
        trigger_type = form.choice("trigger_type", TRIGGER_TYPES)
        fields["trigger_type"] = trigger_type
    if trigger_type is not None and (not partial or form.data.get("trigger_metadata") is not None):
        fields["trigger_metadata"] = read_trigger_metadata(form, trigger_type)
    actions = read_actions(form)
    if actions is not None:
        fields["actions"] = actions
    elif not partial:
        fields["actions"] = []
    if not partial or form.data.get("enabled") is not None:
        fields["enabled"] = form.boolean("enabled") if form.data.get("enabled") is not None else False
    for name, limit in (("exempt_roles", EXEMPT_ROLES_MAX), ("exempt_channels", EXEMPT_CHANNELS_MAX)):
        ids = _snowflakes(form, name, max_items=limit)
        if ids is not None:
            fields[name] = ids
        elif not partial:
            fields[name] = []
    return fields
