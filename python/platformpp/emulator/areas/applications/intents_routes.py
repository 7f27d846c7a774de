"""Admin routes of the privileged intents (what the developer portal and the platform's review do):
the app's reach, each intent's toggle, and applying for / approving / denying an intent, dated by the
emulator clock. Each answers the app's privileged-intent state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import json_response
from ...core.http import emulator_state, off_loop, snowflake_param
from ...core.routing import Route
from ...core.validation import Form, read_json
from ...paths import ADMIN
from . import privileged_intents as intents

MAX_REACH = 1 << 40


async def _answer(request: Request, change: Callable[[Any, int, Any], None] | None) -> Response:
    state = emulator_state(request)
    application_id = snowflake_param(request, "application_id")

    def work() -> dict[str, Any]:
        with state.db.transaction() as conn:
            intents.expire(conn, state.clock.now(), application_id)
            if change is not None:
                change(conn, application_id, state.clock.now())
            return intents.state_json(conn, application_id)

    return json_response(await off_loop(work))


async def get_state(request: Request) -> Response:
    """``GET /_emulator/applications/{id}/privileged-intents``."""
    return await _answer(request, None)


async def put_reach(request: Request) -> Response:
    """``PUT /_emulator/applications/{id}/reach`` ``{"users": n}``."""
    form = Form(await read_json(request))
    users = form.integer("users", minimum=0, maximum=MAX_REACH)
    form.done()
    return await _answer(request, lambda conn, app, now: intents.set_reach(conn, app, users or 0))


async def put_toggle(request: Request) -> Response:
    """``PUT /_emulator/applications/{id}/privileged-intents/{intent}`` ``{"enabled": bool}``."""
    intent = request.path_params["intent"]
    form = Form(await read_json(request))
    enabled = form.choice("enabled", (True, False))
    form.done()
    return await _answer(request, lambda conn, app, now: intents.toggle(conn, app, intent, bool(enabled), now))


def _step(step: str) -> Callable[[Request], Any]:
    async def endpoint(request: Request) -> Response:
        """``POST /_emulator/applications/{id}/privileged-intents/{intent}/apply|approve|deny``."""
        intent = request.path_params["intent"]
        if step == "apply":
            return await _answer(request, lambda conn, app, now: intents.apply(conn, app, intent, now))
        return await _answer(request, lambda conn, app, now: intents.decide(conn, app, intent, step == "approve", now))
    return endpoint


def routes() -> list[BaseRoute]:
    app = ADMIN + "/applications/{application_id:snowflake}"
    intent = app + "/privileged-intents/{intent}"
    return [
        Route(app + "/privileged-intents", get_state, methods=["GET"]),
        Route(app + "/reach", put_reach, methods=["PUT"]),
        Route(intent, put_toggle, methods=["PUT"]),
        *(Route(f"{intent}/{step}", _step(step), methods=["POST"]) for step in ("apply", "approve", "deny")),
    ]
