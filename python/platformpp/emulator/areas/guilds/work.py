"""How the guild-model routes run: the caller (bots; SDK users whose grant covers ``guilds`` for
reads), and the request's work in one transaction on a worker thread, with an outbox whose
dispatches leave only if it commits."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from ...core import auth, errors
from ...core.auth import Principal
from ...core.errors import ApiError
from ...core.http import emulator_state
from ...events.outbox import Outbox

T = TypeVar("T")
Work = Callable[[sqlite3.Connection, Outbox], T]


def reader(request: Request) -> Principal:
    """A bot, or an SDK user whose grant includes ``guilds`` (directly or via sdk.social_layer)."""
    principal = auth.require(request)
    if principal.kind == "bearer" and not ({"guilds", "sdk.social_layer"} & principal.scopes):
        raise ApiError(403, errors.MISSING_ACCESS, "Missing Access: the token lacks scope 'guilds'.")
    return principal


def writer(request: Request) -> Principal:
    """Changing a guild is a bot's business (an OAuth2 user token cannot)."""
    return auth.require(request, kinds=("bot",))


async def in_transaction(request: Request, work: Work[T]) -> T:
    state = emulator_state(request)

    def run() -> T:
        outbox = Outbox(state)
        with state.db.transaction() as conn:
            return work(conn, outbox)
    return await run_in_threadpool(run)
