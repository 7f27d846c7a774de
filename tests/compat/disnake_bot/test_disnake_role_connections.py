"""disnake writes and reads its application's role connection metadata records, with localizations,
and sees a linked role as one (``Role.is_linked_role()``, from ``tags.guild_connections``)."""

from __future__ import annotations

import disnake
from disnake_bot import admin, running
from emulator_world import APP_ID, GUILD_ID
from platformpp.emulator import Emulator

MODERATOR = GUILD_ID + 10


def test_role_connection_metadata_and_linked_roles(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with running(emu, disnake.Client, intents=disnake.Intents.default()) as bot:
        records = [
            disnake.ApplicationRoleConnectionMetadata(
                type=disnake.ApplicationRoleConnectionMetadataType.integer_greater_than_or_equal, key="level",
                name=disnake.Localized("Level", data={disnake.Locale.fr: "Niveau"}), description="Character level"),
            disnake.ApplicationRoleConnectionMetadata(
                type=disnake.ApplicationRoleConnectionMetadataType.boolean_equal, key="verified",
                name="Verified", description="Verified player"),
        ]
        written = bot.call(bot.client.edit_role_connection_metadata(records))
        assert [r.key for r in written] == ["level", "verified"]
        read = bot.call(bot.client.fetch_role_connection_metadata())
        assert read[0].type is disnake.ApplicationRoleConnectionMetadataType.integer_greater_than_or_equal
        assert read[0].name_localizations.data == {"fr": "Niveau"}
        assert read[1].description == "Verified player"

        assert not bot.client.get_guild(GUILD_ID).get_role(MODERATOR).tags
        linked = admin(emu, "PUT", f"/guilds/{GUILD_ID}/roles/{MODERATOR}/connection",
                       {"application_id": str(APP_ID), "requirements": {"level": 10}})
        assert linked.status_code == 200, linked.text
        role = next(r for r in bot.call(bot.client.get_guild(GUILD_ID).fetch_roles()) if r.id == MODERATOR)
        assert role.tags is not None and role.tags.is_linked_role()
