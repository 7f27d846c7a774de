"""Frames of the IPC protocol: encoding, and an incremental decoder for a byte stream.

The decoder never trusts the header: an unknown opcode or a length over ``MAX_PAYLOAD_BYTES`` is a
``FrameError`` raised as soon as the 8 header bytes are in, before any payload is buffered, so a
client cannot make the endpoint hold more than one frame's worth of its bytes."""

from __future__ import annotations

import struct
from typing import Any, NamedTuple

from ..core.json_text import InvalidJson, compact_json_bytes, decode_untrusted
from .protocol import MAX_PAYLOAD_BYTES, Opcode

_HEADER = struct.Struct("<II")
HEADER_BYTES = _HEADER.size


class FrameError(ValueError):
    """The byte stream cannot be read as frames (the connection must be closed)."""


class PayloadError(ValueError):
    """A frame whose payload is not a JSON object (the frame boundary is intact)."""


class Frame(NamedTuple):
    opcode: Opcode
    payload: bytes

    def json(self) -> dict[str, Any]:
        """The payload as a JSON object; ``PayloadError`` naming the rule otherwise."""
        try:
            value = decode_untrusted(self.payload)
        except InvalidJson as exc:
            raise PayloadError(f"payload: {exc}") from None
        if not isinstance(value, dict):
            raise PayloadError("payload must be a JSON object")
        return value


def encode(opcode: Opcode | int, payload: Any) -> bytes:
    body = compact_json_bytes(payload)
    if len(body) > MAX_PAYLOAD_BYTES:
        raise FrameError(f"payload of {len(body)} bytes is over the limit of {MAX_PAYLOAD_BYTES}")
    return _HEADER.pack(int(opcode), len(body)) + body


class FrameDecoder:
    """Feed bytes as they arrive; take complete frames out."""

    def __init__(self, max_payload: int = MAX_PAYLOAD_BYTES) -> None:
        self._buffer = bytearray()
        self._max_payload = max_payload

    def feed(self, data: bytes) -> list[Frame]:
        self._buffer += data
        frames: list[Frame] = []
        while len(self._buffer) >= HEADER_BYTES:
            opcode, length = _HEADER.unpack_from(self._buffer)
            if opcode not in Opcode._value2member_map_:
                raise FrameError(f"unknown opcode {opcode}")
            if length > self._max_payload:
                raise FrameError(f"frame length {length} is over the limit of {self._max_payload} bytes")
            if len(self._buffer) < HEADER_BYTES + length:
                break
            payload = bytes(self._buffer[HEADER_BYTES:HEADER_BYTES + length])
            del self._buffer[:HEADER_BYTES + length]
            frames.append(Frame(Opcode(opcode), payload))
        return frames

    @property
    def pending(self) -> int:
        """Bytes of an incomplete frame held."""
        return len(self._buffer)
