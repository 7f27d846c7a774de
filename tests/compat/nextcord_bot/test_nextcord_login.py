"""nextcord logs in to the emulator: READY, the bot user, and the guild cache with its channels, roles and
members (the members intent, members chunked at start)."""

from __future__ import annotations

import nextcord
from emulator_world import ALICE, APP_ID, BOB, BOT_ID, CAROL, DAVE, GUILD_ID
from nextcord_bot import NextcordBot, admin, enable_privileged_intents
from platformpp.emulator import Emulator

GENERAL, MODERATORS, LOUNGE = 1200000000000000101, 1200000000000000102, 1200000000000000201
TEXT_CATEGORY, VOICE_CATEGORY = 1200000000000000100, 1200000000000000200
MODERATOR_ROLE, BOT_ROLE = 1200000000000000010, 1200000000000000011


def test_login_ready_and_guild_cache(platformpp_emulator: Emulator) -> None:
    enable_privileged_intents(platformpp_emulator, "GUILD_MEMBERS")
    intents = nextcord.Intents.default()
    intents.members = True
    with NextcordBot(platformpp_emulator, intents=intents, chunk_guilds_at_startup=True) as bot:
        client = bot.client
        assert client.user is not None
        assert (client.user.id, client.user.name, client.user.bot) == (BOT_ID, "demo-game-bot", True)
        assert client.application_id == APP_ID

        guild = client.get_guild(GUILD_ID)
        assert guild is not None and guild.name == "Demo Guild"
        assert guild.owner_id == ALICE
        assert guild.chunked

        channels = {channel.id: channel for channel in guild.channels}
        assert isinstance(channels[GENERAL], nextcord.TextChannel)
        assert channels[GENERAL].name == "general" and channels[GENERAL].topic == "Say hi"
        assert channels[GENERAL].category_id == TEXT_CATEGORY
        assert isinstance(channels[LOUNGE], nextcord.VoiceChannel)
        assert channels[LOUNGE].bitrate == 64000 and channels[LOUNGE].category_id == VOICE_CATEGORY
        assert {c.id for c in guild.categories} == {TEXT_CATEGORY, VOICE_CATEGORY}
        assert MODERATORS in channels   # hidden from @everyone; shown as it is (no obfuscation opt-in)

        roles = {role.id: role for role in guild.roles}
        assert roles[GUILD_ID].is_default()
        assert roles[MODERATOR_ROLE].name == "Moderator" and roles[MODERATOR_ROLE].hoist
        assert roles[BOT_ROLE].managed

        members = {member.id: member for member in guild.members}
        assert set(members) == {ALICE, BOB, CAROL, DAVE, BOT_ID}
        assert guild.member_count == 5
        assert members[ALICE].name == "alice" and members[ALICE].get_role(MODERATOR_ROLE) is not None
        assert guild.me.id == BOT_ID and guild.me.get_role(BOT_ROLE) is not None
        assert client.latency >= 0

        # What the library can fetch on its own as well.
        fetched = bot.run(client.fetch_guild(GUILD_ID, with_counts=True))
        assert fetched.approximate_member_count == 5
        assert bot.run(client.fetch_user(BOB)).name == "bob"
        app_info = bot.run(client.application_info())
        assert app_info.id == APP_ID


def test_auto_sharded_login_asks_for_the_gateway_bot(platformpp_emulator: Emulator) -> None:
    """The library's auto-sharded client takes its Gateway URL and shard count from GET /gateway/bot."""
    with NextcordBot(platformpp_emulator, client_class=nextcord.AutoShardedClient) as bot:
        client = bot.client
        assert isinstance(client, nextcord.AutoShardedClient)
        assert client.shard_count == 1 and set(client.shards) == {0}
        guild = client.get_guild(GUILD_ID)
        assert guild is not None and guild.shard_id == 0
        assert {c.id for c in guild.channels} >= {GENERAL, MODERATORS, LOUNGE}
        with admin(platformpp_emulator) as http:
            paths = [entry["path"] for entry in http.get("/requests").json()]
        assert "/api/v10/gateway/bot" in paths
