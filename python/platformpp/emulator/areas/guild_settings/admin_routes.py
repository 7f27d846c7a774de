"""Admin API of guild settings (``/_emulator``): set a guild's vanity URL, and what a user's client
does with join requests (submit one, withdraw it), with the dispatches the platform sends. Bad input
is a 400 / 50035 naming the field; nothing is half-written."""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import errors
from ...core.errors import json_response
from ...core.http import emulator_state, snowflake_param
from ...core.routing import Route
from ...core.validation import field_error, read_form
from ...events.outbox import Outbox
from ...paths import ADMIN
from ..guilds.work import in_transaction
from . import join_requests, reviews
from .fixtures import read_vanity_code


def _guild(conn: sqlite3.Connection, guild_id: int) -> None:
    if conn.execute("SELECT 1 FROM guilds WHERE id = ?", (guild_id,)).fetchone() is None:
        raise errors.not_found(errors.UNKNOWN_GUILD, "Guild")


async def set_vanity_url(request: Request) -> Response:
    """PUT /_emulator/guilds/{guild_id}/vanity-url ``{code: str | null, uses?: int}`` → ``{code, uses}``
    (the code is shown by the API only while the guild has the VANITY_URL feature)."""
    guild_id = snowflake_param(request, "guild_id")
    form = await read_form(request)
    if "code" not in form.data:
        form.fail("code", "BASE_TYPE_REQUIRED", "This field is required")
    code = read_vanity_code(form, "code")
    uses = form.integer("uses", required=False, minimum=0, maximum=1 << 31, default=0)
    form.done()

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        _guild(conn, guild_id)
        try:
            conn.execute("UPDATE guilds SET vanity_url_code = ?, vanity_url_uses = ? WHERE id = ?",
                         (code, uses, guild_id))
        except sqlite3.IntegrityError:
            raise field_error("code", "VANITY_CODE_TAKEN", "Another guild has this vanity code.") from None
        return {"code": code, "uses": uses}

    return json_response(await in_transaction(request, work))


async def submit_join_request(request: Request) -> Response:
    """POST /_emulator/guilds/{guild_id}/requests ``{user_id, form_responses?}`` → 201, the request
    (SUBMITTED; GUILD_JOIN_REQUEST_CREATE). A member who is not pending becomes pending."""
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)
    form = await read_form(request)
    user_id = form.snowflake("user_id")
    responses = form.array("form_responses", required=False)
    form.done()
    assert user_id is not None

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        now = state.clock.now()
        _guild(conn, guild_id)
        if conn.execute("SELECT 1 FROM users WHERE id = ?", (user_id,)).fetchone() is None:
            raise field_error("user_id", "USER_UNKNOWN", f"No user {user_id}.")
        conn.execute("UPDATE members SET pending = 1 WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        row = join_requests.create(conn, outbox, now, guild_id, user_id, request_id=state.ids.next(),
                                   form_responses=responses)
        return join_requests.request_json(conn, row)

    return json_response(await in_transaction(request, work), 201)


async def withdraw_join_request(request: Request) -> Response:
    """DELETE /_emulator/guilds/{guild_id}/requests/{request_id}: the user withdraws it → 204
    (GUILD_JOIN_REQUEST_DELETE; a pending member leaves the guild)."""
    guild_id = snowflake_param(request, "guild_id")
    request_id = snowflake_param(request, "request_id")
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        reviews.withdraw(conn, outbox, state.clock.now(), join_requests.get(conn, guild_id, request_id))

    await in_transaction(request, work)
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    guild = ADMIN + "/guilds/{guild_id}"
    return [
        Route(guild + "/vanity-url", set_vanity_url, methods=["PUT"]),
        Route(guild + "/requests", submit_join_request, methods=["POST"]),
        Route(guild + "/requests/{request_id}", withdraw_join_request, methods=["DELETE"]),
    ]
