"""Admin API of the soundboard (``/_emulator``): a member plays a sound in the voice channel they are
connected to, as that user would (the same permissions, errors and VOICE_CHANNEL_EFFECT_SEND)."""

from __future__ import annotations

import sqlite3

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core.http import emulator_state, in_transaction, snowflake_param
from ...core.routing import Route
from ...core.validation import Form, read_json
from ...events.outbox import Outbox
from ...paths import ADMIN
from . import store


async def user_sends_sound(request: Request) -> Response:
    """POST /_emulator/channels/{channel_id}/send-soundboard-sound ``{user_id, sound_id, source_guild_id?}`` → 204."""
    channel_id = snowflake_param(request, "channel_id")
    form = Form(await read_json(request))
    user_id = form.snowflake("user_id")
    sound_id = form.snowflake("sound_id")
    source_guild_id = form.snowflake("source_guild_id", required=False, nullable=True)
    form.done()
    state = emulator_state(request)

    def work(conn: sqlite3.Connection, outbox: Outbox) -> None:
        store.send(state, conn, outbox, channel_id=channel_id, user_id=int(user_id or 0), sound_id=int(sound_id or 0),
                   source_guild_id=source_guild_id)

    await in_transaction(request, work)
    return Response(status_code=204)


def routes() -> list[BaseRoute]:
    return [Route(ADMIN + "/channels/{channel_id:snowflake}/send-soundboard-sound", user_sends_sound,
                  methods=["POST"])]
