"""Routes of the inspector:

- ``GET /_emulator/ui`` and ``/_emulator/ui/<file>``: the page and its static files (no secret in
  them: they load without the admin secret, and the page sends it with each call it makes);
- ``GET /_emulator/inspector/world``, ``/channels/{id}/messages``, ``/lobbies/{id}/messages``,
  ``/users/{id}/dms``: what the World view shows (world.py);
- ``GET /_emulator/inspector/live``: the live feed, server-sent events (live.py);
- ``PUT`` / ``DELETE /_emulator/lobbies/{lobby_id}/members/{user_id}``: a user joins or leaves a
  lobby, as the application's bot would add or remove them (the same dispatches).

Everything else the page does goes through the admin API that already exists (users post and react,
interactions, the clock, faults, snapshots, reset)."""

from __future__ import annotations

from importlib import resources
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute

from ..areas.lobbies.store import LobbyWriter, expire_idle_lobbies, member_now
from ..core import errors
from ..core.errors import json_response
from ..core.http import emulator_state, off_loop, snowflake_param
from ..core.routing import Route
from ..paths import ADMIN, INSPECTOR_PAGE
from . import live, world

STATIC = resources.files(__name__.rpartition(".")[0]) / "static"
# The files the page is made of, and their content types (nothing else is served).
FILES = {"index.html": "text/html; charset=utf-8", "inspector.js": "text/javascript; charset=utf-8",
         "inspector.css": "text/css; charset=utf-8"}
READS = f"{ADMIN}/inspector"


def _static(name: str) -> Response:
    return Response((STATIC / name).read_bytes(), media_type=FILES[name],
                    headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})


async def page(request: Request) -> Response:
    return _static("index.html")


async def static_file(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in FILES:
        raise errors.not_found(0, "File")
    return _static(name)


async def get_world(request: Request) -> Response:
    return json_response(await off_loop(world.world, emulator_state(request)))


async def get_channel_messages(request: Request) -> Response:
    messages = await off_loop(world.channel_messages, emulator_state(request),
                                       snowflake_param(request, "channel_id"))
    if messages is None:
        raise errors.not_found(errors.UNKNOWN_CHANNEL, "Channel")
    return json_response(messages)


async def get_lobby_messages(request: Request) -> Response:
    messages = await off_loop(world.lobby_messages, emulator_state(request),
                                       snowflake_param(request, "lobby_id"))
    if messages is None:
        raise errors.not_found(errors.UNKNOWN_LOBBY, "Lobby")
    return json_response(messages)


async def get_dms(request: Request) -> Response:
    return json_response(await off_loop(world.dm_messages, emulator_state(request),
                                                 snowflake_param(request, "user_id")))


async def get_live(request: Request) -> Response:
    return StreamingResponse(live.stream(emulator_state(request)), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def _lobby_membership(joined: bool) -> Any:
    async def endpoint(request: Request) -> Response:
        """The user joins (200: the member) or leaves (204) the lobby; 404 10031 / 10013 / 10007."""
        state = emulator_state(request)
        lobby_id = snowflake_param(request, "lobby_id")
        user_id = snowflake_param(request, "user_id")

        def work() -> Any:
            expire_idle_lobbies(state)
            with state.db.transaction() as conn:
                lobby = conn.execute("SELECT application_id FROM lobbies WHERE id = ?", (lobby_id,)).fetchone()
                if lobby is None:
                    raise errors.not_found(errors.UNKNOWN_LOBBY, "Lobby")
                if conn.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is None:
                    raise errors.not_found(errors.UNKNOWN_USER, "User")
                writer = LobbyWriter(state, conn, lobby["application_id"])
                if joined:
                    writer.upsert_member(lobby_id, user_id, {})
                elif not writer.remove_member(lobby_id, user_id):
                    raise errors.not_found(errors.UNKNOWN_MEMBER, "Member")
                writer.refresh_idle(state.connected_users(lobby["application_id"]))
                return member_now(conn, lobby_id, user_id) if joined else None

        member = await off_loop(work)
        return json_response(member) if joined else Response(status_code=204)
    return endpoint


def routes() -> list[BaseRoute]:
    return [
        Route(INSPECTOR_PAGE, page, methods=["GET"]),
        Route(INSPECTOR_PAGE + "/{name}", static_file, methods=["GET"]),
        Route(f"{READS}/world", get_world, methods=["GET"]),
        Route(READS + "/channels/{channel_id:snowflake}/messages", get_channel_messages, methods=["GET"]),
        Route(READS + "/lobbies/{lobby_id:snowflake}/messages", get_lobby_messages, methods=["GET"]),
        Route(READS + "/users/{user_id:snowflake}/dms", get_dms, methods=["GET"]),
        Route(f"{READS}/live", get_live, methods=["GET"]),
        Route(ADMIN + "/lobbies/{lobby_id:snowflake}/members/{user_id:snowflake}", _lobby_membership(True),
              methods=["PUT"]),
        Route(ADMIN + "/lobbies/{lobby_id:snowflake}/members/{user_id:snowflake}", _lobby_membership(False),
              methods=["DELETE"]),
    ]

