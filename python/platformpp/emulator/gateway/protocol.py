"""Gateway constants from docs/wire.md: opcodes, close codes, intents, limits.

Kept in one place so the connection handler, the validators, the docs and the tests agree.
"""

from __future__ import annotations

from enum import IntEnum

from ..paths import API_VERSION  # the Gateway's version is the HTTP API's


class Op(IntEnum):
    DISPATCH = 0
    HEARTBEAT = 1
    IDENTIFY = 2
    PRESENCE_UPDATE = 3
    VOICE_STATE_UPDATE = 4
    RESUME = 6
    RECONNECT = 7
    REQUEST_GUILD_MEMBERS = 8
    INVALID_SESSION = 9
    HELLO = 10
    HEARTBEAT_ACK = 11
    STREAM_CREATE = 18        # Go Live (user sessions): gateway/streams.py
    STREAM_DELETE = 19
    STREAM_WATCH = 20
    STREAM_SET_PAUSED = 22
    REQUEST_SOUNDBOARD_SOUNDS = 31
    REQUEST_CHANNEL_INFO = 43


class Close(IntEnum):
    UNKNOWN_ERROR = 4000
    UNKNOWN_OPCODE = 4001
    DECODE_ERROR = 4002
    NOT_AUTHENTICATED = 4003
    AUTHENTICATION_FAILED = 4004
    ALREADY_AUTHENTICATED = 4005
    INVALID_SEQ = 4007
    RATE_LIMITED = 4008
    SESSION_TIMED_OUT = 4009
    INVALID_SHARD = 4010
    SHARDING_REQUIRED = 4011
    INVALID_API_VERSION = 4012
    INVALID_INTENTS = 4013
    DISALLOWED_INTENTS = 4014


class Intent(IntEnum):
    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_MODERATION = 1 << 2
    GUILD_EXPRESSIONS = 1 << 3
    GUILD_INTEGRATIONS = 1 << 4
    GUILD_WEBHOOKS = 1 << 5
    GUILD_INVITES = 1 << 6
    GUILD_VOICE_STATES = 1 << 7
    GUILD_PRESENCES = 1 << 8
    GUILD_MESSAGES = 1 << 9
    GUILD_MESSAGE_REACTIONS = 1 << 10
    GUILD_MESSAGE_TYPING = 1 << 11
    DIRECT_MESSAGES = 1 << 12
    DIRECT_MESSAGE_REACTIONS = 1 << 13
    DIRECT_MESSAGE_TYPING = 1 << 14
    MESSAGE_CONTENT = 1 << 15
    GUILD_SCHEDULED_EVENTS = 1 << 16
    AUTO_MODERATION_CONFIGURATION = 1 << 20
    AUTO_MODERATION_EXECUTION = 1 << 21
    GUILD_MESSAGE_POLLS = 1 << 24
    DIRECT_MESSAGE_POLLS = 1 << 25


# Every documented intent.
ALL_INTENTS = 0
for _intent in Intent:
    ALL_INTENTS |= int(_intent)
del _intent
# What Identify accepts: every bit up to the highest documented intent, the gaps (17-19, 22, 23) too,
# as the platform accepts them (clients' "all intents" masks set them); a bit above fails with 4013.
ACCEPTED_INTENTS = (1 << Intent.DIRECT_MESSAGE_POLLS.bit_length()) - 1

# Privileged intent -> the application flags (either one) that enable it. A bot that asks for a
# privileged intent its application has not enabled is closed with 4014.
APP_FLAG_GATEWAY_PRESENCE = 1 << 12
APP_FLAG_GATEWAY_PRESENCE_LIMITED = 1 << 13
APP_FLAG_GATEWAY_GUILD_MEMBERS = 1 << 14
APP_FLAG_GATEWAY_GUILD_MEMBERS_LIMITED = 1 << 15
APP_FLAG_GATEWAY_MESSAGE_CONTENT = 1 << 18
APP_FLAG_GATEWAY_MESSAGE_CONTENT_LIMITED = 1 << 19
PRIVILEGED_INTENTS: dict[Intent, int] = {
    Intent.GUILD_PRESENCES: APP_FLAG_GATEWAY_PRESENCE | APP_FLAG_GATEWAY_PRESENCE_LIMITED,
    Intent.GUILD_MEMBERS: APP_FLAG_GATEWAY_GUILD_MEMBERS | APP_FLAG_GATEWAY_GUILD_MEMBERS_LIMITED,
    Intent.MESSAGE_CONTENT: APP_FLAG_GATEWAY_MESSAGE_CONTENT | APP_FLAG_GATEWAY_MESSAGE_CONTENT_LIMITED,
}

MAX_PAYLOAD_BYTES = 4096
RATE_LIMIT_PAYLOADS = 120
RATE_LIMIT_WINDOW_S = 60.0
STREAM_OPS = frozenset({Op.STREAM_CREATE, Op.STREAM_DELETE, Op.STREAM_WATCH, Op.STREAM_SET_PAUSED})
CAPABILITY_CHANNEL_OBFUSCATION = 1 << 15
LARGE_THRESHOLD_DEFAULT = 50
LARGE_THRESHOLD_RANGE = (50, 250)
