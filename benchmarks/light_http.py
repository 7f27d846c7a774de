"""A minimal HTTP/1.1 keep-alive client for load generation: one request at a time per connection.

Why not ``httpx`` here: at a few hundred requests per second its per-request machinery costs the load
generator about as much CPU as the emulator spends serving them, and on a 2-core machine that CPU is
taken from the emulator being measured. This client writes one request and reads one
``Content-Length`` response (chunked bodies are refused with an error); nothing more.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import urlsplit


class HttpError(RuntimeError):
    """A response outside 2xx, or one this client cannot read."""


class LightHttpConnection:
    """One keep-alive connection to ``base_url`` (``http://host:port/prefix``)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str, prefix: str,
                 headers: dict[str, str]) -> None:
        self.reader, self.writer, self.prefix = reader, writer, prefix
        self.fixed_headers = "".join(f"{name}: {value}\r\n" for name, value in
                                     {"Host": host, **headers, "Content-Type": "application/json"}.items())

    @classmethod
    async def open(cls, base_url: str, headers: dict[str, str]) -> LightHttpConnection:
        parts = urlsplit(base_url)
        if parts.scheme != "http":
            raise ValueError(f"base_url: only http:// is supported by this load generator, got {parts.scheme!r}")
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port or 80)
        return cls(reader, writer, parts.netloc, parts.path.rstrip("/"), headers)

    async def post_json(self, path: str, body: Any) -> tuple[int, bytes]:
        """POST ``body`` as JSON; returns (status, response body). Raises HttpError on non-2xx."""
        payload = json.dumps(body).encode()
        head = f"POST {self.prefix}{path} HTTP/1.1\r\n{self.fixed_headers}Content-Length: {len(payload)}\r\n\r\n"
        self.writer.write(head.encode() + payload)
        status_line = await self.reader.readline()
        status = int(status_line.split(b" ", 2)[1])
        length = None
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            lowered = name.strip().lower()
            if lowered == b"content-length":
                length = int(value)
            elif lowered == b"transfer-encoding":
                raise HttpError(f"POST {path}: chunked responses are not supported by this client")
        if length is None and status in (204, 304):   # no body by definition (RFC 9110 §15.3.5)
            length = 0
        if length is None:
            raise HttpError(f"POST {path}: the response has no Content-Length")
        data = await self.reader.readexactly(length)
        if not 200 <= status < 300:
            raise HttpError(f"POST {path}: HTTP {status}: {data[:200]!r}")
        return status, data

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()
