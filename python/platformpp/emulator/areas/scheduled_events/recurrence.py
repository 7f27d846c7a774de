"""Recurrence rules of scheduled events, read and checked as the platform limits them, and which
instants are occurrences of a rule.

The platform accepts a subset of iCalendar rules (its "system limitations"): ``count``, ``end`` and
``by_year_day`` cannot be set; ``by_weekday``, ``by_n_weekday`` and ``by_month`` + ``by_month_day``
exclude one another; ``by_weekday`` is for daily events (one of six known sets of days) and weekly
ones (one day); ``by_n_weekday`` for monthly events (one entry); ``by_month`` and ``by_month_day``
for yearly events (both, one entry each); ``interval`` is 1, or 2 for a weekly event (every other
week). An occurrence starts at the rule's ``start`` time of day, on a day the rule names."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from ...core.clock import format_instant, parse_instant
from ...core.snowflake import EPOCH_MS
from ...core.validation import Form

YEARLY, MONTHLY, WEEKLY, DAILY = 0, 1, 2, 3
# The sets of weekdays (0 Monday … 6 Sunday) a daily rule may name.
DAILY_WEEKDAY_SETS = (
    frozenset({0, 1, 2, 3, 4}),   # Monday to Friday
    frozenset({1, 2, 3, 4, 5}),   # Tuesday to Saturday
    frozenset({6, 0, 1, 2, 3}),   # Sunday to Thursday
    frozenset({4, 5}),            # Friday and Saturday
    frozenset({5, 6}),            # Saturday and Sunday
    frozenset({6, 0}),            # Sunday and Monday
)
_NOT_SETTABLE = ("count", "end", "by_year_day")


def _int_list(form: Form, name: str, low: int, high: int) -> list[int] | None:
    values = form.array(name, required=False)
    if values is None:
        return None
    result = []
    for index, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int):
            form.errors.add((*form.path, name, index), "NUMBER_TYPE_COERCE", "Value is not an integer.")
        elif not low <= value <= high:
            form.errors.add((*form.path, name, index), "NUMBER_TYPE_OUT_OF_RANGE", f"Must be from {low} to {high}.")
        else:
            result.append(value)
    if len(set(result)) != len(result):
        form.fail(name, "BASE_TYPE_DUPLICATES", "Values must be unique.")
    return result


def _n_weekdays(form: Form) -> list[dict[str, int]] | None:
    values = form.array("by_n_weekday", required=False)
    if values is None:
        return None
    result = []
    for index, value in enumerate(values):
        item = form.item("by_n_weekday", index, value)
        n = item.integer("n", minimum=1, maximum=5)
        day = item.integer("day", minimum=0, maximum=6)
        if n is not None and day is not None:
            result.append({"n": n, "day": day})
    return result


def _failed(rule: Form) -> bool:
    """Whether a field of the rule has an error (errors of the rest of the body do not count)."""
    node = rule.errors.tree
    for part in rule.path:
        node = node.get(str(part), {})
    return bool(node)


def _bad(form: Form, name: str, message: str) -> None:
    form.fail(name, "GUILD_SCHEDULED_EVENT_RECURRENCE_RULE_INVALID", message)


def read_rule(form: Form) -> dict[str, Any] | None:
    """The ``recurrence_rule`` of an event body as it is answered (every key present), or None for
    null; its field errors are added to ``form`` under ``recurrence_rule``."""
    if form.data.get("recurrence_rule") is None:
        return None
    if not isinstance(form.data["recurrence_rule"], dict):
        form.fail("recurrence_rule", "DICT_TYPE_CONVERT", "Must be an object.")
        return None
    rule = form.obj("recurrence_rule")
    assert rule is not None
    start_text = rule.string("start")
    start = None
    if start_text is not None:
        try:
            start = parse_instant(start_text)
        except ValueError as exc:
            rule.fail("start", "DATE_TYPE_CONVERT", str(exc))
    frequency = rule.choice("frequency", (YEARLY, MONTHLY, WEEKLY, DAILY))
    interval = rule.data.get("interval")
    if interval is None:
        interval = 1
    else:
        interval = rule.integer("interval", minimum=1)
    by_weekday = _int_list(rule, "by_weekday", 0, 6)
    by_n_weekday = _n_weekdays(rule)
    by_month = _int_list(rule, "by_month", 1, 12)
    by_month_day = _int_list(rule, "by_month_day", 1, 31)
    for name in _NOT_SETTABLE:
        if rule.data.get(name) is not None:
            _bad(rule, name, f"{name} cannot be set.")
    if _failed(rule):
        return None
    named = [name for name, value in (("by_weekday", by_weekday), ("by_n_weekday", by_n_weekday),
                                      ("by_month", by_month or by_month_day)) if value]
    if len(named) > 1:
        _bad(rule, named[1], f"{' and '.join(named)} cannot be combined.")
    if by_weekday:
        if frequency == DAILY and frozenset(by_weekday) not in DAILY_WEEKDAY_SETS:
            _bad(rule, "by_weekday", "A daily event recurs on one of the known sets of weekdays.")
        elif frequency == WEEKLY and len(by_weekday) != 1:
            _bad(rule, "by_weekday", "A weekly event recurs on one day of the week.")
        elif frequency not in (DAILY, WEEKLY):
            _bad(rule, "by_weekday", "Only daily and weekly events recur by weekday.")
    if by_n_weekday:
        if frequency != MONTHLY:
            _bad(rule, "by_n_weekday", "Only monthly events recur on the nth weekday.")
        elif len(by_n_weekday) != 1:
            _bad(rule, "by_n_weekday", "A monthly event recurs on one day of a month.")
    if by_month or by_month_day:
        if frequency != YEARLY:
            _bad(rule, "by_month" if by_month else "by_month_day", "Only yearly events recur by month and day.")
        elif not (by_month and by_month_day):
            _bad(rule, "by_month_day" if by_month else "by_month", "A yearly event names both a month and a day.")
        elif len(by_month) != 1 or len(by_month_day) != 1:
            _bad(rule, "by_month", "A yearly event recurs on one month and one day.")
    if interval != 1 and not (interval == 2 and frequency == WEEKLY):
        _bad(rule, "interval", "The interval is 1, or 2 for a weekly event.")
    if _failed(rule) or start is None:
        return None
    return {"start": format_instant(start), "end": None, "frequency": frequency, "interval": interval,
            "by_weekday": by_weekday or None, "by_n_weekday": by_n_weekday or None, "by_month": by_month or None,
            "by_month_day": by_month_day or None, "by_year_day": None, "count": None}


def is_occurrence(rule: dict[str, Any], instant: datetime) -> bool:
    """Whether an occurrence of ``rule`` starts at ``instant``."""
    start = parse_instant(rule["start"])
    if instant < start or instant.timetz() != start.timetz():
        return False
    frequency, day = rule["frequency"], instant.date()
    if frequency == DAILY:
        return not rule["by_weekday"] or day.weekday() in rule["by_weekday"]
    if frequency == WEEKLY:
        weekday = rule["by_weekday"][0] if rule["by_weekday"] else start.weekday()
        first_monday = start.date() - timedelta(days=start.weekday())
        return day.weekday() == weekday and ((day - first_monday).days // 7) % rule["interval"] == 0
    if frequency == MONTHLY:
        if rule["by_n_weekday"]:
            wanted = rule["by_n_weekday"][0]
            return day.weekday() == wanted["day"] and (day.day - 1) // 7 + 1 == wanted["n"]
        return day.day == start.day
    month, month_day = ((rule["by_month"][0], rule["by_month_day"][0]) if rule["by_month"]
                        else (start.month, start.day))
    return (day.month, day.day) == (month, month_day)


def occurrence_id(instant: datetime) -> int:
    """The id of the occurrence that starts at ``instant``: the snowflake of that time."""
    return (int(instant.timestamp() * 1000) - EPOCH_MS) << 22
