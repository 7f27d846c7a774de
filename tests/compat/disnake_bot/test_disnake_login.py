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

        application = bot.call(client.application_info())
        assert application.id == APP_ID and application.name == "Demo Game"
        fetched = bot.call(client.fetch_guild(GUILD_ID))   # with_counts by default
        assert fetched.approximate_member_count == 5 and fetched.approximate_presence_count is not None

        # chunking on demand (op 8: disnake sends the guild id as an integer) and one member asked by id
        members = bot.call(guild.chunk())
        assert len(members) == 5
        found = bot.call(guild.query_members(user_ids=[BOB]))
        assert [m.id for m in found] == [BOB]


def test_auto_sharded_login_follows_gateway_bot(platformpp_emulator: Emulator) -> None:
    """The auto-sharded client takes its shard count and Gateway URL from GET /gateway/bot."""
    with running(platformpp_emulator, disnake.AutoShardedClient, intents=disnake.Intents.default()) as bot:
        client: disnake.AutoShardedClient = bot.client
        assert client.shard_count == 1 and set(client.shards) == {0}
        assert client.get_guild(GUILD_ID).shard_id == 0
        assert client.session_start_limit is not None and client.session_start_limit.remaining > 0


BIG_GUILD, FIRST_PLAYER, PLAYERS = 1400000000000000000, 1400000000000001000, 300


def test_large_guild_is_chunked_at_start(platformpp_emulator: Emulator) -> None:
    """A guild over the Identify ``large_threshold`` (disnake asks for 250) comes with the bot's own member
    only; with the members intent the library asks for the rest at start (op 8) and gets READY once
    the chunks have arrived."""
    emu = platformpp_emulator
    enable_privileged(emu, "GUILD_MEMBERS")
    players = [FIRST_PLAYER + n for n in range(PLAYERS)]
    emu.admin.seed({
        "users": [{"id": str(p), "username": f"player{n}"} for n, p in enumerate(players)],
        "guilds": [{"id": str(BIG_GUILD), "name": "Big Guild", "owner_id": str(players[0]),
                    "members": [{"user_id": str(user)} for user in [BOT_ID, *players]]}]})
    intents = disnake.Intents.default() | disnake.Intents(members=True)
    with running(emu, disnake.Client, intents=intents) as bot:
        big = bot.client.get_guild(BIG_GUILD)
        assert big is not None and big.large and big.member_count == PLAYERS + 1
        assert big.chunked and {m.id for m in big.members} == {BOT_ID, *players}
        assert big.get_member(players[-1]).name == f"player{PLAYERS - 1}"
