"""HTTP routes of stickers by id and of the standard sticker packs: bots; the list of packs also
without credentials, as on the platform."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth
from ...core.errors import json_response
from ...core.http import in_transaction, snowflake_param
from ...core.routing import Route
from ...paths import API
from . import store


async def get_sticker(request: Request) -> Response:
    auth.require(request, kinds=("bot",))
    sticker_id = snowflake_param(request, "sticker_id")
    return json_response(await in_transaction(request, lambda conn, _: store.get_sticker(conn, sticker_id),
                                              on_loop_in_memory=True))


async def list_packs(request: Request) -> Response:
    return json_response(await in_transaction(request, lambda conn, _: store.list_packs(conn),
                                              on_loop_in_memory=True))


async def get_pack(request: Request) -> Response:
    auth.require(request, kinds=("bot",))
    pack_id = snowflake_param(request, "pack_id")
    return json_response(await in_transaction(request, lambda conn, _: store.get_pack(conn, pack_id),
                                              on_loop_in_memory=True))


def routes() -> list[BaseRoute]:
    return [
        Route(API + "/stickers/{sticker_id:snowflake}", get_sticker, methods=["GET"]),
        Route(API + "/sticker-packs", list_packs, methods=["GET"]),
        Route(API + "/sticker-packs/{pack_id:snowflake}", get_pack, methods=["GET"]),
    ]
