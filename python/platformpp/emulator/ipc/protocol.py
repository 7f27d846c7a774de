"""The names and numbers of the desktop client's RPC over IPC, written once.

Frames are ``opcode`` (u32 little-endian) + ``length`` (u32 little-endian) + ``length`` bytes of UTF-8
JSON. Opcodes, close codes and error codes are the platform's published RPC values."""

from __future__ import annotations

from enum import IntEnum


class Opcode(IntEnum):
    HANDSHAKE = 0
    FRAME = 1
    CLOSE = 2
    PING = 3
    PONG = 4


class CloseCode(IntEnum):
    """Sent in a CLOSE frame's ``code`` before the endpoint closes the socket."""
    NORMAL = 1000
    UNSUPPORTED = 1003        # a frame the endpoint cannot read: unknown opcode, over the length limit
    ABNORMAL = 1006
    INVALID_CLIENT_ID = 4000
    INVALID_ORIGIN = 4001
    RATE_LIMITED = 4002
    TOKEN_REVOKED = 4003
    INVALID_VERSION = 4004
    INVALID_ENCODING = 4005


class ErrorCode(IntEnum):
    """``data.code`` of an ERROR event (the answer to one command; the connection stays open)."""
    UNKNOWN_ERROR = 1000
    INVALID_PAYLOAD = 4000
    INVALID_COMMAND = 4002
    INVALID_GUILD = 4003
    INVALID_EVENT = 4004
    INVALID_CHANNEL = 4005
    INVALID_PERMISSIONS = 4006
    INVALID_CLIENT_ID = 4007
    INVALID_ORIGIN = 4008
    INVALID_TOKEN = 4009
    INVALID_USER = 4010
    INVALID_ACTIVITY_JOIN_REQUEST = 4012
    OAUTH2_ERROR = 5000
    INVALID_ACTIVITY_SECRET = 5005


RPC_VERSION = 1
# One frame (8-byte header + JSON) is at most 64 KiB, the bound of the platform's RPC frame buffer.
MAX_FRAME_BYTES = 64 * 1024
MAX_PAYLOAD_BYTES = MAX_FRAME_BYTES - 8

# Commands a game may send in a FRAME (``cmd``); DISPATCH is the ``cmd`` of every event.
DISPATCH = "DISPATCH"
COMMANDS = frozenset({
    "AUTHORIZE", "AUTHENTICATE", "GET_GUILDS", "GET_GUILD", "GET_CHANNELS", "GET_CHANNEL", "SUBSCRIBE",
    "UNSUBSCRIBE", "SET_ACTIVITY", "SEND_ACTIVITY_JOIN_INVITE", "CLOSE_ACTIVITY_REQUEST",
    "GET_VOICE_SETTINGS", "SET_VOICE_SETTINGS",
})
# Events a game may SUBSCRIBE to; the value says whether ``args`` must name a guild.
SUBSCRIBABLE = {
    "GUILD_STATUS": True,
    "VOICE_SETTINGS_UPDATE": False,
    "ACTIVITY_JOIN": False,
    "ACTIVITY_SPECTATE": False,
    "ACTIVITY_JOIN_REQUEST": False,
    "AUTHORIZE_REQUEST": False,
}
