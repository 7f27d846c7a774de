"""Dispatches (and domain events) gathered while a transaction runs, published when it commits (never
if it rolls back). Publishing from the commit callback, under the database lock, makes them leave in
commit order even when requests run on several threads."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from .audience import Audience, Payload

if TYPE_CHECKING:
    from ..state import EmulatorState


class Outbox:
    def __init__(self, state: EmulatorState) -> None:
        self._bus = state.bus
        self._db = state.db
        self._pending: list[Callable[[], None]] = []

    def add(self, event: str, audience: Audience) -> None:
        """A Gateway dispatch."""
        self._queue(lambda: self._bus.dispatch(event, audience))

    def publish(self, name: str, payload: Payload, *, user_ids: Iterable[int] = (),
                application_id: int | None = None) -> None:
        """A domain event (see bus.py), in order with the dispatches around it."""
        ids = frozenset(user_ids)
        self._queue(lambda: self._bus.publish(name, payload, user_ids=ids, application_id=application_id))

    def _queue(self, send: Callable[[], None]) -> None:
        if not self._pending:
            self._db.on_commit(self._flush)
        self._pending.append(send)

    def _flush(self) -> None:
        pending, self._pending = self._pending, []
        for send in pending:
            send()
