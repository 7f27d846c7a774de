"""disnake logs in to the emulator's default world: READY, and a guild cache with its channels, roles and
members (the members intent, chunked at start)."""

from __future__ import annotations

import disnake
from disnake_bot import BOT_ROLE, GENERAL, LOUNGE, MODERATOR_ROLE, MODERATORS, enable_privileged, running
from emulator_world import ALICE, APP_ID, BOB, BOT_ID, CAROL, DAVE, GUILD_ID
from platformpp.emulator import Emulator


def test_login_ready_and_guild_cache_with_chunked_members(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    enable_privileged(emu, "GUILD_MEMBERS")
    intents = disnake.Intents.default() | disnake.Intents(members=True)
    with running(emu, disnake.Client, intents=intents, chunk_guilds_at_startup=True) as bot:
        client: disnake.Client = bot.client
        assert client.user.id == BOT_ID and client.user.bot
        assert client.application_id == APP_ID
        guild = client.get_guild(GUILD_ID)
        assert guild is not None and guild.name == "Demo Guild" and guild.owner_id == ALICE
        assert guild.chunked
        assert {m.id for m in guild.members} == {ALICE, BOB, CAROL, DAVE, BOT_ID}
        assert guild.get_member(ALICE).get_role(MODERATOR_ROLE) is not None
        assert guild.me.get_role(BOT_ROLE) is not None

        general, moderators = guild.get_channel(GENERAL), guild.get_channel(MODERATORS)
        lounge = guild.get_channel(LOUNGE)
        assert isinstance(general, disnake.TextChannel) and general.topic == "Say hi"
        assert general.category is not None and general.category.name == "Text Channels"
        assert isinstance(lounge, disnake.VoiceChannel) and lounge.bitrate == 64000
        assert not moderators.permissions_for(guild.get_member(BOB)).view_channel
        assert moderators.permissions_for(guild.get_member(ALICE)).view_channel
        assert {r.name for r in guild.roles} == {"@everyone", "Moderator", "Demo Game"}
        assert guild.get_role(BOT_ROLE).managed and guild.default_role.id == GUILD_ID

        # chunking on demand (op 8) and a single member asked by id
        members = bot.call(guild.chunk())
        assert len(members) == 5
        found = bot.call(guild.query_members(user_ids=[BOB]))
        assert [m.id for m in found] == [BOB]
        application = bot.call(client.application_info())
        assert application.id == APP_ID and application.name == "Demo Game"
