"""nextcord administering a guild of the emulator: roles and member roles, channels with overwrites and
set permissions, invites with counts, the audit log, members fetch, kick / ban / unban, the prune
estimate, and scheduled events with their user counts, each as the library reports it."""

from __future__ import annotations

import datetime as dt

import nextcord
from emulator_world import ALICE, BOB, BOT_ID, CAROL, DAVE, GUILD_ID
from nextcord_bot import NextcordBot, admin, enable_privileged_intents, grant_bot_permissions
from platformpp.emulator import Emulator

TEXT_CATEGORY = 1200000000000000100
# CREATE_EVENTS (1 << 44) came after nextcord 2.6 and has no name there; from 2026-02-23 creating
# events needs it.
MODERATOR = nextcord.Permissions(nextcord.Permissions(
    manage_roles=True, manage_channels=True, kick_members=True, ban_members=True, view_audit_log=True,
    manage_guild=True, create_instant_invite=True, manage_events=True, view_channel=True, send_messages=True,
).value | 1 << 44)


def test_roles_channels_invites_audit_log(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    enable_privileged_intents(emu, "GUILD_MEMBERS")
    grant_bot_permissions(emu, MODERATOR)
    intents = nextcord.Intents.default()
    intents.members = True
    with NextcordBot(emu, intents=intents) as bot:
        guild = bot.client.get_guild(GUILD_ID)
        assert guild is not None and guild.me.guild_permissions.manage_roles

        # Roles: create (the library's event too), edit.
        created = bot.expect("guild_role_create", lambda r: r.name == "Raiders")
        role = bot.run(guild.create_role(name="Raiders", colour=nextcord.Colour(0x00FF00), hoist=True,
                                         mentionable=True, reason="raid season"))
        assert created().id == role.id
        assert (role.colour.value, role.hoist, role.mentionable) == (0x00FF00, True, True)
        role = bot.run(role.edit(name="Raid leaders", permissions=nextcord.Permissions(send_messages=True)))
        assert role.name == "Raid leaders" and role.permissions.send_messages
        assert guild.get_role(role.id) is not None

        # Member roles: grant, seen in the library's member update, then revoke.
        bob = guild.get_member(BOB)
        assert bob is not None
        updated = bot.expect("member_update", lambda before, after: after.id == BOB)
        bot.run(bob.add_roles(role, reason="promoted"))
        _, after = updated()
        assert role in after.roles
        assert role in bot.run(guild.fetch_member(BOB)).roles
        bot.run(bob.remove_roles(role))
        assert role not in bot.run(guild.fetch_member(BOB)).roles

        # A channel with overwrites, then set permissions for a member and edit it.
        category = guild.get_channel(TEXT_CATEGORY)
        assert isinstance(category, nextcord.CategoryChannel)
        overwrites = {guild.default_role: nextcord.PermissionOverwrite(view_channel=False),
                      role: nextcord.PermissionOverwrite(view_channel=True, send_messages=True),
                      guild.me: nextcord.PermissionOverwrite(view_channel=True)}
        channel = bot.run(guild.create_text_channel("raid-plans", category=category, overwrites=overwrites,
                                                    topic="Plans", reason="new raid"))
        assert channel.category_id == TEXT_CATEGORY and channel.topic == "Plans"
        assert channel.overwrites_for(guild.default_role).view_channel is False
        assert channel.overwrites_for(role).send_messages is True
        bot.run(channel.set_permissions(bob, view_channel=True, send_messages=False, reason="read only"))
        refreshed = bot.run(guild.fetch_channel(channel.id))
        assert isinstance(refreshed, nextcord.TextChannel)
        bob_overwrite = refreshed.overwrites_for(bob)
        assert (bob_overwrite.view_channel, bob_overwrite.send_messages) == (True, False)
        assert not refreshed.permissions_for(bob).send_messages
        edited = bot.run(refreshed.edit(name="raid-plans-2", topic="New plans", slowmode_delay=5))
        assert (edited.name, edited.topic, edited.slowmode_delay) == ("raid-plans-2", "New plans", 5)
        voice = bot.run(guild.create_voice_channel("Raid voice", category=category, user_limit=5))
        assert isinstance(voice, nextcord.VoiceChannel) and voice.user_limit == 5

        # Invites: create, fetch with counts, list, delete.
        invite = bot.run(edited.create_invite(max_age=3600, max_uses=5, unique=True, reason="recruiting"))
        assert (invite.max_age, invite.max_uses, invite.inviter.id) == (3600, 5, BOT_ID)
        fetched = bot.run(bot.client.fetch_invite(invite.code, with_counts=True))
        assert fetched.guild.id == GUILD_ID and fetched.channel.id == edited.id
        assert fetched.approximate_member_count == 5
        assert invite.code in [i.code for i in bot.run(guild.invites())]
        bot.run(invite.delete())
        assert invite.code not in [i.code for i in bot.run(guild.invites())]

        # The audit log of all that, as the library reads it.
        async def entries() -> list[nextcord.AuditLogEntry]:
            return [entry async for entry in guild.audit_logs(limit=50)]

        log = bot.run(entries())
        actions = {entry.action for entry in log}
        assert {nextcord.AuditLogAction.role_create, nextcord.AuditLogAction.role_update,
                nextcord.AuditLogAction.member_role_update, nextcord.AuditLogAction.channel_create,
                nextcord.AuditLogAction.overwrite_create, nextcord.AuditLogAction.invite_create,
                nextcord.AuditLogAction.invite_delete} <= actions
        role_created = next(e for e in log if e.action is nextcord.AuditLogAction.role_create)
        assert role_created.user.id == BOT_ID and role_created.reason == "raid season"
        assert role_created.target.id == role.id

        async def bot_entries() -> list[nextcord.AuditLogEntry]:
            created = guild.audit_logs(user=guild.me, action=nextcord.AuditLogAction.channel_create)
            return [entry async for entry in created]

        assert {e.target.id for e in bot.run(bot_entries())} == {channel.id, voice.id}


def test_members_moderation_prune_and_events(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    enable_privileged_intents(emu, "GUILD_MEMBERS")
    grant_bot_permissions(emu, MODERATOR)
    intents = nextcord.Intents.default()
    intents.members = True
    with NextcordBot(emu, intents=intents) as bot, admin(emu) as http:
        guild = bot.client.get_guild(GUILD_ID)
        assert guild is not None

        async def members() -> list[nextcord.Member]:
            return [member async for member in guild.fetch_members(limit=None)]

        assert {m.id for m in bot.run(members())} == {ALICE, BOB, CAROL, DAVE, BOT_ID}
        # Members without roles who have been quiet for a week: bob, carol and dave.
        assert bot.run(guild.estimate_pruned_members(days=7)) == 3

        # Kick, ban, the bans list, unban.
        removed = bot.expect("raw_member_remove", lambda p: p.user.id == CAROL)
        bot.run(guild.kick(nextcord.Object(CAROL), reason="too loud"))
        assert removed().guild_id == GUILD_ID
        bot.run(guild.ban(nextcord.Object(DAVE), reason="spam", delete_message_seconds=3600))

        async def bans() -> list[nextcord.guild.BanEntry]:
            return [entry async for entry in guild.bans()]

        assert [(b.user.id, b.reason) for b in bot.run(bans())] == [(DAVE, "spam")]
        assert bot.run(guild.fetch_ban(nextcord.Object(DAVE))).reason == "spam"
        bot.run(guild.unban(nextcord.Object(DAVE), reason="appeal"))
        assert bot.run(bans()) == []
        assert {m.id for m in bot.run(members())} == {ALICE, BOB, BOT_ID}

        # A scheduled event, users interested in it, and its user count.
        start = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=1)).replace(microsecond=0)
        event = bot.run(guild.create_scheduled_event(
            name="Raid night", entity_type=nextcord.ScheduledEventEntityType.external, start_time=start,
            end_time=start + dt.timedelta(hours=2), metadata=nextcord.EntityMetadata(location="The park"),
            description="Bring snacks"))
        assert (event.name, event.metadata.location, event.creator.id, event.end_time) == (
            "Raid night", "The park", BOT_ID, start + dt.timedelta(hours=2))
        for user in (ALICE, BOB):
            response = http.put(f"/guilds/{GUILD_ID}/scheduled-events/{event.id}/users/{user}")
            assert response.status_code == 204, response.text
        counted = bot.run(guild.fetch_scheduled_event(event.id, with_users=True))
        assert counted.user_count == 2

        async def interested() -> list[int]:
            return [u.user.id async for u in counted.fetch_users()]

        assert sorted(bot.run(interested())) == [ALICE, BOB]
        edited = bot.run(counted.edit(name="Raid night!"))
        assert edited.name == "Raid night!"
        bot.run(edited.delete())

        async def events() -> list[int]:
            return [e.id async for e in guild.fetch_scheduled_events()]

        assert event.id not in bot.run(events())
