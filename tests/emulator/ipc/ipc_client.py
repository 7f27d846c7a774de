"""A small blocking client of the desktop client's IPC socket for the tests: raw frames in and out."""

from __future__ import annotations

import json
import socket
import struct
import uuid
from pathlib import Path
from typing import Any

HANDSHAKE, FRAME, CLOSE, PING, PONG = 0, 1, 2, 3, 4


class IpcClient:
    def __init__(self, path: Path | str, timeout: float = 5.0) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(str(path))

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def send(self, opcode: int, payload: Any) -> None:
        body = json.dumps(payload).encode()
        self.send_raw(struct.pack("<II", opcode, len(body)) + body)

    def _exactly(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise EOFError("the endpoint closed the connection")
            data += chunk
        return data

    def recv(self) -> tuple[int, Any]:
        opcode, length = struct.unpack("<II", self._exactly(8))
        return opcode, json.loads(self._exactly(length))

    def handshake(self, client_id: int | str, v: int = 1) -> dict[str, Any]:
        self.send(HANDSHAKE, {"v": v, "client_id": str(client_id)})
        opcode, ready = self.recv()
        assert opcode == FRAME and ready["evt"] == "READY", ready
        return ready

    def command(self, cmd: str, args: Any = None, evt: str | None = None) -> dict[str, Any]:
        """Send a command; return its answer (events arriving first are kept in ``events``)."""
        nonce = str(uuid.uuid4())
        body: dict[str, Any] = {"cmd": cmd, "nonce": nonce, "args": args if args is not None else {}}
        if evt is not None:
            body["evt"] = evt
        self.send(FRAME, body)
        while True:
            opcode, reply = self.recv()
            if reply.get("nonce") == nonce:
                return reply
            self.events.append(reply)

    events: list[dict[str, Any]]

    def event(self, evt: str) -> dict[str, Any]:
        for index, item in enumerate(self.events):
            if item.get("evt") == evt:
                return self.events.pop(index)
        while True:
            opcode, reply = self.recv()
            if reply.get("evt") == evt and reply.get("cmd") == "DISPATCH":
                return reply
            self.events.append(reply)

    def closed_with(self) -> dict[str, Any]:
        """Read until a CLOSE frame; its payload (then the socket must end)."""
        while True:
            opcode, payload = self.recv()
            if opcode == CLOSE:
                assert self.sock.recv(1) == b""
                return payload

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> IpcClient:
        self.events = []
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
