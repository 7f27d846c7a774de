"""The admin API of the desktop client, under ``/_emulator/desktop``: sign a desktop user in or out,
change their voice settings as if they did in the client, make the consent refuse, and make the
user start an authorization or an activity join from the client."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ..core import errors
from ..core.errors import ApiError, json_response
from ..core.routing import Route
from ..core.validation import Form, read_json
from ..paths import ADMIN
from ..wire.user import public_user_json
from .endpoint import DesktopEndpoint, DesktopUserError, endpoint_of
from .voice_settings import update_from_admin

if TYPE_CHECKING:
    from ..state import EmulatorState


def _endpoint(request: Request) -> DesktopEndpoint:
    state: EmulatorState = request.app.state.emu
    return endpoint_of(state)


def _running(endpoint: DesktopEndpoint) -> None:
    if not endpoint.running:
        raise ApiError(409, errors.GENERAL, "no desktop client is running: PUT /_emulator/desktop first")


def _desktop_json(endpoint: DesktopEndpoint) -> dict[str, Any]:
    return {"user_id": str(endpoint.user_id) if endpoint.running else None, "username": endpoint.username,
            "socket_path": str(endpoint.path) if endpoint.path else None, "deny_consent": endpoint.deny_consent,
            "voice_settings": endpoint.voice_settings.admin(),
            "connections": [{"client_id": str(c.client_id), "authenticated": c.grant_scopes is not None,
                             "subscriptions": sorted(e for e, _ in c.subscriptions)} for c in endpoint.connections()]}


async def get_desktop(request: Request) -> Response:
    return json_response(_desktop_json(_endpoint(request)))


async def put_desktop(request: Request) -> Response:
    """``{"user": "<username or id>"}``: the desktop client runs, signed in as that user."""
    form = Form(await read_json(request))
    who = form.string("user", min_len=1, max_len=64)
    form.done()
    endpoint = _endpoint(request)
    try:
        await endpoint.sign_in(who or "")
    except DesktopUserError as exc:
        raise ApiError(404, errors.UNKNOWN_USER, str(exc)) from exc
    except OSError as exc:
        raise ApiError(409, errors.GENERAL, f"cannot open the IPC socket: {exc}") from exc
    return json_response(_desktop_json(endpoint))


async def delete_desktop(request: Request) -> Response:
    await _endpoint(request).sign_out()
    return Response(status_code=204)


async def patch_voice_settings(request: Request) -> Response:
    endpoint = _endpoint(request)
    _running(endpoint)
    settings = update_from_admin(endpoint.voice_settings, Form(await read_json(request)))
    endpoint.change_voice_settings(settings)
    return json_response(settings.admin())


async def put_consent(request: Request) -> Response:
    """``{"deny": true}``: the desktop user refuses every AUTHORIZE until set back to false."""
    endpoint = _endpoint(request)
    _running(endpoint)
    form = Form(await read_json(request))
    deny = form.boolean("deny", required=True)
    form.done()
    endpoint.deny_consent = deny
    return json_response({"deny": deny})


def _application_id(form: Form, request: Request) -> int:
    application_id = form.snowflake("application_id")
    assert application_id is not None or form.errors
    return application_id or 0


async def post_authorize_request(request: Request) -> Response:
    """The user starts an authorization of the game from a client entry point."""
    endpoint = _endpoint(request)
    _running(endpoint)
    form = Form(await read_json(request))
    application_id = _application_id(form, request)
    form.done()
    return json_response({"delivered": endpoint.request_authorization(application_id)})


async def post_activity_join_request(request: Request) -> Response:
    """A user asks to join the desktop user's activity: ACTIVITY_JOIN_REQUEST to the game."""
    endpoint = _endpoint(request)
    _running(endpoint)
    form = Form(await read_json(request))
    application_id = _application_id(form, request)
    user_id = form.snowflake("user_id")
    form.done()
    row = endpoint.state.db.query_one("SELECT * FROM users WHERE id = ?", (user_id,))
    if row is None:
        raise ApiError(404, errors.UNKNOWN_USER, "Unknown User")
    return json_response({"delivered": endpoint.request_to_join(application_id, public_user_json(row))})


async def post_activity_join(request: Request) -> Response:
    """The user accepts an invite or clicks Join: ACTIVITY_JOIN (or ACTIVITY_SPECTATE) with the secret."""
    endpoint = _endpoint(request)
    _running(endpoint)
    form = Form(await read_json(request))
    application_id = _application_id(form, request)
    secret = form.string("secret", min_len=1, max_len=128)
    spectate = form.boolean("spectate")
    form.done()
    return json_response({"delivered": endpoint.join(application_id, secret or "", spectate)})


def routes() -> list[BaseRoute]:
    base = ADMIN + "/desktop"
    return [
        Route(base, get_desktop, methods=["GET"]),
        Route(base, put_desktop, methods=["PUT"]),
        Route(base, delete_desktop, methods=["DELETE"]),
        Route(base + "/voice-settings", patch_voice_settings, methods=["PATCH"]),
        Route(base + "/consent", put_consent, methods=["PUT"]),
        Route(base + "/authorize-request", post_authorize_request, methods=["POST"]),
        Route(base + "/activity-join-request", post_activity_join_request, methods=["POST"]),
        Route(base + "/activity-join", post_activity_join, methods=["POST"]),
    ]
