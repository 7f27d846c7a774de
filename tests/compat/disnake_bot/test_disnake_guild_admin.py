"""disnake administers the default world's guild: roles and member roles, channels with overwrites and
set permissions, members fetched, kick / ban / unban, the prune estimate, the audit log, invites with
counts and scheduled events with user counts — what the library reports, its events included."""

from __future__ import annotations

import datetime

import disnake
from disnake_bot import GENERAL, LOUNGE, admin, enable_privileged, make_bot_admin, running
from emulator_world import ALICE, BOB, BOT_ID, CAROL, DAVE, GUILD_ID
from platformpp.emulator import Emulator


def test_guild_administration(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    enable_privileged(emu, "GUILD_MEMBERS")
    make_bot_admin(emu)
    intents = disnake.Intents.default() | disnake.Intents(members=True)
    with running(emu, disnake.Client, intents=intents) as bot:
        guild: disnake.Guild = bot.client.get_guild(GUILD_ID)

        # roles: create, edit, give to a member and take back
        created = bot.expect("guild_role_create", lambda: bot.call(guild.create_role(
            name="Raiders", permissions=disnake.Permissions(send_messages=True, add_reactions=True),
            colour=disnake.Colour(0x00FF00), hoist=True, mentionable=True, reason="raid night")))
        role = guild.get_role(created.id)
        assert role is not None and role.name == "Raiders" and role.colour.value == 0x00FF00
        assert role.permissions.send_messages and not role.permissions.administrator
        old, new = bot.expect("guild_role_update", lambda: bot.call(
            role.edit(name="Raid Leaders", colour=disnake.Colour(0xFF0000))))
        assert (old.name, new.name) == ("Raiders", "Raid Leaders")
        role = guild.get_role(role.id)
        assert role.name == "Raid Leaders" and role.colour.value == 0xFF0000
        bob: disnake.Member = guild.get_member(BOB)
        before, after = bot.expect("member_update", lambda: bot.call(bob.add_roles(role, reason="promoted")),
                                   check=lambda b, a: a.id == BOB)
        assert role not in before.roles and role in after.roles
        bot.call(bob.remove_roles(role))
        assert role not in bot.call(guild.fetch_member(BOB)).roles

        # a channel with overwrites, then a member's permissions set on it
        overwrites = {guild.default_role: disnake.PermissionOverwrite(view_channel=False),
                      role: disnake.PermissionOverwrite(view_channel=True, send_messages=True)}
        text_category = guild.get_channel(GENERAL).category
        channel = bot.call(guild.create_text_channel("raid-planning", overwrites=overwrites,
                                                     topic="Thursdays", category=text_category))
        assert channel.topic == "Thursdays" and channel.category_id == guild.get_channel(GENERAL).category_id
        assert channel.overwrites_for(guild.default_role).view_channel is False
        assert channel.overwrites_for(role).send_messages is True
        carol = guild.get_member(CAROL)
        assert not channel.permissions_for(carol).view_channel
        bot.expect("guild_channel_update", lambda: bot.call(channel.set_permissions(
            carol, view_channel=True, send_messages=False, reason="observer")))
        refreshed = guild.get_channel(channel.id)
        assert refreshed.overwrites_for(carol).view_channel is True
        carols = refreshed.permissions_for(carol)
        assert carols.view_channel and not carols.send_messages
        bot.expect("guild_channel_update", lambda: bot.call(refreshed.set_permissions(carol, overwrite=None)))
        assert carol not in guild.get_channel(channel.id).overwrites
        assert bot.call(bot.client.fetch_channel(channel.id)).overwrites_for(role).view_channel is True

        # members fetched
        members = bot.call(guild.fetch_members(limit=None).flatten())
        assert {m.id for m in members} == {ALICE, BOB, CAROL, DAVE, BOT_ID}
        alice = bot.call(guild.fetch_member(ALICE))
        assert alice.name == "alice"
        assert alice.joined_at == datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)

        # the prune estimate: every non-bot member but the owner has been idle since joining
        assert bot.call(guild.estimate_pruned_members(days=30)) == 3

        # kick, ban, unban
        bot.expect("member_remove", lambda: bot.call(guild.kick(guild.get_member(DAVE), reason="afk")))
        assert guild.get_member(DAVE) is None
        bot.call(guild.ban(carol, reason="spam", clean_history_duration=datetime.timedelta(hours=1)))
        bans = bot.call(guild.bans().flatten())
        assert [(b.user.id, b.reason) for b in bans] == [(CAROL, "spam")]
        assert bot.call(guild.fetch_ban(disnake.Object(CAROL))).reason == "spam"
        bot.call(guild.unban(disnake.Object(CAROL)))
        assert bot.call(guild.bans().flatten()) == []

        # the audit log, as the library reads it
        entries = bot.call(guild.audit_logs(limit=100).flatten())
        actions = [e.action for e in entries]
        for action in (disnake.AuditLogAction.role_create, disnake.AuditLogAction.role_update,
                       disnake.AuditLogAction.member_role_update, disnake.AuditLogAction.channel_create,
                       disnake.AuditLogAction.overwrite_create, disnake.AuditLogAction.kick,
                       disnake.AuditLogAction.ban, disnake.AuditLogAction.unban):
            assert action in actions, action
        kick = next(e for e in entries if e.action is disnake.AuditLogAction.kick)
        assert kick.user.id == BOT_ID and kick.target.id == DAVE and kick.reason == "afk"
        made = next(e for e in entries if e.action is disnake.AuditLogAction.role_create)
        assert made.target.id == role.id and made.reason == "raid night"
        only_bans = bot.call(guild.audit_logs(action=disnake.AuditLogAction.ban).flatten())
        assert [e.target.id for e in only_bans] == [CAROL]

        # invites, with their counts (Dave was kicked and Carol banned: three members left)
        invite = bot.call(guild.get_channel(GENERAL).create_invite(max_age=3600, max_uses=5, unique=True))
        assert invite.max_uses == 5 and invite.inviter.id == BOT_ID and invite.channel.id == GENERAL
        assert invite.code in [i.code for i in bot.call(guild.invites())]
        counted = bot.call(bot.client.fetch_invite(invite.code, with_counts=True))
        assert counted.approximate_member_count == 3 and counted.approximate_presence_count is not None
        bot.call(invite.delete())
        assert bot.call(guild.invites()) == []

        # a scheduled event, with the users interested in it counted
        start = disnake.utils.utcnow() + datetime.timedelta(days=1)
        event = bot.call(guild.create_scheduled_event(
            name="Raid night", channel=guild.get_channel(LOUNGE), scheduled_start_time=start,
            entity_type=disnake.GuildScheduledEventEntityType.voice, description="bring snacks"))
        assert event.name == "Raid night" and event.channel_id == LOUNGE
        assert event.status is disnake.GuildScheduledEventStatus.scheduled
        for user in (ALICE, BOB):
            admin(emu, "PUT", f"/guilds/{GUILD_ID}/scheduled-events/{event.id}/users/{user}")
        listed = bot.call(guild.fetch_scheduled_events(with_user_count=True))
        assert [(e.id, e.user_count) for e in listed] == [(event.id, 2)]
        one = bot.call(guild.fetch_scheduled_event(event.id, with_user_count=True))
        assert one.user_count == 2
        interested = bot.call(event.fetch_users().flatten())
        assert {u.id for u in interested} == {ALICE, BOB}
        bot.call(event.edit(status=disnake.GuildScheduledEventStatus.active))
        started = bot.call(guild.fetch_scheduled_event(event.id))
        assert started.status is disnake.GuildScheduledEventStatus.active
