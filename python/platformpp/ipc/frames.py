"""The desktop client's IPC frames as a client reads and writes them: ``opcode`` (u32 little-endian),
``length`` (u32 little-endian), then ``length`` bytes of UTF-8 JSON.

Our own small codec rather than the emulator's (platformpp.emulator.ipc.codec): importing that would
tie this SDK module to the emulator's internals and load the emulator package (and its server
dependencies) with it; the emulator, a separate server, imports nothing of the SDK either. The two
are held to the same wire by the tests, which run this client against the emulator's endpoint."""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass
from enum import IntEnum
from typing import Any


class Opcode(IntEnum):
    HANDSHAKE = 0
    FRAME = 1
    CLOSE = 2
    PING = 3
    PONG = 4


RPC_VERSION = 1
# One frame (header + JSON) is at most 64 KiB, the bound of the platform's RPC frame buffer.
MAX_FRAME_BYTES = 64 * 1024
HEADER = struct.Struct("<II")
MAX_PAYLOAD_BYTES = MAX_FRAME_BYTES - HEADER.size


class FrameError(ValueError):
    """The bytes cannot be read as frames, or a frame's payload is not a JSON object."""


@dataclass(frozen=True)
class Frame:
    opcode: Opcode
    payload: dict[str, Any]


def encode(opcode: Opcode, payload: dict[str, Any]) -> bytes:
    """One frame; ``FrameError`` if the JSON is over ``MAX_PAYLOAD_BYTES``."""
    body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    if len(body) > MAX_PAYLOAD_BYTES:
        raise FrameError(f"a frame of {len(body)} bytes of JSON is over the limit of {MAX_PAYLOAD_BYTES}")
    return HEADER.pack(int(opcode), len(body)) + body


def _payload(data: bytes) -> dict[str, Any]:
    try:
        value = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise FrameError("a frame's payload is not UTF-8") from exc
    except json.JSONDecodeError as exc:
        raise FrameError(f"a frame's payload is not JSON: {exc.msg} at byte {exc.pos}") from exc
    if not isinstance(value, dict):
        raise FrameError("a frame's payload is not a JSON object")
    return value


class FrameDecoder:
    """Feed bytes as they arrive, take whole frames out. The header is checked as soon as it is in (an
    unknown opcode or an over-long length is a ``FrameError`` before any payload is held), so a peer
    can never make the client buffer more than one frame."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[Frame]:
        self._buffer += data
        frames: list[Frame] = []
        while len(self._buffer) >= HEADER.size:
            opcode, length = HEADER.unpack_from(self._buffer)
            if opcode not in Opcode._value2member_map_:
                raise FrameError(f"unknown opcode {opcode}")
            if length > MAX_PAYLOAD_BYTES:
                raise FrameError(f"a frame length of {length} bytes is over the limit of {MAX_PAYLOAD_BYTES}")
            end = HEADER.size + length
            if len(self._buffer) < end:
                break
            payload = bytes(self._buffer[HEADER.size:end])
            del self._buffer[:end]
            frames.append(Frame(Opcode(opcode), _payload(payload)))
        return frames

    @property
    def pending(self) -> int:
        """Bytes of an incomplete frame held."""
        return len(self._buffer)
