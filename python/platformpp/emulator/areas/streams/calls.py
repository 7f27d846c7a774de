"""The voice service following committed stream changes: open the stream sessions the store asked
for (their tokens go out in STREAM_SERVER_UPDATE) and close those of users no longer on a stream.

The stream sessions each Gateway session was given are also remembered here, so that the end of a
Gateway session closes them even when the world (and its streams) was cleared under it (a reset)."""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

from ...events.audience import Payload
from ...voice import streams as voice_streams
from ...voice.errors import VoiceServiceError
from ..voice_states import calls as voice_calls
from .store import Effects

if TYPE_CHECKING:
    from ...state import EmulatorState

log = logging.getLogger("platformpp.emulator.streams")


class OpenSessions:
    """(rtc_server_id, user_id) of the stream sessions handed out, by Gateway session id."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_session: dict[str, set[tuple[int, int]]] = {}

    def opened(self, session_id: str, rtc_server_id: int, user_id: int) -> None:
        """A new token replaces the user's previous one for that stream, whichever session held it."""
        with self._lock:
            for held in self._by_session.values():
                held.discard((rtc_server_id, user_id))
            self._by_session.setdefault(session_id, set()).add((rtc_server_id, user_id))

    def closed(self, rtc_server_id: int, user_id: int) -> None:
        with self._lock:
            for held in self._by_session.values():
                held.discard((rtc_server_id, user_id))

    def take(self, session_id: str) -> set[tuple[int, int]]:
        with self._lock:
            return self._by_session.pop(session_id, set())


def _open_sessions(state: EmulatorState) -> OpenSessions:
    return state.extras.setdefault("stream_sessions", OpenSessions())


def follow(state: EmulatorState, effects: Effects) -> list[Payload]:
    """Apply ``effects``; returns the STREAM_SERVER_UPDATE payloads for the asking session, in order."""
    service = state.voice
    sessions = _open_sessions(state)
    updates: list[Payload] = []
    try:
        if effects.allocate:
            service = voice_calls.running_service(state)
        if service is None:   # no call yet: no voice session to close
            return []
        for rtc_server_id, user_id in effects.disconnect:
            sessions.closed(rtc_server_id, user_id)
            voice_streams.close_session(service, rtc_server_id, user_id)
        for allocation in effects.allocate:
            token, endpoint = voice_streams.open_session(service, allocation.rtc_server_id, allocation.user_id,
                                                         allocation.session_id, allocation.sender)
            sessions.opened(allocation.session_id, allocation.rtc_server_id, allocation.user_id)
            updates.append({"stream_key": allocation.stream_key, "guild_id": None, "endpoint": endpoint,
                            "token": token})
    except VoiceServiceError as error:   # the service stopped meanwhile (the emulator is shutting down)
        log.info("streams: the voice service is gone: %s", error)
    return updates


def session_ended(state: EmulatorState, session_id: str) -> None:
    """Close whatever stream sessions the ended Gateway session still holds."""
    service = state.voice
    left = _open_sessions(state).take(session_id)
    if service is None:
        return
    try:
        for rtc_server_id, user_id in sorted(left):
            voice_streams.close_session(service, rtc_server_id, user_id)
    except VoiceServiceError as error:
        log.info("streams: the voice service is gone: %s", error)
