"""The CDN routes: stored images served back at the platform's CDN paths, under the emulator's base
URL (as attachments are): ``{base}/guilds/{guild_id}/users/{user_id}/avatars/{hash}.{ext}`` and
``.../banners/...`` (guild member avatars and banners), ``{base}/avatars/{user_id}/{hash}.{ext}`` and
``{base}/banners/{user_id}/{hash}.{ext}`` (user avatars and banners), ``{base}/icons/{guild_id}/{hash}.{ext}``
and ``{base}/role-icons/{role_id}/{hash}.{ext}``; soundboard sounds at ``{base}/soundboard-sounds/{sound_id}``.

The platform's image formatting: the extension picks the format (png, jpg / jpeg, webp, gif; gif only
for an animated image, whose hash starts with ``a_``), ``?size=`` any power of two from 16 to 4096
scales the larger side to it, ``?animated=true`` asks a WebP of an animated image to keep its frames.
An unknown image is 404; a bad extension 415, a bad size 400 (plain text, as a CDN answers)."""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute

from ...core.http import emulator_state, off_loop, query_bool
from ...core.routing import Route
from . import store
from .images import CONTENT_TYPES, EXTENSIONS, SIZES, render

_HASH = re.compile(r"^(?:a_)?[0-9a-f]{32}$")
CACHE_CONTROL = "public, max-age=31536000, immutable"   # an image's hash names its bytes


def _not_found() -> Response:
    return PlainTextResponse("404: Not Found", status_code=404)


async def _serve(request: Request, prefix: str) -> Response:
    stem, dot, extension = str(request.path_params["file"]).rpartition(".")
    if not dot or not _HASH.match(stem):
        return _not_found()
    fmt = EXTENSIONS.get(extension.lower())
    if fmt is None:
        return PlainTextResponse("415: Unsupported Media Type: use png, jpg, jpeg, webp or gif",
                                 status_code=415)
    raw_size = request.query_params.get("size")
    size = None
    if raw_size is not None:
        size = int(raw_size) if raw_size.isascii() and raw_size.isdigit() and len(raw_size) <= 5 else 0
        if size not in SIZES:
            return PlainTextResponse("400: size must be a power of two from 16 to 4096", status_code=400)
    state = emulator_state(request)
    row = state.db.query_one("SELECT content_type, animated, data FROM cdn_images WHERE path = ?",
                             (prefix + stem,))
    if row is None:
        return _not_found()
    animated = bool(row["animated"])
    if fmt == "GIF" and not animated:
        return PlainTextResponse("415: Unsupported Media Type: gif is served for animated images (a_ hashes)",
                                 status_code=415)
    keep_frames = animated and (fmt == "GIF" or (fmt == "WEBP" and query_bool(request, "animated")))
    body = await off_loop(render, bytes(row["data"]), row["content_type"], fmt, size,
                                   animated=keep_frames)
    return Response(body, media_type=CONTENT_TYPES[fmt], headers={"Cache-Control": CACHE_CONTROL})


async def member_avatar(request: Request) -> Response:
    p = request.path_params
    return await _serve(request, store.member_avatar_path(p["guild_id"], p["user_id"], ""))


async def member_banner(request: Request) -> Response:
    p = request.path_params
    return await _serve(request, store.member_banner_path(p["guild_id"], p["user_id"], ""))


async def user_avatar(request: Request) -> Response:
    return await _serve(request, store.user_avatar_path(request.path_params["user_id"], ""))


async def user_banner(request: Request) -> Response:
    return await _serve(request, store.user_banner_path(request.path_params["user_id"], ""))


async def guild_icon(request: Request) -> Response:
    return await _serve(request, store.guild_icon_path(request.path_params["guild_id"], ""))


async def role_icon(request: Request) -> Response:
    return await _serve(request, store.role_icon_path(request.path_params["role_id"], ""))


async def soundboard_sound(request: Request) -> Response:
    """A soundboard sound's file as uploaded (audio/mpeg or audio/ogg); the built-in sounds too."""
    from ..soundboard.listing import built_in_sound_file  # the soundboard area's, read only here

    sound_id = int(request.path_params["sound_id"])
    row = emulator_state(request).db.query_one("SELECT content_type, data FROM cdn_images WHERE path = ?",
                                               (store.soundboard_sound_path(sound_id),))
    built_in = built_in_sound_file(sound_id) if row is None else None
    if row is None and built_in is None:
        return _not_found()
    body, media_type = (bytes(row["data"]), row["content_type"]) if row is not None else (built_in, "audio/mpeg")
    return Response(body, media_type=media_type, headers={"Cache-Control": CACHE_CONTROL})


def routes() -> list[BaseRoute]:
    member = "/guilds/{guild_id:snowflake}/users/{user_id:snowflake}"
    return [
        Route(member + "/avatars/{file}", member_avatar, methods=["GET"]),
        Route(member + "/banners/{file}", member_banner, methods=["GET"]),
        Route("/avatars/{user_id:snowflake}/{file}", user_avatar, methods=["GET"]),
        Route("/banners/{user_id:snowflake}/{file}", user_banner, methods=["GET"]),
        Route("/icons/{guild_id:snowflake}/{file}", guild_icon, methods=["GET"]),
        Route("/role-icons/{role_id:snowflake}/{file}", role_icon, methods=["GET"]),
        Route("/soundboard-sounds/{sound_id:snowflake}", soundboard_sound, methods=["GET"]),
    ]
