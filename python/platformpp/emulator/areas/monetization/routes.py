"""HTTP routes of monetization: List SKUs, the entitlement operations (bot and user), the subscription
operations (bot), and the admin routes that create SKUs, entitlements and subscriptions and cancel, end
or delete a subscription (what purchases and the store do on the platform)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth, errors
from ...core.clock import format_instant, parse_instant
from ...core.errors import ApiError, json_response
from ...core.http import (
    emulator_state,
    in_transaction,
    query_bool,
    query_int,
    query_snowflake,
    snowflake_param,
)
from ...core.routing import Route
from ...core.snowflake import parse_snowflake
from ...core.validation import Form, field_error, read_json
from ...events.outbox import Outbox
from ...paths import ADMIN, API
from . import store
from .store import EntitlementFilter

T = TypeVar("T")
MAX_PERIOD_DAYS = 3660


class _Query:
    """The query string of a list operation, each parameter checked against its rule (50035 naming it)."""

    def __init__(self, request: Request) -> None:
        self.request = request
        self.params = request.query_params

    def snowflake(self, name: str) -> int | None:
        return query_snowflake(self.request, name)

    def snowflakes(self, name: str) -> tuple[int, ...]:
        """``a,b,c`` or the parameter repeated; at most 100."""
        values = [part for raw in self.params.getlist(name) for part in raw.split(",") if part.strip()]
        if len(values) > 100:
            raise field_error(name, "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        result = []
        for value in values:
            number = parse_snowflake(value.strip())
            if number is None:
                raise field_error(name, "NUMBER_TYPE_COERCE", f"Value {value.strip()[:40]!r} is not snowflake.")
            result.append(number)
        return tuple(result)

    def limit(self) -> int:
        return query_int(self.request, "limit", minimum=1, maximum=100, default=100)

    def flag(self, name: str, default: bool) -> bool:
        return query_bool(self.request, name, default)


def _run(request: Request, work: Callable[[sqlite3.Connection, Outbox], T]) -> Any:
    """``work`` in one transaction after the subscriptions' due transitions (so none is seen late)."""
    state = emulator_state(request)

    def advanced(conn: sqlite3.Connection, outbox: Outbox) -> T:
        store.advance(conn, outbox, state.clock.now())
        return work(conn, outbox)

    return in_transaction(request, advanced)


def _own_application(request: Request) -> int:
    """The path's application, which must be the calling bot's (else 403 Missing Access)."""
    principal = auth.require(request, kinds=("bot",))
    application_id = snowflake_param(request, "application_id")
    if principal.application_id != application_id:
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access")
    return application_id


# --- bot and user operations ----------------------------------------------------------------------------

async def list_skus(request: Request) -> Response:
    application_id = _own_application(request)
    return json_response(await _run(request, lambda conn, outbox: store.list_skus(conn, application_id)))


async def list_entitlements(request: Request) -> Response:
    application_id = _own_application(request)
    query = _Query(request)
    where = EntitlementFilter(
        user_id=query.snowflake("user_id"), sku_ids=query.snowflakes("sku_ids"), guild_id=query.snowflake("guild_id"),
        before=query.snowflake("before"), after=query.snowflake("after"), limit=query.limit(),
        exclude_ended=query.flag("exclude_ended", False), exclude_deleted=query.flag("exclude_deleted", True),
        only_active=query.flag("only_active", False))
    state = emulator_state(request)
    return json_response(await _run(request, lambda conn, outbox: store.list_entitlements(
        conn, application_id, where, state.clock.iso())))


async def my_entitlements(request: Request) -> Response:
    """``GET /users/@me/applications/{application_id}/entitlements``: the user's own, for the token's app."""
    principal = auth.require(request, kinds=("bearer",))
    application_id = snowflake_param(request, "application_id")
    if principal.application_id != application_id:
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access")
    query = _Query(request)
    where = EntitlementFilter(user_id=principal.user_id, sku_ids=query.snowflakes("sku_ids"),
                              exclude_consumed=query.flag("exclude_consumed", True), users_own=True)
    state = emulator_state(request)
    return json_response(await _run(request, lambda conn, outbox: store.list_entitlements(
        conn, application_id, where, state.clock.iso())))


async def get_entitlement(request: Request) -> Response:
    application_id = _own_application(request)
    entitlement_id = snowflake_param(request, "entitlement_id")
    return json_response(await _run(request, lambda conn, outbox: store.entitlement_json(
        store.entitlement_row(conn, application_id, entitlement_id))))


async def create_test_entitlement(request: Request) -> Response:
    application_id = _own_application(request)
    form = Form(await read_json(request))
    sku_id = form.snowflake("sku_id")
    owner_id = form.snowflake("owner_id")
    owner_type = form.choice("owner_type", (store.OWNER_GUILD, store.OWNER_USER))
    form.done()
    state = emulator_state(request)
    assert sku_id is not None and owner_id is not None
    return json_response(await _run(request, lambda conn, outbox: store.create_test_entitlement(
        state, conn, outbox, application_id, sku_id=sku_id, owner_id=owner_id, owner_type=owner_type)))


async def delete_test_entitlement(request: Request) -> Response:
    application_id = _own_application(request)
    entitlement_id = snowflake_param(request, "entitlement_id")
    await _run(request, lambda conn, outbox: store.delete_test_entitlement(conn, outbox, application_id,
                                                                            entitlement_id))
    return Response(status_code=204)


async def consume_entitlement(request: Request) -> Response:
    application_id = _own_application(request)
    entitlement_id = snowflake_param(request, "entitlement_id")
    await _run(request, lambda conn, outbox: store.consume(conn, outbox, application_id, entitlement_id))
    return Response(status_code=204)


def _caller_sku(request: Request, conn: sqlite3.Connection) -> int:
    """The path's SKU, which must be the calling bot's application's (else 404 Unknown SKU)."""
    principal = auth.require(request, kinds=("bot",))
    sku_id = snowflake_param(request, "sku_id")
    store.sku_row(conn, principal.application_id, sku_id)
    return sku_id


async def list_subscriptions(request: Request) -> Response:
    auth.require(request, kinds=("bot",))
    query = _Query(request)
    user_id, before, after, limit = (query.snowflake("user_id"), query.snowflake("before"), query.snowflake("after"),
                                     query.limit())
    return json_response(await _run(request, lambda conn, outbox: store.list_subscriptions(
        conn, _caller_sku(request, conn), user_id=user_id, before=before, after=after, limit=limit)))


async def get_subscription(request: Request) -> Response:
    auth.require(request, kinds=("bot",))
    subscription_id = snowflake_param(request, "subscription_id")

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        return store.subscription_json(conn, store.subscription_row(conn, subscription_id, _caller_sku(request, conn)))

    return json_response(await _run(request, work))


# --- admin ------------------------------------------------------------------------------------------------

def _admin_application(request: Request, conn: sqlite3.Connection) -> int:
    application_id = snowflake_param(request, "application_id")
    if conn.execute("SELECT 1 FROM applications WHERE id = ?", (application_id,)).fetchone() is None:
        raise ApiError(404, errors.UNKNOWN_APPLICATION, "Unknown Application")
    return application_id


def read_sku(form: Form) -> dict[str, Any]:
    name = form.string("name", min_len=1, max_len=100)
    return {"sku_type": form.choice("type", store.SKU_TYPES), "name": name,
            "slug": form.string("slug", required=False, min_len=1, max_len=100) or (name or "").lower().replace(" ", "-"),
            "flags": form.integer("flags", required=False, minimum=0, maximum=(1 << 31) - 1, default=0) or 0}


def _instant(form: Form, name: str) -> str | None:
    raw = form.string(name, required=False, nullable=True)
    if raw is None:
        return None
    try:
        return format_instant(parse_instant(raw))
    except ValueError as exc:
        form.fail(name, "DATE_TYPE_CONVERT", str(exc))
        return None


def read_entitlement(form: Form) -> dict[str, Any]:
    fields = {"sku_id": form.snowflake("sku_id"), "user_id": form.snowflake("user_id"),
              "guild_id": form.snowflake("guild_id", required=False, nullable=True),
              "entitlement_type": form.choice("type", store.ENTITLEMENT_TYPES, required=False,
                                              default=store.APPLICATION_SUBSCRIPTION),
              "starts_at": _instant(form, "starts_at"), "ends_at": _instant(form, "ends_at"),
              "test": form.boolean("test")}
    if fields["starts_at"] and fields["ends_at"] and fields["ends_at"] <= fields["starts_at"]:
        form.fail("ends_at", "DATE_RANGE_INVALID", "ends_at must be after starts_at.")
    return fields


def read_subscription(form: Form) -> dict[str, Any]:
    fields = {"sku_id": form.snowflake("sku_id"), "user_id": form.snowflake("user_id"),
              "period": timedelta(days=form.integer("period_days", required=False, minimum=1,
                                                    maximum=MAX_PERIOD_DAYS, default=30) or 30),
              "start": _instant(form, "current_period_start"),
              "country": form.string("country", required=False, nullable=True, min_len=2, max_len=2)}
    return fields


async def admin_create_sku(request: Request) -> Response:
    """``POST /_emulator/applications/{id}/skus`` ``{type, name, slug?, flags?}`` → the SKU."""
    form = Form(await read_json(request))
    fields = read_sku(form)
    form.done()
    state = emulator_state(request)
    return json_response(await _run(request, lambda conn, outbox: store.create_sku(
        state, conn, _admin_application(request, conn), **fields)))


async def admin_create_entitlement(request: Request) -> Response:
    """``POST /_emulator/applications/{id}/entitlements`` ``{sku_id, user_id, guild_id?, type?, starts_at?,
    ends_at?, test?}`` → the entitlement (ENTITLEMENT_CREATE): a purchase, as the store makes it."""
    form = Form(await read_json(request))
    fields = read_entitlement(form)
    form.done()
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        application_id = _admin_application(request, conn)
        store.sku_row(conn, application_id, fields["sku_id"])
        return store.create_entitlement(state, conn, outbox, application_id, **fields)

    return json_response(await _run(request, work))


async def admin_create_subscription(request: Request) -> Response:
    """``POST /_emulator/applications/{id}/subscriptions`` ``{sku_id, user_id, period_days? (30),
    current_period_start? (now), country?}`` → an ACTIVE subscription and its entitlement."""
    form = Form(await read_json(request))
    fields = read_subscription(form)
    form.done()
    state = emulator_state(request)
    raw_start = fields.pop("start")
    start = parse_instant(raw_start) if raw_start else state.clock.now()
    return json_response(await _run(request, lambda conn, outbox: store.create_subscription(
        state, conn, outbox, _admin_application(request, conn), start=start, **fields)))


def _admin_subscription_change(change: str) -> Callable[[Request], Any]:
    async def endpoint(request: Request) -> Response:
        """``POST /_emulator/subscriptions/{id}/cancel`` (ENDING until the period end), ``.../end``
        (INACTIVE now), ``DELETE /_emulator/subscriptions/{id}`` (SUBSCRIPTION_DELETE) → the subscription."""
        subscription_id = snowflake_param(request, "subscription_id")
        state = emulator_state(request)

        def work(conn: sqlite3.Connection, outbox: Outbox) -> Any:
            if change == "delete":
                store.delete_subscription(conn, outbox, subscription_id)
                return None
            if change == "cancel":
                store.cancel_subscription(conn, outbox, subscription_id, state.clock.iso())
            else:
                store.end_subscription(conn, outbox, subscription_id, state.clock.iso())
            return store.subscription_json(conn, store.subscription_row(conn, subscription_id))

        body = await _run(request, work)
        return Response(status_code=204) if body is None else json_response(body)
    return endpoint


def routes() -> list[BaseRoute]:
    app = API + "/applications/{application_id:snowflake}"
    entitlement = app + "/entitlements/{entitlement_id:snowflake}"
    sku = API + "/skus/{sku_id:snowflake}/subscriptions"
    admin_app = ADMIN + "/applications/{application_id:snowflake}"
    admin_subscription = ADMIN + "/subscriptions/{subscription_id:snowflake}"
    return [
        Route(app + "/skus", list_skus, methods=["GET"]),
        Route(app + "/entitlements", list_entitlements, methods=["GET"]),
        Route(app + "/entitlements", create_test_entitlement, methods=["POST"]),
        Route(entitlement, get_entitlement, methods=["GET"]),
        Route(entitlement, delete_test_entitlement, methods=["DELETE"]),
        Route(entitlement + "/consume", consume_entitlement, methods=["POST"]),
        Route(API + "/users/@me/applications/{application_id:snowflake}/entitlements", my_entitlements,
              methods=["GET"]),
        Route(sku, list_subscriptions, methods=["GET"]),
        Route(sku + "/{subscription_id:snowflake}", get_subscription, methods=["GET"]),
        Route(admin_app + "/skus", admin_create_sku, methods=["POST"]),
        Route(admin_app + "/entitlements", admin_create_entitlement, methods=["POST"]),
        Route(admin_app + "/subscriptions", admin_create_subscription, methods=["POST"]),
        Route(admin_subscription + "/cancel", _admin_subscription_change("cancel"), methods=["POST"]),
        Route(admin_subscription + "/end", _admin_subscription_change("end"), methods=["POST"]),
        Route(admin_subscription, _admin_subscription_change("delete"), methods=["DELETE"]),
    ]
