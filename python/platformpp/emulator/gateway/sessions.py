"""Gateway sessions: sequence numbers, the replay buffer for Resume, and the live connection sink.

A session outlives its socket: after a disconnect it stays in the store for the resume window,
buffering what it would have been sent, so that a Resume replays every missed dispatch in order.
Seq assignment and hand-off to the connection happen under one lock, so that dispatches published
from several threads still reach the socket in seq order.

A dispatch's JSON is encoded once per publish (``Frame``), whatever the number of sessions that get
it: each session only adds its own sequence number between the frame's two halves.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from functools import lru_cache
from typing import Any, NamedTuple

from ..events.audience import Payload, Viewer
from ..events.bus import to_json


class Frame(NamedTuple):
    """One dispatch as every session receiving the same payload sends it."""

    event: str
    payload: Payload
    text: str   # ``payload`` as JSON
    head: str   # the envelope up to the sequence number: ``{"op":0,"d":<text>,"s":``
    tail: str   # the rest: ``,"t":"<event>"}``

    @classmethod
    def of(cls, event: str, payload: Payload) -> Frame:
        text = to_json(payload)
        return cls(event, payload, text, f'{{"op":0,"d":{text},"s":', _tail(event))


@lru_cache(maxsize=None)   # one per dispatch name, a few dozen
def _tail(event: str) -> str:
    return f',"t":{json.dumps(event)}}}'


class Dispatch:
    """One dispatch of one session: its sequence number and the shared frame. (A plain slotted class:
    one is made per session per dispatch, on the fan-out's hot path.)"""

    __slots__ = ("seq", "frame")

    def __init__(self, seq: int, frame: Frame) -> None:
        self.seq = seq
        self.frame = frame

    @property
    def event(self) -> str:
        return self.frame.event

    @property
    def payload(self) -> Payload:
        return self.frame.payload


Sink = Callable[[Dispatch], None]


class ResumeError(Exception):
    """The session cannot be resumed: ``code`` is a close code, or None for Invalid Session."""

    def __init__(self, code: int | None, reason: str) -> None:
        super().__init__(reason)
        self.code = code


class Session:
    def __init__(self, viewer: Viewer, buffer_size: int, shard: list[int] | None) -> None:
        self.id = secrets.token_hex(16)
        self.viewer = viewer
        self.shard = shard
        self._lock = threading.Lock()
        self._seq = 0
        self._buffer: deque[Dispatch] = deque(maxlen=buffer_size)
        self._overflowed = False
        # Called with each new dispatch (under the lock, so in seq order); thread-safe.
        self._sink: Sink | None = None
        self.detached_at: float | None = None
        self.invalidated = False
        # Set by the connection that currently owns the session, for admin drop/reconnect.
        self.connection: Any = None

    def belongs_to(self, kind: str, user_id: int, application_id: int) -> bool:
        """Resume must come from the same principal (a refreshed token of the same user will do)."""
        viewer = self.viewer
        return (viewer.kind, viewer.user_id, viewer.application_id) == (kind, user_id, application_id)

    @property
    def seq(self) -> int:
        with self._lock:
            return self._seq

    def deliver(self, event: str, payload: Payload) -> None:
        """A dispatch for this session alone (READY, RESUMED, answers to its commands)."""
        self.deliver_frame(Frame.of(event, payload))

    def deliver_frame(self, frame: Frame) -> None:
        with self._lock:
            if self.invalidated:
                return
            self._seq += 1
            dispatch = Dispatch(self._seq, frame)
            if len(self._buffer) == self._buffer.maxlen:
                self._overflowed = True
            self._buffer.append(dispatch)
            if self._sink is not None:
                self._sink(dispatch)

    def attach(self, sink: Sink, connection: Any) -> None:
        with self._lock:
            self._sink, self.connection = sink, connection
            self.detached_at = None

    def resume(self, seq: int, sink: Sink, connection: Any) -> None:
        """Attach a new connection and hand it, in order, every dispatch after ``seq``."""
        with self._lock:
            if seq > self._seq:
                raise ResumeError(4007, "seq is ahead of the session")
            missed = [d for d in self._buffer if d.seq > seq]
            oldest_kept = self._buffer[0].seq if self._buffer else self._seq + 1
            if self._overflowed and seq < oldest_kept - 1:
                raise ResumeError(None, "too many missed dispatches to replay")
            self._sink, self.connection = sink, connection
            self.detached_at = None
            for dispatch in missed:
                sink(dispatch)

    def detach(self, connection: Any) -> None:
        with self._lock:
            if self.connection is connection:
                self._sink, self.connection = None, None
                self.detached_at = time.monotonic()


class SessionStore:
    """Sessions by id, and SDK-user sessions by (application, user) so that a dispatch for some users
    reaches their sessions without looking at anyone else's. Detached sessions expire after the
    resume window."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sessions: dict[str, Session] = {}
        self._by_user: dict[tuple[int, int], tuple[Session, ...]] = {}

    def add(self, session: Session) -> None:
        with self._lock:
            self._sessions[session.id] = session
            if session.viewer.kind == "bearer":
                key = (session.viewer.application_id, session.viewer.user_id)
                self._by_user[key] = (*self._by_user.get(key, ()), session)

    def get(self, session_id: str) -> Session | None:
        with self._lock:
            return self._sessions.get(session_id)

    def all(self) -> list[Session]:
        with self._lock:
            return list(self._sessions.values())

    def of_users(self, application_id: int, user_ids: frozenset[int]) -> list[Session]:
        """The SDK-user sessions (connected or awaiting a Resume) of ``user_ids`` in one application."""
        with self._lock:
            by_user = self._by_user
            return [session for user_id in user_ids for session in by_user.get((application_id, user_id), ())]

    def invalidate(self, session: Session) -> None:
        session.invalidated = True
        with self._lock:
            self._sessions.pop(session.id, None)
            key = (session.viewer.application_id, session.viewer.user_id)
            remaining = tuple(s for s in self._by_user.get(key, ()) if s is not session)
            if remaining:
                self._by_user[key] = remaining
            else:
                self._by_user.pop(key, None)

    def expire(self, resume_window_s: float) -> list[Session]:
        """Invalidate the sessions detached for longer than the window; returns them."""
        now = time.monotonic()
        expired = [session for session in self.all()
                   if session.detached_at is not None and now - session.detached_at > resume_window_s]
        for session in expired:
            self.invalidate(session)
        return expired
