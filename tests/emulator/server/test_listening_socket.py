"""The emulator's listening socket: connections accepted from it have Nagle's algorithm off on every event
loop. Without TCP_NODELAY a reply written in pieces (a Gateway dispatch burst, HTTP headers and body over
TLS) waits for the client's delayed ACK, 40 ms on Linux, on asyncio's own loop (the loop under TLS, and
where uvloop does not exist)."""

from __future__ import annotations

import asyncio
import socket

from platformpp.emulator.server import bind_socket


def test_asyncio_turns_nagle_off_on_connections_accepted_from_it() -> None:
    async def accepted_nodelay() -> int:
        seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            accepted = writer.get_extra_info("socket")
            seen.set_result(accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        listening = bind_socket("127.0.0.1", 0)
        server = await asyncio.start_server(connected, sock=listening)
        async with server:
            _, writer = await asyncio.open_connection("127.0.0.1", listening.getsockname()[1])
            value = await asyncio.wait_for(seen, 5)
            writer.close()
        return value

    assert asyncio.run(accepted_nodelay()) == 1
