"""The permission engine against a plain reference computation written here, bit by bit, from the
platform's documented rules (hypothesis explores guilds, roles, overwrites and timeouts)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from platformpp.emulator.core.permissions import (
    ALL, MEMBER_OVERWRITE, ROLE_OVERWRITE, MemberContext, Overwrite, Permission, base_permissions,
    channel_permissions, parse_bits)

GUILD, OWNER, USER = 10, 20, 30
BITS = [int(bit) for bit in Permission]
SEND_ONLY = {Permission.MENTION_EVERYONE, Permission.SEND_TTS_MESSAGES, Permission.ATTACH_FILES,
             Permission.EMBED_LINKS}

permission_sets = st.lists(st.sampled_from(BITS), max_size=8).map(lambda bits: sum(set(bits)))


def reference(member: MemberContext, overwrites: list[Overwrite]) -> int:
    """Decide each bit on its own, as the docs describe the steps."""
    if member.user_id == member.owner_id:
        return ALL
    role_bits = [member.everyone, *member.role_permissions.values()]
    if any(bits & Permission.ADMINISTRATOR for bits in role_bits):
        return ALL
    result = 0
    for bit in BITS:
        has = any(bits & bit for bits in role_bits)
        for overwrite in overwrites:  # 1. @everyone
            if overwrite.type == ROLE_OVERWRITE and overwrite.id == member.guild_id:
                has = (has and not overwrite.deny & bit) or bool(overwrite.allow & bit)
        role_overwrites = [o for o in overwrites if o.type == ROLE_OVERWRITE and o.id in member.role_permissions]
        if any(o.deny & bit for o in role_overwrites):  # 2. roles together
            has = False
        if any(o.allow & bit for o in role_overwrites):
            has = True
        for overwrite in overwrites:  # 3. the member
            if overwrite.type == MEMBER_OVERWRITE and overwrite.id == member.user_id:
                has = (has and not overwrite.deny & bit) or bool(overwrite.allow & bit)
        if has:
            result |= bit
    if member.timed_out:
        result &= Permission.VIEW_CHANNEL | Permission.READ_MESSAGE_HISTORY
    if not result & Permission.VIEW_CHANNEL:
        return 0
    if not result & Permission.SEND_MESSAGES:
        for bit in SEND_ONLY:
            result &= ~bit
    return result


@st.composite
def scenarios(draw: st.DrawFn) -> tuple[MemberContext, list[Overwrite]]:
    role_ids = draw(st.lists(st.integers(100, 110), unique=True, max_size=4))
    member = MemberContext(
        guild_id=GUILD, owner_id=draw(st.sampled_from([OWNER, OWNER, OWNER, USER])), user_id=USER,
        everyone=draw(permission_sets),
        role_permissions={role: draw(permission_sets) for role in role_ids},
        timed_out=draw(st.booleans()))
    targets = [(ROLE_OVERWRITE, GUILD), (MEMBER_OVERWRITE, USER), (MEMBER_OVERWRITE, 99)]
    targets += [(ROLE_OVERWRITE, role) for role in [*role_ids, 111]]
    chosen = draw(st.lists(st.sampled_from(targets), unique=True, max_size=len(targets)))
    overwrites = [Overwrite(id=target, type=kind, allow=draw(permission_sets), deny=draw(permission_sets))
                  for kind, target in chosen]
    return member, overwrites


@settings(max_examples=400, deadline=None)
@given(scenarios())
def test_engine_matches_the_reference(scenario: tuple[MemberContext, list[Overwrite]]) -> None:
    member, overwrites = scenario
    assert channel_permissions(member, overwrites) == reference(member, overwrites)


def test_owner_and_administrator_ignore_overwrites() -> None:
    deny_all = [Overwrite(GUILD, ROLE_OVERWRITE, 0, ALL), Overwrite(USER, MEMBER_OVERWRITE, 0, ALL)]
    owner = MemberContext(GUILD, USER, USER, everyone=0, role_permissions={})
    admin = MemberContext(GUILD, OWNER, USER, everyone=0, role_permissions={5: int(Permission.ADMINISTRATOR)})
    assert channel_permissions(owner, deny_all) == ALL
    assert channel_permissions(admin, deny_all) == ALL
    assert ALL >> 52 == 1 and ALL & Permission.BYPASS_SLOWMODE


def test_timed_out_members_keep_only_view_and_history() -> None:
    member = MemberContext(GUILD, OWNER, USER, everyone=ALL & ~int(Permission.ADMINISTRATOR),
                           role_permissions={}, timed_out=True)
    assert base_permissions(member) == Permission.VIEW_CHANNEL | Permission.READ_MESSAGE_HISTORY


def test_request_bits_accept_integer_strings_of_any_bit() -> None:
    assert parse_bits(str(1 << 52), "permissions") == 1 << 52
    assert parse_bits("0", "allow") == 0
    for bad in ("-1", "1.5", "abc", True, None, 1 << 64):
        try:
            parse_bits(bad, "deny")
        except ValueError as error:
            assert str(error).startswith("deny: ")
        else:
            raise AssertionError(f"{bad!r} accepted")
