"""Running an interaction route's unit of work: the request kit's ``in_transaction`` (one transaction
with an outbox), on the event loop when the store is in memory.

With a file store every commit is fsynced (``synchronous=FULL``), so the work runs on a worker thread
and the event loop serves others while the disk syncs. With an in-memory store there is nothing to
wait for: a hop to a worker thread and back (a queue, a condition, a wake-up of the loop) then costs
more than the work itself, about a third of an interaction round trip's CPU, so the work runs on
the loop. Both are one transaction under the database's lock, with the same outcome."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TypeVar

from starlette.requests import Request

from ...core.http import in_transaction
from ...events.outbox import Outbox

T = TypeVar("T")


async def run_work(request: Request, work: Callable[[sqlite3.Connection, Outbox], T], *, offload: bool = False) -> T:
    """``offload``: a long unit of work (many interactions at once) runs on a worker thread whatever
    the store, so that the event loop keeps writing the frames of those already committed meanwhile
    (socket writes release the GIL)."""
    return await in_transaction(request, work, on_loop_in_memory=not offload)
