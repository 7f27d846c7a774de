"""HTTP routes of guild scheduled events (Bot), and the admin route that makes a member interested
(or not) in an event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import json_response
from ...core.http import emulator_state, off_loop, query_bool, query_int, query_snowflake, snowflake_param
from ...core.routing import Route
from ...core.validation import Form, read_json
from ...events.outbox import Outbox
from ...paths import ADMIN, API
from ..channel_messages.guild_member_call import run_as_guild_member
from . import exception_routes, store
from .fields import read_fields


async def list_events(request: Request) -> Response:
    with_count = query_bool(request, "with_user_count")
    return json_response(await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: [
        store.render(conn, row, with_count) for row in conn.execute(
            "SELECT * FROM guild_scheduled_events WHERE guild_id = ? ORDER BY id", (guild_id,))]))


async def create_event(request: Request) -> Response:
    form = Form(await read_json(request))
    fields = read_fields(form, creating=True)
    form.done()
    state = emulator_state(request)
    return json_response(await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: store.create(
        state, conn, outbox, guild_id=guild_id, user_id=user_id, fields=fields)))


async def get_event(request: Request) -> Response:
    event_id = snowflake_param(request, "event_id")
    with_count = query_bool(request, "with_user_count")
    return json_response(await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: store.render(
        conn, store.get_row(conn, guild_id, event_id), with_count)))


async def modify_event(request: Request) -> Response:
    event_id = snowflake_param(request, "event_id")
    form = Form(await read_json(request))
    fields = read_fields(form, creating=False)
    form.done()
    state = emulator_state(request)
    return json_response(await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: store.modify(
        state, conn, outbox, guild_id=guild_id, user_id=user_id, event_id=event_id, fields=fields)))


async def delete_event(request: Request) -> Response:
    event_id = snowflake_param(request, "event_id")
    state = emulator_state(request)
    await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: store.delete(
        state, conn, outbox, guild_id=guild_id, user_id=user_id, event_id=event_id))
    return Response(status_code=204)


async def event_users(request: Request) -> Response:
    """GET .../users?limit=1..100&before|after=&with_member=."""
    event_id = snowflake_param(request, "event_id")
    limit = query_int(request, "limit", minimum=1, maximum=100, default=100)
    before, after = query_snowflake(request, "before"), query_snowflake(request, "after")
    with_member = query_bool(request, "with_member")
    return json_response(await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: store.users(
        conn, guild_id=guild_id, event_id=event_id, limit=limit, before=before, after=after,
        with_member=with_member)))


def _admin_interest(interested: bool) -> Callable[[Request], Any]:
    async def endpoint(request: Request) -> Response:
        """PUT / DELETE /_emulator/guilds/{guild_id}/scheduled-events/{event_id}/users/{user_id} → 204."""
        guild_id, event_id = snowflake_param(request, "guild_id"), snowflake_param(request, "event_id")
        user_id = snowflake_param(request, "user_id")
        state = emulator_state(request)
        outbox = Outbox(state)

        def work() -> None:
            with state.db.transaction() as conn:
                store.set_interest(state, conn, outbox, guild_id=guild_id, event_id=event_id, user_id=user_id,
                                   interested=interested)

        await off_loop(work)
        return Response(status_code=204)
    return endpoint


def routes() -> list[BaseRoute]:
    base = API + "/guilds/{guild_id:snowflake}/scheduled-events"
    event = base + "/{event_id:snowflake}"
    admin = ADMIN + "/guilds/{guild_id:snowflake}/scheduled-events/{event_id:snowflake}/users/{user_id:snowflake}"
    return [
        Route(base, list_events, methods=["GET"]),
        Route(base, create_event, methods=["POST"]),
        Route(event, get_event, methods=["GET"]),
        Route(event, modify_event, methods=["PATCH"]),
        Route(event, delete_event, methods=["DELETE"]),
        Route(event + "/users", event_users, methods=["GET"]),
        *exception_routes.routes(),
        Route(admin, _admin_interest(True), methods=["PUT"]),
        Route(admin, _admin_interest(False), methods=["DELETE"]),
    ]
