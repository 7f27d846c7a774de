"""Dispatches gathered while a transaction runs, published when it commits (never if it rolls back).
Publishing from the commit callback, under the database lock, makes dispatches leave in commit
order even when requests run on several threads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .audience import Audience

if TYPE_CHECKING:
    from ..state import EmulatorState


class Outbox:
    def __init__(self, state: EmulatorState) -> None:
        self._bus = state.bus
        self._db = state.db
        self._pending: list[tuple[str, Audience]] = []

    def add(self, event: str, audience: Audience) -> None:
        if not self._pending:
            self._db.on_commit(self._flush)
        self._pending.append((event, audience))

    def _flush(self) -> None:
        pending, self._pending = self._pending, []
        for event, audience in pending:
            self._bus.dispatch(event, audience)
