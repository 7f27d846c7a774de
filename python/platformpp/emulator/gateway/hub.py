"""The Gateway's side of one emulator: settings, sessions, the fan-out of bus events to sessions, and
everything a connection needs from the rest of the emulator (authentication, READY, presence, lobby
idleness, faults, admin events)."""

from __future__ import annotations

import asyncio
import dataclasses
import fnmatch
import random
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..areas.applications import privileged_intents
from ..areas.lobbies import store as lobbies
from ..areas.presence import store as presence
from ..areas.voice_states import calls as voice_calls
from ..areas.voice_states import store as voice_states
from ..core.auth import Principal, resolve_gateway_token
from ..core.scopes import expand
from ..events.audience import Audience, ToUsers, Viewer
from ..events.bus import Event
from ..paths import GATEWAY
from . import grants, ready, streams
from .codec import GatewayClose
from .protocol import PRIVILEGED_INTENTS, STREAM_OPS, Close, Op
from .sessions import Frame, Session, SessionStore, Sink
from .validate import Identify

if TYPE_CHECKING:
    from ..state import EmulatorState

SESSION_START_TOTAL = 1000
SESSION_START_WINDOW_S = 24 * 3600.0
FAULT_METHOD = "GATEWAY"


@dataclass
class GatewaySettings:
    """Tunable through ``PUT /_emulator/gateway`` (tests use short heartbeats)."""

    heartbeat_interval_ms: int = 41250
    # A session with no heartbeat for interval × grace is closed with 4009.
    heartbeat_grace: float = 1.5
    # How long a disconnected session can still be resumed, and how many dispatches it keeps.
    resume_window_s: float = 300.0
    replay_buffer: int = 1000


class Hub:
    def __init__(self, state: EmulatorState) -> None:
        self.state = state
        self.settings = GatewaySettings()
        self.store = SessionStore()
        self._starts: dict[int, deque[float]] = {}
        self._lock = threading.Lock()
        self._random = random.Random()
        self._wakers: dict[asyncio.AbstractEventLoop, LoopWaker] = {}
        state.bus.subscribe(self._on_event)
        state.connected_users = self.connected_users

    # --- identity ---------------------------------------------------------------------------------
    def authenticate(self, token: str) -> Principal | None:
        return resolve_gateway_token(self.state, token)

    def identify(self, ident: Identify, sink: Sink, connection: Any) -> Session:
        """Check the Identify against the principal, create the session and queue READY (thread)."""
        principal = self.authenticate(ident.token)
        if principal is None:
            raise GatewayClose(Close.AUTHENTICATION_FAILED, "authentication failed")
        if principal.kind == "bot":   # the intents as of the clock: an approval may have run out
            privileged_intents.expire_now(self.state, principal.application_id)
        app = self.state.db.query_one("SELECT flags, shards, large_bot_sharding FROM applications WHERE id = ?",
                                      (principal.application_id,))
        if app is None:
            raise GatewayClose(Close.AUTHENTICATION_FAILED, "authentication failed")
        initial = _parse_presence(ident.presence, "d.presence") if ident.presence else None
        guild_ids: frozenset[int] = frozenset()
        if principal.kind == "bot":
            self._check_bot(ident, app)
            guild_ids = ready.shard_guild_ids(self.state, principal.user_id, ident.shard)
            self._count_start(principal.application_id)  # the session start limit is the bot's
        self._expire()
        viewer = Viewer(principal.kind, principal.user_id, principal.application_id, ident.intents, guild_ids,
                        ident.capabilities, (ident.shard[0], ident.shard[1]) if ident.shard else None,
                        expand(principal.scopes) if principal.kind == "bearer" else frozenset())
        session = Session(viewer, self.settings.replay_buffer, ident.shard)
        session.attach(sink, connection)
        for event, payload in ready.build(self.state, session, principal, ident, connection.resume_url):
            session.deliver(event, payload)
        self.store.add(session)
        self.connected(session)
        if initial is not None:
            presence.gateway_update(self.state, viewer, *initial)
        return session

    def _check_bot(self, ident: Identify, app: Any) -> None:
        for intent, enabling_flags in PRIVILEGED_INTENTS.items():
            if ident.intents & intent and not app["flags"] & enabling_flags:
                raise GatewayClose(Close.DISALLOWED_INTENTS, f"d.intents: {intent.name} is not enabled for this app")
        if ident.shard is None and app["shards"] > 1:
            raise GatewayClose(Close.SHARDING_REQUIRED, f"shard: this bot needs {app['shards']} shards")
        if ident.shard is not None and ident.shard[1] < app["shards"] and app["large_bot_sharding"]:
            raise GatewayClose(Close.INVALID_SHARD, f"d.shard: large bot sharding needs {app['shards']} shards")

    def _count_start(self, application_id: int) -> None:
        with self._lock:
            starts = self._starts.setdefault(application_id, deque())
            starts.append(time.monotonic())

    def session_start_limit(self, application_id: int, max_concurrency: int) -> dict[str, int]:
        now = time.monotonic()
        with self._lock:
            starts = self._starts.setdefault(application_id, deque())
            while starts and now - starts[0] > SESSION_START_WINDOW_S:
                starts.popleft()
            reset_after = int((SESSION_START_WINDOW_S - (now - starts[0])) * 1000) if starts else 0
            return {"total": SESSION_START_TOTAL, "remaining": max(0, SESSION_START_TOTAL - len(starts)),
                    "reset_after": reset_after, "max_concurrency": max_concurrency}

    # --- session lifecycle ------------------------------------------------------------------------
    def connected(self, session: Session) -> None:
        viewer = session.viewer
        if viewer.kind == "bearer":
            presence.session_connected(self.state, viewer)
            lobbies.connections_changed(self.state, viewer.application_id,
                                        self.connected_users(viewer.application_id))

    def detach(self, session: Session, connection: Any) -> None:
        session.detach(connection)
        self._expire()
        viewer = session.viewer
        if viewer.kind == "bearer":
            still_connected = any(s.viewer.user_id == viewer.user_id and s.connection is not None
                                  for s in self.store.all())
            presence.session_disconnected(self.state, viewer, still_connected)
            if not still_connected:   # e.g. temporary members leave (areas/members/temporary.py)
                self.state.bus.publish("user.disconnected", {"user_id": str(viewer.user_id)},
                                       user_ids=(viewer.user_id,))
            lobbies.connections_changed(self.state, viewer.application_id,
                                        self.connected_users(viewer.application_id))

    def end_session(self, session: Session) -> None:
        self.store.invalidate(session)
        self._end_voice(session)

    def _expire(self) -> None:
        for session in self.store.expire(self.settings.resume_window_s):
            self._end_voice(session)

    def _end_voice(self, session: Session) -> None:
        """A session's voice states and streams end with it (database writes: off the event loop when on it)."""
        def end() -> None:
            voice_calls.session_ended(self.state, session.viewer.user_id, session.id)
            streams.session_ended(self.state, session.id)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            end()
        else:
            loop.run_in_executor(None, end)

    def connected_users(self, application_id: int) -> set[int]:
        """SDK users of an application with a live (not merely resumable) Gateway connection."""
        return {s.viewer.user_id for s in self.store.all()
                if s.viewer.kind == "bearer" and s.viewer.application_id == application_id
                and s.connection is not None}

    def command(self, session: Session, op: int, d: Any) -> None:
        """Client commands after Identify (runs in a worker thread)."""
        if op == Op.PRESENCE_UPDATE:
            presence.gateway_update(self.state, session.viewer, *_parse_presence(d, "d"))
        elif op == Op.VOICE_STATE_UPDATE:
            self._voice_state_update(session, d)
        elif op == Op.REQUEST_CHANNEL_INFO:
            session.deliver("CHANNEL_INFO", ready.channel_info(self.state, session.viewer, d))
        elif op == Op.REQUEST_SOUNDBOARD_SOUNDS:
            for payload in ready.soundboard_sounds(self.state, session.viewer, d):
                session.deliver("SOUNDBOARD_SOUNDS", payload)
        elif op == Op.REQUEST_GUILD_MEMBERS:
            for payload in ready.guild_members_chunks(self.state, session.viewer, d):
                session.deliver("GUILD_MEMBERS_CHUNK", payload)
        elif op in STREAM_OPS:
            streams.command(self.state, session, op, d)

    def _voice_state_update(self, session: Session, d: Any) -> None:
        """Opcode 4: join, move or leave a call. A refused join (no CONNECT, a full channel, not a
        member) changes nothing and sends nothing; a join or move gets VOICE_SERVER_UPDATE."""
        try:
            request = voice_states.parse_request(d)
        except voice_states.InvalidVoiceState as invalid:
            raise GatewayClose(Close.DECODE_ERROR, str(invalid)) from None
        outcome = voice_states.gateway_update(self.state, session.viewer, session.id, request)
        server = voice_calls.follow(self.state, session.viewer.user_id, session.id, outcome)
        if outcome.left is not None:
            streams.voice_left(self.state, session.viewer.user_id, outcome.left.channel_id)
        if server is None or outcome.joined is None:
            return
        token, endpoint = server
        payload: dict[str, Any] = {"token": token, "endpoint": endpoint}
        if outcome.guild_id is not None:
            payload["guild_id"] = str(outcome.guild_id)
        else:
            payload["channel_id"] = str(outcome.joined.channel_id)
        session.deliver("VOICE_SERVER_UPDATE", payload)

    # --- faults and admin -------------------------------------------------------------------------
    def _fault_rules(self) -> list[Any]:
        return [rule for rule in list(self.state.faults.rules)
                if rule.method == FAULT_METHOD and fnmatch.fnmatchcase(GATEWAY, rule.path)]

    def dispatch_delay_s(self) -> float:
        """Added latency of dispatches: the sum of ``latency_ms`` of fault rules for the Gateway."""
        return sum(rule.latency_ms for rule in self._fault_rules()) / 1000.0

    def should_drop(self) -> bool:
        """Whether to drop the socket instead of sending a dispatch (``drop_rate`` of Gateway rules)."""
        return any(rule.drop_rate and self._random.random() < rule.drop_rate for rule in self._fault_rules())

    def sessions_matching(self, session_id: str | None, user_id: int | None) -> list[Session]:
        return [s for s in self.store.all()
                if (session_id is None or s.id == session_id) and (user_id is None or s.viewer.user_id == user_id)]

    def waker(self, loop: asyncio.AbstractEventLoop) -> LoopWaker:
        """The waker of the connections served by ``loop`` (one per loop)."""
        with self._lock:
            waker = self._wakers.get(loop)
            if waker is None:
                waker = self._wakers[loop] = LoopWaker(loop)
            return waker

    # --- the bus ----------------------------------------------------------------------------------
    def fan_out(self, event: str, audience: Audience) -> int:
        """Give dispatch ``event`` to every session its audience admits; returns how many got it.
        ``ToUsers`` goes straight to those users' sessions with one shared frame; any other audience
        is asked per session, and sessions given the same payload share its frame."""
        if isinstance(audience, ToUsers):
            targets = [session for session in self.store.of_users(audience.application_id, audience.user_ids)
                       if grants.admits(session.viewer, event)]
            if targets:
                frame = Frame.of(event, audience.payload)
                for session in targets:
                    session.deliver_frame(frame)
            return len(targets)
        frames: dict[int, Frame] = {}   # by id() of the payload: the frames keep the payloads alive
        delivered = 0
        for session in self.store.all():
            payload = audience(session.viewer)
            if payload is None or not grants.admits(session.viewer, event):
                continue
            shared = frames.get(id(payload))
            if shared is None:
                shared = frames[id(payload)] = Frame.of(event, payload)
            session.deliver_frame(shared)
            delivered += 1
        return delivered

    def _on_event(self, event: Event) -> None:
        if event.audience is not None:
            self.fan_out(event.name, event.audience)
        elif event.name == "emulator.reset":  # the world was cleared (reset, snapshot import, seed?reset)
            for session in self.store.all():
                self._close_session(session, Close.SESSION_TIMED_OUT, "the emulator's world was reset")
        elif event.name in ("guild.bot_joined", "guild.bot_left"):
            self._bot_membership(int(event.payload["guild_id"]), int(event.payload["user_id"]),
                                 event.name == "guild.bot_joined")
        elif event.name == "authorization.revoked":
            # Event payloads carry ids as strings, as on the wire.
            app_id, user_id = int(event.payload["application_id"]), int(event.payload["user_id"])
            for session in self.store.all():
                if (session.viewer.kind == "bearer" and session.viewer.application_id == app_id
                        and session.viewer.user_id == user_id):
                    self._close_session(session, Close.AUTHENTICATION_FAILED, "authorization revoked")

    def _bot_membership(self, guild_id: int, user_id: int, joined: bool) -> None:
        """A bot joined or left a guild after Identify: its sessions on that guild's shard now count it
        (or no longer) among their ``guild_ids``, which audiences read."""
        for session in self.store.all():
            viewer = session.viewer
            if viewer.kind != "bot" or viewer.user_id != user_id:
                continue
            if viewer.shard is not None and ready.shard_of(guild_id, viewer.shard[1]) != viewer.shard[0]:
                continue
            ids = viewer.guild_ids | {guild_id} if joined else viewer.guild_ids - {guild_id}
            session.viewer = dataclasses.replace(viewer, guild_ids=frozenset(ids))

    def _close_session(self, session: Session, code: int, reason: str) -> None:
        connection = session.connection
        self.end_session(session)
        if connection is not None:
            connection.request_close(code, reason)


_HUB_LOCK = threading.Lock()


def get_hub(state: EmulatorState) -> Hub:
    with _HUB_LOCK:
        hub = state.extras.get("gateway")
        if hub is None:
            hub = state.extras["gateway"] = Hub(state)
        return hub


def _parse_presence(d: Any, field: str) -> tuple[str, list[Any]]:
    try:
        return presence.parse_gateway_presence(d, field)
    except presence.InvalidPresence as invalid:
        raise GatewayClose(Close.DECODE_ERROR, str(invalid)) from None


class LoopWaker:
    """Wakes the writers of one event loop's connections when dispatches arrive from other threads,
    with at most one cross-thread call per batch, however many connections it wakes: a burst to a
    hundred sessions costs one wake-up of the loop, not a hundred.

    Lock-free on purpose (it runs once per session per dispatch): a producer appends its dispatch
    before it calls ``wake``, and ``_run`` clears a connection's flag before waking its writer, so a
    producer that sees the flag still set is sure its dispatch will be seen. A race can at worst
    wake a writer twice or schedule ``_run`` twice, both harmless."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._ready: deque[Any] = deque()
        self._scheduled = False

    def wake(self, connection: Any) -> None:
        """Call ``connection.wake_writer()`` on the loop soon (any thread)."""
        if connection.wake_pending:
            return
        connection.wake_pending = True
        self._ready.append(connection)
        if self._scheduled:
            return
        self._scheduled = True
        try:
            on_loop = asyncio.get_running_loop() is self._loop
        except RuntimeError:
            on_loop = False
        if on_loop:
            self._loop.call_soon(self._run)
        else:
            self._loop.call_soon_threadsafe(self._run)

    def _run(self) -> None:
        self._scheduled = False
        ready = self._ready
        while ready:
            connection = ready.popleft()
            connection.wake_pending = False
            connection.wake_writer()
