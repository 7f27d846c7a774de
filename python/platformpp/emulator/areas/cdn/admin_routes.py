"""The CDN's admin route: ``PUT /_emulator/users/{user_id}/avatar {"image": data URI | null}`` sets a
user's avatar as their client would (the emulator serves no Modify Current User), storing the image
for ``{base}/avatars/{user_id}/{hash}.{ext}``. A bad image answers 400 naming ``image``; nothing changes."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import errors
from ...core.errors import json_response
from ...core.http import emulator_state, in_transaction, snowflake_param
from ...core.routing import Route
from ...core.validation import read_form
from ...events.outbox import Outbox
from ...paths import ADMIN
from . import store
from .images import Upload

if TYPE_CHECKING:
    from ...state import EmulatorState


async def set_user_avatar(request: Request) -> Response:
    state = emulator_state(request)
    user_id = snowflake_param(request, "user_id")
    form = await read_form(request)
    if "image" not in form.data:
        form.fail("image", "BASE_TYPE_REQUIRED", "This field is required")
    upload = store.read_image(form, "image")
    form.done()

    def work(conn: sqlite3.Connection, _: Outbox) -> dict[str, Any]:
        return _apply(conn, user_id, upload, state)
    return json_response(await in_transaction(request, work))


def _apply(conn: sqlite3.Connection, user_id: int, upload: Upload | None,
           state: EmulatorState) -> dict[str, Any]:
    if conn.execute("UPDATE users SET avatar = ? WHERE id = ?",
                    (upload.hash if upload else None, user_id)).rowcount == 0:
        raise errors.not_found(errors.UNKNOWN_USER, "User")
    if upload is not None:
        store.save(conn, store.user_avatar_path(user_id, upload.hash), upload, state.clock.now())
    return {"user_id": str(user_id), "avatar": upload.hash if upload else None}


def routes() -> list[BaseRoute]:
    return [Route(ADMIN + "/users/{user_id:snowflake}/avatar", set_user_avatar, methods=["PUT"])]
