"""hikari logs in to the emulator over TLS as its users configure it, and its cache holds the default
world's guild: channels, roles and, through member chunking (the members intent), every member."""

from __future__ import annotations

from pathlib import Path

import hikari
from emulator_world import ALICE, APP_ID, BOB, BOT_ID, CAROL, DAVE, GUILD_ID
from hikari_bot import (BOT_ROLE, GENERAL, LOUNGE, MODERATOR_ROLE, MODERATORS, TEXT_CATEGORY, VOICE_CATEGORY,
                        HikariBot, enable_privileged_intents)
from platformpp.emulator import Emulator, local_certificate


def test_login_ready_and_guild_cache_with_member_chunks_over_tls(tmp_path: Path) -> None:
    with Emulator(tls=local_certificate(tmp_path)) as emu:
        enable_privileged_intents(emu)
        intents = (hikari.Intents.ALL_UNPRIVILEGED | hikari.Intents.GUILD_MEMBERS
                   | hikari.Intents.MESSAGE_CONTENT)
        with HikariBot(emu, intents=intents, tls=emu.client_tls_context()) as running:
            bot = running.bot
            ready = running.wait_event(hikari.ShardReadyEvent)
            assert ready.my_user.id == BOT_ID and ready.my_user.is_bot
            assert ready.application_id == APP_ID and ready.unavailable_guilds == [GUILD_ID]
            available = running.wait_event(hikari.GuildAvailableEvent)
            assert available.guild_id == GUILD_ID and available.guild.name == "Demo Guild"
            assert available.guild.owner_id == ALICE

            # GUILD_CREATE: the guild, its channels and roles in hikari's cache
            guild = bot.cache.get_guild(GUILD_ID)
            assert guild is not None and guild.name == "Demo Guild"
            channels = bot.cache.get_guild_channels_view_for_guild(GUILD_ID)
            assert {c.id: (c.type, c.name) for c in channels.values()} == {
                TEXT_CATEGORY: (hikari.ChannelType.GUILD_CATEGORY, "Text Channels"),
                GENERAL: (hikari.ChannelType.GUILD_TEXT, "general"),
                MODERATORS: (hikari.ChannelType.GUILD_TEXT, "moderators"),
                VOICE_CATEGORY: (hikari.ChannelType.GUILD_CATEGORY, "Voice Channels"),
                LOUNGE: (hikari.ChannelType.GUILD_VOICE, "Lounge")}
            general = channels[GENERAL]
            assert isinstance(general, hikari.GuildTextChannel) and general.topic == "Say hi"
            assert general.parent_id == TEXT_CATEGORY
            lounge = channels[LOUNGE]
            assert isinstance(lounge, hikari.GuildVoiceChannel) and lounge.bitrate == 64000
            hidden = channels[MODERATORS].permission_overwrites
            assert hidden[GUILD_ID].deny == hikari.Permissions.VIEW_CHANNEL
            assert hidden[MODERATOR_ROLE].allow == hikari.Permissions.VIEW_CHANNEL
            roles = bot.cache.get_roles_view_for_guild(GUILD_ID)
            assert {r.id: r.name for r in roles.values()} == {
                GUILD_ID: "@everyone", MODERATOR_ROLE: "Moderator", BOT_ROLE: "Demo Game"}
            assert roles[MODERATOR_ROLE].is_hoisted and roles[MODERATOR_ROLE].color == hikari.Color(3447003)
            assert roles[BOT_ROLE].is_managed

            # the members intent: hikari chunks the guild at start, and every member lands in its cache
            chunk = running.wait_event(hikari.MemberChunkEvent)
            assert chunk.guild_id == GUILD_ID and chunk.chunk_index == 0 and chunk.chunk_count == 1
            assert set(chunk.members) == {ALICE, BOB, CAROL, DAVE, BOT_ID}
            members = bot.cache.get_members_view_for_guild(GUILD_ID)
            assert set(members) == {ALICE, BOB, CAROL, DAVE, BOT_ID}
            assert members[ALICE].username == "alice" and MODERATOR_ROLE in members[ALICE].role_ids
            assert members[BOT_ID].user.is_bot

            # a chunk asked for by name, as a bot's own code asks
            running.call(bot.request_guild_members(GUILD_ID, query="ca", limit=10, nonce="by-name"))
            by_name = running.wait_event(hikari.MemberChunkEvent, lambda e: e.nonce == "by-name")
            assert set(by_name.members) == {CAROL}

            # the REST side of the same login: who the bot is, its application, its guilds
            me = running.call(bot.rest.fetch_my_user())
            assert me.id == BOT_ID and me.username == "demo-game-bot"
            application = running.call(bot.rest.fetch_application())
            assert application.id == APP_ID and application.name == "Demo Game"
            partial = running.call(bot.rest.fetch_my_guilds().collect(list))
            assert [g.id for g in partial] == [GUILD_ID] and partial[0].approximate_member_count == 5
            newest_first = running.call(bot.rest.fetch_my_guilds(newest_first=True).collect(list))
            assert [g.id for g in newest_first] == [GUILD_ID]
