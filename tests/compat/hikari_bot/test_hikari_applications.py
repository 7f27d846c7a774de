"""hikari's REST helpers for the bot's own user and application against the emulator: fetch and edit
the application, edit the bot user (OwnUserUpdateEvent from USER_UPDATE), application emoji created,
renamed, listed and deleted, standard stickers and packs, and the bot's managed role found by its tags."""

from __future__ import annotations

import io

import hikari
from emulator_world import APP_ID, BOT_ID, GUILD_ID
from hikari_bot import BOT_ROLE, HikariBot, eventually
from PIL import Image
from platformpp.emulator import Emulator
from platformpp.emulator.default_world import STICKER_PACK_ID, WAVE_STICKER_ID


def png() -> hikari.Bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (16, 16), (20, 120, 220)).save(buffer, "PNG")
    return hikari.Bytes(buffer.getvalue(), "image.png", mimetype="image/png")


def test_application_bot_user_emojis_and_stickers(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    with HikariBot(emu) as running:
        rest = running.rest
        application = running.call(rest.fetch_application())
        assert application.id == APP_ID and application.name == "Demo Game"
        edited = running.call(rest.edit_application(description="A puzzle game"))
        assert edited.description == "A puzzle game"

        # the bot user edited; hikari's cache follows the USER_UPDATE
        me = running.call(rest.edit_my_user(username="hikari_puzzler", avatar=png()))
        assert me.username == "hikari_puzzler" and me.avatar_hash is not None
        update = running.wait_event(hikari.OwnUserUpdateEvent)
        assert update.user.username == "hikari_puzzler"
        eventually(lambda: running.bot.get_me(),
                   lambda user: user is not None and user.username == "hikari_puzzler")

        # the bot's managed role: tagged with the bot
        roles = running.call(rest.fetch_roles(GUILD_ID))
        [own] = [role for role in roles if role.bot_id == BOT_ID]
        assert own.id == BOT_ROLE and own.is_managed

        # application emoji
        emoji = running.call(rest.create_application_emoji(APP_ID, "hikari_piece", png()))
        assert emoji.name == "hikari_piece" and not emoji.is_animated
        renamed = running.call(rest.edit_application_emoji(APP_ID, emoji.id, "hikari_block"))
        assert renamed.name == "hikari_block"
        assert [e.id for e in running.call(rest.fetch_application_emojis(APP_ID))] == [emoji.id]
        assert running.call(rest.fetch_application_emoji(APP_ID, emoji.id)).name == "hikari_block"
        running.call(rest.delete_application_emoji(APP_ID, emoji.id))
        assert list(running.call(rest.fetch_application_emojis(APP_ID))) == []

        # standard stickers and packs
        sticker = running.call(rest.fetch_sticker(WAVE_STICKER_ID))
        assert isinstance(sticker, hikari.StandardSticker) and sticker.pack_id == STICKER_PACK_ID
        [pack] = running.call(rest.fetch_available_sticker_packs())
        assert pack.id == STICKER_PACK_ID and pack.cover_sticker_id == WAVE_STICKER_ID
        assert running.call(rest.fetch_sticker_pack(STICKER_PACK_ID)).name == pack.name
