"""Admin controls of the voice service under ``/_emulator/voice`` (fault injection for clients' tests):

- ``GET /_emulator/voice``: the endpoint, the calls with their participants, the relay's counters;
- ``PUT /_emulator/voice/calls/{channel_id}/udp`` ``{drop_ratio?, delay_ms?}``: drop (at that ratio)
  or delay the inbound UDP packets of one call; ``{}`` clears the fault;
- ``POST /_emulator/voice/close`` ``{server_id, user_id, code?}``: close one participant's voice
  gateway socket (4015 by default: the client should resume);
- ``PUT /_emulator/voice/timeouts`` ``{heartbeat_interval_ms?, resume_window_ms?}``: the voice
  gateway's heartbeat interval (two missed close 4009) and resume window, for clients' timeout tests."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import errors
from ...core.errors import ApiError, json_response
from ...core.http import emulator_state, off_loop, snowflake_param
from ...core.routing import Route
from ...core.validation import Form, read_json
from ...paths import ADMIN
from ...voice.errors import VoiceServiceError
from . import calls

if TYPE_CHECKING:
    from ...voice.service import VoiceService


def _service(request: Request) -> VoiceService:
    try:
        return calls.running_service(emulator_state(request))
    except VoiceServiceError:
        raise ApiError(503, 0, "The voice service is not running") from None


async def voice_overview(request: Request) -> Response:
    service = _service(request)

    def read() -> dict[str, Any]:
        calls = {str(channel_id): [str(u) for u in service.participants(channel_id)]
                 for channel_id in list(service.gateway.calls)}
        return {"endpoint": service.endpoint, "udp_port": service.udp_port, "calls": calls,
                "stats": service.stats()["relay"]}
    return json_response(await off_loop(read))


async def set_udp_fault(request: Request) -> Response:
    service = _service(request)
    channel_id = snowflake_param(request, "channel_id")
    form = Form(await read_json(request))
    drop = form.number("drop_ratio", required=False, minimum=0.0, maximum=1.0, default=0.0)
    delay = form.number("delay_ms", required=False, minimum=0.0, maximum=10_000.0, default=0.0)
    form.done()
    try:
        await off_loop(service.faults.set_udp, channel_id, drop_ratio=float(drop or 0.0),
                                delay_ms=float(delay or 0.0))
    except VoiceServiceError:
        raise errors.not_found(errors.UNKNOWN_CHANNEL, "Call") from None
    return Response(status_code=204)


async def close_voice_socket(request: Request) -> Response:
    service = _service(request)
    form = Form(await read_json(request))
    server_id = form.snowflake("server_id")
    user_id = form.snowflake("user_id")
    code = form.integer("code", required=False, minimum=1000, maximum=4999, default=4015)
    form.done()
    assert server_id is not None and user_id is not None and code is not None
    closed = await off_loop(service.faults.close_gateway, server_id, user_id, code)
    if not closed:
        raise ApiError(404, 0, "No connected voice participant with that server_id and user_id")
    return Response(status_code=204)


async def set_timeouts(request: Request) -> Response:
    service = _service(request)
    form = Form(await read_json(request))
    heartbeat = form.integer("heartbeat_interval_ms", required=False, minimum=50, maximum=3_600_000)
    resume = form.integer("resume_window_ms", required=False, minimum=50, maximum=3_600_000)
    form.done()
    now = await off_loop(service.set_timeouts,
                                  heartbeat_interval=None if heartbeat is None else heartbeat / 1000,
                                  resume_window=None if resume is None else resume / 1000)
    return json_response({"heartbeat_interval_ms": round(now["heartbeat_interval"] * 1000),
                          "resume_window_ms": round(now["resume_window"] * 1000)})


def routes() -> list[BaseRoute]:
    return [
        Route(f"{ADMIN}/voice", voice_overview, methods=["GET"]),
        Route(f"{ADMIN}/voice/calls/{{channel_id:snowflake}}/udp", set_udp_fault, methods=["PUT"]),
        Route(f"{ADMIN}/voice/close", close_voice_socket, methods=["POST"]),
        Route(f"{ADMIN}/voice/timeouts", set_timeouts, methods=["PUT"]),
    ]
