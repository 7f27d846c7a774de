"""disnake's own guild template, welcome screen and onboarding helpers, unchanged, against the emulator:
``Guild.create_template`` / ``templates``, ``Client.fetch_template`` (the snapshot read back as a guild),
``Template.sync`` / ``edit`` / ``delete``; ``Guild.edit_welcome_screen`` / ``welcome_screen`` with
``WelcomeScreenChannel``; ``Guild.onboarding`` with its prompts and options."""

from __future__ import annotations

import disnake
import httpx
from disnake_bot import GENERAL, MODERATOR_ROLE, make_bot_admin, running
from emulator_world import GUILD_ID
from platformpp.emulator import Emulator


def test_templates_welcome_screen_and_onboarding(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_bot_admin(emu)
    with running(emu, disnake.Client, intents=disnake.Intents.default()) as bot:
        client: disnake.Client = bot.client
        guild = client.get_guild(GUILD_ID)
        assert guild is not None

        # a template: created, listed, read by code with its snapshot as a guild, synced, renamed, deleted
        template = bot.call(guild.create_template(name="Starter", description="for friends"))
        assert template.name == "Starter" and template.description == "for friends"
        assert [t.code for t in bot.call(guild.templates())] == [template.code]
        fetched = bot.call(client.fetch_template(template.code))
        assert fetched.source_guild.name == guild.name and fetched.is_dirty is None
        assert {c.name for c in fetched.source_guild.channels} >= {"general", "moderators", "Lounge"}
        bot.call(guild.edit(name="Renamed Guild"))
        assert bot.call(client.fetch_template(template.code)).is_dirty is True
        synced = bot.call(template.sync())
        assert synced.source_guild.name == "Renamed Guild" and synced.is_dirty is None
        renamed = bot.call(template.edit(name="Club"))
        assert renamed.name == "Club"
        bot.call(template.delete())
        try:
            bot.call(client.fetch_template(template.code))
            raise AssertionError("the deleted template is still there")
        except disnake.NotFound as missing:
            assert missing.code == 10057

        # the welcome screen: shown once the library has the guild's new features (GUILD_UPDATE)
        before, after = bot.expect("guild_update", lambda: bot.call(guild.edit_welcome_screen(
            enabled=True, description="Welcome!",
            channels=[disnake.WelcomeScreenChannel(id=GENERAL, description="Say hi", emoji="👋")])))
        assert "WELCOME_SCREEN_ENABLED" in after.features and "WELCOME_SCREEN_ENABLED" not in before.features
        screen = bot.call(guild.welcome_screen())
        assert screen.description == "Welcome!" and screen.enabled
        [channel] = screen.channels
        assert channel.id == GENERAL and channel.description == "Say hi" and str(channel.emoji) == "👋"

        # onboarding, set up through the admin API, read with the library's objects
        saved = httpx.put(f"{emu.base_url}/_emulator/guilds/{GUILD_ID}/onboarding", json={"prompts": [{
            "id": "1300000000000000901", "title": "Why are you here?", "options": [
                {"title": "Modding", "emoji_name": "🔧", "role_ids": [str(MODERATOR_ROLE)],
                 "channel_ids": [str(GENERAL)]}]}], "default_channel_ids": [str(GENERAL)]})
        assert saved.status_code == 200, saved.text
        onboarding = bot.call(guild.onboarding())
        assert onboarding.enabled is False and [c.id for c in onboarding.default_channels] == [GENERAL]
        [prompt] = onboarding.prompts
        assert prompt.title == "Why are you here?" and prompt.id == 1300000000000000901
        [option] = prompt.options
        assert option.title == "Modding" and [r.id for r in option.roles] == [MODERATOR_ROLE]
