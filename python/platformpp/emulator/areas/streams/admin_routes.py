"""Admin API of Go Live streams (``/_emulator``): list the live streams, end one as the platform ends a
stream (STREAM_DELETE ``reason: "stream_ended"`` to the streamer and the viewers, their stream sessions
closed), e.g. to test a client's handling of a stream that stops."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import ApiError, json_response
from ...core.http import emulator_state
from ...core.routing import Route
from ...paths import ADMIN
from . import calls, store


async def list_streams(request: Request) -> Response:
    """GET /_emulator/streams → 200, the live streams with their viewers."""
    return json_response(await asyncio.to_thread(store.listing, emulator_state(request)))


async def end_stream(request: Request) -> Response:
    """DELETE /_emulator/streams/{stream_key} → 204; 404 when no such stream is live."""
    state = emulator_state(request)
    key = request.path_params["stream_key"]

    def work() -> bool:
        effects = store.end_where(state, "stream_key = ?", (key,), store.STREAM_ENDED)
        calls.follow(state, effects)
        return bool(effects.disconnect)

    if not await asyncio.to_thread(work):
        raise ApiError(404, 0, "Unknown stream")
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    return [Route(ADMIN + "/streams", list_streams, methods=["GET"]),
            Route(ADMIN + "/streams/{stream_key}", end_stream, methods=["DELETE"])]
