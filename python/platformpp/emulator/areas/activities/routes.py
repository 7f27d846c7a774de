"""HTTP routes of Activities: ``POST /applications/{id}/attachment`` (multipart ``file``, at most the
upload limit; the application's bot or a user's token for it) and ``GET
/applications/{id}/activity-instances/{instance_id}`` (its bot), plus the uploaded files' bytes."""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.auth import PrincipalKind
from ...core.errors import ApiError, json_response
from ...core.http import base_url_of, in_transaction, snowflake_param
from ...core.routing import Route
from ...core.uploads import read_multipart
from ...core.validation import Form
from ...events.outbox import Outbox
from ...paths import API
from ..applications.routes import own_application
from . import store

BOTH: tuple[PrincipalKind, ...] = ("bot", "bearer")


async def upload_attachment(request: Request) -> Response:
    state, application_id = own_application(request, BOTH)
    multipart = await read_multipart(request)
    upload = multipart.files.get("file")
    if upload is None:
        form = Form({})
        form.fail("file", "BASE_TYPE_REQUIRED", "This field is required")
        form.done()
    assert upload is not None
    base_url = base_url_of(request)

    def work(conn: sqlite3.Connection, _: Outbox) -> Any:
        return store.save_attachment(state, conn, application_id, upload, base_url)

    return json_response(await in_transaction(request, work))


async def attachment_file(request: Request) -> Response:
    """``GET /ephemeral-attachments/{application_id}/{attachment_id}/{filename}``: the stored bytes."""
    application_id, attachment_id = snowflake_param(request, "application_id"), snowflake_param(request,
                                                                                              "attachment_id")
    row = await in_transaction(request, lambda conn, _: store.find_attachment(conn, application_id,
                                                                                  attachment_id))
    if row is None or row["filename"] != request.path_params["filename"]:
        raise ApiError(404, 0, "404: Not Found")
    return Response(bytes(row["data"]), media_type=row["content_type"] or "application/octet-stream")


async def get_activity_instance(request: Request) -> Response:
    _, application_id = own_application(request)
    instance_id = str(request.path_params["instance_id"])
    return json_response(await in_transaction(request, lambda conn, _: store.activity_instance(
        conn, application_id, instance_id)))


def routes() -> list[BaseRoute]:
    app = API + "/applications/{application_id:snowflake}"
    return [
        Route(app + "/attachment", upload_attachment, methods=["POST"]),
        Route(app + "/activity-instances/{instance_id}", get_activity_instance, methods=["GET"]),
        Route("/ephemeral-attachments/{application_id:snowflake}/{attachment_id:snowflake}/{filename}",
              attachment_file, methods=["GET"]),
    ]
