"""A small asyncio client of the platform's desktop client (RPC over IPC), for tools and games that
want rich presence and the desktop client's events without the SDK. Pure Python: it never loads the
C++ extension, and it raises the package's own error types (``platformpp.RPCError`` with ``code``,
``platformpp.ValidationError`` with ``field``)::

    from platformpp import ipc

    async with await ipc.connect(client_id) as desktop:
        print(desktop.user["username"])
        await desktop.set_activity({"state": "In a match", "details": "2 - 1"})
        await desktop.subscribe("ACTIVITY_JOIN")
        event = await desktop.next_event("ACTIVITY_JOIN")

Protocol: docs/emulator-ipc.md; the socket is found as the SDK finds it (``socket_candidates``)."""

from __future__ import annotations

from .connection import Event, IpcConnection, connect
from .discovery import socket_candidates
from .frames import MAX_FRAME_BYTES, Frame, FrameDecoder, FrameError, Opcode, encode

__all__ = ["MAX_FRAME_BYTES", "Event", "Frame", "FrameDecoder", "FrameError", "IpcConnection", "Opcode", "connect",
           "encode", "socket_candidates"]
