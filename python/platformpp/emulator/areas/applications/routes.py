"""The application object: ``GET /applications/@me`` (bot) and its admin view with the webhook key."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from . import auth
from .app import ADMIN, API
from .errors import UNKNOWN_APPLICATION, json_response, not_found
from .state import EmulatorState
from .webhooks import public_key_hex


def application_row(state: EmulatorState, application_id: int) -> sqlite3.Row | None:
    return state.db.query_one("SELECT * FROM applications WHERE id = ?", (application_id,))


def application_json(state: EmulatorState, row: sqlite3.Row) -> dict[str, Any]:
    uris = [r["uri"] for r in state.db.query(
        "SELECT uri FROM redirect_uris WHERE application_id = ? ORDER BY uri", (row["id"],))]
    return {
        "id": str(row["id"]), "name": row["name"], "description": row["description"], "icon": None,
        "bot_public": True, "bot_require_code_grant": False,
        # flags stays a 32-bit integer; flags_new carries every bit as a string (seed)
        "flags": row["flags"] & 0x7FFFFFFF, "flags_new": str(row["flags"]),
        "verify_key": public_key_hex(row["webhook_private_key"]),
        "approximate_user_count": row["approximate_user_count"],
        "redirect_uris": uris,
        "bot": None if row["bot_user_id"] is None else {"id": str(row["bot_user_id"])},
        "owner": None if row["owner_id"] is None else {"id": str(row["owner_id"])},
        "event_webhooks_url": row["event_webhooks_url"],
    }


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
