"""The simulated user waiting for the app's answer: the admin call that started an interaction
awaits it (on the server's event loop) until the callback arrives or the wait ends. Kept per running
emulator, outside the database: a wait is not state of the world."""

from __future__ import annotations

import asyncio
import threading
import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...state import EmulatorState


class Waiters:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._events: dict[int, tuple[asyncio.AbstractEventLoop, asyncio.Event]] = {}

    def expect(self, interaction_id: int) -> asyncio.Event:
        """Call on the event loop before the interaction can be answered."""
        event = asyncio.Event()
        with self._lock:
            self._events[interaction_id] = (asyncio.get_running_loop(), event)
        return event

    def forget(self, interaction_id: int) -> None:
        with self._lock:
            self._events.pop(interaction_id, None)

    def answered(self, interaction_id: int) -> None:
        """From any thread: the interaction has its initial response."""
        with self._lock:
            entry = self._events.get(interaction_id)
        if entry is not None:
            loop, event = entry
            loop.call_soon_threadsafe(event.set)


_WAITERS: weakref.WeakKeyDictionary[EmulatorState, Waiters] = weakref.WeakKeyDictionary()
_GUARD = threading.Lock()


def of(state: EmulatorState) -> Waiters:
    with _GUARD:
        waiters = _WAITERS.get(state)
        if waiters is None:
            waiters = _WAITERS[state] = Waiters()
        return waiters
