"""The event bus: how a committed change becomes Gateway dispatches.

Routes publish after their transaction commits; every subscribed Gateway session (connected or
waiting to be resumed) is offered the event, and a per-session ``render`` decides what that session
sees: a payload, or None when the session may not see the event at all. This keeps "every dispatch
goes only to who may see it" in one function per event, next to the code that knows the rule.

Publishing is thread-safe: Starlette runs sync routes in a thread pool, and sessions hand the
payload to their event loop themselves.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

Payload = dict[str, Any]


@dataclass(frozen=True)
class Viewer:
    """Who a Gateway session belongs to: what a render function decides visibility from."""

    kind: str  # "bot" or "bearer"
    user_id: int
    application_id: int
    intents: int = 0
    # Bots: the guilds of this session's shard. SDK users: not used (empty).
    guild_ids: frozenset[int] = field(default_factory=frozenset)


Render = Callable[[Viewer], "Payload | None"]


def to_json(payload: Payload) -> str:
    """The compact JSON the Gateway sends."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


class Subscriber(Protocol):
    @property
    def viewer(self) -> Viewer: ...

    def deliver(self, event: str, payload: Payload, text: str | None = None) -> None: ...


class Bus:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: list[Subscriber] = []

    def subscribe(self, subscriber: Subscriber) -> None:
        with self._lock:
            self._subscribers.append(subscriber)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        with self._lock:
            if subscriber in self._subscribers:
                self._subscribers.remove(subscriber)

    def subscribers(self) -> list[Subscriber]:
        with self._lock:
            return list(self._subscribers)

    def publish(self, event: str, render: Render) -> int:
        """Offer ``event`` to every session; returns how many received it."""
        delivered = 0
        # A payload shared by many sessions is serialized once (the render functions hold them alive).
        texts: dict[int, str] = {}
        for subscriber in self.subscribers():
            payload = render(subscriber.viewer)
            if payload is not None:
                text = texts.get(id(payload))
                if text is None:
                    text = texts[id(payload)] = to_json(payload)
                subscriber.deliver(event, payload, text)
                delivered += 1
        return delivered


def to_users(application_id: int, user_ids: Iterable[int], payload: Payload) -> Render:
    """Audience: the SDK-user sessions of ``user_ids`` in one application (lobbies, DMs)."""
    audience = frozenset(user_ids)

    def render(viewer: Viewer) -> Payload | None:
        if viewer.kind == "bearer" and viewer.application_id == application_id and viewer.user_id in audience:
            return payload
        return None

    return render


_BUS_LOCK = threading.Lock()


def get_bus(state: Any) -> Bus:
    """The bus of one emulator (its ``EmulatorState``), created on first use."""
    with _BUS_LOCK:
        bus = state.extras.get("bus")
        if bus is None:
            bus = state.extras["bus"] = Bus()
        return bus


class Outbox:
    """Dispatches gathered while a transaction runs, published when it commits (never if it rolls
    back). Publishing from the commit callback, under the database lock, makes dispatches leave in
    commit order even when requests run on several threads."""

    def __init__(self, state: Any) -> None:
        self._bus = get_bus(state)
        self._db = state.db
        self._pending: list[tuple[str, Render]] = []

    def add(self, event: str, render: Render) -> None:
        if not self._pending:
            self._db.on_commit(self._flush)
        self._pending.append((event, render))

    def _flush(self) -> None:
        pending, self._pending = self._pending, []
        for event, render in pending:
            self._bus.publish(event, render)
