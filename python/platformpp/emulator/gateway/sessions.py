"""Gateway sessions: sequence numbers, the replay buffer for Resume, and the live connection sink.

A session outlives its socket: after a disconnect it stays subscribed to the bus for the resume
window, buffering what it would have been sent, so that a Resume replays every missed dispatch in
order. Seq assignment and hand-off to the connection happen under one lock, so that dispatches
published from several threads still reach the socket in seq order.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..bus import Bus, Payload, Viewer, to_json


@dataclass(frozen=True)
class Dispatch:
    seq: int
    event: str
    payload: Payload
    text: str  # ``payload`` as JSON, shared by every session that got the same payload


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
        self._sink: Sink | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
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

    def deliver(self, event: str, payload: Payload, text: str | None = None) -> None:
        with self._lock:
            if self.invalidated:
                return
            self._seq += 1
            dispatch = Dispatch(self._seq, event, payload, text if text is not None else to_json(payload))
            if len(self._buffer) == self._buffer.maxlen:
                self._overflowed = True
            self._buffer.append(dispatch)
            if self._sink is not None and self._loop is not None:
                # call_soon_threadsafe callbacks run in scheduling order, which is seq order here.
                self._loop.call_soon_threadsafe(self._sink, dispatch)

    def attach(self, sink: Sink, loop: asyncio.AbstractEventLoop, connection: Any) -> None:
        with self._lock:
            self._sink, self._loop, self.connection = sink, loop, connection
            self.detached_at = None

    def resume(self, seq: int, sink: Sink, loop: asyncio.AbstractEventLoop, connection: Any) -> None:
        """Attach a new connection and hand it, in order, every dispatch after ``seq``."""
        with self._lock:
            if seq > self._seq:
                raise ResumeError(4007, "seq is ahead of the session")
            missed = [d for d in self._buffer if d.seq > seq]
            oldest_kept = self._buffer[0].seq if self._buffer else self._seq + 1
            if self._overflowed and seq < oldest_kept - 1:
                raise ResumeError(None, "too many missed dispatches to replay")
            self._sink, self._loop, self.connection = sink, loop, connection
            self.detached_at = None
            for dispatch in missed:
                loop.call_soon_threadsafe(sink, dispatch)

    def detach(self, connection: Any) -> None:
        with self._lock:
            if self.connection is connection:
                self._sink, self._loop, self.connection = None, None, None
                self.detached_at = time.monotonic()


class SessionStore:
    """Sessions by id; detached ones expire after the resume window."""

    def __init__(self, bus: Bus) -> None:
        self._bus = bus
        self._lock = threading.Lock()
        self._sessions: dict[str, Session] = {}

    def add(self, session: Session) -> None:
        with self._lock:
            self._sessions[session.id] = session
        self._bus.subscribe(session)

    def get(self, session_id: str) -> Session | None:
        with self._lock:
            return self._sessions.get(session_id)

    def all(self) -> list[Session]:
        with self._lock:
            return list(self._sessions.values())

    def invalidate(self, session: Session) -> None:
        session.invalidated = True
        with self._lock:
            self._sessions.pop(session.id, None)
        self._bus.unsubscribe(session)

    def expire(self, resume_window_s: float) -> None:
        now = time.monotonic()
        for session in self.all():
            if session.detached_at is not None and now - session.detached_at > resume_window_s:
                self.invalidate(session)
