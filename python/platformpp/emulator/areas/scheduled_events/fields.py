"""Reading the fields of scheduled event and recurrence exception bodies (the routes and the fixture
section)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from ...core.clock import format_instant, parse_instant
from ...core.validation import Form
from . import store
from .exceptions import ExceptionFields
from .recurrence import read_rule
from .store import EXTERNAL, EventFields


def _datetime(form: Form, name: str, *, required: bool, nullable: bool) -> datetime | None:
    raw = form.string(name, required=required, nullable=nullable)
    if raw is None:
        return None
    try:
        return parse_instant(raw)
    except ValueError as exc:
        form.fail(name, "DATE_TYPE_CONVERT", str(exc))
        return None


def _instant(form: Form, name: str, *, required: bool, nullable: bool) -> str | None:
    value = _datetime(form, name, required=required, nullable=nullable)
    return format_instant(value) if value is not None else None


def read_fields(form: Form, *, creating: bool) -> EventFields:
    """The event fields of a create or modify body; field errors are recorded on ``form`` (the caller
    calls ``form.done()``)."""
    values: dict[str, Any] = {}

    def given(name: str) -> bool:
        return creating or name in form.data

    if given("name"):
        values["name"] = form.string("name", min_len=1, max_len=100)
    if "description" in form.data:
        values["description"] = form.string("description", required=False, max_len=1000, nullable=True)
    if "image" in form.data:
        values["image"] = form.string("image", required=False, nullable=True, max_len=10 * 1024 * 1024)
    if given("scheduled_start_time"):
        values["scheduled_start_time"] = _instant(form, "scheduled_start_time", required=True, nullable=False)
    if "scheduled_end_time" in form.data:
        values["scheduled_end_time"] = _instant(form, "scheduled_end_time", required=False, nullable=True)
    if given("privacy_level"):
        values["privacy_level"] = form.choice("privacy_level", (2,))
    if given("entity_type"):
        values["entity_type"] = form.choice("entity_type", (store.STAGE, store.VOICE, EXTERNAL))
    if "channel_id" in form.data:
        values["channel_id"] = form.snowflake("channel_id", required=False, nullable=True)
    if "entity_metadata" in form.data:
        metadata = form.obj("entity_metadata", required=False, nullable=True)
        if metadata is None:
            values["entity_metadata"] = None
        else:
            location = metadata.string("location", required=False, min_len=1, max_len=100)
            values["entity_metadata"] = json.dumps({"location": location} if location is not None else {})
    if "recurrence_rule" in form.data:
        rule = read_rule(form)
        values["recurrence_rule"] = json.dumps(rule) if rule is not None else None
    if not creating and "status" in form.data:
        values["status"] = form.choice("status", (1, 2, 3, 4))
    return EventFields(values)


def read_exception(form: Form, *, creating: bool) -> ExceptionFields:
    """The fields of an exception body; field errors are recorded on ``form``."""
    fields = ExceptionFields({})
    if creating:
        fields.original_start = _datetime(form, "original_scheduled_start_time", required=True, nullable=False)
    for name in ("scheduled_start_time", "scheduled_end_time"):
        if name in form.data:
            fields.values[name] = _instant(form, name, required=False, nullable=True)
    if form.data.get("is_canceled") is not None:
        fields.values["is_canceled"] = form.boolean("is_canceled")
    return fields
