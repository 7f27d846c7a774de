"""The application object: ``GET``/``PATCH /applications/@me``, the same by id
(``/applications/{application_id}``) and ``GET /oauth2/applications/@me`` (bot), and its admin view
with the webhook key and the emulator's settings."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth
from ...core.errors import MISSING_ACCESS, UNKNOWN_APPLICATION, ApiError, json_response, not_found
from ...core.http import off_loop
from ...core.routing import Route
from ...core.validation import Form, read_json
from ...paths import ADMIN, API
from ..webhooks.interactions_endpoint import verify_endpoint
from . import intents_routes, privileged_intents
from .store import application_row, application_updates, private_application, update_application

if TYPE_CHECKING:
    from ...state import EmulatorState


def own_application(request: Request, kinds: tuple[auth.PrincipalKind, ...] = ("bot",)
                    ) -> tuple[EmulatorState, int]:
    """The caller's application (its bot's, or with ``kinds`` also a user token's); by id, another
    application is 403 (50001) and an unknown one 404."""
    principal = auth.require(request, kinds=kinds)
    state: EmulatorState = request.app.state.emu
    asked = request.path_params.get("application_id")
    if asked is not None and int(asked) != principal.application_id:
        if application_row(state, int(asked)) is None:
            raise not_found(UNKNOWN_APPLICATION, "Application")
        raise ApiError(403, MISSING_ACCESS, "Missing Access")
    return state, principal.application_id


async def get_my_application(request: Request) -> Response:
    """``GET /applications/@me`` (or by its id) and ``GET /oauth2/applications/@me``: the bot's own
    application."""
    state, application_id = own_application(request)
    await off_loop(privileged_intents.expire_now, state, application_id)   # flags as of the clock
    row = application_row(state, application_id)
    if row is None:
        raise not_found(UNKNOWN_APPLICATION, "Application")
    return json_response(private_application(state, row))


async def patch_my_application(request: Request) -> Response:
    """``PATCH /applications/@me`` (or by its id): all fields checked before anything is written (one
    transaction).
    A new ``interactions_endpoint_url`` is verified first, as the platform does: a signed PING must be
    answered with a PONG and a badly signed one refused (else 400 naming the field)."""
    state, application_id = own_application(request)
    data = await read_json(request)
    current = application_row(state, application_id)
    if current is None:
        raise not_found(UNKNOWN_APPLICATION, "Application")
    form = Form(data)
    updates = application_updates(form, current["flags"])
    form.done()
    url = updates.get("interactions_endpoint_url")
    if url is not None and url != current["interactions_endpoint_url"]:
        await off_loop(verify_endpoint, state, application_id, url)

    def work() -> Response:
        with state.db.transaction() as conn:
            row = conn.execute("SELECT flags FROM applications WHERE id = ?", (application_id,)).fetchone()
            if row is None:
                raise not_found(UNKNOWN_APPLICATION, "Application")
            # again against the flags as they are now (another request may have changed them meanwhile)
            fresh = Form(data)
            changes = application_updates(fresh, row["flags"])
            fresh.done()
            if "flags" in changes:
                privileged_intents.refuse_limited_flags(conn, application_id, row["flags"], changes["flags"])
            update_application(conn, application_id, changes)
        updated = application_row(state, application_id)
        if updated is None:
            raise ApiError(404, UNKNOWN_APPLICATION, "Unknown Application")
        return json_response(private_application(state, updated))

    return await off_loop(work)


async def admin_get_application(request: Request) -> Response:
    state: EmulatorState = request.app.state.emu
    row = application_row(state, int(request.path_params["application_id"]))
    if row is None:
        raise not_found(UNKNOWN_APPLICATION, "Application")
    body = private_application(state, row)
    body.update({
        "public_client": bool(row["public_client"]),
        "parent_application_id": None if row["parent_application_id"] is None else str(row["parent_application_id"]),
        "publisher_linking_approved": bool(row["publisher_linking_approved"]),
        "social_sdk_terms_accepted": bool(row["social_sdk_terms_accepted"]),
        "approved_scopes": json.loads(row["approved_scopes"]),
        "custom_schemes": json.loads(row["custom_schemes"]),
        "large_bot_sharding": bool(row["large_bot_sharding"]), "shards": row["shards"],
        "max_concurrency": row["max_concurrency"],
    })
    return json_response(body)


def routes() -> list[BaseRoute]:
    return [
        Route(f"{API}/applications/@me", get_my_application, methods=["GET"]),
        Route(f"{API}/applications/@me", patch_my_application, methods=["PATCH"]),
        Route(f"{API}/applications/{{application_id:snowflake}}", get_my_application, methods=["GET"]),
        Route(f"{API}/applications/{{application_id:snowflake}}", patch_my_application, methods=["PATCH"]),
        Route(f"{API}/oauth2/applications/@me", get_my_application, methods=["GET"]),
        Route(f"{ADMIN}/applications/{{application_id:snowflake}}", admin_get_application, methods=["GET"]),
        *intents_routes.routes(),
    ]
