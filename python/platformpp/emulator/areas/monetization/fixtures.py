"""The ``skus``, ``entitlements`` and ``subscriptions`` fixture sections: each item names its
``application_id`` and takes the fields of the matching admin route."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.clock import parse_instant
from ...core.errors import ApiError
from ...core.fixtures import fixture_id, row_exists
from ...core.validation import Form
from ...events.outbox import Outbox
from . import store
from .routes import read_entitlement, read_sku, read_subscription

if TYPE_CHECKING:
    from ...state import EmulatorState


def _load(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str, table: str, read: Callable[[Form], dict[str, Any]],
          create: Callable[[int, int, dict[str, Any]], object]) -> None:
    for index, raw in enumerate(form.array(name) or []):
        whole = form.item(name, index, raw)
        application_id = whole.snowflake("application_id") if isinstance(raw, dict) else None
        # the same fields as the admin route's body, besides the application the route has in its path
        item = Form({k: v for k, v in raw.items() if k != "application_id"} if isinstance(raw, dict) else raw,
                    whole.errors, whole.path)
        new_id = fixture_id(state, item)
        fields = read(item)
        if item.errors:
            continue
        if application_id is None or not row_exists(conn, "applications", application_id):
            item.fail("application_id", "UNKNOWN_APPLICATION", f"Application {application_id} does not exist.")
            continue
        if row_exists(conn, table, new_id):
            item.fail("id", "ALREADY_EXISTS", f"{table} row {new_id} already exists.")
            continue
        try:
            create(application_id, new_id, fields)
        except ApiError as exc:   # an unknown SKU, user or guild: the item's error, not the request's
            item.fail("sku_id" if "SKU" in exc.message else "user_id", "INVALID_REFERENCE", exc.message)


def load_skus(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    _load(state, conn, form, name, "skus", read_sku,
          lambda app, new_id, fields: store.create_sku(state, conn, app, sku_id=new_id, **fields))


def load_entitlements(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    def create(app: int, new_id: int, fields: dict[str, Any]) -> object:
        store.sku_row(conn, app, fields["sku_id"])
        return store.create_entitlement(state, conn, Outbox(state), app, entitlement_id=new_id, **fields)
    _load(state, conn, form, name, "entitlements", read_entitlement, create)


def load_subscriptions(state: EmulatorState, conn: sqlite3.Connection, form: Form, name: str) -> None:
    def create(app: int, new_id: int, fields: dict[str, Any]) -> object:
        raw_start = fields.pop("start")
        start = parse_instant(raw_start) if raw_start else state.clock.now()
        return store.create_subscription(state, conn, Outbox(state), app, subscription_id=new_id, start=start,
                                         **fields)
    _load(state, conn, form, name, "subscriptions", read_subscription, create)
