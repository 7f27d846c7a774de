"""HTTP routes of stage instances (Bot): ``POST /stage-instances`` (200, as the platform answers) and
``GET / PATCH / DELETE /stage-instances/{channel_id}``; store.py holds the rules."""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth
from ...core.errors import json_response
from ...core.http import emulator_state, in_transaction, snowflake_param
from ...core.routing import Route
from ...core.validation import Form, read_json
from ...events.outbox import Outbox
from ...paths import API
from . import store

TOPIC_MAX = 120


def read_privacy_level(form: Form, *, default: int | None) -> int | None:
    """``privacy_level``: 2 GUILD_ONLY; 1 PUBLIC is deprecated and refused, as the platform refuses it."""
    value = form.choice("privacy_level", (1, 2), required=False, default=default)
    if value == 1:
        form.fail("privacy_level", "BASE_TYPE_CHOICES", "PUBLIC (1) is deprecated: use GUILD_ONLY (2).")
        return None
    return value


async def create_instance(request: Request) -> Response:
    """POST /stage-instances ``{channel_id, topic (1–120), privacy_level?, send_start_notification?,
    guild_scheduled_event_id?}`` → 200, the instance."""
    principal = auth.require(request, kinds=("bot",))
    form = Form(await read_json(request))
    channel_id = form.snowflake("channel_id")
    topic = form.string("topic", min_len=1, max_len=TOPIC_MAX)
    privacy_level = read_privacy_level(form, default=store.GUILD_ONLY)
    # The notification goes to the guild's members, whom the emulator does not notify: read, not acted on.
    form.boolean("send_start_notification")
    event_id = form.snowflake("guild_scheduled_event_id", required=False, nullable=True)
    form.done()
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        return store.create(state, conn, outbox, user_id=principal.user_id, channel_id=int(channel_id or 0),
                            topic=str(topic), privacy_level=int(privacy_level or store.GUILD_ONLY),
                            scheduled_event_id=event_id)

    return json_response(await in_transaction(request, work))


async def get_instance(request: Request) -> Response:
    principal = auth.require(request, kinds=("bot",))
    channel_id = snowflake_param(request, "channel_id")
    state = emulator_state(request)
    return json_response(await in_transaction(request, lambda conn, outbox: store.get(
        state, conn, user_id=principal.user_id, channel_id=channel_id)))


async def modify_instance(request: Request) -> Response:
    """PATCH /stage-instances/{channel_id} ``{topic?, privacy_level?}`` → 200, the instance."""
    principal = auth.require(request, kinds=("bot",))
    channel_id = snowflake_param(request, "channel_id")
    form = Form(await read_json(request))
    changes: dict[str, Any] = {}
    if "topic" in form.data:
        changes["topic"] = form.string("topic", min_len=1, max_len=TOPIC_MAX)
    if form.data.get("privacy_level") is not None:
        changes["privacy_level"] = read_privacy_level(form, default=None)
    form.done()
    state = emulator_state(request)
    return json_response(await in_transaction(request, lambda conn, outbox: store.modify(
        state, conn, outbox, user_id=principal.user_id, channel_id=channel_id, changes=changes)))


async def delete_instance(request: Request) -> Response:
    principal = auth.require(request, kinds=("bot",))
    channel_id = snowflake_param(request, "channel_id")
    state = emulator_state(request)
    await in_transaction(request, lambda conn, outbox: store.delete(
        state, conn, outbox, user_id=principal.user_id, channel_id=channel_id))
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    instance = API + "/stage-instances/{channel_id:snowflake}"
    return [
        Route(API + "/stage-instances", create_instance, methods=["POST"]),
        Route(instance, get_instance, methods=["GET"]),
        Route(instance, modify_instance, methods=["PATCH"]),
        Route(instance, delete_instance, methods=["DELETE"]),
    ]
