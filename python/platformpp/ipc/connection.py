"""One connection to the desktop client, asyncio-native: the handshake (READY), commands answered by
nonce, events as they come, and the end of the connection (a CLOSE frame, or the socket closing)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from .._errors import RPCError, ValidationError
from .discovery import socket_candidates
from .frames import RPC_VERSION, FrameDecoder, FrameError, Opcode, encode

_READ_CHUNK = 16 * 1024
_MAX_SNOWFLAKE = (1 << 64) - 1
# Events kept while nobody reads them; the oldest go first (a tool that never reads events must not grow).
_EVENT_BACKLOG = 1024


@dataclass(frozen=True)
class Event:
    """A DISPATCH from the desktop client: ``evt`` (ACTIVITY_JOIN, VOICE_SETTINGS_UPDATE, ...) and its data."""
    evt: str
    data: Any


def _rpc_error(message: str, code: int | None = None) -> RPCError:
    error = RPCError(message if code is None else f"{message} (code {code})")
    error.code = code           # the RPC error or close code, when the desktop client gave one
    error.result = None         # no ClientResult: this client is not the C++ SDK
    return error


def _validation_error(field: str, rule: str) -> ValidationError:
    error = ValidationError(f"{field}: {rule}")
    error.field = field
    return error


def _check_client_id(client_id: object) -> int:
    if isinstance(client_id, bool) or not isinstance(client_id, int) or not 0 < client_id <= _MAX_SNOWFLAKE:
        raise _validation_error("client_id", "must be an application id (an int from 1 to 2**64 - 1)")
    return client_id


class IpcConnection:
    """Use ``await connect(client_id)`` (or ``async with await connect(...) as ipc``)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, client_id: int,
                 path: str) -> None:
        self._reader, self._writer = reader, writer
        self.client_id, self.path = client_id, path
        self.user: dict[str, Any] = {}
        self.config: dict[str, Any] = {}
        self._decoder = FrameDecoder()
        self._nonces = itertools.count(1)
        self._pending: dict[str, asyncio.Future[Any]] = {}
        self._events: asyncio.Queue[Event | None] = asyncio.Queue()
        self._closed: RPCError | None = None
        self._reading: asyncio.Task[None] | None = None

    # -- opening ----------------------------------------------------------------------------------------
    async def _handshake(self, timeout: float) -> None:
        self._writer.write(encode(Opcode.HANDSHAKE, {"v": RPC_VERSION, "client_id": str(self.client_id)}))
        try:
            first = await asyncio.wait_for(self._next_frames(), timeout)
        except asyncio.TimeoutError:
            raise _rpc_error(f"the desktop client did not answer the handshake within {timeout:g} s") from None
        frame, rest = first[0], first[1:]
        if frame.opcode == Opcode.CLOSE:
            raise _rpc_error(f"the desktop client refused the handshake: {frame.payload.get('message', '')}",
                             _int_or_none(frame.payload.get("code")))
        if frame.opcode != Opcode.FRAME or frame.payload.get("evt") != "READY":
            raise _rpc_error("the desktop client answered the handshake without READY")
        data = frame.payload.get("data") or {}
        self.user = dict(data.get("user") or {})
        self.config = dict(data.get("config") or {})
        self._reading = asyncio.get_running_loop().create_task(self._read_loop(rest))

    async def _next_frames(self) -> list[Any]:
        while True:
            data = await self._reader.read(_READ_CHUNK)
            if not data:
                raise _rpc_error("the desktop client closed the connection")
            try:
                frames = self._decoder.feed(data)
            except FrameError as exc:
                raise _rpc_error(f"unreadable frames from the desktop client: {exc}") from None
            if frames:
                return frames

    # -- reading ----------------------------------------------------------------------------------------
    async def _read_loop(self, first: list[Any]) -> None:
        ending = _rpc_error("the connection to the desktop client ended")
        try:
            frames = first
            while True:
                for frame in frames:
                    if not self._handle(frame):
                        ending = _rpc_error(f"the desktop client closed the connection: "
                                            f"{frame.payload.get('message', '')}",
                                            _int_or_none(frame.payload.get("code")))
                        return
                frames = await self._next_frames()
        except RPCError as exc:
            ending = exc
        except (ConnectionError, OSError) as exc:
            ending = _rpc_error(f"the connection to the desktop client failed: {exc}")
        finally:
            self._finish(ending)

    def _handle(self, frame: Any) -> bool:
        """Route one frame; False when it ends the connection."""
        if frame.opcode == Opcode.CLOSE:
            return False
        if frame.opcode == Opcode.PING:
            self._writer.write(encode(Opcode.PONG, frame.payload))
            return True
        if frame.opcode == Opcode.PONG:
            self._resolve(str(frame.payload.get("nonce")), None, frame.payload)
            return True
        body = frame.payload
        nonce = body.get("nonce")
        if body.get("cmd") == "DISPATCH" and nonce is None:
            if self._events.qsize() >= _EVENT_BACKLOG:
                self._events.get_nowait()
            self._events.put_nowait(Event(str(body.get("evt")), body.get("data")))
            return True
        if body.get("evt") == "ERROR":
            data = body.get("data") or {}
            self._resolve(str(nonce), _rpc_error(f"{body.get('cmd')}: {data.get('message', 'failed')}",
                                                 _int_or_none(data.get("code"))), None)
        else:
            self._resolve(str(nonce), None, body.get("data"))
        return True

    def _resolve(self, nonce: str, error: RPCError | None, data: Any) -> None:
        future = self._pending.pop(nonce, None)
        if future is None or future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(data)

    def _finish(self, why: RPCError) -> None:
        if self._closed is None:
            self._closed = why
        for future in self._pending.values():
            if not future.done():
                future.set_exception(self._closed)
        self._pending.clear()
        self._events.put_nowait(None)
        self._writer.close()

    # -- commands ---------------------------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return self._closed is not None

    async def command(self, cmd: str, args: Mapping[str, Any] | None = None, *, evt: str | None = None,
                      timeout: float = 10.0) -> Any:
        """Send ``cmd`` with ``args``; its answer's ``data``. ``RPCError`` (with ``code``) for an ERROR
        answer, a closed connection or no answer in time; ``ValidationError`` for bad arguments."""
        if not isinstance(cmd, str) or not cmd:
            raise _validation_error("cmd", "must be a non-empty string")
        if args is not None and not isinstance(args, Mapping):
            raise _validation_error("args", "must be a mapping")
        if self._closed is not None:
            raise self._closed
        nonce = str(next(self._nonces))
        body: dict[str, Any] = {"cmd": cmd, "nonce": nonce, "args": dict(args or {})}
        if evt is not None:
            body["evt"] = evt
        try:
            frame = encode(Opcode.FRAME, body)
        except (FrameError, TypeError, ValueError) as exc:
            raise _validation_error("args", f"cannot be sent: {exc}") from None
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[nonce] = future
        self._writer.write(frame)
        try:
            return await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            raise _rpc_error(f"{cmd}: no answer from the desktop client within {timeout:g} s") from None
        finally:
            self._pending.pop(nonce, None)

    async def set_activity(self, activity: Mapping[str, Any] | None, *, pid: int | None = None) -> Any:
        """The game's rich presence for the desktop user (cleared when this connection closes); ``None``
        clears it. Returns the activity as the desktop client stored it."""
        if activity is not None and not isinstance(activity, Mapping):
            raise _validation_error("activity", "must be a mapping or None")
        if pid is not None and (isinstance(pid, bool) or not isinstance(pid, int) or pid < 0):
            raise _validation_error("pid", "must be a process id (an int >= 0)")
        args: dict[str, Any] = {"activity": None if activity is None else dict(activity)}
        if pid is not None:
            args["pid"] = pid
        return await self.command("SET_ACTIVITY", args)

    async def clear_activity(self) -> None:
        await self.set_activity(None)

    async def subscribe(self, evt: str, args: Mapping[str, Any] | None = None) -> None:
        """Events ``evt`` (ACTIVITY_JOIN, ACTIVITY_JOIN_REQUEST, VOICE_SETTINGS_UPDATE, GUILD_STATUS with
        ``{"guild_id": ...}``, ...) arrive through ``events()`` / ``next_event()``."""
        if not isinstance(evt, str) or not evt:
            raise _validation_error("evt", "must be a non-empty event name")
        await self.command("SUBSCRIBE", args, evt=evt)

    async def unsubscribe(self, evt: str, args: Mapping[str, Any] | None = None) -> None:
        if not isinstance(evt, str) or not evt:
            raise _validation_error("evt", "must be a non-empty event name")
        await self.command("UNSUBSCRIBE", args, evt=evt)

    async def ping(self, timeout: float = 5.0) -> None:
        """A PING the desktop client answers with PONG."""
        if self._closed is not None:
            raise self._closed
        nonce = f"ping-{next(self._nonces)}"
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[nonce] = future
        self._writer.write(encode(Opcode.PING, {"nonce": nonce}))
        try:
            await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            raise _rpc_error(f"no PONG within {timeout:g} s") from None
        finally:
            self._pending.pop(nonce, None)

    # -- events -----------------------------------------------------------------------------------------
    async def next_event(self, evt: str | None = None, *, timeout: float | None = None) -> Event:
        """The next event (named ``evt``, others before it are dropped); ``RPCError`` once the connection
        has ended and no event is left."""
        async def wait() -> Event:
            while True:
                item = await self._events.get()
                if item is None:
                    self._events.put_nowait(None)       # every later reader learns of the end too
                    assert self._closed is not None
                    raise self._closed
                if evt is None or item.evt == evt:
                    return item
        if timeout is None:
            return await wait()
        try:
            return await asyncio.wait_for(wait(), timeout)
        except asyncio.TimeoutError:
            raise _rpc_error(f"no {evt or 'event'} within {timeout:g} s") from None

    async def events(self) -> AsyncIterator[Event]:
        """Every event until the connection ends."""
        while True:
            try:
                yield await self.next_event()
            except RPCError:
                return

    # -- closing ----------------------------------------------------------------------------------------
    async def close(self) -> None:
        """A CLOSE frame, then the socket; the desktop client clears this connection's activity."""
        if self._closed is None:
            with contextlib.suppress(ConnectionError, OSError):
                self._writer.write(encode(Opcode.CLOSE, {"code": 1000, "message": "closed by the client"}))
            self._finish(_rpc_error("the connection was closed by this client"))
        if self._reading is not None:
            self._reading.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reading
        with contextlib.suppress(ConnectionError, OSError):
            await self._writer.wait_closed()

    async def __aenter__(self) -> IpcConnection:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


async def connect(client_id: int, *, path: str | None = None, timeout: float = 5.0) -> IpcConnection:
    """Connects to the desktop client (``path``, else the first socket found as the SDK finds it) and
    handshakes as application ``client_id``; READY's ``user`` and ``config`` are on the connection.
    ``RPCError`` when no desktop client runs or it refuses (``code``: the close code)."""
    client_id = _check_client_id(client_id)
    candidates = [path] if path is not None else socket_candidates()
    for candidate in candidates:
        try:
            reader, writer = await asyncio.open_unix_connection(candidate, limit=2 * _READ_CHUNK)
        except (OSError, ValueError):
            continue
        connection = IpcConnection(reader, writer, client_id, candidate)
        try:
            await connection._handshake(timeout)
        except BaseException:
            writer.close()
            raise
        return connection
    raise _rpc_error("no desktop client is running (no IPC socket answers at "
                     f"{candidates[0] if len(candidates) == 1 else candidates[0][:-2] + '-0..9'})")
