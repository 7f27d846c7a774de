"""The platform's audit log action types (the published ``AuditLogActionTypes``) that the emulator
writes. Areas name them from here so that one number is written once."""

from __future__ import annotations

GUILD_UPDATE = 1
CHANNEL_CREATE, CHANNEL_UPDATE, CHANNEL_DELETE = 10, 11, 12
CHANNEL_OVERWRITE_CREATE, CHANNEL_OVERWRITE_UPDATE, CHANNEL_OVERWRITE_DELETE = 13, 14, 15
MEMBER_KICK, MEMBER_PRUNE, MEMBER_BAN_ADD, MEMBER_BAN_REMOVE = 20, 21, 22, 23
MEMBER_UPDATE, MEMBER_ROLE_UPDATE = 24, 25
ROLE_CREATE, ROLE_UPDATE, ROLE_DELETE = 30, 31, 32
INVITE_CREATE, INVITE_UPDATE, INVITE_DELETE = 40, 41, 42
EMOJI_CREATE, EMOJI_UPDATE, EMOJI_DELETE = 60, 61, 62
MESSAGE_DELETE, MESSAGE_BULK_DELETE, MESSAGE_PIN, MESSAGE_UNPIN = 72, 73, 74, 75
STICKER_CREATE, STICKER_UPDATE, STICKER_DELETE = 90, 91, 92
GUILD_SCHEDULED_EVENT_CREATE, GUILD_SCHEDULED_EVENT_UPDATE, GUILD_SCHEDULED_EVENT_DELETE = 100, 101, 102
VOICE_CHANNEL_STATUS_UPDATE, VOICE_CHANNEL_STATUS_DELETE = 192, 193

# Every number above (the list endpoint's ``action_type`` filter accepts any published one).
WRITTEN = frozenset(value for name, value in dict(globals()).items() if name.isupper() and isinstance(value, int))
