"""The two lobby routes of the calling member itself (``@me``): leaving a lobby and an invite for
oneself to the lobby's linked channel. The published schema lists them as operations of their own,
so they are routes of their own, matched before the ``{user_id}`` routes. The caller is an SDK user
(Bearer with the social scope), as on the platform; a bot acts on members by id instead."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from ...core import auth
from ...core.auth import Principal
from ...core.routing import Route
from ...paths import API
from .invite_routes import invite_for
from .routes import remove_member
from .store import SOCIAL_SCOPE


def _caller(request: Request) -> Principal:
    return auth.require(request, kinds=("bearer",), scopes=(SOCIAL_SCOPE,))


async def leave_lobby(request: Request) -> Response:
    """DELETE /lobbies/{lobby_id}/members/@me → 204; the members hear LOBBY_MEMBER_REMOVE. Safe to
    repeat: a caller who is no longer a member gets 204 too; an unknown lobby is 404 / 10031."""
    principal = _caller(request)
    return await remove_member(request, principal, principal.user_id, missing_ok=True)


async def invite_self(request: Request) -> Response:
    """POST /lobbies/{lobby_id}/members/@me/invites → ``{code}``, single use, for the caller."""
    principal = _caller(request)
    return await invite_for(request, principal, principal.user_id)


def routes_of_self() -> list[BaseRoute]:
    return [
        Route(API + "/lobbies/{lobby_id}/members/@me", leave_lobby, methods=["DELETE"]),
        Route(API + "/lobbies/{lobby_id}/members/@me/invites", invite_self, methods=["POST"]),
    ]
