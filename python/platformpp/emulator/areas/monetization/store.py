"""SKUs, entitlements and subscriptions of an application: their rows, their JSON, and the rules of their
life on the emulator clock. Every change dispatches its ENTITLEMENT_* / SUBSCRIPTION_* event to the
application's bot sessions (the outbox sends it when the transaction commits).

Subscription statuses are the values the platform returns: ACTIVE 0, INACTIVE 1, ENDING 2. A canceled
subscription is ENDING until its current period ends, then INACTIVE; an ACTIVE one renews at its period
end. ``advance`` applies those transitions; it runs before every read of subscriptions and whenever the
admin API moves the clock, so a transition is never seen late and is dispatched exactly once."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core.clock import format_instant
from ...core.errors import ApiError, not_found
from ...core.validation import field_error
from ...events.audience import Viewer
from ...events.outbox import Outbox

if TYPE_CHECKING:
    from ...state import EmulatorState

ACTIVE, INACTIVE, ENDING = 0, 1, 2
SKU_TYPES = (2, 3, 5, 6)          # DURABLE, CONSUMABLE, SUBSCRIPTION, SUBSCRIPTION_GROUP
CONSUMABLE = 3
# The published schema names two entitlement types: APPLICATION_SUBSCRIPTION 8 and QUEST_REWARD 10.
# Entitlements of subscriptions and test entitlements are APPLICATION_SUBSCRIPTION.
APPLICATION_SUBSCRIPTION, QUEST_REWARD = 8, 10
ENTITLEMENT_TYPES = (APPLICATION_SUBSCRIPTION, QUEST_REWARD)
OWNER_GUILD, OWNER_USER = 1, 2
UNKNOWN_SKU = 10046
UNKNOWN_ENTITLEMENT = 10029
UNKNOWN_SUBSCRIPTION = 10030
# The refusals of Consume Entitlement have no code the emulator knows: GENERAL, with a message naming the rule.
ENTITLEMENT_ALREADY_CONSUMED = NOT_CONSUMABLE = 0


def sku_json(row: sqlite3.Row) -> dict[str, Any]:
    return {"id": str(row["id"]), "type": row["type"], "application_id": str(row["application_id"]),
            "name": row["name"], "slug": row["slug"], "flags": row["flags"]}


def entitlement_json(row: sqlite3.Row) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": str(row["id"]), "sku_id": str(row["sku_id"]), "application_id": str(row["application_id"]),
        "user_id": str(row["user_id"]), "type": row["type"], "deleted": bool(row["deleted"]),
        "starts_at": row["starts_at"], "ends_at": row["ends_at"], "consumed": bool(row["consumed"]),
    }
    if row["guild_id"] is not None:
        body["guild_id"] = str(row["guild_id"])
    return body


def subscription_json(conn: sqlite3.Connection, row: sqlite3.Row) -> dict[str, Any]:
    entitlement_ids = [str(r[0]) for r in conn.execute(
        "SELECT id FROM entitlements WHERE subscription_id = ? ORDER BY id", (row["id"],))]
    renewing = row["status"] == ACTIVE
    return {"id": str(row["id"]), "user_id": str(row["user_id"]), "sku_ids": [str(row["sku_id"])],
            "entitlement_ids": entitlement_ids, "renewal_sku_ids": [str(row["sku_id"])] if renewing else None,
            "current_period_start": row["current_period_start"], "current_period_end": row["current_period_end"],
            "status": row["status"], "canceled_at": row["canceled_at"], "country": row["country"]}


# --- dispatch ------------------------------------------------------------------------------------------

def _send(outbox: Outbox, application_id: int, event: str, payload: dict[str, Any]) -> None:
    """To every bot session of the application (whatever its intents or shard: these events need none)."""
    def audience(viewer: Viewer) -> dict[str, Any] | None:
        return payload if viewer.kind == "bot" and viewer.application_id == application_id else None
    outbox.add(event, audience)


def _send_entitlement(conn: sqlite3.Connection, outbox: Outbox, event: str, entitlement_id: int) -> None:
    row = conn.execute("SELECT * FROM entitlements WHERE id = ?", (entitlement_id,)).fetchone()
    _send(outbox, row["application_id"], event, entitlement_json(row))


def _send_subscription(conn: sqlite3.Connection, outbox: Outbox, event: str, subscription_id: int) -> None:
    row = conn.execute("SELECT * FROM subscriptions WHERE id = ?", (subscription_id,)).fetchone()
    _send(outbox, row["application_id"], event, subscription_json(conn, row))


# --- SKUs ---------------------------------------------------------------------------------------------

def create_sku(state: EmulatorState, conn: sqlite3.Connection, application_id: int, *, sku_type: int, name: str,
               slug: str, flags: int, sku_id: int | None = None) -> dict[str, Any]:
    new_id = sku_id if sku_id is not None else state.ids.next()
    conn.execute("INSERT INTO skus (id, application_id, type, name, slug, flags) VALUES (?, ?, ?, ?, ?, ?)",
                 (new_id, application_id, sku_type, name, slug, flags))
    return sku_json(conn.execute("SELECT * FROM skus WHERE id = ?", (new_id,)).fetchone())


def list_skus(conn: sqlite3.Connection, application_id: int) -> list[dict[str, Any]]:
    return [sku_json(r) for r in conn.execute("SELECT * FROM skus WHERE application_id = ? ORDER BY id",
                                              (application_id,))]


def sku_row(conn: sqlite3.Connection, application_id: int | None, sku_id: int) -> sqlite3.Row:
    """The SKU (of ``application_id`` when given), else 404 Unknown SKU."""
    row = conn.execute("SELECT * FROM skus WHERE id = ?", (sku_id,)).fetchone()
    if row is None or (application_id is not None and row["application_id"] != application_id):
        raise not_found(UNKNOWN_SKU, "SKU")
    return row


# --- entitlements -------------------------------------------------------------------------------------

class EntitlementFilter(NamedTuple):
    user_id: int | None = None
    sku_ids: tuple[int, ...] = ()
    guild_id: int | None = None
    before: int | None = None
    after: int | None = None
    limit: int = 100
    exclude_ended: bool = False
    exclude_deleted: bool = True
    only_active: bool = False
    exclude_consumed: bool = False
    users_own: bool = False      # only a user's own entitlements, not the guilds' they own


def create_entitlement(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, application_id: int, *,
                       sku_id: int, user_id: int, guild_id: int | None, entitlement_type: int,
                       starts_at: str | None, ends_at: str | None, test: bool,
                       subscription_id: int | None = None, entitlement_id: int | None = None) -> dict[str, Any]:
    new_id = entitlement_id if entitlement_id is not None else state.ids.next()
    conn.execute(
        "INSERT INTO entitlements (id, application_id, sku_id, user_id, guild_id, type, starts_at, ends_at, test,"
        " subscription_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (new_id, application_id, sku_id, user_id, guild_id, entitlement_type, starts_at, ends_at, int(test),
         subscription_id))
    _send_entitlement(conn, outbox, "ENTITLEMENT_CREATE", new_id)
    return entitlement_json(conn.execute("SELECT * FROM entitlements WHERE id = ?", (new_id,)).fetchone())


def create_test_entitlement(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, application_id: int, *,
                            sku_id: int, owner_id: int, owner_type: int) -> dict[str, Any]:
    """Create Test Entitlement: no start or end (it lasts until deleted); a guild's goes to that guild."""
    sku_row(conn, application_id, sku_id)
    if owner_type == OWNER_GUILD:
        guild = conn.execute("SELECT owner_id FROM guilds WHERE id = ?", (owner_id,)).fetchone()
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        user_id, guild_id = guild["owner_id"], owner_id
    else:
        if conn.execute("SELECT 1 FROM users WHERE id = ?", (owner_id,)).fetchone() is None:
            raise ApiError(404, 10013, "Unknown User")
        user_id, guild_id = owner_id, None
    return create_entitlement(state, conn, outbox, application_id, sku_id=sku_id, user_id=user_id, guild_id=guild_id,
                              entitlement_type=APPLICATION_SUBSCRIPTION, starts_at=None, ends_at=None, test=True)


def list_entitlements(conn: sqlite3.Connection, application_id: int, where: EntitlementFilter,
                      now: str) -> list[dict[str, Any]]:
    sql = ["SELECT * FROM entitlements WHERE application_id = ?"]
    params: list[Any] = [application_id]
    if where.user_id is not None:
        sql.append("AND user_id = ?")
        params.append(where.user_id)
    if where.guild_id is not None:
        sql.append("AND guild_id = ?")
        params.append(where.guild_id)
    if where.sku_ids:
        sql.append(f"AND sku_id IN ({','.join('?' * len(where.sku_ids))})")
        params.extend(where.sku_ids)
    if where.exclude_deleted or where.only_active:
        sql.append("AND deleted = 0")
    if where.exclude_ended or where.only_active:
        sql.append("AND (ends_at IS NULL OR ends_at > ?)")
        params.append(now)
    if where.only_active:
        sql.append("AND (starts_at IS NULL OR starts_at <= ?) AND consumed = 0")
        params.append(now)
    if where.users_own:
        sql.append("AND guild_id IS NULL")
    if where.exclude_consumed:
        sql.append("AND consumed = 0")
    if where.before is not None:
        sql.append("AND id < ?")
        params.append(where.before)
    if where.after is not None:
        sql.append("AND id > ?")
        params.append(where.after)
    # after= pages upwards from the anchor; otherwise the newest first, as the platform lists them
    sql.append("ORDER BY id ASC LIMIT ?" if where.after is not None and where.before is None
               else "ORDER BY id DESC LIMIT ?")
    params.append(where.limit)
    return [entitlement_json(r) for r in conn.execute(" ".join(sql), params)]


def entitlement_row(conn: sqlite3.Connection, application_id: int, entitlement_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM entitlements WHERE id = ? AND application_id = ?",
                       (entitlement_id, application_id)).fetchone()
    if row is None:
        raise not_found(UNKNOWN_ENTITLEMENT, "Entitlement")
    return row


def consume(conn: sqlite3.Connection, outbox: Outbox, application_id: int, entitlement_id: int) -> None:
    """Consume Entitlement: only a consumable SKU's, only once (ENTITLEMENT_UPDATE with ``consumed``)."""
    row = entitlement_row(conn, application_id, entitlement_id)
    if row["deleted"]:
        raise not_found(UNKNOWN_ENTITLEMENT, "Entitlement")
    if sku_row(conn, None, row["sku_id"])["type"] != CONSUMABLE:
        raise ApiError(400, NOT_CONSUMABLE, "Only an entitlement of a consumable SKU can be consumed")
    if row["consumed"]:
        raise ApiError(400, ENTITLEMENT_ALREADY_CONSUMED, "This entitlement has already been consumed")
    conn.execute("UPDATE entitlements SET consumed = 1 WHERE id = ?", (entitlement_id,))
    _send_entitlement(conn, outbox, "ENTITLEMENT_UPDATE", entitlement_id)


def delete_test_entitlement(conn: sqlite3.Connection, outbox: Outbox, application_id: int,
                            entitlement_id: int) -> None:
    """Delete Test Entitlement: only a test entitlement not yet deleted; it stays listed as ``deleted``."""
    row = entitlement_row(conn, application_id, entitlement_id)
    if not row["test"] or row["deleted"]:
        raise not_found(UNKNOWN_ENTITLEMENT, "Entitlement")
    conn.execute("UPDATE entitlements SET deleted = 1 WHERE id = ?", (entitlement_id,))
    _send_entitlement(conn, outbox, "ENTITLEMENT_DELETE", entitlement_id)


def interaction_entitlements(conn: sqlite3.Connection, application_id: int, user_id: int, guild_id: int | None,
                             now: str) -> list[dict[str, Any]]:
    """The entitlements an interaction carries: the user's and the guild's that are active now."""
    rows = conn.execute(
        "SELECT * FROM entitlements WHERE application_id = ? AND deleted = 0 AND consumed = 0"
        " AND (starts_at IS NULL OR starts_at <= ?) AND (ends_at IS NULL OR ends_at > ?)"
        " AND ((user_id = ? AND guild_id IS NULL) OR guild_id = ?) ORDER BY id",
        (application_id, now, now, user_id, guild_id))
    return [entitlement_json(r) for r in rows]


# --- subscriptions ------------------------------------------------------------------------------------

def create_subscription(state: EmulatorState, conn: sqlite3.Connection, outbox: Outbox, application_id: int, *,
                        sku_id: int, user_id: int, period: timedelta, start: datetime,
                        country: str | None, subscription_id: int | None = None) -> dict[str, Any]:
    """An ACTIVE subscription from ``start`` for one period, with its entitlement (no end while it renews)."""
    sku = sku_row(conn, application_id, sku_id)
    if sku["type"] not in (5, 6):
        raise field_error("sku_id", "SKU_NOT_SUBSCRIPTION", "The SKU is not a subscription.")
    if conn.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is None:
        raise ApiError(404, 10013, "Unknown User")
    new_id = subscription_id if subscription_id is not None else state.ids.next()
    conn.execute(
        "INSERT INTO subscriptions (id, application_id, sku_id, user_id, status, current_period_start,"
        " current_period_end, period_seconds, country) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (new_id, application_id, sku_id, user_id, ACTIVE, format_instant(start), format_instant(start + period),
         int(period.total_seconds()), country))
    create_entitlement(state, conn, outbox, application_id, sku_id=sku_id, user_id=user_id, guild_id=None,
                       entitlement_type=APPLICATION_SUBSCRIPTION, starts_at=format_instant(start), ends_at=None,
                       test=False, subscription_id=new_id)
    _send_subscription(conn, outbox, "SUBSCRIPTION_CREATE", new_id)
    return subscription_json(conn, conn.execute("SELECT * FROM subscriptions WHERE id = ?", (new_id,)).fetchone())


def subscription_row(conn: sqlite3.Connection, subscription_id: int, sku_id: int | None = None) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM subscriptions WHERE id = ?", (subscription_id,)).fetchone()
    if row is None or (sku_id is not None and row["sku_id"] != sku_id):
        raise not_found(UNKNOWN_SUBSCRIPTION, "Subscription")
    return row


def list_subscriptions(conn: sqlite3.Connection, sku_id: int, *, user_id: int | None, before: int | None,
                       after: int | None, limit: int) -> list[dict[str, Any]]:
    sql = ["SELECT * FROM subscriptions WHERE sku_id = ?"]
    params: list[Any] = [sku_id]
    for clause, value in (("AND user_id = ?", user_id), ("AND id < ?", before), ("AND id > ?", after)):
        if value is not None:
            sql.append(clause)
            params.append(value)
    sql.append("ORDER BY id ASC LIMIT ?" if after is not None and before is None else "ORDER BY id DESC LIMIT ?")
    params.append(limit)
    return [subscription_json(conn, r) for r in conn.execute(" ".join(sql), params)]


def _entitlements_of(conn: sqlite3.Connection, subscription_id: int) -> list[int]:
    return [r[0] for r in conn.execute("SELECT id FROM entitlements WHERE subscription_id = ? ORDER BY id",
                                       (subscription_id,))]


def cancel_subscription(conn: sqlite3.Connection, outbox: Outbox, subscription_id: int, now: str) -> None:
    """The user cancels: ENDING until the period end (its entitlement now ends then)."""
    row = subscription_row(conn, subscription_id)
    if row["status"] != ACTIVE:
        raise field_error("status", "SUBSCRIPTION_NOT_ACTIVE", "Only an ACTIVE subscription can be canceled.")
    conn.execute("UPDATE subscriptions SET status = ?, canceled_at = ? WHERE id = ?", (ENDING, now, subscription_id))
    for entitlement_id in _entitlements_of(conn, subscription_id):
        conn.execute("UPDATE entitlements SET ends_at = ? WHERE id = ?", (row["current_period_end"], entitlement_id))
        _send_entitlement(conn, outbox, "ENTITLEMENT_UPDATE", entitlement_id)
    _send_subscription(conn, outbox, "SUBSCRIPTION_UPDATE", subscription_id)


def end_subscription(conn: sqlite3.Connection, outbox: Outbox, subscription_id: int, now: str) -> None:
    """Ended at once (a refund, a failed payment): INACTIVE now, its entitlement ends now."""
    row = subscription_row(conn, subscription_id)
    if row["status"] == INACTIVE:
        return
    conn.execute("UPDATE subscriptions SET status = ?, current_period_end = ?, canceled_at = COALESCE(canceled_at, ?)"
                 " WHERE id = ?", (INACTIVE, now, now, subscription_id))
    for entitlement_id in _entitlements_of(conn, subscription_id):
        conn.execute("UPDATE entitlements SET ends_at = ? WHERE id = ?", (now, entitlement_id))
        _send_entitlement(conn, outbox, "ENTITLEMENT_UPDATE", entitlement_id)
    _send_subscription(conn, outbox, "SUBSCRIPTION_UPDATE", subscription_id)


def delete_subscription(conn: sqlite3.Connection, outbox: Outbox, subscription_id: int) -> None:
    row = subscription_row(conn, subscription_id)
    payload = subscription_json(conn, row)
    conn.execute("DELETE FROM subscriptions WHERE id = ?", (subscription_id,))
    _send(outbox, row["application_id"], "SUBSCRIPTION_DELETE", payload)


def advance(conn: sqlite3.Connection, outbox: Outbox, now: datetime) -> int:
    """Apply every transition due at ``now``: ENDING → INACTIVE at the period end, ACTIVE → renewed for
    the periods that have passed. Returns how many subscriptions changed."""
    instant = format_instant(now)
    due: Iterable[sqlite3.Row] = conn.execute(
        "SELECT * FROM subscriptions WHERE status IN (?, ?) AND current_period_end <= ? ORDER BY id",
        (ACTIVE, ENDING, instant)).fetchall()
    changed = 0
    for row in due:
        if row["status"] == ENDING:
            conn.execute("UPDATE subscriptions SET status = ? WHERE id = ?", (INACTIVE, row["id"]))
        else:
            period = timedelta(seconds=max(1, row["period_seconds"]))
            start = datetime.fromisoformat(row["current_period_start"])
            end = datetime.fromisoformat(row["current_period_end"])
            while end <= now:
                start, end = end, end + period
            conn.execute("UPDATE subscriptions SET current_period_start = ?, current_period_end = ? WHERE id = ?",
                         (format_instant(start), format_instant(end), row["id"]))
        _send_subscription(conn, outbox, "SUBSCRIPTION_UPDATE", row["id"])
        changed += 1
    return changed


def advance_now(state: EmulatorState) -> None:
    """``advance`` in its own transaction at the emulator clock's now (the clock hook and reads call it)."""
    outbox = Outbox(state)
    with state.db.transaction() as conn:
        advance(conn, outbox, state.clock.now())
