"""Who may call the guild-model routes: bots; SDK users whose grant covers ``guilds`` for reads. Their
work runs through the request kit's ``in_transaction`` (re-exported here for the guild areas)."""

from __future__ import annotations

from starlette.requests import Request

from ...core import auth, errors
from ...core.auth import Principal
from ...core.errors import ApiError
from ...core.http import in_transaction

__all__ = ["in_transaction", "reader", "writer"]


def reader(request: Request) -> Principal:
    """A bot, or an SDK user whose grant includes ``guilds`` (directly or via sdk.social_layer)."""
    principal = auth.require(request)
    if principal.kind == "bearer" and not ({"guilds", "sdk.social_layer"} & principal.scopes):
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access: the token lacks scope 'guilds'.")
    return principal


def writer(request: Request) -> Principal:
    """Changing a guild is a bot's business (an OAuth2 user token cannot)."""
    return auth.require(request, kinds=("bot",))

