"""The emulator's voice service (``platformpp.emulator.voice``) following the committed voice states:
it allocates the token and endpoint VOICE_SERVER_UPDATE carries, ends a participant's voice session
when its voice state ends or moves, and mirrors the state the relay needs (deafened, muted, allowed to
speak). The voice state in the store is the truth; the service only carries the media of those who
have one.

The service starts with the first call that needs it (``running_service``) and stops with the
emulator: its imports and sockets were a fifth of the emulator's time to serve, which every run paid
and most runs never use."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from ...events.bus import Event
from ...voice.errors import VoiceServiceError
from . import lifecycle, store
from .store import Outcome, Place

if TYPE_CHECKING:
    from ...state import EmulatorState
    from ...voice.service import VoiceService

log = logging.getLogger("platformpp.emulator.voice_states")


class CallLink:
    """What the relay should know of each participant, applied again when its voice socket identifies
    (a client connects to the voice gateway after opcode 4 answered)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._flags: dict[tuple[int, int], dict[str, bool]] = {}
        # (user, server) -> the Gateway session holding that user's call there and the call: what to
        # end when that session ends, even when the world (and its voice states) was cleared under it.
        self._owners: dict[tuple[int, int], tuple[str, Place]] = {}
        self.service: VoiceService | None = None
        self.starting = threading.Lock()   # the service starts once, and never after the emulator stopped
        self.stopped = False
        self.on_lost: Callable[[int, int, int], object] | None = None
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="platformpp-voice-states")

    def close(self) -> None:
        self._worker.shutdown(wait=True)

    def allocated(self, user_id: int, session_id: str, place: Place) -> None:
        with self._lock:
            self._owners[(user_id, place.server_id)] = (session_id, place)

    def released(self, user_id: int, place: Place) -> None:
        with self._lock:
            self._owners.pop((user_id, place.server_id), None)

    def places_of(self, user_id: int, session_id: str) -> set[Place]:
        """The calls the session holds, forgotten as they are returned."""
        with self._lock:
            mine = {key: place for key, (owner, place) in self._owners.items()
                    if key[0] == user_id and owner == session_id}
            for key in mine:
                del self._owners[key]
            return set(mine.values())

    def remember(self, place: Place, user_id: int, flags: dict[str, bool]) -> None:
        with self._lock:
            self._flags[(place.server_id, user_id)] = flags

    def remembered(self, place: Place, user_id: int) -> dict[str, bool] | None:
        with self._lock:
            return self._flags.get((place.server_id, user_id))

    def forget(self, place: Place, user_id: int) -> None:
        with self._lock:
            self._flags.pop((place.server_id, user_id), None)

    def on_voice_event(self, kind: str, server_id: int, channel_id: int, user_id: int | None) -> None:
        """Called on the voice thread (must not block): a newly identified participant gets its flags;
        a lost voice session ends its voice state (on the link's own worker thread, which may wait for
        the database and for the voice thread)."""
        if kind == "participant_lost" and user_id is not None and self.on_lost is not None:
            self._worker.submit(self.on_lost, server_id, channel_id, user_id)
            return
        if kind != "participant_joined" or user_id is None or self.service is None:
            return
        with self._lock:
            flags = self._flags.get((server_id, user_id))
        if flags:
            self.service.set_participant_state(server_id, user_id, **flags)


def start_service(state: EmulatorState) -> None:
    """Follow voice states from now on (when the emulator starts); the service itself starts with
    the first call that needs it."""
    store.clear_all(state)
    link = CallLink()
    link.on_lost = lambda server_id, channel_id, user_id: lifecycle.end_lost_session(
        state, server_id, channel_id, user_id)
    state.extras["voice_link"] = link
    unsubscribe_endings = lifecycle.start(state)
    unsubscribe_rights = state.bus.subscribe(lambda event: _on_rights_event(state, event))

    def unsubscribe() -> None:
        unsubscribe_endings()
        unsubscribe_rights()
    state.extras["voice_lifecycle_unsubscribe"] = unsubscribe


def running_service(state: EmulatorState) -> VoiceService:
    """The voice service, started now if this is the first call that needs it; VoiceServiceError
    once the emulator is stopping (or before it started)."""
    link = _link(state)
    if link is None:
        raise VoiceServiceError("the voice service is not running")
    with link.starting:
        if state.voice is not None:
            return state.voice
        if link.stopped:
            raise VoiceServiceError("the voice service is not running")
        from ...voice.service import VoiceService

        # The relay's UDP socket is IPv4: an IPv6 emulator host serves voice on IPv4 loopback.
        host = "127.0.0.1" if ":" in state.voice_host else state.voice_host
        service = VoiceService(now=state.clock.now, host=host, on_event=link.on_voice_event,
                               tls=state.tls.server_context() if state.tls else None)
        service.start()
        link.service = state.voice = service
        return service


def stop_service(state: EmulatorState) -> None:
    unsubscribe = state.extras.pop("voice_lifecycle_unsubscribe", None)
    if unsubscribe is not None:
        unsubscribe()
    link = _link(state)
    if link is not None:
        with link.starting:
            link.stopped = True
    service, state.voice = state.voice, None
    if service is not None:
        service.stop()
    if link is not None:
        link.on_lost = None
        link.close()


def _link(state: EmulatorState) -> CallLink | None:
    return state.extras.get("voice_link")


def follow(state: EmulatorState, user_id: int, session_id: str, outcome: Outcome) -> tuple[str, str] | None:
    """Make the voice service match a committed opcode 4; returns (token, endpoint) for
    VOICE_SERVER_UPDATE when the session joined or moved to a call."""
    service, link = state.voice, _link(state)
    if link is None:
        return None
    try:
        if outcome.joined is not None:
            service = running_service(state)
        if service is None:   # nobody called yet: nothing to leave or mirror
            return None
        if outcome.left is not None:
            link.forget(outcome.left, user_id)
            link.released(user_id, outcome.left)
            service.disconnect(outcome.left.server_id, user_id)
        if outcome.joined is not None:
            # The same call from another Gateway session: the old voice session ends first.
            service.disconnect(outcome.joined.server_id, user_id)
            token, endpoint = service.allocate(outcome.joined.server_id, outcome.joined.channel_id, user_id,
                                               session_id)
            link.allocated(user_id, session_id, outcome.joined)
            if outcome.flags is not None:
                link.remember(outcome.joined, user_id, outcome.flags)
            return token, endpoint
        if outcome.flags is not None:   # a flags-only update of an unchanged call
            place = _place_of(state, user_id, outcome)
            if place is not None:
                link.remember(place, user_id, outcome.flags)
                service.set_participant_state(place.server_id, user_id, **outcome.flags)
    except VoiceServiceError:
        log.warning("voice: the voice service is not running; voice states are kept without media")
    return None


def refresh(state: EmulatorState, place: Place, user_id: int, flags: dict[str, bool]) -> None:
    """A voice state changed outside opcode 4 (a stage's suppress): the relay follows."""
    service, link = state.voice, _link(state)
    if service is None or link is None:
        return
    link.remember(place, user_id, flags)
    try:
        service.set_participant_state(place.server_id, user_id, **flags)
    except VoiceServiceError:
        log.warning("voice: the voice service is not running; voice states are kept without media")


# Dispatches after which a participant's right to speak may have changed: SPEAK or its overwrites, its
# roles, the roles' permissions, the owner.
RIGHTS_TRIGGERS = frozenset({"CHANNEL_UPDATE", "GUILD_ROLE_UPDATE", "GUILD_ROLE_DELETE",
                             "GUILD_MEMBER_UPDATE", "GUILD_UPDATE"})


def _on_rights_event(state: EmulatorState, event: Event) -> None:
    if event.name in RIGHTS_TRIGGERS and event.audience is not None:
        follow_rights(state)


def follow_rights(state: EmulatorState) -> None:
    """SPEAK governs sending audio during the call too: the relay follows each guild participant's
    flags as the permissions now give them (only those that changed are sent)."""
    link = _link(state)
    if state.voice is None or link is None:
        return
    with state.db.transaction() as conn:
        rows = conn.execute("SELECT * FROM voice_states WHERE kind = 'guild'").fetchall()
        now = [(Place(row["server_id"], row["channel_id"]), row["user_id"],
                store.relay_flags(conn, state, row)) for row in rows]
    for place, user_id, flags in now:
        if link.remembered(place, user_id) != flags:
            refresh(state, place, user_id, flags)


def _place_of(state: EmulatorState, user_id: int, outcome: Outcome) -> Place | None:
    """Where the user's unchanged call is (a flags-only update)."""
    guild_id = outcome.guild_id
    sql = ("SELECT server_id, channel_id FROM voice_states WHERE user_id = ? AND "
           + ("server_id = ? AND kind = 'guild'" if guild_id is not None else "kind != 'guild'"))
    row = state.db.query_one(sql, (user_id, guild_id) if guild_id is not None else (user_id,))
    return Place(row["server_id"], row["channel_id"]) if row else None


def session_ended(state: EmulatorState, user_id: int, session_id: str) -> None:
    """A Gateway session ended: its voice states end, and so do its voice sessions."""
    places = set(store.end_session(state, session_id))
    service, link = state.voice, _link(state)
    if link is not None:
        places |= link.places_of(user_id, session_id)
    for place in places:
        if link is not None:
            link.forget(place, user_id)
        if service is not None:
            try:
                service.disconnect(place.server_id, user_id)
            except VoiceServiceError:
                pass
