"""The voice gateway's vocabulary (version 8): opcodes, close codes and the shapes of client payloads.

Validation raises ProtocolViolation carrying the close code the platform uses for that mistake and a
message naming the field and the rule; secrets (tokens) never appear in those messages.
"""

from __future__ import annotations

import ipaddress
import json
import struct
from enum import IntEnum
from typing import Any, NamedTuple
from urllib.parse import parse_qs

from ..core.snowflake import snowflake_value


class Op(IntEnum):
    IDENTIFY = 0
    SELECT_PROTOCOL = 1
    READY = 2
    HEARTBEAT = 3
    SESSION_DESCRIPTION = 4
    SPEAKING = 5
    HEARTBEAT_ACK = 6
    RESUME = 7
    HELLO = 8
    RESUMED = 9
    CLIENTS_CONNECT = 11
    VIDEO = 12                   # both ways: a client's video SSRCs (voice/streams.py)
    CLIENT_DISCONNECT = 13
    DAVE_PREPARE_TRANSITION = 21
    DAVE_EXECUTE_TRANSITION = 22
    DAVE_TRANSITION_READY = 23
    DAVE_PREPARE_EPOCH = 24
    DAVE_MLS_EXTERNAL_SENDER = 25
    DAVE_MLS_KEY_PACKAGE = 26
    DAVE_MLS_PROPOSALS = 27
    DAVE_MLS_COMMIT_WELCOME = 28
    DAVE_MLS_ANNOUNCE_COMMIT_TRANSITION = 29
    DAVE_MLS_WELCOME = 30
    DAVE_MLS_INVALID_COMMIT_WELCOME = 31


CLIENT_JSON_OPS = {Op.IDENTIFY, Op.SELECT_PROTOCOL, Op.HEARTBEAT, Op.SPEAKING, Op.RESUME, Op.VIDEO,
                   Op.DAVE_TRANSITION_READY, Op.DAVE_MLS_INVALID_COMMIT_WELCOME}
CLIENT_BINARY_OPS = {Op.DAVE_MLS_KEY_PACKAGE, Op.DAVE_MLS_COMMIT_WELCOME}


class Close(IntEnum):
    UNKNOWN_OPCODE = 4001
    FAILED_TO_DECODE = 4002
    NOT_AUTHENTICATED = 4003
    AUTHENTICATION_FAILED = 4004
    ALREADY_AUTHENTICATED = 4005
    SESSION_NO_LONGER_VALID = 4006
    SESSION_TIMEOUT = 4009
    SERVER_NOT_FOUND = 4011
    UNKNOWN_PROTOCOL = 4012
    DISCONNECTED = 4014
    VOICE_SERVER_CRASHED = 4015
    UNKNOWN_ENCRYPTION_MODE = 4016
    DAVE_REQUIRED = 4017
    BAD_REQUEST = 4020
    RATE_LIMITED = 4021
    CALL_TERMINATED = 4022


CLOSE_REASONS = {
    Close.UNKNOWN_OPCODE: "Unknown opcode",
    Close.FAILED_TO_DECODE: "Failed to decode payload",
    Close.NOT_AUTHENTICATED: "Not authenticated",
    Close.AUTHENTICATION_FAILED: "Authentication failed",
    Close.ALREADY_AUTHENTICATED: "Already authenticated",
    Close.SESSION_NO_LONGER_VALID: "Session no longer valid",
    Close.SESSION_TIMEOUT: "Session timeout",
    Close.SERVER_NOT_FOUND: "Server not found",
    Close.UNKNOWN_PROTOCOL: "Unknown protocol",
    Close.DISCONNECTED: "Disconnected",
    Close.VOICE_SERVER_CRASHED: "Voice server crashed",
    Close.UNKNOWN_ENCRYPTION_MODE: "Unknown encryption mode",
    Close.DAVE_REQUIRED: "E2EE/DAVE protocol required",
    Close.BAD_REQUEST: "Bad request",
    Close.RATE_LIMITED: "Disconnected: Rate Limited",
    Close.CALL_TERMINATED: "Disconnected: Call Terminated",
}

# After these the session is over; after any other close (4015, or the socket simply dropping) the
# client may resume within the resume window.
SESSION_ENDING_CLOSES = frozenset(set(Close) - {Close.VOICE_SERVER_CRASHED})

MAX_PAYLOAD_BYTES = 16384       # a text frame larger than this is not a voice gateway payload


class ProtocolViolation(Exception):
    def __init__(self, code: Close, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


def parse_version(query: str) -> int:
    """The ``v`` of the voice gateway URL's query; 4 and later are served (BAD_REQUEST otherwise)."""
    version = parse_qs(query).get("v", [""])[0]
    if not (version.isascii() and version.isdigit()) or len(version) > 3 or int(version) < 4:
        raise ProtocolViolation(Close.BAD_REQUEST, "v: the voice gateway version, 4 or later, is required")
    return int(version)


class ClientFrame(NamedTuple):
    """One decoded client message: a JSON payload's ``op`` and ``d``, or a binary opcode and its bytes."""

    op: int
    d: Any = None
    payload: bytes | None = None     # set for binary frames

    def __repr__(self) -> str:       # ``d`` may hold a token: never printed
        return f"ClientFrame(op={self.op}, binary={self.payload is not None})"


MAX_NESTING = 64   # no client payload of the voice gateway nests more than a few levels


def _nested_deeper_than(text: str, limit: int) -> bool:
    """Whether brackets outside strings nest deeper than ``limit`` (payloads are at most 4096 bytes)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def decode_client_frame(message: str | bytes) -> ClientFrame:
    """A WebSocket message from a client: binary ``opcode || payload`` (DAVE), or a JSON object with
    an integer ``op`` a client may send. ProtocolViolation (with the close code) otherwise."""
    if isinstance(message, (bytes, bytearray, memoryview)):
        data = bytes(message)
        if not data:
            raise ProtocolViolation(Close.FAILED_TO_DECODE, "binary frame: empty")
        if data[0] not in CLIENT_BINARY_OPS:
            raise ProtocolViolation(Close.UNKNOWN_OPCODE, f"binary opcode {data[0]} is not one a client sends")
        return ClientFrame(data[0], payload=data[1:])
    if not isinstance(message, str):
        raise ProtocolViolation(Close.FAILED_TO_DECODE, "frame: neither text nor binary")
    if len(message) > MAX_PAYLOAD_BYTES:
        raise ProtocolViolation(Close.FAILED_TO_DECODE, f"payload over {MAX_PAYLOAD_BYTES} bytes")
    if _nested_deeper_than(message, MAX_NESTING):
        # Refused before decoding: a deep value would take the decoder to the interpreter's recursion
        # limit (a RecursionError there is caught, but leaves no stack for anything else meanwhile).
        raise ProtocolViolation(Close.FAILED_TO_DECODE, f"payload nested deeper than {MAX_NESTING} levels")
    try:
        payload = json.loads(message)
    except (ValueError, RecursionError):
        raise ProtocolViolation(Close.FAILED_TO_DECODE, "payload is not JSON") from None
    if not isinstance(payload, dict) or not isinstance(payload.get("op"), int) \
            or isinstance(payload.get("op"), bool):
        raise ProtocolViolation(Close.FAILED_TO_DECODE, "payload needs an integer op")
    op = payload["op"]
    if op not in CLIENT_JSON_OPS:
        raise ProtocolViolation(Close.UNKNOWN_OPCODE, f"opcode {op} is not one a client sends")
    return ClientFrame(op, payload.get("d"))


def _snowflake(d: dict[str, Any], name: str, code: Close) -> int:
    number = snowflake_value(d.get(name))   # the emulator's one rule for ids (core/snowflake.py)
    if not number:   # missing, not an id, or 0 (no object has it)
        raise ProtocolViolation(code, f"d.{name}: required, a snowflake (ASCII digits, 1 to 2**63 - 1)")
    return number


def _text(d: dict[str, Any], name: str, code: Close, limit: int = 256) -> str:
    value = d.get(name)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise ProtocolViolation(code, f"d.{name}: required, a non-empty string of at most {limit} characters")
    return value


def _int(d: dict[str, Any], name: str, code: Close, low: int, high: int) -> int:
    value = d.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ProtocolViolation(code, f"d.{name}: required, an integer in {low}..{high}")
    return value


class Identify(NamedTuple):
    server_id: int
    user_id: int
    session_id: str
    token: str
    max_dave_protocol_version: int

    def __repr__(self) -> str:   # the token is a credential: never printed
        return (f"Identify(server_id={self.server_id}, user_id={self.user_id}, "
                f"max_dave_protocol_version={self.max_dave_protocol_version})")


def parse_identify(d: Any) -> Identify:
    code = Close.FAILED_TO_DECODE
    if not isinstance(d, dict):
        raise ProtocolViolation(code, "d: Identify needs an object")
    version = d.get("max_dave_protocol_version")
    if version is None:
        version = 0
    elif not isinstance(version, int) or isinstance(version, bool) or not 0 <= version <= 255:
        raise ProtocolViolation(code, "d.max_dave_protocol_version: must be an integer in 0..255")
    return Identify(_snowflake(d, "server_id", code), _snowflake(d, "user_id", code),
                    _text(d, "session_id", code), _text(d, "token", code), version)


class Resume(NamedTuple):
    server_id: int
    session_id: str
    token: str
    seq_ack: int

    def __repr__(self) -> str:
        return f"Resume(server_id={self.server_id}, seq_ack={self.seq_ack})"


def parse_resume(d: Any) -> Resume:
    code = Close.FAILED_TO_DECODE
    if not isinstance(d, dict):
        raise ProtocolViolation(code, "d: Resume needs an object")
    seq_ack = d.get("seq_ack", -1)
    if seq_ack is None:
        seq_ack = -1
    if not isinstance(seq_ack, int) or isinstance(seq_ack, bool) or not -1 <= seq_ack <= 0xFFFF:
        raise ProtocolViolation(code, "d.seq_ack: must be an integer in -1..65535")
    return Resume(_snowflake(d, "server_id", code), _text(d, "session_id", code), _text(d, "token", code),
                  seq_ack)


class SelectProtocol(NamedTuple):
    address: str
    port: int
    mode: str


def parse_select_protocol(d: Any) -> SelectProtocol:
    bad = Close.BAD_REQUEST
    if not isinstance(d, dict):
        raise ProtocolViolation(bad, "d: Select Protocol needs an object")
    if d.get("protocol") != "udp":
        raise ProtocolViolation(Close.UNKNOWN_PROTOCOL, "d.protocol: only \"udp\" is supported")
    data = d.get("data")
    if not isinstance(data, dict):
        raise ProtocolViolation(bad, "d.data: required, an object with address, port and mode")
    address = _text(data, "address", bad, 64)
    try:   # an IP literal, as IP discovery returns it: never a name to resolve on the media path
        ipaddress.ip_address(address)
    except ValueError:
        raise ProtocolViolation(bad, "d.data.address: must be an IP address (from IP discovery)") from None
    port = _int(data, "port", bad, 1, 65535)
    mode = data.get("mode")
    if not isinstance(mode, str):
        raise ProtocolViolation(bad, "d.data.mode: required, a string")
    return SelectProtocol(address, port, mode)


def parse_heartbeat(d: Any) -> tuple[Any, int | None]:
    """(nonce to echo, seq_ack); v8 sends {t, seq_ack}, older versions a bare integer nonce."""
    if isinstance(d, dict):
        nonce = d.get("t")
        if not isinstance(nonce, int) or isinstance(nonce, bool):
            raise ProtocolViolation(Close.BAD_REQUEST, "d.t: required, an integer nonce")
        seq_ack = d.get("seq_ack")
        if seq_ack is not None and (not isinstance(seq_ack, int) or isinstance(seq_ack, bool)):
            raise ProtocolViolation(Close.BAD_REQUEST, "d.seq_ack: must be an integer")
        return nonce, seq_ack
    if isinstance(d, int) and not isinstance(d, bool):
        return d, None
    raise ProtocolViolation(Close.BAD_REQUEST, "d: a heartbeat carries {t, seq_ack} or an integer nonce")


def parse_speaking(d: Any) -> int:
    if not isinstance(d, dict):
        raise ProtocolViolation(Close.BAD_REQUEST, "d: Speaking needs an object")
    return _int(d, "speaking", Close.BAD_REQUEST, 0, 7)


def parse_transition_id(d: Any) -> int:
    if not isinstance(d, dict):
        raise ProtocolViolation(Close.BAD_REQUEST, "d: needs an object with transition_id")
    return _int(d, "transition_id", Close.BAD_REQUEST, 0, 0xFFFF)


def server_binary(seq: int, op: int, payload: bytes) -> bytes:
    """A server -> client binary frame: big-endian uint16 sequence, uint8 opcode, payload."""
    return struct.pack(">HB", seq & 0xFFFF, op) + payload
