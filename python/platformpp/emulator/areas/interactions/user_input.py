"""What a simulated user does, checked as the platform's client would check it before anything is
sent, and turned into an interaction's ``data``: a chat-input command with options (or its
autocomplete), a user or message command on a target, a button or select of a message, a modal
submission. A choice the client would never offer answers 50035 at the path of the bad input."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any

from ...core import components as c
from ...core.snowflake import snowflake_value
from ...events.audience import Payload
from ..commands import validation as cv
from .context import (
    Place,
    require,
    resolve_attachment,
    resolve_channel,
    resolve_message,
    resolve_role,
    resolve_user,
)

Path = tuple[str | int, ...]
# Stores one of the user's uploaded files (by its ``files[n]`` index) and returns the attachment.
UploadFn = Callable[[int], Payload | None]


def _option_value(conn: sqlite3.Connection, place: Place, option: dict[str, Any], value: Any, path: Path,
                  upload: UploadFn, *, focused: bool) -> Any:
    kind = option["type"]
    if focused:   # what the user has typed so far, as text
        require(isinstance(value, str), (*path, "value"), "BASE_TYPE_STRING", "A focused option's value is text.")
        return value
    if kind == cv.STRING:
        require(isinstance(value, str), (*path, "value"), "BASE_TYPE_STRING", "Must be a string.")
        low, high = option.get("min_length", 0), option.get("max_length", 6000)
        require(low <= len(value) <= high, (*path, "value"), "BASE_TYPE_BAD_LENGTH",
                f"Must be between {low} and {high} in length.")
    elif kind in (cv.INTEGER, cv.NUMBER):
        ok = isinstance(value, int) if kind == cv.INTEGER else isinstance(value, (int, float))
        require(ok and not isinstance(value, bool), (*path, "value"), "NUMBER_TYPE_COERCE", "Must be a number.")
        low, high = option.get("min_value"), option.get("max_value")
        require((low is None or value >= low) and (high is None or value <= high), (*path, "value"),
                "NUMBER_TYPE_OUT_OF_RANGE", f"Must be between {low} and {high}.")
    elif kind == cv.BOOLEAN:
        require(isinstance(value, bool), (*path, "value"), "BOOLEAN_TYPE_COERCE", "Must be true or false.")
    elif kind in (cv.USER_OPTION, cv.ROLE, cv.MENTIONABLE, cv.CHANNEL):
        target = snowflake_value(value)
        found = target is not None and (
            (kind in (cv.USER_OPTION, cv.MENTIONABLE) and resolve_user(conn, place, target))
            or (kind in (cv.ROLE, cv.MENTIONABLE) and resolve_role(conn, place, target))
            or (kind == cv.CHANNEL and resolve_channel(conn, place, target, option.get("channel_types"))))
        require(bool(found), (*path, "value"), "OPTION_TARGET_UNKNOWN",
                "No user, role or channel of this guild that the option accepts has this id.")
        return str(target)
    elif kind == cv.ATTACHMENT:
        index = value if isinstance(value, int) and not isinstance(value, bool) else None
        attachment = upload(index) if index is not None else None
        require(attachment is not None, (*path, "value"), "ATTACHMENT_NOT_FOUND",
                "An attachment option's value is the n of an uploaded files[n].")
        assert attachment is not None
        resolve_attachment(place, attachment)
        return attachment["id"]
    if option.get("choices") and kind in cv.CHOICE_TYPES:
        require(value in [choice["value"] for choice in option["choices"]], (*path, "value"), "BASE_TYPE_CHOICES",
                "Must be one of the option's choices.")
    return value


def _options(conn: sqlite3.Connection, place: Place, declared: list[dict[str, Any]], given: Any, path: Path,
             upload: UploadFn, *, autocomplete: bool, focus: list[Path]) -> list[Payload]:
    require(isinstance(given, list), path, "LIST_TYPE_CONVERT", "Must be an array of {name, value}.")
    by_name = {o["name"]: o for o in declared}
    result: list[Payload] = []
    names: set[str] = set()
    for index, raw in enumerate(given):
        item_path = (*path, index)
        require(isinstance(raw, dict) and raw.get("name") in by_name, (*item_path, "name"), "OPTION_UNKNOWN",
                f"The command has no option named {raw.get('name') if isinstance(raw, dict) else raw!r}.")
        option = by_name[raw["name"]]
        require(raw["name"] not in names, (*item_path, "name"), "OPTION_DUPLICATED", "Each option at most once.")
        names.add(raw["name"])
        if option["type"] in (cv.SUB_COMMAND, cv.SUB_COMMAND_GROUP):
            require(len(given) == 1, path, "OPTION_SUBCOMMAND", "Exactly one subcommand is chosen.")
            nested = _options(conn, place, option.get("options", []), raw.get("options", []),
                              (*item_path, "options"), upload, autocomplete=autocomplete, focus=focus)
            result.append({"type": option["type"], "name": option["name"], "options": nested})
            continue
        focused = bool(raw.get("focused")) and autocomplete
        if focused:
            require(bool(option.get("autocomplete")), (*item_path, "focused"), "OPTION_NOT_AUTOCOMPLETE",
                    "Only an option with autocomplete can be focused.")
            focus.append(item_path)
        value = _option_value(conn, place, option, raw.get("value"), item_path, upload, focused=focused)
        entry: Payload = {"type": option["type"], "name": option["name"], "value": value}
        if focused:
            entry["focused"] = True
        result.append(entry)
    if not autocomplete and not any(o["type"] in (cv.SUB_COMMAND, cv.SUB_COMMAND_GROUP) for o in declared):
        for option in declared:
            require(not option.get("required") or option["name"] in names, path, "OPTION_REQUIRED",
                    f"The required option {option['name']!r} is missing.")
    if declared and all(o["type"] in (cv.SUB_COMMAND, cv.SUB_COMMAND_GROUP) for o in declared):
        require(len(result) == 1, path, "OPTION_SUBCOMMAND", "Exactly one subcommand is chosen.")
    return result


def command_data(conn: sqlite3.Connection, place: Place, command: sqlite3.Row, raw_options: Any,
                 target_id: Any, upload: UploadFn, *, autocomplete: bool, target_message: Payload | None,
                 body: Payload | None = None) -> Payload:
    """``data`` of an APPLICATION_COMMAND (or APPLICATION_COMMAND_AUTOCOMPLETE) interaction (``body``:
    the command's body already decoded)."""
    if body is None:
        body = json.loads(command["body"])
    data: Payload = {"id": str(command["id"]), "name": body["name"], "type": command["type"]}
    if command["guild_id"]:
        data["guild_id"] = str(command["guild_id"])
    if command["type"] == cv.CHAT_INPUT:
        focus: list[Path] = []
        options = _options(conn, place, body.get("options", []), raw_options or [], ("options",), upload,
                           autocomplete=autocomplete, focus=focus)
        if autocomplete:
            require(len(focus) == 1, ("options",), "OPTION_FOCUS", "Autocomplete has exactly one focused option.")
        if options:
            data["options"] = options
    elif command["type"] == cv.USER:
        target = snowflake_value(target_id)
        require(target is not None and resolve_user(conn, place, target), ("target_id",), "TARGET_UNKNOWN",
                "A user command's target is a user.")
        data["target_id"] = str(target)
    elif command["type"] == cv.MESSAGE:
        require(target_message is not None, ("target_id",), "TARGET_UNKNOWN",
                "A message command's target is a message of the channel.")
        assert target_message is not None
        resolve_message(place, target_message)
        data["target_id"] = target_message["id"]
    else:   # an entry point: launched from the App Launcher, with nothing to fill in
        require(not raw_options, ("options",), "APPLICATION_COMMAND_OPTIONS_INVALID", "Entry point commands have no options.")
    return data


# --- components --------------------------------------------------------------------------------------------

def component_data(conn: sqlite3.Connection, place: Place, message: Payload, custom_id: Any, values: Any) -> Payload:
    """``data`` of a MESSAGE_COMPONENT interaction: a button clicked, or values chosen in a select."""
    component = c.find_component(message.get("components") or [], custom_id) if isinstance(custom_id, str) else None
    require(component is not None, ("custom_id",), "COMPONENT_UNKNOWN", "The message has no component with this id.")
    assert component is not None
    require(not component.get("disabled"), ("custom_id",), "COMPONENT_DISABLED", "The component is disabled.")
    kind = component["type"]
    data: Payload = {"custom_id": custom_id, "component_type": kind}
    if kind == c.BUTTON:
        require(values is None, ("values",), "COMPONENT_VALUES", "A button takes no values.")
        return data
    require(kind in c.SELECTS, ("custom_id",), "COMPONENT_NOT_INTERACTIVE", "This component cannot be used.")
    chosen = values if isinstance(values, list) else []
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    require(isinstance(values, list) and low <= len(chosen) <= high, ("values",), "BASE_TYPE_BAD_LENGTH",
            f"Choose between {low} and {high} values.")
    if kind == c.STRING_SELECT:
        offered = [option["value"] for option in component.get("options", [])]
        for index, value in enumerate(chosen):
            require(value in offered, ("values", index), "BASE_TYPE_CHOICES", "Must be one of the select's options.")
        data["values"] = chosen
        return data
    data["values"] = _resolve_ids(conn, place, kind, chosen, component.get("channel_types"))
    data["resolved"] = dict(place.resolved)
    place.resolved.clear()
    return data


def _resolve_ids(conn: sqlite3.Connection, place: Place, kind: int, chosen: list[Any],
                 channel_types: list[int] | None) -> list[str]:
    result = []
    for index, value in enumerate(chosen):
        target = snowflake_value(value)
        found = target is not None and (
            (kind in (c.USER_SELECT, c.MENTIONABLE_SELECT) and resolve_user(conn, place, target))
            or (kind in (c.ROLE_SELECT, c.MENTIONABLE_SELECT) and resolve_role(conn, place, target))
            or (kind == c.CHANNEL_SELECT and resolve_channel(conn, place, target, channel_types)))
        require(bool(found), ("values", index), "SELECT_TARGET_UNKNOWN", "No such user, role or channel here.")
        result.append(str(target))
    return result


# --- modals ------------------------------------------------------------------------------------------------

def modal_submit_data(conn: sqlite3.Connection, place: Place, modal: Payload, values: Any,
                      upload: UploadFn) -> Payload:
    """``data`` of a MODAL_SUBMIT: each field of the modal with the user's answer, checked against
    the modal (required, lengths, min/max values, choice among the options)."""
    require(isinstance(values, dict), ("values",), "DICT_TYPE_CONVERT", "values maps custom_id to the answer.")
    fields = {f["custom_id"]: f for f in c.modal_fields(modal["components"])}
    for key in values:
        require(key in fields, ("values", key), "COMPONENT_UNKNOWN", "The modal has no field with this custom_id.")
    answers = {key: _answer(conn, place, field, values.get(key), ("values", key), upload)
               for key, field in fields.items()}
    rows: list[Payload] = []
    for item in modal["components"]:
        if item["type"] == c.LABEL:
            rows.append({"type": c.LABEL, "id": item.get("id"),
                         "component": answers[item["component"]["custom_id"]]})
        elif item["type"] == c.ACTION_ROW:
            rows.append({"type": c.ACTION_ROW, "id": item.get("id"),
                         "components": [answers[child["custom_id"]] for child in item["components"]]})
        else:
            rows.append({"type": item["type"], "id": item.get("id")})
    _number(rows)
    data: Payload = {"custom_id": modal["custom_id"], "components": rows}
    if place.resolved:
        data["resolved"] = dict(place.resolved)
        place.resolved.clear()
    return data


def _number(components: list[Payload], counter: list[int] | None = None) -> None:
    """Components without an ``id`` get the next number in order, as the platform fills them in."""
    counter = counter if counter is not None else [0]
    for item in components:
        counter[0] += 1
        if item.get("id") is None:
            item["id"] = counter[0]
        nested = item.get("components") or ([item["component"]] if item.get("component") else [])
        _number(nested, counter)


def _answer(conn: sqlite3.Connection, place: Place, field: Payload, value: Any, path: Path,
            upload: UploadFn) -> Payload:
    kind, required = field["type"], field.get("required", True)
    answer: Payload = {"type": kind, "id": field.get("id"), "custom_id": field["custom_id"]}
    if kind == c.TEXT_INPUT:
        text = "" if value is None else value
        require(isinstance(text, str), path, "BASE_TYPE_STRING", "A text input's answer is text.")
        require(bool(text) or not required, path, "BASE_TYPE_REQUIRED", "This field is required")
        low, high = field.get("min_length", 0), field.get("max_length", 4000)
        require(not text or low <= len(text) <= high, path, "BASE_TYPE_BAD_LENGTH",
                f"Must be between {low} and {high} in length.")
        answer["value"] = text
    elif kind == c.RADIO_GROUP:
        offered = [o["value"] for o in field["options"]]
        require(value is not None or not required, path, "BASE_TYPE_REQUIRED", "Choose one option.")
        require(value is None or value in offered, path, "BASE_TYPE_CHOICES", "Must be one of the options.")
        answer["value"] = value
    elif kind == c.CHECKBOX:
        require(value is None or isinstance(value, bool), path, "BOOLEAN_TYPE_COERCE", "Must be true or false.")
        answer["value"] = bool(value)
    elif kind in (c.CHECKBOX_GROUP, c.STRING_SELECT, *c.SELECTS, c.FILE_UPLOAD):
        chosen = [] if value is None else value
        require(isinstance(chosen, list), path, "LIST_TYPE_CONVERT", "Must be an array.")
        low = field.get("min_values", 1 if kind != c.CHECKBOX_GROUP else 0)
        high = field.get("max_values", 1 if kind in c.SELECTS else len(field.get("options", [])) or 10)
        if kind == c.FILE_UPLOAD:
            high = field.get("max_values", 1)
        if not chosen and not required:
            low = 0
        require(low <= len(chosen) <= high, path, "BASE_TYPE_BAD_LENGTH", f"Choose between {low} and {high}.")
        if kind in (c.CHECKBOX_GROUP, c.STRING_SELECT):
            offered = [o["value"] for o in field["options"]]
            for index, item in enumerate(chosen):
                require(item in offered, (*path, index), "BASE_TYPE_CHOICES", "Must be one of the options.")
            answer["values"] = chosen
        elif kind == c.FILE_UPLOAD:
            ids = []
            for index, item in enumerate(chosen):
                attachment = upload(item) if isinstance(item, int) and not isinstance(item, bool) else None
                require(attachment is not None, (*path, index), "ATTACHMENT_NOT_FOUND",
                        "A file upload's answer lists the n of uploaded files[n].")
                assert attachment is not None
                resolve_attachment(place, attachment)
                ids.append(attachment["id"])
            answer["values"] = ids
        else:
            answer["values"] = _resolve_ids(conn, place, kind, chosen, field.get("channel_types"))
    return answer
