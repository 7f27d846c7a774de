"""Delivering interactions to an app's interactions endpoint URL from the event loop, over kept-alive
HTTP/1.1 connections: the signed POST of areas/webhooks/interactions_endpoint.py (same signer, headers,
timeout and ``EndpointAnswer``) without a worker thread and a new TCP connection per interaction,
which made the signed round trip wait on connects and thread hops rather than work.

One pool of idle connections per event loop and endpoint (scheme, host, port). A connection is
reused only after a complete response that did not ask to close; a reused connection that fails
before any answer (the endpoint closed it while idle) is retried once on a new one. Bodies are read
by ``Content-Length``, ``chunked`` transfer coding, or up to the close."""

from __future__ import annotations

import asyncio
import ssl
import weakref
from urllib.parse import urlsplit

from ..webhooks.interactions_endpoint import ENDPOINT_TIMEOUT_S, USER_AGENT, EndpointAnswer
from ..webhooks.store import sign

MAX_IDLE_PER_ENDPOINT = 32
MAX_RESPONSE_BYTES = 25 * 1024 * 1024   # an answer may carry files up to the 20 MiB upload limit

Key = tuple[str, str, int]
Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


class _Closed(Exception):
    """The connection ended before a response began (a kept-alive one the endpoint had closed)."""


class EndpointPool:
    def __init__(self) -> None:
        self._idle: dict[Key, list[Connection]] = {}

    async def post_signed(self, url: str, private_key_hex: str, body: bytes, timestamp: str) -> EndpointAnswer:
        """One signed POST; what the endpoint answered (never raises for the endpoint's failures)."""
        try:
            return await asyncio.wait_for(self._post(url, private_key_hex, body, timestamp), ENDPOINT_TIMEOUT_S)
        except asyncio.TimeoutError:
            return EndpointAnswer(None, b"", "TimeoutError: the endpoint did not answer in time")
        except (OSError, ValueError, _Closed, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as exc:
            return EndpointAnswer(None, b"", f"{type(exc).__name__}: {exc}"[:300])

    async def _post(self, url: str, private_key_hex: str, body: bytes, timestamp: str) -> EndpointAnswer:
        parts = urlsplit(url)
        secure = parts.scheme == "https"
        key = (parts.scheme, parts.hostname or "", parts.port or (443 if secure else 80))
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        head = (f"POST {target} HTTP/1.1\r\nHost: {parts.netloc}\r\nUser-Agent: {USER_AGENT}\r\n"
                "Content-Type: application/json\r\n"
                f"X-Signature-Ed25519: {sign(private_key_hex, timestamp, body)}\r\n"
                f"X-Signature-Timestamp: {timestamp}\r\nContent-Length: {len(body)}\r\n\r\n").encode("latin-1")
        idle = self._idle.get(key)
        if idle:
            reader, writer = idle.pop()
            try:
                return await self._exchange(key, reader, writer, head + body)
            except (_Closed, ConnectionError):
                writer.close()   # closed while idle: once more on a new connection
        reader, writer = await asyncio.open_connection(key[1], key[2], ssl=ssl.create_default_context()
                                                       if secure else None)
        return await self._exchange(key, reader, writer, head + body)

    async def _exchange(self, key: Key, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                        request: bytes) -> EndpointAnswer:
        reusable = False
        try:
            writer.write(request)
            await writer.drain()
            status_line = await reader.readline()
            if not status_line:
                raise _Closed("the endpoint closed the connection")
            version, status = _status(status_line)
            headers = await _headers(reader)
            closing = headers.get("connection", "").lower() == "close" or version == "HTTP/1.0" and \
                headers.get("connection", "").lower() != "keep-alive"
            if status in (204, 304):
                data = b""
            elif "chunked" in headers.get("transfer-encoding", "").lower():
                data = await _chunked(reader)
            elif "content-length" in headers:
                length = int(headers["content-length"])
                if not 0 <= length <= MAX_RESPONSE_BYTES:
                    raise ValueError(f"Content-Length {length} is out of range")
                data = await reader.readexactly(length)
            else:
                data, closing = await reader.read(MAX_RESPONSE_BYTES), True
            reusable = not closing
            return EndpointAnswer(status, data, None)
        finally:
            if reusable and len(self._idle.setdefault(key, [])) < MAX_IDLE_PER_ENDPOINT:
                self._idle[key].append((reader, writer))
            else:
                writer.close()


def _status(line: bytes) -> tuple[str, int]:
    parts = line.decode("latin-1").split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        raise ValueError(f"not an HTTP status line: {line[:80]!r}")
    return parts[0], int(parts[1])


async def _headers(reader: asyncio.StreamReader) -> dict[str, str]:
    headers: dict[str, str] = {}
    for _ in range(200):
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            return headers
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    raise ValueError("more than 200 response header lines")


async def _chunked(reader: asyncio.StreamReader) -> bytes:
    data = bytearray()
    while True:
        size_line = (await reader.readline()).split(b";", 1)[0].strip()
        size = int(size_line, 16)
        if size == 0:
            await _headers(reader)   # trailers, up to the empty line
            return bytes(data)
        if len(data) + size > MAX_RESPONSE_BYTES:
            raise ValueError("the chunked body is larger than the limit")
        data += await reader.readexactly(size)
        await reader.readexactly(2)


_POOLS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, EndpointPool] = weakref.WeakKeyDictionary()


def pool() -> EndpointPool:
    """The pool of the running event loop (connections belong to one loop)."""
    loop = asyncio.get_running_loop()
    found = _POOLS.get(loop)
    if found is None:
        found = _POOLS[loop] = EndpointPool()
    return found
