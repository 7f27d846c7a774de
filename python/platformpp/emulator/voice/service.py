"""VoiceService: the emulator's voice server — voice gateway (WebSocket) and UDP relay on loopback.

A self-contained subsystem with a small interface for its owner (the emulator's Gateway):

    service = VoiceService(now=clock.now, on_event=handler).start()
    token, endpoint = service.allocate(server_id, channel_id, user_id, session_id)   # VOICE_SERVER_UPDATE
    service.set_participant_state(server_id, user_id, mute=True)                      # moderation, SPEAK
    service.disconnect(server_id, user_id)                                            # left / moved
    service.stop()

It runs its own asyncio loop in one daemon thread: the `websockets` server for the voice gateway
(clients connect to `ws://{endpoint}/?v=8`, or `wss://` when the service is given a TLS context, as
the platform's clients expect) and one UDP socket for media. Owner calls are thread-safe.
`on_event(kind, server_id, channel_id, user_id)` is called on the voice thread with kind one of
"call_started", "participant_joined", "participant_lost", "participant_left", "call_ended" (user_id
None for the call events); "participant_lost" precedes "participant_left" when the session timed out
(no heartbeat for two intervals: close 4009; or a dropped socket not resumed within the resume
window), which the owner answers by ending the user's voice state. It must not block (hand the work
to the owner's own thread or bus).
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
import threading
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any, TypeVar

from websockets.asyncio.server import Server, serve

from . import mls_wire as mls
from .errors import VoiceServiceError
from .gateway import VoiceGateway
from .protocol import Close
from .relay import Relay

log = logging.getLogger("platformpp.emulator.voice")

UDP_BUFFER_BYTES = 1 << 21
E2EE_REQUIRED_FROM = datetime(2026, 3, 1, tzinfo=timezone.utc)   # seed: only E2EE calls from this instant

EventHandler = Callable[[str, int, int, "int | None"], None]
T = TypeVar("T")


class VoiceService:
    def __init__(self, *, now: Callable[[], datetime], host: str = "127.0.0.1", ws_port: int = 0,
                 udp_port: int = 0, heartbeat_interval: float = 13.75, resume_window: float = 30.0,
                 transition_timeout: float = 2.0, e2ee_required_from: datetime = E2EE_REQUIRED_FROM,
                 on_event: EventHandler | None = None, tls: ssl.SSLContext | None = None) -> None:
        self._now = now
        self._tls = tls
        self.host = host
        self._ws_port = ws_port
        self._udp_port = udp_port
        self._e2ee_required_from = e2ee_required_from
        self._on_event = on_event
        self.relay = Relay(by_ssrc=lambda ssrc: self.gateway.by_ssrc.get(ssrc))
        self.external_sender = mls.ExternalSender()
        self.gateway = VoiceGateway(host=host, udp_port=lambda: self.udp_port, relay=self.relay,
                                    external_sender=self.external_sender,
                                    heartbeat_interval=heartbeat_interval, resume_window=resume_window,
                                    transition_timeout=transition_timeout, e2ee_required=self.e2ee_required,
                                    events=self._emit)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: Server | None = None
        self._udp: asyncio.DatagramTransport | None = None
        self._stopped: asyncio.Event | None = None
        self.faults = VoiceFaults(self)

    # ------------------------------------------------------------ lifecycle

    def start(self) -> "VoiceService":
        if self._thread is not None:
            raise VoiceServiceError("the voice service is already running")
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                loop.run_until_complete(self._open())
            except BaseException as exc:  # reported to start()'s caller
                failure.append(exc)
                ready.set()
                loop.close()
                return
            ready.set()
            loop.run_until_complete(self._serve_until_stopped())
            loop.close()

        self._thread = threading.Thread(target=run, name="platformpp-voice", daemon=True)
        self._thread.start()
        ready.wait()
        if failure:
            self._thread.join()
            self._thread = None
            raise VoiceServiceError(f"the voice service could not start: {failure[0]}") from failure[0]
        return self

    async def _open(self) -> None:
        self._stopped = asyncio.Event()
        loop = asyncio.get_running_loop()
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            sock.bind((self.host, self._udp_port))
        except OSError:
            sock.close()
            raise
        sock.setblocking(False)
        # Room for a few hundred ms of a busy call's packets if the loop stalls.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, UDP_BUFFER_BYTES)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, UDP_BUFFER_BYTES)
        transport, _ = await loop.create_datagram_endpoint(lambda: self.relay, sock=sock)
        self._udp = transport  # type: ignore[assignment]
        self.relay.sock = sock
        self._server = await serve(self.gateway.handle, self.host, self._ws_port, max_size=1 << 20,
                                   ping_interval=None, compression=None, ssl=self._tls)

    async def _serve_until_stopped(self) -> None:
        assert self._stopped is not None and self._server is not None
        await self._stopped.wait()
        self._server.close()
        await self._server.wait_closed()
        if self._udp is not None:
            self._udp.close()

    def stop(self) -> None:
        if self._thread is None or self._loop is None:
            return
        assert self._stopped is not None
        self._loop.call_soon_threadsafe(self._stopped.set)
        self._thread.join(timeout=10)
        self._thread = None
        self._loop = None

    def __enter__(self) -> "VoiceService":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------ addresses and clock

    @property
    def ws_port(self) -> int:
        assert self._server is not None, "start() first"
        return next(iter(self._server.sockets)).getsockname()[1]

    @property
    def udp_port(self) -> int:
        assert self._udp is not None, "start() first"
        return self._udp.get_extra_info("sockname")[1]

    @property
    def endpoint(self) -> str:
        """As VOICE_SERVER_UPDATE carries it: host:port, no scheme."""
        return f"{self.host}:{self.ws_port}"

    def e2ee_required(self) -> bool:
        return self._now() >= self._e2ee_required_from

    # ------------------------------------------------------------ owner interface

    def _run(self, fn: Callable[[], T]) -> T:
        loop = self._loop
        if loop is None:
            raise VoiceServiceError("the voice service is not running")
        if threading.current_thread() is self._thread:
            return fn()

        async def call() -> T:
            return fn()

        return asyncio.run_coroutine_threadsafe(call(), loop).result(timeout=10)

    def allocate(self, server_id: int, channel_id: int, user_id: int, session_id: str,
                 sends_media: bool = True) -> tuple[str, str]:
        """A voice token and endpoint for VOICE_SERVER_UPDATE. `server_id` is the guild id, or the
        channel id for DMs, group DMs and lobby calls. A new allocation makes the user's previous token
        for that server stale (Identify with it closes 4004). `sends_media` False: the relay forwards
        nothing from this participant (a Go Live stream's viewer)."""
        for name, value in (("server_id", server_id), ("channel_id", channel_id), ("user_id", user_id)):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 < value < 1 << 64:
                raise ValueError(f"{name}: must be a snowflake (an integer in 1..2^64-1)")
        if not isinstance(session_id, str) or not session_id:
            raise ValueError("session_id: must be a non-empty string")
        token = self._run(lambda: self.gateway.allocate(server_id, channel_id, user_id, session_id, sends_media))
        return token, self.endpoint

    def set_participant_state(self, server_id: int, user_id: int, *, self_mute: bool | None = None,
                              self_deaf: bool | None = None, mute: bool | None = None,
                              deaf: bool | None = None, may_speak: bool | None = None) -> bool:
        """Mirror a voice state into the relay: deafened (self or server) receive nothing; muted by the
        server or without the right to speak are not forwarded (the relay sends the receivers five
        silence frames for them). False when the user is not in a call on that server."""
        def apply() -> bool:
            participant = self.gateway.find(server_id, user_id)
            if participant is None:
                return False
            could_send = participant.may_send_audio
            for name, value in (("self_mute", self_mute), ("self_deaf", self_deaf), ("mute", mute),
                                ("deaf", deaf), ("may_speak", may_speak)):
                if value is not None:
                    setattr(participant, name, bool(value))
            if could_send and not participant.may_send_audio and self.relay.transport is not None:
                self.relay.send_silence(participant)
            return True
        return self._run(apply)

    def timeouts(self) -> dict[str, float]:
        """The heartbeat interval Hello announces (two missed ones close 4009) and the resume window, s."""
        return self._run(lambda: {"heartbeat_interval": self.gateway.heartbeat_interval,
                                  "resume_window": self.gateway.resume_window})

    def set_timeouts(self, *, heartbeat_interval: float | None = None,
                     resume_window: float | None = None) -> dict[str, float]:
        """Change them for sockets that connect (heartbeats) or drop (resume window) from now on, e.g.
        for a client's timeout tests; returns the values now in force."""
        for name, value in (("heartbeat_interval", heartbeat_interval), ("resume_window", resume_window)):
            if value is not None and not 0.05 <= value <= 3600:
                raise ValueError(f"{name}: must be between 0.05 and 3600 seconds")

        def apply() -> dict[str, float]:
            if heartbeat_interval is not None:
                self.gateway.heartbeat_interval = float(heartbeat_interval)
            if resume_window is not None:
                self.gateway.resume_window = float(resume_window)
            return {"heartbeat_interval": self.gateway.heartbeat_interval,
                    "resume_window": self.gateway.resume_window}
        return self._run(apply)

    def disconnect(self, server_id: int, user_id: int, code: int = Close.DISCONNECTED) -> bool:
        """End the user's voice session (left the channel, moved, kicked, Gateway session ended): its
        socket closes with `code` and the others get Client Disconnect. False when not connected."""
        return self._run(lambda: self.gateway.disconnect(server_id, user_id, int(code)))

    def participants(self, channel_id: int) -> list[int]:
        """User ids in the channel's call (connected or within their resume window)."""
        def read() -> list[int]:
            call = self.gateway.calls.get(channel_id)
            return sorted(call.participants) if call else []
        return self._run(read)

    def stats(self) -> dict[str, Any]:
        """Relay counters (received, forwarded, dropped_<reason>, rtcp, ...) and DAVE counters per call."""
        def read() -> dict[str, Any]:
            calls = {cid: dict(vars(call.dave.stats), epoch=call.dave.epoch, version=call.dave.version,
                               key_packages=sorted(call.dave.key_packages), group_size=len(call.dave.roster))
                     for cid, call in self.gateway.calls.items() if call.dave is not None}
            return {"relay": dict(self.relay.stats), "calls": calls}
        return self._run(read)

    def _emit(self, kind: str, server_id: int, channel_id: int, user_id: int | None) -> None:
        if self._on_event is None:
            return
        try:
            self._on_event(kind, server_id, channel_id, user_id)
        except Exception:  # the owner's bug must not break the call for everyone
            log.exception("voice: the owner's event handler failed on %s", kind)


class VoiceFaults:
    """Fault injection for clients' tests (the admin API exposes it): lose or delay a call's UDP
    packets, close a participant's voice gateway socket (4015 by default, which invites a resume)."""

    def __init__(self, service: VoiceService) -> None:
        self._service = service

    def set_udp(self, channel_id: int, *, drop_ratio: float = 0.0, delay_ms: float = 0.0) -> None:
        if not 0.0 <= drop_ratio <= 1.0:
            raise ValueError("drop_ratio: must be between 0 and 1")
        if not 0.0 <= delay_ms <= 10_000:
            raise ValueError("delay_ms: must be between 0 and 10000")

        def apply() -> None:
            call = self._service.gateway.calls.get(channel_id)
            if call is None:
                raise VoiceServiceError(f"channel_id: no call in channel {channel_id}")
            call.udp_drop_ratio = drop_ratio
            call.udp_delay = delay_ms / 1000.0
        self._service._run(apply)

    def clear_udp(self, channel_id: int) -> None:
        self.set_udp(channel_id)

    def close_gateway(self, server_id: int, user_id: int, code: int = Close.VOICE_SERVER_CRASHED) -> bool:
        if not 1000 <= code <= 4999:
            raise ValueError("code: must be a WebSocket close code in 1000..4999")

        def apply() -> bool:
            participant = self._service.gateway.find(server_id, user_id)
            return participant is not None and self._service.gateway.close_socket(participant, code)
        return self._service._run(apply)
