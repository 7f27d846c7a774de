"""The privileged intents of an application (seed: Authentication 12) and the application flags that
show them. Below 10,000 users (the app's reach, ``approximate_user_count``) an intent is turned on by its
toggle, which sets the ``_LIMITED`` flag; from 10,000 users the toggle is refused unless the app holds an
approval for that intent, and an approved intent shows the full flag. An approval lasts one year: past it
without a new one the intent turns off (``expire``, run when the clock moves, before GET
/applications/@me and before an Identify is checked).

The flags column of ``applications`` stays the one record that the Gateway (4014 on Identify) and the
channel messages (MESSAGE_CONTENT) read; this module is what changes it."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from ...core.clock import format_instant, parse_instant
from ...core.errors import UNKNOWN_APPLICATION, ApiError
from ...core.validation import Form, field_error

if TYPE_CHECKING:
    from ...state import EmulatorState

REACH_NEEDING_APPROVAL = 10_000
APPROVAL_LASTS = timedelta(days=365)
# intent -> (full flag, shown with an approval; limited flag, set by the toggle below 10,000 users)
INTENT_FLAGS: dict[str, tuple[int, int]] = {
    "GUILD_PRESENCES": (1 << 12, 1 << 13),
    "GUILD_MEMBERS": (1 << 14, 1 << 15),
    "MESSAGE_CONTENT": (1 << 18, 1 << 19),
}
ALL_LIMITED = sum(limited for _, limited in INTENT_FLAGS.values())


def _refuse(field: str, code: str, message: str) -> ApiError:
    return field_error(field, code, message)


def _app(conn: sqlite3.Connection, application_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT id, flags, approximate_user_count FROM applications WHERE id = ?",
                       (application_id,)).fetchone()
    if row is None:
        raise ApiError(404, UNKNOWN_APPLICATION, "Unknown Application")
    return row


def _set_flags(conn: sqlite3.Connection, application_id: int, clear: int, add: int) -> None:
    conn.execute("UPDATE applications SET flags = (flags & ~?) | ? WHERE id = ?", (clear, add, application_id))


def check_intent(intent: str) -> tuple[int, int]:
    if intent not in INTENT_FLAGS:
        raise _refuse("intent", "BASE_TYPE_CHOICES", f"Value must be one of {sorted(INTENT_FLAGS)}.")
    return INTENT_FLAGS[intent]


def approval(conn: sqlite3.Connection, application_id: int, intent: str) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM privileged_intent_approvals WHERE application_id = ? AND intent = ?",
                        (application_id, intent)).fetchone()


def _approved_at(conn: sqlite3.Connection, application_id: int, intent: str, now: str) -> bool:
    """Whether an approval runs at ``now`` (a pending reapplication keeps the running one)."""
    row = approval(conn, application_id, intent)
    return row is not None and row["expires_at"] is not None and row["expires_at"] > now


def expire(conn: sqlite3.Connection, now: datetime, application_id: int | None = None) -> int:
    """Turn off every intent whose approval has run out at ``now``; returns how many."""
    instant = format_instant(now)
    rows = conn.execute(
        "SELECT application_id, intent FROM privileged_intent_approvals WHERE expires_at IS NOT NULL"
        " AND expires_at <= ?" + ("" if application_id is None else " AND application_id = ?"),
        (instant,) if application_id is None else (instant, application_id)).fetchall()
    for row in rows:
        full, limited = INTENT_FLAGS[row["intent"]]
        _set_flags(conn, row["application_id"], full | limited, 0)
        conn.execute("UPDATE privileged_intent_approvals SET expires_at = NULL,"
                     " status = CASE status WHEN 'pending' THEN 'pending' ELSE 'expired' END"
                     " WHERE application_id = ? AND intent = ?", (row["application_id"], row["intent"]))
    return len(rows)


def expire_now(state: EmulatorState, application_id: int | None = None) -> None:
    with state.db.transaction() as conn:
        expire(conn, state.clock.now(), application_id)


def toggle(conn: sqlite3.Connection, application_id: int, intent: str, enabled: bool, now: datetime) -> None:
    """The developer portal's toggle: off always; on below 10,000 users (limited flag), or from 10,000
    users only with a current approval (full flag); refused otherwise, nothing changed."""
    full, limited = check_intent(intent)
    app = _app(conn, application_id)
    if not enabled:
        _set_flags(conn, application_id, full | limited, 0)
    elif app["approximate_user_count"] < REACH_NEEDING_APPROVAL:
        _set_flags(conn, application_id, full, limited)
    elif _approved_at(conn, application_id, intent, format_instant(now)):
        _set_flags(conn, application_id, limited, full)
    else:
        raise _refuse("enabled", "PRIVILEGED_INTENT_APPROVAL_REQUIRED",
                      f"{intent} needs an approval: the application reaches {app['approximate_user_count']}"
                      f" users (from {REACH_NEEDING_APPROVAL} an approved application is required).")


def refuse_limited_flags(conn: sqlite3.Connection, application_id: int, old_flags: int, new_flags: int) -> None:
    """``PATCH /applications/@me`` ``flags``: turning on a limited intent flag is the toggle, refused from
    10,000 users (400 naming ``flags``)."""
    turned_on = new_flags & ~old_flags & ALL_LIMITED
    if turned_on and _app(conn, application_id)["approximate_user_count"] >= REACH_NEEDING_APPROVAL:
        raise _refuse("flags", "PRIVILEGED_INTENT_APPROVAL_REQUIRED",
                      f"From {REACH_NEEDING_APPROVAL} users a privileged intent needs an approval.")


def set_reach(conn: sqlite3.Connection, application_id: int, users: int) -> None:
    """The number of users who can access the app. From 10,000 the limited (toggle) intents stop: only
    approved intents stay on."""
    _app(conn, application_id)
    conn.execute("UPDATE applications SET approximate_user_count = ? WHERE id = ?", (users, application_id))
    if users >= REACH_NEEDING_APPROVAL:
        _set_flags(conn, application_id, ALL_LIMITED, 0)


def apply(conn: sqlite3.Connection, application_id: int, intent: str, now: datetime) -> None:
    """An application (or the yearly reapplication) for the intent; a running approval stays until its end."""
    check_intent(intent)
    _app(conn, application_id)
    conn.execute("INSERT INTO privileged_intent_approvals (application_id, intent, status, applied_at)"
                 " VALUES (?, ?, 'pending', ?) ON CONFLICT (application_id, intent)"
                 " DO UPDATE SET status = 'pending', applied_at = excluded.applied_at",
                 (application_id, intent, format_instant(now)))


def decide(conn: sqlite3.Connection, application_id: int, intent: str, approved: bool, now: datetime) -> None:
    """Approve (for one year from now; the intent turns on with its full flag) or deny a pending application."""
    full, limited = check_intent(intent)
    _app(conn, application_id)
    row = approval(conn, application_id, intent)
    if row is None or row["status"] != "pending":
        raise _refuse("intent", "PRIVILEGED_INTENT_NOT_APPLIED", f"No pending application for {intent}.")
    instant = format_instant(now)
    if approved:
        conn.execute("UPDATE privileged_intent_approvals SET status = 'approved', decided_at = ?, expires_at = ?"
                     " WHERE application_id = ? AND intent = ?",
                     (instant, format_instant(now + APPROVAL_LASTS), application_id, intent))
        _set_flags(conn, application_id, limited, full)
        return
    # denied: a running earlier approval keeps its end (then ``expire`` turns the intent off)
    conn.execute("UPDATE privileged_intent_approvals SET status = 'denied', decided_at = ?"
                 " WHERE application_id = ? AND intent = ?", (instant, application_id, intent))
    if not _approved_at(conn, application_id, intent, instant):
        _set_flags(conn, application_id, full, 0)


def state_json(conn: sqlite3.Connection, application_id: int) -> dict[str, Any]:
    app = _app(conn, application_id)
    intents = {}
    for name, (full, limited) in INTENT_FLAGS.items():
        row = approval(conn, application_id, name)
        intents[name] = {
            "enabled": bool(app["flags"] & (full | limited)),
            "flag": "full" if app["flags"] & full else "limited" if app["flags"] & limited else None,
            "approval": None if row is None else {k: row[k] for k in ("status", "applied_at", "decided_at",
                                                                      "expires_at")},
        }
    return {"reach": app["approximate_user_count"], "needs_approval": app["approximate_user_count"] >= REACH_NEEDING_APPROVAL,
            "intents": intents}


def load_fixture(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    """The ``privileged_intents`` section: ``[{application_id, intent, approved_at?, enabled?}]``; an
    ``approved_at`` is an approval decided then (lasting a year from it), ``enabled`` the toggle."""
    for index, raw in enumerate(form.array(name) or []):
        item = form.item(name, index, raw)
        application_id = item.snowflake("application_id")
        intent = item.choice("intent", tuple(INTENT_FLAGS))
        approved_raw = item.string("approved_at", required=False)
        enabled = item.boolean("enabled", default=True)
        approved_at = None
        if approved_raw is not None:
            try:
                approved_at = parse_instant(approved_raw)
            except ValueError as exc:
                item.fail("approved_at", "DATE_TYPE_CONVERT", str(exc))
        if item.errors or application_id is None:
            continue
        try:
            if approved_at is not None:
                apply(conn, application_id, intent, approved_at)
                decide(conn, application_id, intent, True, approved_at)
            toggle(conn, application_id, intent, enabled, state.clock.now())
        except ApiError as exc:
            item.fail("enabled" if "approval" in exc.message or exc.errors else "application_id",
                      "PRIVILEGED_INTENT_REFUSED", exc.message if not exc.errors else str(exc.errors))
