"""The admin API under ``/_emulator``: reset, snapshot export/import, seeding, the clock, faults, the
request log and webhook deliveries. Local and unauthenticated: it is a test tool's control panel."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.clock import parse_instant
from ...core.errors import ApiError, json_response
from ...core.fixtures import load_fixture
from ...core.http import query_bool, query_int
from ...core.ratelimit import DEFAULT_LIMIT, DEFAULT_WINDOW_S
from ...core.routing import Route
from ...core.snowflake import parse_snowflake
from ...core.validation import read_form, read_json
from ...paths import ADMIN
from ..oauth.store import ACCESS_TOKEN_TTL_S
from ..webhooks.store import deliveries_json
from .snapshot import export_snapshot, import_snapshot

if TYPE_CHECKING:
    from ...state import EmulatorState

def _state(request: Request) -> EmulatorState:
    state: EmulatorState = request.app.state.emu
    return state


def _clock_json(state: EmulatorState) -> dict[str, Any]:
    return {"now": state.clock.iso(), "frozen": state.clock.frozen, "real_time": state.clock.is_real_time}


async def reset(request: Request) -> Response:
    """Back to the world the emulator started with (``?world=empty`` for none), clock, faults and logs too."""
    state = _state(request)
    empty = request.query_params.get("world") == "empty"
    with state.db.transaction():
        state.db.clear()
        load_fixture(state, {} if empty else state.initial_seed)
    state.clock.set(state.initial_clock)
    state.faults.reset()
    state.limits.configure(DEFAULT_LIMIT, DEFAULT_WINDOW_S)
    state.access_token_ttl_s = ACCESS_TOKEN_TTL_S
    state.requests.clear()
    state.bus.publish("emulator.reset", {})
    state.bus.publish("emulator.loaded", {})
    return Response(status_code=204)


async def get_snapshot(request: Request) -> Response:
    return json_response(export_snapshot(_state(request)))


async def put_snapshot(request: Request) -> Response:
    """Replace the whole state with an exported snapshot (same schema version); all or nothing."""
    import_snapshot(_state(request), await read_json(request))
    return Response(status_code=204)


async def health(request: Request) -> Response:
    """Whether the emulator serves, for scripts that wait for it (``{"status": "ok"}``)."""
    state = _state(request)
    return json_response({"status": "ok", "schema_version": state.db.schema_version, "clock": _clock_json(state)})


async def seed(request: Request) -> Response:
    """Add a fixture to the world (``?reset=true`` clears the world first); all or nothing."""
    state = _state(request)
    data = await read_json(request)
    replace = query_bool(request, "reset")
    with state.db.transaction():
        if replace:
            state.db.clear()
        load_fixture(state, data)
    if replace:
        state.bus.publish("emulator.reset", {})
    state.bus.publish("emulator.loaded", {})
    return Response(status_code=204)


async def get_clock(request: Request) -> Response:
    return json_response(_clock_json(_state(request)))


async def put_clock(request: Request) -> Response:
    """``{"now": ISO-8601 | null, "frozen"?: bool}``: move the clock (null: back to real time)."""
    state = _state(request)
    form = await read_form(request)
    if "now" not in form.data:
        form.fail("now", "BASE_TYPE_REQUIRED", "This field is required (null returns to real time)")
    now = form.string("now", required=False, nullable=True)
    frozen = form.boolean("frozen")
    instant = None
    if now is not None:
        try:
            instant = parse_instant(now)
        except ValueError as exc:
            form.fail("now", "DATE_TYPE_CONVERT", str(exc))
    form.done()
    state.clock.set(instant, frozen=frozen)
    return json_response(_clock_json(state))


async def get_faults(request: Request) -> Response:
    return json_response(_state(request).faults.to_json())


async def put_faults(request: Request) -> Response:
    state = _state(request)
    state.faults.configure(await read_form(request))
    return json_response(state.faults.to_json())


async def put_rate_limits(request: Request) -> Response:
    """``{"limit": int, "window_s": float}``: the per-route, per-caller limit of API routes."""
    state = _state(request)
    form = await read_form(request)
    limit = form.integer("limit", minimum=1, maximum=1_000_000)
    window = form.number("window_s", minimum=0.001, maximum=3600)
    form.done()
    assert limit is not None and window is not None
    state.limits.configure(limit, window)
    return json_response({"limit": limit, "window_s": window})


async def put_token_lifetime(request: Request) -> Response:
    """``{"access_token_s": int}``: the lifetime (and ``expires_in``) of access tokens issued from now
    on; tokens already issued keep theirs."""
    state = _state(request)
    form = await read_form(request)
    lifetime = form.integer("access_token_s", minimum=1, maximum=ACCESS_TOKEN_TTL_S)
    form.done()
    assert lifetime is not None
    state.access_token_ttl_s = lifetime
    return json_response({"access_token_s": lifetime})


async def get_requests(request: Request) -> Response:
    # 0 (the default): all that is kept
    return json_response(_state(request).requests.recent(query_int(request, "limit", default=0)))


async def delete_requests(request: Request) -> Response:
    _state(request).requests.clear()
    return Response(status_code=204)


async def get_deliveries(request: Request) -> Response:
    app_text = request.query_params.get("application_id", "")
    return json_response(deliveries_json(_state(request), parse_snowflake(app_text)))


async def ping_webhook(request: Request) -> Response:
    state = _state(request)
    app_id = int(request.path_params["application_id"])
    delivery = state.webhooks.send_ping(app_id)
    if delivery is None:
        raise ApiError(404, 10002, "Unknown Application, or it has no event webhook URL")
    return json_response({"delivery_id": str(delivery)}, 202)


def routes() -> list[BaseRoute]:
    return [
        Route(f"{ADMIN}/health", health, methods=["GET"]),
        Route(f"{ADMIN}/reset", reset, methods=["POST"]),
        Route(f"{ADMIN}/snapshot", get_snapshot, methods=["GET"]),
        Route(f"{ADMIN}/snapshot", put_snapshot, methods=["POST"]),
        Route(f"{ADMIN}/seed", seed, methods=["POST"]),
        Route(f"{ADMIN}/clock", get_clock, methods=["GET"]),
        Route(f"{ADMIN}/clock", put_clock, methods=["PUT"]),
        Route(f"{ADMIN}/faults", get_faults, methods=["GET"]),
        Route(f"{ADMIN}/faults", put_faults, methods=["PUT"]),
        Route(f"{ADMIN}/rate-limits", put_rate_limits, methods=["PUT"]),
        Route(f"{ADMIN}/token-lifetime", put_token_lifetime, methods=["PUT"]),
        Route(f"{ADMIN}/requests", get_requests, methods=["GET"]),
        Route(f"{ADMIN}/requests", delete_requests, methods=["DELETE"]),
        Route(f"{ADMIN}/webhooks/deliveries", get_deliveries, methods=["GET"]),
        Route(f"{ADMIN}/applications/{{application_id:snowflake}}/webhooks/ping", ping_webhook, methods=["POST"]),
    ]

