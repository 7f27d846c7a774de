"""The application object: ``GET /applications/@me`` (bot) and its admin view with the webhook key."""

from __future__ import annotations

from typing import TYPE_CHECKING

import json

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ...core import auth
from ...core.errors import UNKNOWN_APPLICATION, json_response, not_found
from ...paths import ADMIN, API
from .store import application_json, application_row

if TYPE_CHECKING:
    from ...state import EmulatorState


async def get_my_application(request: Request) -> Response:
    principal = auth.require(request, kinds=("bot",))
    state: EmulatorState = request.app.state.emu
    row = application_row(state, principal.application_id)
    if row is None:
        raise not_found(UNKNOWN_APPLICATION, "Application")
    return json_response(application_json(state, row))


async def admin_get_application(request: Request) -> Response:
    state: EmulatorState = request.app.state.emu
    row = application_row(state, int(request.path_params["application_id"]))
    if row is None:
        raise not_found(UNKNOWN_APPLICATION, "Application")
    body = application_json(state, row)
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
        Route(f"{ADMIN}/applications/{{application_id:snowflake}}", admin_get_application, methods=["GET"]),
    ]
