"""disnake reads and edits a guild's settings pages with its own helpers, unchanged: the widget's
settings and the public widget (channels, members online, its invite URL), the guild preview, the
guild's integrations, and incident actions through ``Guild.edit`` (seen again in ``incidents_data``, and
refusing the library's ``create_invite``)."""

from __future__ import annotations

import datetime

import disnake
import pytest
from disnake_bot import GENERAL, LOUNGE, make_bot_admin, running
from emulator_world import ALICE, APP_ID, GUILD_ID
from platformpp.emulator import Emulator


def test_widget_preview_integrations_and_incident_actions(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_bot_admin(emu)
    emu.state.db.execute("INSERT INTO presences (user_id, status, updated_at) VALUES (?, 'online', '2026-01-01')",
                         (ALICE,))
    with running(emu, disnake.Client, intents=disnake.Intents.default()) as bot:
        guild = bot.client.get_guild(GUILD_ID)
        settings = bot.call(guild.widget_settings())
        assert settings.enabled is False and settings.channel is None
        edited = bot.call(guild.edit_widget(enabled=True, channel=guild.get_channel(GENERAL)))
        assert edited.enabled is True and edited.channel_id == GENERAL

        widget = bot.call(guild.widget())
        assert widget.name == "Demo Guild" and [c.id for c in widget.channels] == [LOUNGE]
        assert [m.name for m in widget.members] == ["alice"] and widget.presence_count == 1
        assert widget.invite_url is not None and widget.invite_url.endswith(
            "/invite/" + widget.invite_url.rsplit("/", 1)[1])

        preview = bot.call(bot.client.fetch_guild_preview(GUILD_ID))
        assert preview.name == "Demo Guild" and preview.approximate_member_count == 5

        (integration,) = bot.call(guild.integrations())
        assert integration.type == "platform" and integration.name == "Demo Game"
        assert int(integration.account.id) == APP_ID

        until = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=2)
        updated = bot.expect("guild_update", lambda: bot.call(guild.edit(invites_disabled_until=until)))
        after = updated[1]
        assert after.incidents_data is not None and after.incidents_data.invites_disabled_until is not None
        assert abs((after.incidents_data.invites_disabled_until - until).total_seconds()) < 1
        with pytest.raises(disnake.Forbidden) as refused:
            bot.call(guild.get_channel(GENERAL).create_invite())
        assert refused.value.code == 40008
