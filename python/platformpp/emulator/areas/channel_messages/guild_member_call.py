"""One transaction on behalf of the calling bot, as a member of the guild in the path: the request
plumbing the guild expressions and scheduled events routes share."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TypeVar

from starlette.requests import Request

from ...core import auth
from ...core.http import emulator_state, in_transaction, snowflake_param
from ...events.outbox import Outbox
from .access import guild_permissions

T = TypeVar("T")


async def run_as_guild_member(request: Request, work: Callable[[sqlite3.Connection, Outbox, int, int], T]) -> T:
    """Run ``work(conn, outbox, guild_id, user_id)`` for the calling bot in one transaction; 403 / 50001
    unless it is a member of the guild."""
    principal = auth.require(request, kinds=("bot",))
    guild_id = snowflake_param(request, "guild_id")
    state = emulator_state(request)

    def as_member(conn: sqlite3.Connection, outbox: Outbox) -> T:
        guild_permissions(conn, guild_id, principal.user_id, state.clock.now())
        return work(conn, outbox, guild_id, principal.user_id)

    return await in_transaction(request, as_member)
