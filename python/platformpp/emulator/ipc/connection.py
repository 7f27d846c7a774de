"""One game's connection to the desktop client: the handshake, then command frames in, responses and
events out. Framing violations (unknown opcode, a length over the limit), a bad handshake, no
handshake in time, or a flood of commands end this connection with a CLOSE frame naming the code;
a bad command gets an ERROR event and the connection goes on. Nothing here affects other
connections."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import TYPE_CHECKING, Any

from ..core.snowflake import parse_snowflake
from ..wire.user import public_user_json
from .codec import Frame, FrameDecoder, FrameError, PayloadError, encode
from .commands import EVENT_HANDLERS, HANDLERS, RpcError, clear_activity
from .protocol import COMMANDS, DISPATCH, RPC_VERSION, CloseCode, ErrorCode, Opcode

if TYPE_CHECKING:
    from .endpoint import DesktopEndpoint

log = logging.getLogger("platformpp.emulator.ipc")

HANDSHAKE_TIMEOUT_S = 5.0
# A game may send this many commands per window; one more closes the connection with RATE_LIMITED.
RATE_LIMIT = (60, 1.0)
_READ_CHUNK = 16 * 1024


class Closed(Exception):
    def __init__(self, code: CloseCode, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


class Connection:
    def __init__(self, endpoint: DesktopEndpoint, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.endpoint = endpoint
        self._reader, self._writer = reader, writer
        self._decoder = FrameDecoder()
        self.client_id = 0
        self.application_name = ""
        self.grant_scopes: frozenset[str] | None = None
        self.subscriptions: set[tuple[str, int | None]] = set()
        self.activity_set = False
        self._recent: deque[float] = deque()
        self._loop = asyncio.get_running_loop()

    # -- output (any thread) -------------------------------------------------------------------------
    def _send(self, opcode: Opcode, payload: Any) -> None:
        data = encode(opcode, payload)
        if self._loop.is_closed():
            return
        try:
            on_loop = asyncio.get_running_loop() is self._loop
        except RuntimeError:
            on_loop = False
        if on_loop:
            self._write(data)
        else:
            self._loop.call_soon_threadsafe(self._write, data)

    def _write(self, data: bytes) -> None:
        if not self._writer.is_closing():
            self._writer.write(data)

    def send_event(self, evt: str, data: Any) -> None:
        self._send(Opcode.FRAME, {"cmd": DISPATCH, "evt": evt, "data": data, "nonce": None})

    def subscribed(self, evt: str, guild_id: int | None = None) -> bool:
        return (evt, guild_id) in self.subscriptions

    # -- the session ----------------------------------------------------------------------------------
    async def serve(self) -> None:
        try:
            try:
                await asyncio.wait_for(self._handshake(), HANDSHAKE_TIMEOUT_S)
            except asyncio.TimeoutError:
                raise Closed(CloseCode.INVALID_CLIENT_ID, "no handshake within "
                             f"{HANDSHAKE_TIMEOUT_S:g} s") from None
            while True:
                for frame in await self._frames():
                    await self._handle(frame)
        except Closed as closed:
            self._send(Opcode.CLOSE, {"code": int(closed.code), "message": closed.message})
        except (ConnectionError, asyncio.IncompleteReadError, EOFError):
            pass
        finally:
            await self._finish()

    async def _frames(self) -> list[Frame]:
        data = await self._reader.read(_READ_CHUNK)
        if not data:
            raise EOFError
        try:
            return self._decoder.feed(data)
        except FrameError as exc:
            raise Closed(CloseCode.UNSUPPORTED, str(exc)) from None

    async def _handshake(self) -> None:
        frames: list[Frame] = []
        while not frames:
            frames = await self._frames()
        first, rest = frames[0], frames[1:]
        if first.opcode != Opcode.HANDSHAKE:
            raise Closed(CloseCode.UNSUPPORTED, f"the first frame must be HANDSHAKE (0), not {first.opcode.name}")
        try:
            body = first.json()
        except PayloadError as exc:
            raise Closed(CloseCode.UNSUPPORTED, f"handshake: {exc}") from None
        version = body.get("v")
        if isinstance(version, str) and version.isdigit():
            version = int(version)
        if version != RPC_VERSION:
            raise Closed(CloseCode.INVALID_VERSION, f"Invalid Version: v must be {RPC_VERSION}")
        client_id = parse_snowflake(body.get("client_id") if isinstance(body.get("client_id"), str)
                                    else str(body.get("client_id")))
        app = None if client_id is None else await asyncio.to_thread(
            self.endpoint.state.db.query_one, "SELECT id, name FROM applications WHERE id = ?", (client_id,))
        if app is None:
            # The platform's exact text: libraries match it (pypresence raises its InvalidID only on it).
            raise Closed(CloseCode.INVALID_CLIENT_ID, "Invalid Client ID")
        self.client_id, self.application_name = int(app["id"]), str(app["name"])
        self.endpoint.register(self)
        user = await asyncio.to_thread(self.endpoint.state.db.query_one, "SELECT * FROM users WHERE id = ?",
                                       (self.endpoint.user_id,))
        self.send_event("READY", {"v": RPC_VERSION, "config": self.endpoint.ready_config(),
                                  "user": public_user_json(user) if user else {"id": str(self.endpoint.user_id)}})
        for frame in rest:
            await self._handle(frame)

    async def _handle(self, frame: Frame) -> None:
        if frame.opcode == Opcode.CLOSE:
            raise Closed(CloseCode.NORMAL, "closed by the client")
        if frame.opcode == Opcode.HANDSHAKE:
            raise Closed(CloseCode.UNSUPPORTED, "already handshaken")
        if frame.opcode == Opcode.PONG:
            return
        self._count_command()
        if frame.opcode == Opcode.PING:
            self._send(Opcode.PONG, _json_or_empty(frame))
            return
        try:
            body = frame.json()
        except PayloadError as exc:
            self._send_error(None, None, ErrorCode.INVALID_PAYLOAD, str(exc))
            return
        cmd, nonce = body.get("cmd"), body.get("nonce")
        if not isinstance(cmd, str) or cmd not in COMMANDS:
            self._send_error(cmd if isinstance(cmd, str) else None, nonce, ErrorCode.INVALID_COMMAND,
                             f"unknown command {cmd!r}")
            return
        try:
            if cmd in EVENT_HANDLERS:
                evt_handler = EVENT_HANDLERS[cmd]
                data = await asyncio.to_thread(evt_handler, self, body.get("evt"), body.get("args", {}))
                evt = data.get("evt")
            else:
                data = await asyncio.to_thread(HANDLERS[cmd], self, body.get("args", {}))
                evt = None
        except RpcError as exc:
            self._send_error(cmd, nonce, exc.code, exc.message)
            return
        except Exception:  # noqa: BLE001 - one command's failure must not end the desktop client
            log.exception("IPC command %s failed", cmd)
            self._send_error(cmd, nonce, ErrorCode.UNKNOWN_ERROR, "internal error")
            return
        self._send(Opcode.FRAME, {"cmd": cmd, "evt": evt, "data": data, "nonce": nonce})

    def _count_command(self) -> None:
        limit, window = RATE_LIMIT
        now = time.monotonic()
        while self._recent and now - self._recent[0] > window:
            self._recent.popleft()
        self._recent.append(now)
        if len(self._recent) > limit:
            raise Closed(CloseCode.RATE_LIMITED, f"rate limited: more than {limit} commands in {window:g} s")

    def _send_error(self, cmd: str | None, nonce: Any, code: ErrorCode, message: str) -> None:
        self._send(Opcode.FRAME, {"cmd": cmd, "evt": "ERROR", "nonce": nonce,
                                  "data": {"code": int(code), "message": message}})

    async def _finish(self) -> None:
        self.endpoint.unregister(self)
        if self.activity_set:
            try:
                await asyncio.to_thread(clear_activity, self)
            except Exception:  # noqa: BLE001 - the emulator may be shutting down
                log.debug("clearing the IPC activity failed", exc_info=True)
        try:
            self._writer.close()
            await self._writer.wait_closed()
        except (ConnectionError, OSError):
            pass

    def close_now(self, code: CloseCode, message: str) -> None:
        """End the connection from the endpoint (the desktop user signed out)."""
        self._send(Opcode.CLOSE, {"code": int(code), "message": message})
        self._loop.call_soon_threadsafe(self._writer.close)


def _json_or_empty(frame: Frame) -> Any:
    try:
        return frame.json()
    except PayloadError:
        return {}
