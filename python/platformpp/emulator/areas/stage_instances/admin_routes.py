"""Admin API of stage instances (``/_emulator``): a member opens a stage, as that user would (the
same moderator permissions, errors, dispatch and audit entry)."""

from __future__ import annotations

import sqlite3
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.errors import json_response
from ...core.http import emulator_state, in_transaction
from ...core.routing import Route
from ...core.validation import Form, read_json
from ...events.outbox import Outbox
from ...paths import ADMIN
from . import store
from .routes import TOPIC_MAX, read_privacy_level


async def user_opens_stage(request: Request) -> Response:
    """POST /_emulator/stage-instances ``{user_id, channel_id, topic, privacy_level?}`` → 200, the instance."""
    form = Form(await read_json(request))
    user_id = form.snowflake("user_id")
    channel_id = form.snowflake("channel_id")
    topic = form.string("topic", min_len=1, max_len=TOPIC_MAX)
    privacy_level = read_privacy_level(form, default=store.GUILD_ONLY)
    form.done()
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> dict[str, Any]:
        return store.create(state, conn, outbox, user_id=int(user_id or 0), channel_id=int(channel_id or 0),
                            topic=str(topic), privacy_level=int(privacy_level or store.GUILD_ONLY),
                            scheduled_event_id=None)

    return json_response(await in_transaction(request, work))


def routes() -> list[BaseRoute]:
    return [Route(ADMIN + "/stage-instances", user_opens_stage, methods=["POST"])]
