"""A tiny synchronous in-process event hub. Modules that need to react to what others do (the Gateway
to account changes, lobbies to merges, ...) subscribe here; publishers never import subscribers."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("platformpp.emulator.events")


@dataclass(frozen=True)
class Event:
    name: str
    payload: dict[str, Any]
    # Who it concerns, so a subscriber can route it (e.g. to those users' Gateway sessions).
    user_ids: frozenset[int] = field(default_factory=frozenset)
    application_id: int | None = None


Subscriber = Callable[[Event], None]


class EventHub:
    """Names published by the core modules (payloads are JSON-ready dicts):

    - ``emulator.reset`` / ``emulator.loaded``: world state was cleared / (re)loaded (reset, seed, snapshot).
    - ``authorization.revoked`` ``{application_id, user_id}``: a user's grant of an app ended
      (revoke, unmerge, ban, app removal); their tokens no longer work.
    - ``account.merged`` ``{application_id, provisional_user_id, user_id}``: the provisional account's
      data should move to ``user_id``.
    - ``account.unmerged`` ``{application_id, user_id, provisional_user_id}``.
    - ``user.banned`` / ``user.unbanned`` ``{user_id}``.
    """

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []
        self._lock = threading.Lock()

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Add a subscriber; returns a function that removes it."""
        with self._lock:
            self._subscribers.append(subscriber)

        def unsubscribe() -> None:
            with self._lock:
                if subscriber in self._subscribers:
                    self._subscribers.remove(subscriber)
        return unsubscribe

    def publish(self, name: str, payload: dict[str, Any], *, user_ids: Iterable[int] = (),
                application_id: int | None = None) -> None:
        event = Event(name, payload, frozenset(user_ids), application_id)
        with self._lock:
            subscribers = list(self._subscribers)
        for subscriber in subscribers:
            # A failing subscriber must not undo the publisher's committed work; it is logged instead.
            try:
                subscriber(event)
            except Exception:
                log.exception("event subscriber failed on %s", name)
