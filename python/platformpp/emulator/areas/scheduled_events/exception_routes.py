"""HTTP routes of recurring events' occurrences (Bot): recurrence exceptions, user counts per
occurrence, the users of one occurrence; and the admin routes that make a member interested (or not)
in one occurrence."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import json_response
from ...core.http import (
    emulator_state,
    in_transaction,
    query_bool,
    query_int,
    query_snowflake,
    snowflake_param,
)
from ...core.routing import Route
from ...core.snowflake import parse_snowflake
from ...core.validation import Form, field_error, read_json
from ...events.outbox import Outbox
from ...paths import ADMIN, API
from ..channel_messages.guild_member_call import run_as_guild_member
from . import exceptions
from .exceptions import INTERESTED, NOT_INTERESTED
from .fields import read_exception

MAX_COUNTED_OCCURRENCES = 10


async def create_exception(request: Request) -> Response:
    event_id = snowflake_param(request, "event_id")
    form = Form(await read_json(request))
    fields = read_exception(form, creating=True)
    form.done()
    state = emulator_state(request)
    return json_response(await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: exceptions.create(
        state, conn, outbox, guild_id=guild_id, user_id=user_id, event_id=event_id, fields=fields)))


async def modify_exception(request: Request) -> Response:
    event_id, exception_id = snowflake_param(request, "event_id"), snowflake_param(request, "exception_id")
    form = Form(await read_json(request, allow_empty=True))
    fields = read_exception(form, creating=False)
    form.done()
    state = emulator_state(request)
    return json_response(await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: exceptions.modify(
        state, conn, outbox, guild_id=guild_id, user_id=user_id, event_id=event_id, exception_id=exception_id,
        fields=fields)))


async def delete_exception(request: Request) -> Response:
    event_id, exception_id = snowflake_param(request, "event_id"), snowflake_param(request, "exception_id")
    state = emulator_state(request)
    await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: exceptions.delete(
        state, conn, outbox, guild_id=guild_id, user_id=user_id, event_id=event_id, exception_id=exception_id))
    return Response(status_code=204)


def _occurrence_ids(request: Request) -> list[int]:
    """``guild_scheduled_event_exception_ids``: repeated, or comma-separated, up to 10 snowflakes."""
    name = "guild_scheduled_event_exception_ids"
    raws = [part.strip() for raw in request.query_params.getlist(name) for part in raw.split(",") if part.strip()]
    if len(raws) > MAX_COUNTED_OCCURRENCES:
        raise field_error(name, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_COUNTED_OCCURRENCES} or fewer in length.")
    ids = []
    for index, raw in enumerate(raws):
        value = parse_snowflake(raw)
        if value is None:
            raise field_error((name, index), "NUMBER_TYPE_COERCE", f"Value {raw[:40]!r} is not snowflake.")
        ids.append(value)
    return list(dict.fromkeys(ids))


async def user_counts(request: Request) -> Response:
    """GET .../users/counts?guild_scheduled_event_exception_ids=…"""
    event_id = snowflake_param(request, "event_id")
    occurrences = _occurrence_ids(request)
    return json_response(await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id: exceptions.counts(
        conn, guild_id=guild_id, event_id=event_id, occurrences=occurrences)))


async def occurrence_users(request: Request) -> Response:
    """GET .../{guild_scheduled_event_exception_id}/users?limit=1..100&before|after=&with_member=."""
    event_id, occurrence = snowflake_param(request, "event_id"), snowflake_param(request, "exception_id")
    limit = query_int(request, "limit", minimum=1, maximum=100, default=100)
    before, after = query_snowflake(request, "before"), query_snowflake(request, "after")
    with_member = query_bool(request, "with_member")
    return json_response(await run_as_guild_member(request, lambda conn, outbox, guild_id, user_id:
                                                   exceptions.occurrence_users(
        conn, guild_id=guild_id, event_id=event_id, occurrence=occurrence, limit=limit, before=before, after=after,
        with_member=with_member)))


async def admin_occurrence_interest(request: Request) -> Response:
    """PUT /_emulator/guilds/{g}/scheduled-events/{e}/{occurrence}/users/{u} ``{"response": 1 | 0}``
    (default 1: interested; 0: not interested although subscribed to the series), DELETE: neither → 204."""
    guild_id, event_id = snowflake_param(request, "guild_id"), snowflake_param(request, "event_id")
    occurrence, user_id = snowflake_param(request, "exception_id"), snowflake_param(request, "user_id")
    response = None
    if request.method == "PUT":
        form = Form(await read_json(request, allow_empty=True))
        response = form.choice("response", (INTERESTED, NOT_INTERESTED), required=False, default=INTERESTED)
        form.done()
    state = emulator_state(request)

    def work(conn: Any, outbox: Outbox) -> None:
        exceptions.set_occurrence_interest(state, conn, outbox, guild_id=guild_id, event_id=event_id,
                                           occurrence=occurrence, user_id=user_id, response=response)

    await in_transaction(request, work)
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    event = API + "/guilds/{guild_id:snowflake}/scheduled-events/{event_id:snowflake}"
    admin = ADMIN + ("/guilds/{guild_id:snowflake}/scheduled-events/{event_id:snowflake}/{exception_id:snowflake}"
                     "/users/{user_id:snowflake}")
    return [
        Route(event + "/exceptions", create_exception, methods=["POST"]),
        Route(event + "/exceptions/{exception_id:snowflake}", modify_exception, methods=["PATCH"]),
        Route(event + "/exceptions/{exception_id:snowflake}", delete_exception, methods=["DELETE"]),
        Route(event + "/users/counts", user_counts, methods=["GET"]),
        Route(event + "/{exception_id:snowflake}/users", occurrence_users, methods=["GET"]),
        Route(admin, admin_occurrence_interest, methods=["PUT", "DELETE"]),
    ]
