"""The platform's permission engine: what a member may do in a guild and in one of its channels.

Pure computation over plain values (no storage): callers pass the guild's owner, the @everyone
role's permissions, the member's roles and the channel's overwrites. The order and the implicit
rules are the platform's (docs/wire.md, "Permission computation"):

1. The guild owner has every permission; so has anyone whose base permissions hold ADMINISTRATOR.
2. Base = @everyone's permissions | each of the member's roles' permissions.
3. In a channel, overwrites apply in order: @everyone (deny, then allow), the member's roles
   together (deny the union, then allow the union), then the member's own (deny, then allow).
4. Implicit: without VIEW_CHANNEL nothing in the channel is allowed; without SEND_MESSAGES the
   permissions that only make sense when sending (MENTION_EVERYONE, SEND_TTS_MESSAGES,
   ATTACH_FILES, EMBED_LINKS) are removed too.
5. A timed-out member (communication_disabled_until in the future) keeps only VIEW_CHANNEL and
   READ_MESSAGE_HISTORY, unless they are the owner or an administrator.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import IntFlag
from typing import NamedTuple


class Permission(IntFlag):
    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_AUDIT_LOG = 1 << 7
    PRIORITY_SPEAKER = 1 << 8
    STREAM = 1 << 9
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    SEND_TTS_MESSAGES = 1 << 12
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    VIEW_GUILD_INSIGHTS = 1 << 19
    CONNECT = 1 << 20
    SPEAK = 1 << 21
    MUTE_MEMBERS = 1 << 22
    DEAFEN_MEMBERS = 1 << 23
    MOVE_MEMBERS = 1 << 24
    USE_VAD = 1 << 25
    CHANGE_NICKNAME = 1 << 26
    MANAGE_NICKNAMES = 1 << 27
    MANAGE_ROLES = 1 << 28
    MANAGE_WEBHOOKS = 1 << 29
    MANAGE_GUILD_EXPRESSIONS = 1 << 30
    USE_APPLICATION_COMMANDS = 1 << 31
    REQUEST_TO_SPEAK = 1 << 32
    MANAGE_EVENTS = 1 << 33
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    USE_EXTERNAL_STICKERS = 1 << 37
    SEND_MESSAGES_IN_THREADS = 1 << 38
    USE_EMBEDDED_ACTIVITIES = 1 << 39
    MODERATE_MEMBERS = 1 << 40
    VIEW_CREATOR_MONETIZATION_ANALYTICS = 1 << 41
    USE_SOUNDBOARD = 1 << 42
    CREATE_GUILD_EXPRESSIONS = 1 << 43
    CREATE_EVENTS = 1 << 44
    USE_EXTERNAL_SOUNDS = 1 << 45
    SEND_VOICE_MESSAGES = 1 << 46
    SET_VOICE_CHANNEL_STATUS = 1 << 48
    SEND_POLLS = 1 << 49
    USE_EXTERNAL_APPS = 1 << 50
    PIN_MESSAGES = 1 << 51
    BYPASS_SLOWMODE = 1 << 52


ALL = 0
for _bit in Permission:
    ALL |= int(_bit)
del _bit

# What a new guild's @everyone role grants when nobody says otherwise.
DEFAULT_EVERYONE = int(
    Permission.CREATE_INSTANT_INVITE | Permission.ADD_REACTIONS | Permission.STREAM | Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES | Permission.EMBED_LINKS | Permission.ATTACH_FILES | Permission.READ_MESSAGE_HISTORY
    | Permission.USE_EXTERNAL_EMOJIS | Permission.CONNECT | Permission.SPEAK | Permission.USE_VAD
    | Permission.CHANGE_NICKNAME | Permission.USE_APPLICATION_COMMANDS | Permission.SEND_MESSAGES_IN_THREADS
    | Permission.USE_EMBEDDED_ACTIVITIES)

# Removed along with SEND_MESSAGES: they only act through a sent message.
SEND_DEPENDENT = int(Permission.MENTION_EVERYONE | Permission.SEND_TTS_MESSAGES | Permission.ATTACH_FILES
                     | Permission.EMBED_LINKS)
# What a timed-out member keeps.
TIMEOUT_KEEPS = int(Permission.VIEW_CHANNEL | Permission.READ_MESSAGE_HISTORY)

ROLE_OVERWRITE = 0
MEMBER_OVERWRITE = 1

# The bits the engine tests, as plain ints: an int & an IntFlag member builds a new flag object,
# several times slower, and the engine runs a few times for every message and interaction.
_ADMINISTRATOR = int(Permission.ADMINISTRATOR)
_VIEW_CHANNEL = int(Permission.VIEW_CHANNEL)
_SEND_MESSAGES = int(Permission.SEND_MESSAGES)


class Overwrite(NamedTuple):
    id: int
    type: int  # ROLE_OVERWRITE or MEMBER_OVERWRITE
    allow: int
    deny: int


class MemberContext(NamedTuple):
    """Who asks: enough of the guild and the member to compute permissions."""

    guild_id: int
    owner_id: int
    user_id: int
    everyone: int  # the @everyone role's permissions (its id is the guild id)
    role_permissions: Mapping[int, int]  # the member's roles (not @everyone): id -> permissions
    timed_out: bool = False


def parse_bits(value: object, field: str) -> int:
    """A permission field of a request: an integer string (any bit) or an int. Raises ValueError
    naming the field when it is neither or negative."""
    if isinstance(value, bool):
        raise ValueError(f"{field}: must be a permission integer or integer string")
    if isinstance(value, int):
        bits = value
    elif isinstance(value, str) and value.isascii() and value.isdigit():
        bits = int(value)
    else:
        raise ValueError(f"{field}: must be a permission integer or integer string")
    if bits < 0 or bits.bit_length() > 64:
        raise ValueError(f"{field}: must be between 0 and 2^64 - 1")
    return bits


def base_permissions(member: MemberContext) -> int:
    if member.user_id == member.owner_id:
        return ALL
    bits = member.everyone
    for permissions in member.role_permissions.values():
        bits |= permissions
    if bits & _ADMINISTRATOR:
        return ALL
    if member.timed_out:
        bits &= TIMEOUT_KEEPS
    return bits


def channel_permissions(member: MemberContext, overwrites: Iterable[Overwrite]) -> int:
    """The member's permissions in a channel with these overwrites."""
    bits = base_permissions(member)
    if bits == ALL:  # the owner or an administrator: overwrites do not apply
        return ALL
    roles_allow = roles_deny = 0
    own: Overwrite | None = None
    everyone_overwrite: Overwrite | None = None
    for overwrite in overwrites:
        if overwrite.type == ROLE_OVERWRITE:
            if overwrite.id == member.guild_id:
                everyone_overwrite = overwrite
            elif overwrite.id in member.role_permissions:
                roles_allow |= overwrite.allow
                roles_deny |= overwrite.deny
        elif overwrite.type == MEMBER_OVERWRITE and overwrite.id == member.user_id:
            own = overwrite
    if everyone_overwrite is not None:
        bits = (bits & ~everyone_overwrite.deny) | everyone_overwrite.allow
    bits = (bits & ~roles_deny) | roles_allow
    if own is not None:
        bits = (bits & ~own.deny) | own.allow
    if member.timed_out:
        bits &= TIMEOUT_KEEPS
    if not bits & _VIEW_CHANNEL:
        return 0
    if not bits & _SEND_MESSAGES:
        bits &= ~SEND_DEPENDENT
    return bits


def names(bits: int) -> list[str]:
    """The names of the set bits, for error messages."""
    return [bit.name or str(int(bit)) for bit in Permission if bits & bit]
