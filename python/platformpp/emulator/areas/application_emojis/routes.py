"""HTTP routes of an application's emoji (the bot of that application only: another application's
are 403 / 50001, as the application itself is)."""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth
from ...core.errors import json_response
from ...core.http import in_transaction, snowflake_param
from ...core.routing import Route
from ...core.validation import Form, read_json
from ...events.outbox import Outbox
from ...paths import API
from ..applications.routes import own_application
from ..expressions.store import EMOJI_MAX_BYTES, EMOJI_NAME
from . import store


def _name(form: Form, *, required: bool) -> str | None:
    name = form.string("name", required=required, min_len=2, max_len=32)
    if name is not None and not EMOJI_NAME.match(name):
        form.fail("name", "BASE_TYPE_BAD_NAME", "Only letters, digits and underscores.")
    return name


async def list_emojis(request: Request) -> Response:
    _, application_id = own_application(request)
    return json_response(await in_transaction(request, lambda conn, _: store.list_emojis(conn,
                                                                                         application_id)))


async def get_emoji(request: Request) -> Response:
    _, application_id = own_application(request)
    emoji_id = snowflake_param(request, "emoji_id")
    return json_response(await in_transaction(request, lambda conn, _: store.get_emoji(conn, application_id,
                                                                                        emoji_id)))


async def create_emoji(request: Request) -> Response:
    """``POST /applications/{id}/emojis`` ``{name (2-32 of A-Z a-z 0-9 _), image (data URI)}`` → 201."""
    state, application_id = own_application(request)
    user_id = auth.require(request, kinds=("bot",)).user_id
    form = Form(await read_json(request))
    name = _name(form, required=True)
    image = form.string("image", max_len=4 * EMOJI_MAX_BYTES)
    form.done()

    def work(conn: sqlite3.Connection, _: Outbox) -> Any:
        return store.create_emoji(state, conn, application_id=application_id, user_id=user_id, name=str(name),
                                  image=str(image))

    return json_response(await in_transaction(request, work), 201)


async def modify_emoji(request: Request) -> Response:
    """``PATCH /applications/{id}/emojis/{emoji_id}`` ``{name?}``."""
    _, application_id = own_application(request)
    emoji_id = snowflake_param(request, "emoji_id")
    form = Form(await read_json(request))
    name = _name(form, required=False)
    form.done()
    return json_response(await in_transaction(request, lambda conn, _: store.rename_emoji(
        conn, application_id, emoji_id, name)))


async def delete_emoji(request: Request) -> Response:
    _, application_id = own_application(request)
    emoji_id = snowflake_param(request, "emoji_id")
    await in_transaction(request, lambda conn, _: store.delete_emoji(conn, application_id, emoji_id))
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    app = API + "/applications/{application_id:snowflake}"
    return [
        Route(app + "/emojis", list_emojis, methods=["GET"]),
        Route(app + "/emojis", create_emoji, methods=["POST"]),
        Route(app + "/emojis/{emoji_id:snowflake}", get_emoji, methods=["GET"]),
        Route(app + "/emojis/{emoji_id:snowflake}", modify_emoji, methods=["PATCH"]),
        Route(app + "/emojis/{emoji_id:snowflake}", delete_emoji, methods=["DELETE"]),
    ]
