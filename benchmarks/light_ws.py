"""A minimal WebSocket client for load generation (RFC 6455, client side, no extensions).

Why not the ``websockets`` package: with 100 sessions in one asyncio loop, its per-message machinery
(a frame parser per connection, a future per ``recv``) costs the load generator about twice the CPU
the emulator spends producing the same dispatches, so on a 2-core machine the benchmark measured its
own client. This one parses frames straight from ``data_received`` and hands each whole message to a
callback: what a native SDK's reader does. It understands text, binary, continuation, ping (answered
with pong) and close frames; it never sends fragmented or compressed frames.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import struct
from collections.abc import Callable
from urllib.parse import urlsplit

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_TEXT, _BINARY, _CONTINUATION, _CLOSE, _PING, _PONG = 0x1, 0x2, 0x0, 0x8, 0x9, 0xA


class HandshakeError(RuntimeError):
    """The server did not switch protocols."""


def _masked_frame(opcode: int, payload: bytes) -> bytes:
    mask = os.urandom(4)
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    elif length < 1 << 16:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
    # XOR with the repeated mask as one big integer: far faster than a per-byte loop.
    repeated = (mask * (length // 4 + 1))[:length]
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(length, "big")
    return header + mask + masked


class LightWebSocket(asyncio.Protocol):
    """One client connection; ``on_message(data: bytes)`` gets every complete text or binary message."""

    def __init__(self, on_message: Callable[[bytes], None]) -> None:
        self.on_message = on_message
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.handshake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.fragments: list[bytes] = []
        self.expected_accept = b""

    @classmethod
    async def connect(cls, url: str, on_message: Callable[[bytes], None]) -> LightWebSocket:
        parts = urlsplit(url)
        if parts.scheme != "ws":
            raise ValueError(f"url: only ws:// is supported by this load generator, got {parts.scheme!r}")
        loop = asyncio.get_running_loop()
        transport, protocol = await loop.create_connection(lambda: cls(on_message), parts.hostname, parts.port or 80)
        key = base64.b64encode(os.urandom(16))
        protocol.expected_accept = base64.b64encode(hashlib.sha1(key + _GUID).digest())
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        request = (f"GET {target} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key.decode()}\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n")
        transport.write(request.encode())
        await protocol.handshake
        return protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports implement asyncio.Transport without subclassing it.
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.handshake.done():
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head, self.buffer = bytes(self.buffer[:end]), self.buffer[end + 4:]
            lines = head.split(b"\r\n")
            accept = next((line.split(b":", 1)[1].strip() for line in lines[1:]
                           if line.lower().startswith(b"sec-websocket-accept:")), b"")
            if b" 101 " not in lines[0] + b" " or accept != self.expected_accept:
                self.handshake.set_exception(HandshakeError(lines[0].decode("latin-1")))
                return
            self.handshake.set_result(None)
        self._parse_frames()

    def _parse_frames(self) -> None:
        buffer, offset, size = self.buffer, 0, len(self.buffer)
        while size - offset >= 2:
            first, second = buffer[offset], buffer[offset + 1]
            if second & 0x80:
                raise ConnectionError("the server sent a masked frame (RFC 6455 §5.1 forbids it)")
            length, header = second & 0x7F, 2
            if length == 126:
                if size - offset < 4:
                    break
                length, header = struct.unpack_from("!H", buffer, offset + 2)[0], 4
            elif length == 127:
                if size - offset < 10:
                    break
                length, header = struct.unpack_from("!Q", buffer, offset + 2)[0], 10
            if size - offset < header + length:
                break
            payload = bytes(buffer[offset + header:offset + header + length])
            offset += header + length
            self._frame(first & 0x80, first & 0x0F, payload)
        del buffer[:offset]

    def _frame(self, final: int, opcode: int, payload: bytes) -> None:
        if opcode in (_TEXT, _BINARY, _CONTINUATION):
            if final and not self.fragments:
                self.on_message(payload)
            elif final:
                self.fragments.append(payload)
                self.on_message(b"".join(self.fragments))
                self.fragments.clear()
            else:
                self.fragments.append(payload)
        elif opcode == _PING:
            self._write(_PONG, payload)
        elif opcode == _CLOSE:
            self._write(_CLOSE, payload[:2])
            if self.transport is not None:
                self.transport.close()

    def _write(self, opcode: int, payload: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(_masked_frame(opcode, payload))

    def send_text(self, text: str) -> None:
        self._write(_TEXT, text.encode())

    async def close(self) -> None:
        self._write(_CLOSE, struct.pack("!H", 1000))
        if self.transport is not None:
            self.transport.close()
        await self.closed

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.handshake.done():
            self.handshake.set_exception(exc or ConnectionError("closed during the handshake"))
        if not self.closed.done():
            self.closed.set_result(None)
