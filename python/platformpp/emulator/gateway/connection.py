"""One Gateway WebSocket connection: the protocol state machine of docs/wire.md "Gateway".

Everything the server sends goes through one writer task and one Encoder, so that the zlib stream
stays in order and a close frame always follows what was queued before it. The reader enforces the
payload size and rate limits, the heartbeat deadline, and the Identify/Resume rules.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import TYPE_CHECKING, Any

from starlette.types import Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..paths import GATEWAY
from . import validate
from .codec import Encoder, GatewayClose, decode, envelope
from .protocol import API_VERSION, RATE_LIMIT_PAYLOADS, RATE_LIMIT_WINDOW_S, STREAM_OPS, Close, Op
from .sessions import Dispatch, ResumeError, Session

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("platformpp.emulator.gateway")

# Closing with these codes ends the session for good: the client must Identify again.
_SESSION_ENDING = {
    Close.AUTHENTICATION_FAILED, Close.INVALID_SEQ, Close.SESSION_TIMED_OUT, Close.INVALID_SHARD,
    Close.SHARDING_REQUIRED, Close.INVALID_API_VERSION, Close.INVALID_INTENTS, Close.DISALLOWED_INTENTS,
}
# A client closing normally (1000) or going away (1001) also ends its session, as on the platform.
_CLIENT_SESSION_ENDING = {1000, 1001}


class Connection:
    def __init__(self, ws: WebSocket, hub: Hub, send: Send) -> None:
        self.ws = ws
        self._send_frame = send   # the ASGI send: frames go straight to the server
        self.hub = hub
        self.session: Session | None = None
        # What the writer sends, in order: a Dispatch, or ("env" | "close" | "stop", item). Dispatches
        # are appended from any thread (deque appends are atomic); the writer alone pops.
        self._out: deque[Dispatch | tuple[str, Any]] = deque()
        self._out_ready = asyncio.Event()
        self.wake_pending = False   # set and cleared by the loop's waker
        self._control: asyncio.Queue[GatewayClose] = asyncio.Queue()
        self._received: deque[float] = deque()
        self._loop = asyncio.get_running_loop()
        self._waker = hub.waker(self._loop)
        self._closed = False
        self.last_heartbeat: float | None = None   # wall-clock time of the last heartbeat (the inspector)
        # READY's resume_gateway_url: this very endpoint, as the client reached it.
        url = ws.url
        self.resume_url = f"{'wss' if url.scheme in ('wss', 'https') else 'ws'}://{url.netloc}{GATEWAY}"

    # --- called from other threads or tasks (admin routes, a resuming connection) ---------------
    def request_close(self, code: int, reason: str) -> None:
        """Close this socket with ``code`` (thread-safe); the session stays resumable for 4000."""
        self._loop.call_soon_threadsafe(self._control.put_nowait, GatewayClose(code, reason))

    def request_reconnect(self) -> None:
        """Send op 7 Reconnect, then close with 4000 so the client resumes on a new socket."""
        def send() -> None:
            self._put("env", envelope(Op.RECONNECT, None))
            self._control.put_nowait(GatewayClose(Close.UNKNOWN_ERROR, "reconnect requested"))
        self._loop.call_soon_threadsafe(send)

    def request_invalid_session(self, resumable: bool) -> None:
        """Send op 9 Invalid Session. Resumable: then close 4000 so the client resumes elsewhere; not
        resumable: the socket stays open for a fresh Identify."""
        def send() -> None:
            self._put("env", envelope(Op.INVALID_SESSION, resumable))
            if resumable:
                self._control.put_nowait(GatewayClose(Close.UNKNOWN_ERROR, "invalid session, resume"))
            elif self.session is not None:
                ended, self.session = self.session, None
                # Presence and lobby idleness are written to the database: off the event loop.
                self._loop.create_task(asyncio.to_thread(self.hub.detach, ended, self))
        self._loop.call_soon_threadsafe(send)

    # --- the connection ---------------------------------------------------------------------
    async def run(self) -> None:
        query = self.ws.query_params
        await self.ws.accept()
        log.info("connected from %s (compress=%s)", _peer(self.ws), query.get("compress") or "none")
        encoder = Encoder(query.get("compress"))
        writer = asyncio.create_task(self._writer(encoder))
        try:
            self._check_query(query)
            self._send(Op.HELLO, {"heartbeat_interval": self.hub.settings.heartbeat_interval_ms})
            client_code = await self._reader()
            log.info("the client closed (%s)", client_code)
            if self.session is not None and client_code in _CLIENT_SESSION_ENDING:
                self.hub.end_session(self.session)
        except GatewayClose as close:
            if self.session is not None and close.code in _SESSION_ENDING:
                self.hub.end_session(self.session)
            log.info("closing %s: %s", close.code, close.reason)
            self._put("close", close)
        finally:
            if self.session is not None:
                # Presence and lobby idleness are written to the database: off the event loop.
                await asyncio.to_thread(self.hub.detach, self.session, self)
            self._put("stop", None)
            await writer

    def _check_query(self, query: Any) -> None:
        if query.get("v", str(API_VERSION)) != str(API_VERSION):
            raise GatewayClose(Close.INVALID_API_VERSION, f"v: only {API_VERSION} is supported")
        if query.get("encoding", "json") != "json":
            raise GatewayClose(Close.DECODE_ERROR, "encoding: only json is supported")
        compress = query.get("compress")
        # zstd-stream is accepted and answered with plain text frames, which clients asking for it read
        # too (libraries pick it whenever a zstd module is importable, as on Python 3.14)
        if compress not in (None, "zlib-stream", "zstd-stream"):
            raise GatewayClose(Close.DECODE_ERROR, "compress: only zlib-stream and zstd-stream are supported")

    def _send(self, op: int, d: Any) -> None:
        self._put("env", envelope(op, d))

    def _put(self, kind: str, item: Any) -> None:
        """Queue something for the writer (on the loop)."""
        self._out.append((kind, item))
        self._out_ready.set()

    def _on_dispatch(self, dispatch: Dispatch) -> None:
        """The session's sink: called from any thread, in seq order. Dispatches are queued bare (the
        other items are (kind, value) pairs): this runs once per session per dispatch."""
        self._out.append(dispatch)
        if not self.wake_pending:
            self._waker.wake(self)

    def wake_writer(self) -> None:
        self._out_ready.set()


    async def _writer(self, encoder: Encoder) -> None:
        dropping = False
        send = self._send_frame
        field = "bytes" if encoder.binary else "text"
        faults = self.hub.state.faults
        out, ready = self._out, self._out_ready
        while True:
            if not out:
                ready.clear()
                while not out:
                    await ready.wait()
                    ready.clear()
            item = out.popleft()
            if isinstance(item, Dispatch):
                if self._closed or dropping:
                    continue
                if faults.rules:   # the common case, no fault rules at all, costs one test
                    delay = self.hub.dispatch_delay_s()
                    if delay > 0:
                        await asyncio.sleep(delay)
                    if self.hub.should_drop():
                        # Fault injection: the socket drops; the unsent dispatch waits for a Resume.
                        self.request_close(Close.UNKNOWN_ERROR, "connection dropped (fault injected)")
                        dropping = True
                        continue
                try:
                    await send({"type": "websocket.send", field: encoder.encode_dispatch(item)})
                except (RuntimeError, OSError, WebSocketDisconnect):
                    # The peer went away mid-send; the reader sees the disconnect and cleans up.
                    self._closed = True
                except UnicodeEncodeError:
                    dropping = True
                    self._unencodable(item.event)
                continue
            kind, value = item
            if kind == "stop":
                return
            try:
                if kind == "close":
                    if not self._closed and self.ws.application_state == WebSocketState.CONNECTED:
                        await self.ws.close(value.code, value.reason)
                    self._closed = True
                    continue
                if self._closed or dropping:
                    continue
                await send({"type": "websocket.send", field: encoder.encode(value)})
            except (RuntimeError, OSError, WebSocketDisconnect):
                # The peer went away mid-send; the reader sees the disconnect and cleans up.
                self._closed = True
            except UnicodeEncodeError:
                dropping = True
                self._unencodable(f"op {value.get('op')}")

    def _unencodable(self, what: str) -> None:
        """A payload with text that has no UTF-8 form (a lone surrogate) cannot be sent: close with
        4000 rather than leave the socket open and silent (what follows waits for a Resume)."""
        log.error("Gateway: %s could not be encoded as UTF-8; closing the connection with 4000", what)
        self.request_close(Close.UNKNOWN_ERROR, f"{what} could not be encoded")

    async def _reader(self) -> int | None:
        """Handle client payloads until the client disconnects (returns its close code)."""
        interval_s = self.hub.settings.heartbeat_interval_ms / 1000
        deadline = time.monotonic() + interval_s * self.hub.settings.heartbeat_grace
        receive = asyncio.ensure_future(self.ws.receive())
        control = asyncio.ensure_future(self._control.get())
        try:
            while True:
                timeout = max(0.0, deadline - time.monotonic())
                done, _ = await asyncio.wait({receive, control}, timeout=timeout,
                                             return_when=asyncio.FIRST_COMPLETED)
                if control in done:
                    raise control.result()
                if not done:
                    raise GatewayClose(Close.SESSION_TIMED_OUT, "no heartbeat received in time")
                message = receive.result()
                if message["type"] == "websocket.disconnect":
                    return int(message.get("code", 1000))
                receive = asyncio.ensure_future(self.ws.receive())
                self._count_payload()
                payload = decode(message)
                if payload["op"] == Op.HEARTBEAT:
                    validate.heartbeat(payload)
                    self.last_heartbeat = time.time()
                    deadline = time.monotonic() + interval_s * self.hub.settings.heartbeat_grace
                    self._send(Op.HEARTBEAT_ACK, None)
                else:
                    await self._handle(payload)
        finally:
            receive.cancel()
            control.cancel()

    def _count_payload(self) -> None:
        now = time.monotonic()
        self._received.append(now)
        while self._received and now - self._received[0] > RATE_LIMIT_WINDOW_S:
            self._received.popleft()
        if len(self._received) > RATE_LIMIT_PAYLOADS:
            raise GatewayClose(Close.RATE_LIMITED, f"more than {RATE_LIMIT_PAYLOADS} payloads in 60 s")

    async def _handle(self, payload: dict[str, Any]) -> None:
        op = payload["op"]
        if op == Op.IDENTIFY:
            await self._identify(payload)
        elif op == Op.RESUME:
            await self._resume(payload)
        elif op in (Op.PRESENCE_UPDATE, Op.VOICE_STATE_UPDATE, Op.REQUEST_GUILD_MEMBERS, Op.REQUEST_CHANNEL_INFO,
                    Op.REQUEST_SOUNDBOARD_SOUNDS) or op in STREAM_OPS:
            if self.session is None:
                raise GatewayClose(Close.NOT_AUTHENTICATED, "identify first")
            await asyncio.to_thread(self.hub.command, self.session, op, payload.get("d"))
        else:
            raise GatewayClose(Close.UNKNOWN_OPCODE, f"op: {op} is not a client opcode of this gateway")

    async def _identify(self, payload: dict[str, Any]) -> None:
        if self.session is not None:
            raise GatewayClose(Close.ALREADY_AUTHENTICATED, "already identified")
        ident = validate.identify(payload)
        session = await asyncio.to_thread(
            self.hub.identify, ident, self._on_dispatch, self)
        self.session = session
        viewer = session.viewer
        log.info("%s %s identified (intents %d, shard %s)", "bot" if viewer.kind == "bot" else "user",
                 viewer.user_id, viewer.intents, list(viewer.shard) if viewer.shard else "none")

    async def _resume(self, payload: dict[str, Any]) -> None:
        if self.session is not None:
            raise GatewayClose(Close.ALREADY_AUTHENTICATED, "already identified")
        request = validate.resume(payload)
        principal = await asyncio.to_thread(self.hub.authenticate, request.token)
        if principal is None:
            raise GatewayClose(Close.AUTHENTICATION_FAILED, "authentication failed")
        session = self.hub.store.get(request.session_id)
        if session is None or not session.belongs_to(principal.kind, principal.user_id, principal.application_id):
            self._send(Op.INVALID_SESSION, False)
            return
        previous = session.connection
        if previous is not None and previous is not self:
            previous.request_close(Close.UNKNOWN_ERROR, "session resumed on another connection")
        try:
            session.resume(request.seq, self._on_dispatch, self)
        except ResumeError as error:
            self.hub.end_session(session)
            if error.code is not None:
                raise GatewayClose(error.code, str(error)) from None
            self._send(Op.INVALID_SESSION, False)
            return
        self.session = session
        session.deliver("RESUMED", {})
        await asyncio.to_thread(self.hub.connected, session)


def _peer(ws: WebSocket) -> str:
    client = ws.client
    return f"{client.host}:{client.port}" if client else "?"
