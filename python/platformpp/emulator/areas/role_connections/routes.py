"""HTTP routes of role connections: an application's metadata records (its bot) and the calling
user's role connection to an application (an OAuth2 token of that application with
``role_connections.write``)."""

from __future__ import annotations

import sqlite3

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth, errors
from ...core.auth import Principal
from ...core.errors import ApiError, json_response
from ...core.http import in_transaction, snowflake_param
from ...core.routing import Route
from ...core.validation import Form, read_json
from ...events.audience import Payload
from ...events.outbox import Outbox
from ...paths import API
from . import store

SCOPE = "role_connections.write"


def _of_application(request: Request, principal: Principal) -> int:
    """The path's application, which must be the caller's own: 403 / 50001 otherwise."""
    application_id = snowflake_param(request, "application_id")
    if principal.application_id != application_id:
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access: not the caller's application.")
    return application_id


async def get_metadata(request: Request) -> Response:
    """GET /applications/{application_id}/role-connections/metadata (Bot) → the records."""
    application_id = _of_application(request, auth.require(request, kinds=("bot",)))
    return json_response(await in_transaction(request, lambda conn, _: store.records(conn, application_id)))


async def put_metadata(request: Request) -> Response:
    """PUT /applications/{application_id}/role-connections/metadata (Bot): replaces every record."""
    application_id = _of_application(request, auth.require(request, kinds=("bot",)))
    records = store.read_records(await read_json(request))
    return json_response(await in_transaction(
        request, lambda conn, _: store.replace_records(conn, application_id, records)))


def _user(request: Request) -> tuple[int, int]:
    principal = auth.require(request, kinds=("bearer",), scopes=(SCOPE,))
    return _of_application(request, principal), principal.user_id


async def get_connection(request: Request) -> Response:
    """GET /users/@me/applications/{application_id}/role-connection (Bearer) → the connection."""
    application_id, user_id = _user(request)
    return json_response(await in_transaction(request, lambda conn, _: store.connection_json(
        store.connection_row(conn, application_id, user_id))))


async def put_connection(request: Request) -> Response:
    """PUT /users/@me/applications/{application_id}/role-connection (Bearer) → the connection."""
    application_id, user_id = _user(request)
    form = Form(await read_json(request, allow_empty=True))
    update = store.read_connection(form)
    form.done()

    def work(conn: sqlite3.Connection, _: Outbox) -> Payload:
        return store.put_connection(conn, application_id, user_id, update)

    return json_response(await in_transaction(request, work))


async def delete_connection(request: Request) -> Response:
    """DELETE /users/@me/applications/{application_id}/role-connection (Bearer) → 204."""
    application_id, user_id = _user(request)
    await in_transaction(request, lambda conn, _: store.delete_connection(conn, application_id, user_id))
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    metadata = API + "/applications/{application_id:snowflake}/role-connections/metadata"
    connection = API + "/users/@me/applications/{application_id:snowflake}/role-connection"
    return [
        Route(metadata, get_metadata, methods=["GET"]),
        Route(metadata, put_metadata, methods=["PUT"]),
        Route(connection, get_connection, methods=["GET"]),
        Route(connection, put_connection, methods=["PUT"]),
        Route(connection, delete_connection, methods=["DELETE"]),
    ]
