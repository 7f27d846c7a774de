"""The emulator's keep-alive client of interactions endpoints (areas/interactions/endpoint_delivery.py)
against real loopback servers: signed requests, connections reused after complete responses, bodies
by Content-Length, chunked coding or the close, a kept-alive connection the endpoint closed while idle
retried once, and failures reported as an answer without status rather than raised."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat
from platformpp.emulator.areas.interactions.endpoint_delivery import EndpointPool

PRIVATE = Ed25519PrivateKey.generate()
PRIVATE_HEX = PRIVATE.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption()).hex()
PUBLIC = Ed25519PublicKey.from_public_bytes(PRIVATE.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))

Respond = Callable[[int, bytes], bytes]   # (request number, body) -> raw HTTP response


class Endpoint:
    """A loopback HTTP server that checks each signature and answers with ``respond``; counts
    connections and requests. ``close_after`` closes each connection after that many requests."""

    def __init__(self, respond: Respond, close_after: int | None = None) -> None:
        self.respond, self.close_after = respond, close_after
        self.connections = self.requests = 0
        self.server: asyncio.AbstractServer | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self.serve, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/hook?x=1"

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        served = 0
        try:
            while self.close_after is None or served < self.close_after:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                assert lines[0] == "POST /hook?x=1 HTTP/1.1"
                headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
                body = await reader.readexactly(int(headers["content-length"]))
                PUBLIC.verify(bytes.fromhex(headers["x-signature-ed25519"]),
                              headers["x-signature-timestamp"].encode() + body)
                self.requests += 1
                served += 1
                writer.write(self.respond(self.requests, body))
                await writer.drain()
        except asyncio.IncompleteReadError:
            pass
        finally:
            writer.close()


def _run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(scenario())


def keep_alive(number: int, body: bytes) -> bytes:
    return b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)


def test_connections_are_kept_alive_and_signatures_verify() -> None:
    async def scenario() -> None:
        endpoint = Endpoint(keep_alive)
        url = await endpoint.start()
        pool = EndpointPool()
        for n in range(5):
            answer = await pool.post_signed(url, PRIVATE_HEX, b'{"n":%d}' % n, "1700000000")
            assert answer.status == 200 and answer.body == b'{"n":%d}' % n and answer.error is None
        assert endpoint.requests == 5 and endpoint.connections == 1

    _run(scenario)


def test_chunked_and_closing_responses_are_read_whole() -> None:
    def chunked(number: int, body: bytes) -> bytes:
        return b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{\"t\r\n6;ext=1\r\nype\":4\r\n1\r\n}\r\n0\r\n\r\n"

    def closing(number: int, body: bytes) -> bytes:
        return b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{\"type\":1}"

    async def scenario() -> None:
        pool = EndpointPool()
        chunks = Endpoint(chunked)
        url = await chunks.start()
        assert (await pool.post_signed(url, PRIVATE_HEX, b"{}", "1")).body == b'{"type":4}'
        assert (await pool.post_signed(url, PRIVATE_HEX, b"{}", "1")).body == b'{"type":4}'
        assert chunks.connections == 1
        old = Endpoint(closing, close_after=1)
        url = await old.start()
        for _ in range(2):
            answer = await pool.post_signed(url, PRIVATE_HEX, b"{}", "1")
            assert answer.status == 200 and answer.body == b'{"type":1}'
        assert old.connections == 2   # each response ended with the close: nothing kept

    _run(scenario)


def test_a_connection_closed_while_idle_is_retried_once_and_failures_are_answers() -> None:
    async def scenario() -> None:
        pool = EndpointPool()
        endpoint = Endpoint(keep_alive, close_after=1)   # answers keep-alive, then closes anyway
        url = await endpoint.start()
        first = await pool.post_signed(url, PRIVATE_HEX, b"{}", "1")
        await asyncio.sleep(0.05)
        second = await pool.post_signed(url, PRIVATE_HEX, b"{}", "1")
        assert first.status == second.status == 200 and endpoint.connections == 2
        assert endpoint.server is not None
        endpoint.server.close()
        await endpoint.server.wait_closed()
        refused = await pool.post_signed(url, PRIVATE_HEX, b"{}", "1")
        assert refused.status is None and refused.error and "Error" in refused.error

    _run(scenario)
