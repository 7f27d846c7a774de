"""Reading an application command body (create, edit, bulk overwrite) with the platform's rules:
names per type, descriptions, options and choices, required before optional, autocomplete,
localizations, default_member_permissions, contexts, integration_types, nsfw. Every bad field is
recorded at its path and raised as one 50035 by the caller."""

from __future__ import annotations

import unicodedata
from typing import Any

from ...core.permissions import ALL
from ...core.validation import Form

CHAT_INPUT, USER, MESSAGE, PRIMARY_ENTRY_POINT = 1, 2, 3, 4
COMMAND_TYPES = (CHAT_INPUT, USER, MESSAGE, PRIMARY_ENTRY_POINT)
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER_OPTION, CHANNEL, ROLE, MENTIONABLE, NUMBER, \
    ATTACHMENT = range(1, 12)
OPTION_TYPES = tuple(range(1, 12))
CHOICE_TYPES = frozenset({STRING, INTEGER, NUMBER})
MAX_OPTIONS = 25
MAX_CHOICES = 25
# The name, description, option names/descriptions and choice names/values of one command together.
MAX_COMMAND_CHARACTERS = 4000
INT53 = (1 << 53) - 1
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl", "pt-BR",
    "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko"})
CONTEXTS = (0, 1, 2)            # GUILD, BOT_DM, PRIVATE_CHANNEL
INTEGRATION_TYPES = (0, 1)      # GUILD_INSTALL, USER_INSTALL
HANDLERS = (1, 2)               # APP_HANDLER, the platform launches the activity
_NAME_PUNCTUATION = frozenset("-_'")


def _is_name_char(ch: str) -> bool:
    category = unicodedata.category(ch)
    return ch in _NAME_PUNCTUATION or category[0] in "LN" or category in ("Mn", "Mc")


def _check_chat_name(form: Form, name: str, value: str) -> None:
    """CHAT_INPUT names and option names: 1–32 letters, digits, - _ ', lower case where a letter has one."""
    if not all(_is_name_char(ch) for ch in value):
        form.fail(name, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    elif value != value.lower():
        form.fail(name, "APPLICATION_COMMAND_INVALID_NAME", "Command name must be lower case")


def _name(form: Form, key: str, *, chat: bool) -> str | None:
    value = form.string(key, min_len=1, max_len=32)
    if value is not None and chat:
        _check_chat_name(form, key, value)
    return value


def _localizations(form: Form, key: str, *, max_len: int, chat_names: bool = False) -> dict[str, str] | None:
    sub = form.obj(key, required=False, nullable=True)
    if sub is None:
        return None
    result = {}
    for locale, value in sub.data.items():
        if locale not in LOCALES:
            sub.fail(locale, "BASE_TYPE_CHOICES", f"Locale must be one of {sorted(LOCALES)}.")
            continue
        text = sub.string(locale, min_len=1, max_len=max_len)
        if text is not None and chat_names:
            _check_chat_name(sub, locale, text)
        if text is not None:
            result[locale] = text
    return result


class _Counter:
    def __init__(self) -> None:
        self.characters = 0

    def add(self, *values: Any) -> None:
        self.characters += sum(len(str(v)) for v in values if v is not None)


def _choices(option: Form, kind: int, counter: _Counter) -> list[dict[str, Any]] | None:
    raw = option.array("choices", required=False, max_items=MAX_CHOICES)
    if not raw:   # absent, null or [] (what libraries send for every option): no choices
        return None
    if kind not in CHOICE_TYPES:
        option.fail("choices", "APPLICATION_COMMAND_OPTION_CHOICES_INVALID",
                    "Only string, integer and number options have choices.")
        return None
    result, names = [], set()
    for index, item in enumerate(raw):
        choice = option.item("choices", index, item)
        name = choice.string("name", min_len=1, max_len=100)
        if kind == STRING:
            value: Any = choice.string("value", min_len=1, max_len=100)
        elif kind == INTEGER:
            value = choice.integer("value", minimum=-INT53, maximum=INT53)
        else:
            value = choice.number("value", minimum=-float(INT53), maximum=float(INT53))
            value = choice.data.get("value") if value is not None else None
        if name in names:
            choice.fail("name", "APPLICATION_COMMAND_OPTION_CHOICE_DUPLICATE", "Choice names must be unique.")
        names.add(name)
        counter.add(name, value)
        result.append({"name": name, "name_localizations": _localizations(choice, "name_localizations", max_len=100),
                       "value": value})
    return result


def _option(form: Form, depth: int, counter: _Counter) -> dict[str, Any]:
    """One option; ``depth`` 0 for a command's own options, 1 inside a group or subcommand, 2 inside a
    subcommand of a group."""
    kind = form.choice("type", OPTION_TYPES)
    name = _name(form, "name", chat=True)
    description = form.string("description", min_len=1, max_len=100)
    counter.add(name, description)
    option: dict[str, Any] = {
        "type": kind, "name": name, "description": description,
        "name_localizations": _localizations(form, "name_localizations", max_len=32, chat_names=True),
        "description_localizations": _localizations(form, "description_localizations", max_len=100),
    }
    if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
        if kind == SUB_COMMAND_GROUP and depth > 0 or kind == SUB_COMMAND and depth > 1:
            form.fail("type", "APPLICATION_COMMAND_OPTION_NESTING",
                      "Subcommand groups only at the top; subcommands at the top or in a group.")
        if form.data.get("required"):
            form.fail("required", "APPLICATION_COMMAND_OPTION_INVALID", "Subcommands cannot be required.")
        option["options"] = _options(form, depth + 1, counter, group=kind == SUB_COMMAND_GROUP)
        return option
    option["required"] = form.boolean("required")
    choices = _choices(form, kind, counter) if kind is not None else None
    if choices is not None:
        option["choices"] = choices
    autocomplete = form.boolean("autocomplete")
    if autocomplete:
        if kind not in CHOICE_TYPES:
            form.fail("autocomplete", "APPLICATION_COMMAND_OPTION_INVALID",
                      "Only string, integer and number options can autocomplete.")
        if choices:
            form.fail("autocomplete", "APPLICATION_COMMAND_AUTOCOMPLETE_WITH_CHOICES",
                      "Autocomplete and choices cannot both be set.")
        option["autocomplete"] = True
    if kind in (INTEGER, NUMBER):
        read = form.integer if kind == INTEGER else form.number
        low = read("min_value", required=False, minimum=-INT53, maximum=INT53)
        high = read("max_value", required=False, minimum=-INT53, maximum=INT53)
        if low is not None and high is not None and low > high:
            form.fail("min_value", "NUMBER_TYPE_MAX", "min_value must be less than or equal to max_value.")
        if low is not None:
            option["min_value"] = form.data["min_value"]
        if high is not None:
            option["max_value"] = form.data["max_value"]
    elif kind == STRING:
        low = form.integer("min_length", required=False, minimum=0, maximum=6000)
        high = form.integer("max_length", required=False, minimum=1, maximum=6000)
        if low is not None and high is not None and low > high:
            form.fail("min_length", "NUMBER_TYPE_MAX", "min_length must be less than or equal to max_length.")
        if low is not None:
            option["min_length"] = low
        if high is not None:
            option["max_length"] = high
    for key in ("min_value", "max_value") if kind not in (INTEGER, NUMBER) else ():
        if form.data.get(key) is not None:
            form.fail(key, "APPLICATION_COMMAND_OPTION_INVALID", "Only integer and number options have this.")
    for key in ("min_length", "max_length") if kind != STRING else ():
        if form.data.get(key) is not None:
            form.fail(key, "APPLICATION_COMMAND_OPTION_INVALID", "Only string options have this.")
    if kind == CHANNEL and form.data.get("channel_types") is not None:
        types = form.array("channel_types", required=False) or []
        for index, value in enumerate(types):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                form.errors.add((*form.path, "channel_types", index), "BASE_TYPE_CHOICES", "Must be a channel type.")
        option["channel_types"] = list(dict.fromkeys(types))
    elif form.data.get("channel_types") not in (None, []):   # [] is none, as for choices
        form.fail("channel_types", "APPLICATION_COMMAND_OPTION_INVALID", "Only channel options have channel_types.")
    return option


def _options(form: Form, depth: int, counter: _Counter, *, group: bool = False) -> list[dict[str, Any]]:
    raw = form.array("options", required=False, max_items=MAX_OPTIONS) or []
    options = [_option(form.item("options", index, item), depth, counter) for index, item in enumerate(raw)]
    kinds = [o["type"] for o in options]
    subs = [k in (SUB_COMMAND, SUB_COMMAND_GROUP) for k in kinds]
    # Errors of the level go on the offending options' ``type`` (a node holds errors or children).
    for index, kind in enumerate(kinds):
        if group and kind != SUB_COMMAND:
            form.errors.add((*form.path, "options", index, "type"), "APPLICATION_COMMAND_OPTION_NESTING",
                            "A subcommand group holds only subcommands.")
        elif not group and any(subs) and not subs[index]:
            form.errors.add((*form.path, "options", index, "type"), "APPLICATION_COMMAND_OPTION_NESTING",
                            "Subcommands and groups cannot be mixed with other options.")
    seen_optional = False
    names: set[str] = set()
    for index, option in enumerate(options):
        if option.get("required") and seen_optional:
            form.errors.add((*form.path, "options", index, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                            "Required options must be placed before non-required options")
        seen_optional = seen_optional or (not option.get("required") and option["type"] not in (1, 2))
        if option["name"] in names:
            form.errors.add((*form.path, "options", index, "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                            "Option names must be unique")
        names.add(option["name"])
    return options


def _permissions(form: Form) -> str | None:
    raw = form.data.get("default_member_permissions")
    if raw is None:
        return None
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= 20:
        raw = int(raw)
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0 or raw & ~ALL:
        form.fail("default_member_permissions", "NUMBER_TYPE_COERCE", "Must be a permission integer (as a string).")
        return None
    return str(raw)


def _enum_list(form: Form, key: str, allowed: tuple[int, ...]) -> list[int] | None:
    raw = form.array(key, required=False, min_items=1)
    if raw is None:
        return None
    for index, value in enumerate(raw):
        if isinstance(value, bool) or value not in allowed:
            form.errors.add((*form.path, key, index), "BASE_TYPE_CHOICES", f"Value must be one of {list(allowed)}.")
    if len(set(map(str, raw))) != len(raw):
        form.fail(key, "BASE_TYPE_UNIQUE", "Values must be unique.")
    return [v for v in raw if v in allowed]


def read_command(form: Form, *, guild: bool, partial: dict[str, Any] | None = None) -> dict[str, Any]:
    """The stored form of a command. ``partial``: the current command when editing (PATCH): absent
    fields keep their value. Errors are recorded in ``form``; call ``form.done()`` after."""
    data = form.data
    current = partial or {}
    kind = current.get("type", CHAT_INPUT)
    if partial is None and data.get("type") is not None:
        kind = form.choice("type", COMMAND_TYPES)
    elif partial is not None and data.get("type") is not None and data["type"] != kind:
        form.fail("type", "APPLICATION_COMMAND_TYPE_IMMUTABLE", "The type of a command cannot change.")
    chat = kind == CHAT_INPUT
    counter = _Counter()
    command: dict[str, Any] = dict(current) if partial is not None else {"type": kind}
    if partial is None or "name" in data:
        command["name"] = _name(form, "name", chat=chat)
    if partial is None or "description" in data:
        if chat or kind == PRIMARY_ENTRY_POINT:
            command["description"] = form.string("description", min_len=1, max_len=100)
        else:
            description = data.get("description")
            if description not in (None, ""):
                form.fail("description", "APPLICATION_COMMAND_INVALID_DESCRIPTION",
                          "User and message commands have no description.")
            command["description"] = ""
    if partial is None or "name_localizations" in data:
        command["name_localizations"] = _localizations(form, "name_localizations", max_len=32, chat_names=chat)
    if partial is None or "description_localizations" in data:
        command["description_localizations"] = _localizations(form, "description_localizations", max_len=100)
    if partial is None or "options" in data:
        if data.get("options") and not chat:
            form.fail("options", "APPLICATION_COMMAND_OPTION_INVALID", "Only chat input commands have options.")
            command["options"] = []
        else:
            command["options"] = _options(form, 0, counter)
    if partial is None or "default_member_permissions" in data:
        command["default_member_permissions"] = _permissions(form)
    if partial is None or "dm_permission" in data:
        command["dm_permission"] = form.boolean("dm_permission", default=True) if data.get("dm_permission") \
            is not None else True
    if partial is None or "contexts" in data:
        command["contexts"] = _enum_list(form, "contexts", CONTEXTS)
    if partial is None or "integration_types" in data:
        command["integration_types"] = _enum_list(form, "integration_types", INTEGRATION_TYPES) or [0]
    if partial is None or "nsfw" in data:
        command["nsfw"] = form.boolean("nsfw") if data.get("nsfw") is not None else False
    if kind == PRIMARY_ENTRY_POINT:
        if guild:
            form.fail("type", "APPLICATION_COMMAND_INVALID_TYPE", "Entry point commands are global only.")
        if partial is None or "handler" in data:
            command["handler"] = form.choice("handler", HANDLERS)
    elif data.get("handler") is not None:
        form.fail("handler", "APPLICATION_COMMAND_INVALID", "Only entry point commands have a handler.")
    counter.add(command.get("name"), command.get("description"))
    if counter.characters > MAX_COMMAND_CHARACTERS and not form.errors:   # judged on an otherwise valid command
        form.fail("options", "APPLICATION_COMMAND_TOO_LARGE",
                  f"Command exceeds maximum size ({MAX_COMMAND_CHARACTERS})")
    return command
