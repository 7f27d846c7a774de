"""The simulated user waiting for the app's answer: the admin call that started an interaction
awaits it (on the server's event loop) until the callback arrives or the wait ends. Kept per running
emulator, outside the database: a wait is not state of the world."""

from __future__ import annotations

import asyncio
import threading
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...state import EmulatorState


@dataclass
class Waiter:
    """One admin call waiting: set once the initial response is in, with the conversation as the
    callback's transaction read it (None when it could not)."""

    loop: asyncio.AbstractEventLoop
    event: asyncio.Event = field(default_factory=asyncio.Event)
    answer: dict[str, Any] | None = None
    arrived: bool = False

    async def arrival(self, timeout_s: float) -> bool:
        """Wait (on its loop) until the initial response is in or ``timeout_s`` passed; whether it is in.
        A timer that sets the event costs far less than ``asyncio.wait_for`` (a task per wait)."""
        timer = self.loop.call_later(timeout_s, self.event.set)
        try:
            await self.event.wait()
        finally:
            timer.cancel()
        return self.arrived


class Waiters:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._events: dict[int, Waiter] = {}

    def expect(self, interaction_id: int) -> Waiter:
        """Call on the event loop before the interaction can be answered."""
        waiter = Waiter(asyncio.get_running_loop())
        with self._lock:
            self._events[interaction_id] = waiter
        return waiter

    def is_waiting(self, interaction_id: int) -> bool:
        return interaction_id in self._events

    def forget(self, interaction_id: int) -> None:
        with self._lock:
            self._events.pop(interaction_id, None)

    def answered(self, interaction_id: int, answer: dict[str, Any] | None = None) -> None:
        """From any thread: the interaction has its initial response (``answer``: the conversation)."""
        with self._lock:
            waiter = self._events.get(interaction_id)
        if waiter is None:
            return
        waiter.answer = answer
        waiter.arrived = True
        try:
            on_loop = asyncio.get_running_loop() is waiter.loop
        except RuntimeError:
            on_loop = False
        if on_loop:
            waiter.event.set()
        else:
            waiter.loop.call_soon_threadsafe(waiter.event.set)


_WAITERS: weakref.WeakKeyDictionary[EmulatorState, Waiters] = weakref.WeakKeyDictionary()
_GUARD = threading.Lock()


def of(state: EmulatorState) -> Waiters:
    with _GUARD:
        waiters = _WAITERS.get(state)
        if waiters is None:
            waiters = _WAITERS[state] = Waiters()
        return waiters
