"""The voice service following committed stream changes: open the stream sessions the store asked
for (their tokens go out in STREAM_SERVER_UPDATE) and close those of users no longer on a stream."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ...events.audience import Payload
from ...voice import streams as voice_streams
from ...voice.service import VoiceServiceError
from .store import Effects

if TYPE_CHECKING:
    from ...state import EmulatorState

log = logging.getLogger("platformpp.emulator.streams")


def follow(state: EmulatorState, effects: Effects) -> list[Payload]:
    """Apply ``effects``; returns the STREAM_SERVER_UPDATE payloads for the asking session, in order."""
    service = state.voice
    if service is None:
        return []
    updates: list[Payload] = []
    try:
        for rtc_server_id, user_id in effects.disconnect:
            voice_streams.close_session(service, rtc_server_id, user_id)
        for allocation in effects.allocate:
            token, endpoint = voice_streams.open_session(service, allocation.rtc_server_id, allocation.user_id,
                                                         allocation.session_id, allocation.sender)
            updates.append({"stream_key": allocation.stream_key, "guild_id": None, "endpoint": endpoint,
                            "token": token})
    except VoiceServiceError as error:   # the service stopped meanwhile (the emulator is shutting down)
        log.info("streams: the voice service is gone: %s", error)
    return updates
