"""uvicorn's HTTP protocol (httptools) with each response written to the socket in one system call.

uvicorn writes a response's status line and headers as soon as the application sends
``http.response.start``, and the body in a second write: two ``send`` calls per response on every
request, each waking the peer. Here the connection's transport collects what is written during one
turn of the event loop and writes it at the end of that turn, so headers and body (sent one right
after the other) leave together. Anything else done with the transport (close, pause, set_protocol,
is_closing, ...) first writes what is pending, so the order of bytes and events on the socket is the
same as without this; the only difference is when, within the same loop turn, the bytes are written.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class _CoalescingTransport:
    """Wraps a transport: ``write`` collects, a callback at the end of the loop turn writes."""

    __slots__ = ("_transport", "_loop", "_pending")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] | None = None

    def write(self, data: bytes) -> None:
        if self._pending is None:
            self._pending = [data]
            self._loop.call_soon(self.flush)
        else:
            self._pending.append(data)

    def flush(self) -> None:
        pending, self._pending = self._pending, None
        if pending and not self._transport.is_closing():
            self._transport.write(pending[0] if len(pending) == 1 else b"".join(pending))

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def __getattr__(self, name: str) -> Any:
        self.flush()   # whatever the caller does next sees the socket as if every write had been made
        return getattr(self._transport, name)


class CoalescingHttpToolsProtocol(HttpToolsProtocol):
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(_CoalescingTransport(transport, self.loop))  # type: ignore[arg-type]
