"""hikari administers the default world's guild, as a bot its owner made an administrator: roles and
member roles, channels with overwrites and set permissions, invites with counts, the audit log, members
fetched, kick / ban / unban, the prune estimate, scheduled events with user counts."""

from __future__ import annotations

import datetime

import hikari
from emulator_world import ALICE, BOB, BOT_ID, CAROL, DAVE, GUILD_ID
from hikari_bot import (GENERAL, LOUNGE, TEXT_CATEGORY, HikariBot, admin, enable_privileged_intents,
                        make_bot_administrator)
from platformpp.emulator import Emulator

AuditLogEventType = hikari.AuditLogEventType


def test_roles_channels_invites_audit_members_moderation_events(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    enable_privileged_intents(emu)
    make_bot_administrator(emu)
    intents = hikari.Intents.ALL_UNPRIVILEGED | hikari.Intents.GUILD_MEMBERS
    with HikariBot(emu, intents=intents) as running:
        rest = running.rest

        # the guild, with its approximate counts
        guild = running.call(rest.fetch_guild(GUILD_ID))
        assert guild.name == "Demo Guild" and guild.approximate_member_count == 5

        # roles: create, edit, give to a member and take back
        role = running.call(rest.create_role(GUILD_ID, name="Raiders", color=0xE67E22, hoist=True,
                                             mentionable=True, permissions=hikari.Permissions.SEND_MESSAGES,
                                             reason="new team"))
        assert role.name == "Raiders" and role.color == hikari.Color(0xE67E22) and role.is_hoisted
        assert role.permissions == hikari.Permissions.SEND_MESSAGES
        running.wait_event(hikari.RoleCreateEvent, lambda e: e.role_id == role.id)
        renamed = running.call(rest.edit_role(GUILD_ID, role, name="Raid Leaders"))
        assert renamed.name == "Raid Leaders"
        running.wait_event(hikari.RoleUpdateEvent, lambda e: e.role.name == "Raid Leaders")
        running.call(rest.add_role_to_member(GUILD_ID, BOB, role, reason="promoted"))
        given = running.wait_event(hikari.MemberUpdateEvent,
                                   lambda e: e.user_id == BOB and role.id in e.member.role_ids)
        assert given.guild_id == GUILD_ID
        assert role.id in running.call(rest.fetch_member(GUILD_ID, BOB)).role_ids
        running.call(rest.remove_role_from_member(GUILD_ID, BOB, role))
        assert role.id not in running.call(rest.fetch_member(GUILD_ID, BOB)).role_ids

        # a channel made with overwrites, then set permissions on it, and an overwrite removed
        hidden = hikari.PermissionOverwrite(id=GUILD_ID, type=hikari.PermissionOverwriteType.ROLE,
                                            deny=hikari.Permissions.VIEW_CHANNEL)
        raiders = hikari.PermissionOverwrite(id=role.id, type=hikari.PermissionOverwriteType.ROLE,
                                             allow=hikari.Permissions.VIEW_CHANNEL)
        channel = running.call(rest.create_guild_text_channel(GUILD_ID, "raids", topic="Plans",
                                                              category=TEXT_CATEGORY,
                                                              permission_overwrites=[hidden, raiders]))
        assert isinstance(channel, hikari.GuildTextChannel) and channel.parent_id == TEXT_CATEGORY
        assert channel.permission_overwrites[GUILD_ID].deny == hikari.Permissions.VIEW_CHANNEL
        assert channel.permission_overwrites[role.id].allow == hikari.Permissions.VIEW_CHANNEL
        running.wait_event(hikari.GuildChannelCreateEvent, lambda e: e.channel.id == channel.id)
        view_and_send = hikari.Permissions.VIEW_CHANNEL | hikari.Permissions.SEND_MESSAGES
        running.call(rest.edit_permission_overwrite(channel, CAROL, allow=view_and_send,
                                                    target_type=hikari.PermissionOverwriteType.MEMBER))
        running.call(rest.edit_permission_overwrite(channel, raiders,
                                                    allow=raiders.allow | hikari.Permissions.ATTACH_FILES))
        overwrites = running.call(rest.fetch_channel(channel)).permission_overwrites
        assert overwrites[CAROL].type == hikari.PermissionOverwriteType.MEMBER
        assert overwrites[CAROL].allow == view_and_send
        assert overwrites[role.id].allow == hikari.Permissions.VIEW_CHANNEL | hikari.Permissions.ATTACH_FILES
        running.call(rest.delete_permission_overwrite(channel, CAROL))
        edited = running.call(rest.edit_channel(channel, name="raid-plans", topic="Tuesdays"))
        assert edited.name == "raid-plans" and CAROL not in edited.permission_overwrites
        running.wait_event(hikari.GuildChannelUpdateEvent, lambda e: e.channel.name == "raid-plans")

        # invites, with the counts a user sees
        invite = running.call(rest.create_invite(GENERAL, max_age=datetime.timedelta(hours=1), max_uses=5))
        assert invite.max_uses == 5 and invite.channel_id == GENERAL and invite.inviter.id == BOT_ID
        seen = running.call(rest.fetch_invite(invite.code))
        assert seen.approximate_member_count == 5 and seen.guild_id == GUILD_ID
        assert [i.code for i in running.call(rest.fetch_guild_invites(GUILD_ID))] == [invite.code]
        running.call(rest.delete_invite(invite.code))
        assert running.call(rest.fetch_channel_invites(GENERAL)) == []

        # members: fetched page by page, searched
        members = running.call(rest.fetch_members(GUILD_ID).collect(list))
        assert {m.id for m in members} == {ALICE, BOB, CAROL, DAVE, BOT_ID}
        assert [m.username for m in running.call(rest.search_members(GUILD_ID, "da"))] == ["dave"]

        # the prune estimate, kick, ban and unban
        assert running.call(rest.estimate_guild_prune_count(GUILD_ID, days=1)) == 3   # bob, carol, dave
        running.call(rest.kick_user(GUILD_ID, DAVE, reason="inactive"))
        running.wait_event(hikari.MemberDeleteEvent, lambda e: e.user_id == DAVE)
        running.call(rest.ban_user(GUILD_ID, CAROL, delete_message_seconds=3600, reason="spam"))
        banned = running.wait_event(hikari.BanCreateEvent, lambda e: e.user_id == CAROL)
        assert banned.guild_id == GUILD_ID
        ban = running.call(rest.fetch_ban(GUILD_ID, CAROL))
        assert ban.user.id == CAROL and ban.reason == "spam"
        assert [b.user.id for b in running.call(rest.fetch_bans(GUILD_ID).collect(list))] == [CAROL]
        running.call(rest.unban_user(GUILD_ID, CAROL))
        running.wait_event(hikari.BanDeleteEvent, lambda e: e.user_id == CAROL)
        assert running.call(rest.fetch_bans(GUILD_ID).collect(list)) == []

        # scheduled events, with the number of users interested
        start = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)
        event = running.call(rest.create_voice_event(GUILD_ID, LOUNGE, "Raid night", start,
                                                     description="Bring snacks"))
        assert isinstance(event, hikari.ScheduledVoiceEvent) and event.channel_id == LOUNGE
        running.wait_event(hikari.ScheduledEventCreateEvent, lambda e: e.event.id == event.id)
        for user in (ALICE, BOB):
            admin(emu, "PUT", f"/guilds/{GUILD_ID}/scheduled-events/{event.id}/users/{user}")
        running.wait_event(hikari.ScheduledEventUserAddEvent, lambda e: e.user_id == BOB)
        counted = running.call(rest.fetch_scheduled_event(GUILD_ID, event))
        assert counted.user_count == 2 and counted.name == "Raid night"
        assert [e.user_count for e in running.call(rest.fetch_scheduled_events(GUILD_ID))] == [2]
        interested = running.call(rest.fetch_scheduled_event_users(GUILD_ID, event).collect(list))
        assert {u.user.id for u in interested} == {ALICE, BOB}
        external = running.call(rest.create_external_event(GUILD_ID, "Meet-up", "The park", start,
                                                           start + datetime.timedelta(hours=2)))
        assert external.location == "The park"
        running.call(rest.delete_scheduled_event(GUILD_ID, external))

        # the audit log: every change above, as hikari reads it
        log = running.call(rest.fetch_audit_log(GUILD_ID).collect(list))
        entries = [entry for page in log for entry in page.entries.values()]
        kinds = {entry.action_type for entry in entries}
        assert {AuditLogEventType.ROLE_CREATE, AuditLogEventType.ROLE_UPDATE,
                AuditLogEventType.MEMBER_ROLE_UPDATE, AuditLogEventType.CHANNEL_CREATE,
                AuditLogEventType.CHANNEL_OVERWRITE_CREATE, AuditLogEventType.CHANNEL_OVERWRITE_UPDATE,
                AuditLogEventType.CHANNEL_OVERWRITE_DELETE, AuditLogEventType.INVITE_CREATE,
                AuditLogEventType.INVITE_DELETE, AuditLogEventType.MEMBER_KICK,
                AuditLogEventType.MEMBER_BAN_ADD, AuditLogEventType.MEMBER_BAN_REMOVE,
                AuditLogEventType.GUILD_SCHEDULED_EVENT_CREATE} <= kinds
        kick = next(e for e in entries if e.action_type == AuditLogEventType.MEMBER_KICK)
        assert kick.target_id == DAVE and kick.user_id == BOT_ID and kick.reason == "inactive"
        created = next(e for e in entries if e.action_type == AuditLogEventType.ROLE_CREATE)
        assert created.reason == "new team"
        kicks = running.call(rest.fetch_audit_log(GUILD_ID, event_type=AuditLogEventType.MEMBER_KICK)
                             .collect(list))
        assert [e.target_id for page in kicks for e in page.entries.values()] == [DAVE]

        # the role deleted, then the channel
        running.call(rest.delete_role(GUILD_ID, role))
        running.wait_event(hikari.RoleDeleteEvent, lambda e: e.role_id == role.id)
        running.call(rest.delete_channel(channel))
        running.wait_event(hikari.GuildChannelDeleteEvent, lambda e: e.channel.id == channel.id)
