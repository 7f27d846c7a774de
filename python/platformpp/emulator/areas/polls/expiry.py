"""Polls end at their expiry on the emulator clock. Polls last at least an hour, so no timer waits
for them: a move of the clock (its ``on_change`` hook), a new world, and every poll request (a vote,
the voters of an answer, an early end) first end the polls that are due."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ...events.bus import Event
from ...events.outbox import Outbox
from . import store

if TYPE_CHECKING:
    from ...state import EmulatorState

log = logging.getLogger("platformpp.emulator.polls")


def apply_now(state: EmulatorState) -> None:
    outbox = Outbox(state)
    try:
        with state.db.transaction() as conn:
            store.finalize_due(conn, outbox, state.ids.next, state.clock.now())
    except Exception:   # e.g. the emulator stopped and closed its database meanwhile
        log.debug("poll expiry run failed", exc_info=True)


def start(state: EmulatorState) -> None:
    """Area startup: follow the clock and new worlds."""
    state.clock.on_change(lambda: apply_now(state))

    def on_event(event: Event) -> None:
        if event.name == "emulator.loaded":
            apply_now(state)

    state.bus.subscribe(on_event, dispatches=False)
