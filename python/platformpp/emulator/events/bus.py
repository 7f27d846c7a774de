"""The bus: one synchronous, thread-safe publish/subscribe channel per emulator.

Two kinds of events travel on it, both published only after the change they describe committed:

- domain events, for other parts of the emulator (``audience`` None), e.g. ``authorization.revoked``;
- Gateway dispatches (``audience`` set; ``name`` is the dispatch's ``t``), which the Gateway fans
  out to the sessions the audience admits.

Names of the domain events (payloads are JSON-ready dicts, ids as strings):

- ``emulator.reset`` / ``emulator.loaded``: world state was cleared / (re)loaded (reset, seed, snapshot).
- ``emulator.stopping``: the server is shutting down (long-lived streams should end now).
- ``authorization.revoked`` ``{application_id, user_id}``: a user's grant of an app ended
  (revoke, unmerge, ban, app removal); their tokens no longer work.
- ``account.merged`` ``{application_id, provisional_user_id, user_id}``: the provisional account's
  data should move to ``user_id``; each area moves its own.
- ``account.unmerged`` ``{application_id, user_id, provisional_user_id}``.
- ``user.banned`` / ``user.unbanned`` ``{user_id}``.
- ``user.disconnected`` ``{user_id}``: a user's last live Gateway connection ended (the Gateway hub).
- ``voice_state.ended`` ``{guild_id, channel_id, user_id, speaker}``: a guild voice state ended (a leave,
  a move, a lost session); ``speaker``: it was not suppressed and had not requested to speak.

Publishers never import subscribers. A failing subscriber is logged and does not undo the
publisher's committed work.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..core.json_text import compact_json
from .audience import Audience, Payload

log = logging.getLogger("platformpp.emulator.events")


@dataclass(frozen=True)
class Event:
    name: str
    payload: Payload
    # Who it concerns, so a subscriber can route it (e.g. to those users' sessions).
    user_ids: frozenset[int] = field(default_factory=frozenset)
    application_id: int | None = None
    # Set for a Gateway dispatch: who may see it (and, per viewer, which payload).
    audience: Audience | None = None


Subscriber = Callable[[Event], None]


def to_json(payload: Payload) -> str:
    """The compact JSON the Gateway sends (also the emulator's HTTP responses' format)."""
    if type(payload) is Encoded:
        return payload.json
    return compact_json(payload)


class Encoded(dict):  # type: ignore[type-arg]
    """A payload that is complete and never changed again, encoded once (``to_json``) when made: a
    Gateway frame and an HTTP response carrying it reuse the text (an interaction's payload is
    sent to the bot and returned to the simulated user)."""

    __slots__ = ("json",)

    def __init__(self, payload: Payload, text: str | None = None) -> None:
        """``text``: ``to_json(payload)`` when the caller already has it (built from parts it encoded)."""
        super().__init__(payload)
        self.json = compact_json(payload) if text is None else text


class Bus:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: tuple[Subscriber, ...] = ()
        self._dispatch_subscribers: tuple[Subscriber, ...] = ()   # those that also get Gateway dispatches

    def subscribe(self, subscriber: Subscriber, *, dispatches: bool = True) -> Callable[[], None]:
        """Add a subscriber; returns a function that removes it. ``dispatches`` False: domain events
        only (most subscribers; every dispatch then skips them)."""
        with self._lock:
            self._subscribers = (*self._subscribers, subscriber)
            if dispatches:
                self._dispatch_subscribers = (*self._dispatch_subscribers, subscriber)

        def unsubscribe() -> None:
            with self._lock:
                self._subscribers = tuple(s for s in self._subscribers if s is not subscriber)
                self._dispatch_subscribers = tuple(s for s in self._dispatch_subscribers if s is not subscriber)
        return unsubscribe

    def publish(self, name: str, payload: Payload, *, user_ids: Iterable[int] = (),
                application_id: int | None = None) -> None:
        """A domain event."""
        self.emit(Event(name, payload, frozenset(user_ids), application_id))

    def dispatch(self, name: str, audience: Audience) -> None:
        """A Gateway dispatch ``name`` for ``audience``."""
        self.emit(Event(name, {}, audience=audience))

    def emit(self, event: Event) -> None:
        # The tuples are replaced, never mutated, so reading one needs no lock.
        for subscriber in self._subscribers if event.audience is None else self._dispatch_subscribers:
            try:
                subscriber(event)
            except Exception:
                log.exception("event subscriber failed on %s", event.name)
