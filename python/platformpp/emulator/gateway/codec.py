"""Encoding of outgoing Gateway payloads and decoding of incoming ones.

Outgoing: JSON text frames, or with ``compress=zlib-stream`` one zlib stream per connection whose every
message ends with a Z_SYNC_FLUSH (``00 00 ff ff``) and travels as a binary frame. Incoming payloads
are always plain JSON (text or binary frame), at most MAX_PAYLOAD_BYTES.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..core.json_text import InvalidJson, compact_json, decode_untrusted
from .protocol import MAX_PAYLOAD_BYTES, Close

if TYPE_CHECKING:
    from .sessions import Dispatch


class GatewayClose(Exception):
    """Raised anywhere in the protocol handler to close the socket with a docs/wire.md close code."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = int(code)
        # A close frame's reason is at most 123 bytes of UTF-8.
        self.reason = reason.encode("utf-8")[:123].decode("utf-8", "ignore")


class Encoder:
    """Turns an envelope into the bytes or text of one WebSocket message."""

    def __init__(self, compress: str | None) -> None:
        # One compressor for the whole connection: clients keep one inflater, as docs/wire.md says.
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None

    @property
    def binary(self) -> bool:
        return self._zlib is not None

    def encode(self, envelope: dict[str, Any]) -> str | bytes:
        return self._frame(compact_json(envelope))

    def encode_dispatch(self, dispatch: Dispatch) -> str | bytes:
        """A Dispatch envelope around a payload serialized once per publish (``Frame``)."""
        frame = dispatch.frame
        text = f"{frame.head}{dispatch.seq}{frame.tail}"
        return text if self._zlib is None else self._frame(text)

    def _frame(self, text: str) -> str | bytes:
        if self._zlib is None:
            return text
        return self._zlib.compress(text.encode("utf-8")) + self._zlib.flush(zlib.Z_SYNC_FLUSH)


def envelope(op: int, d: Any, s: int | None = None, t: str | None = None) -> dict[str, Any]:
    """The {op, d, s, t} envelope; s and t are null unless op is Dispatch."""
    return {"op": int(op), "d": d, "s": s, "t": t}


def decode(message: Mapping[str, Any]) -> dict[str, Any]:
    """Decode one ASGI websocket.receive message into a payload dict, or raise GatewayClose(4002)."""
    raw: str | bytes
    if message.get("text") is not None:
        raw = message["text"]
        size = len(raw) if raw.isascii() else len(raw.encode("utf-8"))
    elif message.get("bytes") is not None:
        raw = message["bytes"]
        size = len(raw)
    else:
        raise GatewayClose(Close.DECODE_ERROR, "empty frame")
    if size > MAX_PAYLOAD_BYTES:
        raise GatewayClose(Close.DECODE_ERROR, f"payload larger than {MAX_PAYLOAD_BYTES} bytes")
    try:
        payload = decode_untrusted(raw)
    except InvalidJson as exc:
        raise GatewayClose(Close.DECODE_ERROR, f"payload: {exc}") from None
    if not isinstance(payload, dict):
        raise GatewayClose(Close.DECODE_ERROR, "payload must be a JSON object")
    op = payload.get("op")
    if not isinstance(op, int) or isinstance(op, bool):
        raise GatewayClose(Close.DECODE_ERROR, "op: must be an integer")
    return payload
