"""HTTP routes of interactions, as an app reaches them: the initial response
(``POST /interactions/{id}/{token}/callback``, no authorization: the token is the credential), the
original response and followups through ``/webhooks/{application.id}/{interaction.token}/...`` (routed
by the channel webhooks area, which shares those paths), and
the files of interactions. Bodies are JSON or multipart (``payload_json`` + ``files[n]``, together at
most the 20 MiB upload limit)."""

from __future__ import annotations

import base64
import sqlite3
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import ApiError, json_response
from ...core.http import base_url_of, emulator_state, off_loop, query_bool, snowflake_param
from ...core.routing import Route
from ...core.uploads import read_payload_and_files
from ...events.outbox import Outbox
from ...paths import API
from . import store, waiters
from .work import run_work


async def callback(request: Request) -> Response:
    """POST /interactions/{interaction_id}/{interaction_token}/callback[?with_response=true]."""
    interaction_id = snowflake_param(request, "interaction_id")
    token = str(request.path_params["interaction_token"])
    with_response = bool(request.scope["query_string"]) and query_bool(request, "with_response")
    data, files = await read_payload_and_files(request)
    state = emulator_state(request)
    base_url = base_url_of(request)

    waiting = waiters.of(state)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> tuple[dict, dict | None]:
        row = store.callback_target(conn, interaction_id, token)
        if not waiting.is_waiting(interaction_id):
            return store.respond(state, conn, outbox, row, data, files, base_url), None
        # A simulated user waiting for this answer gets it now, as this same transaction leaves it.
        return store.respond_and_converse(state, conn, outbox, row, data, files, base_url)

    result, answer = await run_work(request, work)
    waiting.answered(interaction_id, answer)
    return json_response(result) if with_response else Response(status_code=204)


def _token_params(request: Request) -> tuple[int, str, int | None]:
    application_id = snowflake_param(request, "application_id")
    token = str(request.path_params["interaction_token"])
    message_id = None if "message_id" not in request.path_params else snowflake_param(request, "message_id")
    return application_id, token, message_id


async def execute(request: Request) -> Response:
    """POST /webhooks/{application_id}/{interaction_token}: a followup message."""
    application_id, token, _ = _token_params(request)
    data, files = await read_payload_and_files(request)
    state = emulator_state(request)
    base_url = base_url_of(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict:
        interaction = store.by_token(state, conn, application_id, token)
        return store.followup(state, conn, outbox, interaction, data, files, base_url)

    return json_response(await run_work(request, work))


def _message_endpoint(method: str, *, original: bool) -> Callable:
    async def endpoint(request: Request) -> Response:
        application_id, token, message_id = _token_params(request)
        state = emulator_state(request)
        base_url = base_url_of(request)
        data, files = (await read_payload_and_files(request)) if method == "PATCH" else (None, [])
        target = None if original else message_id

        def work(conn: sqlite3.Connection, outbox: Outbox) -> dict | None:
            interaction = store.by_token(state, conn, application_id, token)
            if method == "GET":
                return store.get_message(conn, interaction, target)
            if method == "PATCH":
                return store.edit_message(state, conn, outbox, interaction, target, data, files, base_url)
            store.delete_message(state, conn, outbox, interaction, target)
            return None

        result = await run_work(request, work)
        return Response(status_code=204) if result is None else json_response(result)
    return endpoint


async def interaction_file(request: Request) -> Response:
    """GET /interaction-attachments/{interaction_id}/{file_id}/{filename}: the stored bytes."""
    state = emulator_state(request)
    interaction_id, file_id = snowflake_param(request, "interaction_id"), snowflake_param(request, "file_id")
    row = await off_loop(lambda: state.db.query_one(
        "SELECT * FROM interaction_files WHERE id = ? AND interaction_id = ?", (file_id, interaction_id)))
    if row is None or row["filename"] != request.path_params["filename"]:
        raise ApiError(404, 0, "404: Not Found")
    return Response(base64.b64decode(row["data_base64"]),
                    media_type=row["content_type"] or "application/octet-stream")


def webhook_endpoints() -> dict[tuple[str, str | None], Callable]:
    """The followup endpoints under ``/webhooks/{application_id}/{interaction_token}``, by (method,
    message path): the channel webhooks area routes those paths, as a channel webhook's id and token
    share them, and hands the others here."""
    result: dict[tuple[str, str | None], Callable] = {("POST", None): execute}
    for method in ("GET", "PATCH", "DELETE"):
        result[(method, "@original")] = _message_endpoint(method, original=True)
        result[(method, "{message_id:snowflake}")] = _message_endpoint(method, original=False)
    return result


def routes() -> list[BaseRoute]:
    return [
        Route(API + "/interactions/{interaction_id:snowflake}/{interaction_token}/callback", callback,
              methods=["POST"]),
        Route("/interaction-attachments/{interaction_id:snowflake}/{file_id:snowflake}/{filename}",
              interaction_file, methods=["GET"]),
    ]
