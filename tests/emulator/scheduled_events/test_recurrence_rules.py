"""Recurrence rules on scheduled event create and modify: accepted as the platform limits them (and
answered with every key), refused with 50035 under ``recurrence_rule`` otherwise, nothing written."""

from __future__ import annotations

from typing import Any

import pytest
from channel_helpers import grant_bot, set_clock
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission
from social_helpers import GUILD_ID, bot

EVENTS = f"/guilds/{GUILD_ID}/scheduled-events"
START = "2026-06-01T18:00:00Z"   # a Monday


def event(rule: Any) -> dict[str, Any]:
    return {"name": "Raid night", "privacy_level": 2, "entity_type": 3, "scheduled_start_time": START,
            "scheduled_end_time": "2026-06-01T20:00:00Z", "entity_metadata": {"location": "The keep"},
            "recurrence_rule": rule}


@pytest.fixture
def emu(platformpp_emulator: Emulator) -> Emulator:
    set_clock(platformpp_emulator, "2026-03-01T00:00:00Z")
    grant_bot(platformpp_emulator, Permission.CREATE_EVENTS | Permission.MANAGE_EVENTS)
    return platformpp_emulator


@pytest.mark.parametrize("rule", [
    {"start": START, "frequency": 3},
    {"start": START, "frequency": 3, "by_weekday": [0, 1, 2, 3, 4]},
    {"start": START, "frequency": 3, "by_weekday": [6, 0], "interval": 1},
    {"start": START, "frequency": 2, "by_weekday": [0], "interval": 2},
    {"start": START, "frequency": 1, "by_n_weekday": [{"n": 1, "day": 0}]},
    {"start": START, "frequency": 0, "by_month": [6], "by_month_day": [1]},
    {"start": START, "frequency": 2, "interval": None, "count": None, "end": None, "by_year_day": None},
])
def test_accepted_rules_are_answered_whole(emu: Emulator, rule: dict[str, Any]) -> None:
    with bot(emu) as http:
        created = http.post(EVENTS, json=event(rule))
        assert created.status_code == 200, created.text
        answered = created.json()["recurrence_rule"]
        assert answered["frequency"] == rule["frequency"] and answered["interval"] == (rule.get("interval") or 1)
        assert set(answered) >= {"start", "by_weekday", "by_n_weekday", "by_month", "by_month_day"}
        assert http.get(f"{EVENTS}/{created.json()['id']}").json()["recurrence_rule"] == answered


@pytest.mark.parametrize(("rule", "field"), [
    ({"start": START, "frequency": 3, "count": 5}, "count"),
    ({"start": START, "frequency": 3, "end": "2027-01-01T00:00:00Z"}, "end"),
    ({"start": START, "frequency": 0, "by_year_day": [10]}, "by_year_day"),
    ({"start": START, "frequency": 3, "by_weekday": [0, 2]}, "by_weekday"),          # not a known set
    ({"start": START, "frequency": 2, "by_weekday": [0, 1]}, "by_weekday"),          # weekly: one day
    ({"start": START, "frequency": 1, "by_weekday": [0]}, "by_weekday"),             # monthly by weekday
    ({"start": START, "frequency": 1, "by_n_weekday": [{"n": 1, "day": 0}, {"n": 3, "day": 0}]}, "by_n_weekday"),
    ({"start": START, "frequency": 2, "by_n_weekday": [{"n": 1, "day": 0}]}, "by_n_weekday"),
    ({"start": START, "frequency": 1, "by_n_weekday": [{"n": 6, "day": 0}]}, "by_n_weekday"),
    ({"start": START, "frequency": 0, "by_month": [6]}, "by_month_day"),              # both needed
    ({"start": START, "frequency": 0, "by_month": [6, 7], "by_month_day": [1]}, "by_month"),
    ({"start": START, "frequency": 3, "by_month": [6], "by_month_day": [1]}, "by_month"),
    ({"start": START, "frequency": 2, "by_weekday": [0], "by_n_weekday": [{"n": 1, "day": 0}]}, "by_n_weekday"),
    ({"start": START, "frequency": 3, "interval": 2}, "interval"),
    ({"start": START, "frequency": 2, "interval": 3}, "interval"),
    ({"start": START, "frequency": 4}, "frequency"),
    ({"frequency": 3}, "start"),
    ({"start": "next monday", "frequency": 3}, "start"),
    ("daily", None),
])
def test_refused_rules_name_the_field_and_write_nothing(emu: Emulator, rule: Any, field: str | None) -> None:
    with bot(emu) as http:
        refused = http.post(EVENTS, json=event(rule))
        assert refused.status_code == 400 and refused.json()["code"] == 50035
        errors = refused.json()["errors"]["recurrence_rule"]
        assert "_errors" in errors if field is None else field in errors, errors
        assert http.get(EVENTS).json() == []


def test_a_rule_is_set_and_cleared_by_modify(emu: Emulator) -> None:
    with bot(emu) as http:
        created = http.post(EVENTS, json=event(None)).json()
        assert created["recurrence_rule"] is None and created["guild_scheduled_event_exceptions"] == []
        url = f"{EVENTS}/{created['id']}"
        set_rule = http.patch(url, json={"recurrence_rule": {"start": START, "frequency": 2, "by_weekday": [0]}})
        assert set_rule.json()["recurrence_rule"]["by_weekday"] == [0]
        bad = http.patch(url, json={"recurrence_rule": {"start": START, "frequency": 2, "by_weekday": [0, 1]}})
        assert bad.status_code == 400 and "by_weekday" in bad.json()["errors"]["recurrence_rule"]
        assert http.get(url).json()["recurrence_rule"]["by_weekday"] == [0]
        assert http.patch(url, json={"recurrence_rule": None}).json()["recurrence_rule"] is None


def test_rule_errors_are_reported_with_the_other_fields_errors(emu: Emulator) -> None:
    body = {**event({"start": START, "frequency": 2, "by_weekday": [0, 1]}), "name": ""}
    with bot(emu) as http:
        refused = http.post(EVENTS, json=body).json()
        assert set(refused["errors"]) == {"name", "recurrence_rule"}
        assert "by_weekday" in refused["errors"]["recurrence_rule"]
