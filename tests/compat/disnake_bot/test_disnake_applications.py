"""disnake's helpers for the bot's own user and application against the emulator: application_info,
editing the bot user (and the USER_UPDATE it sees), application emoji created, fetched, used in a
reaction and deleted, standard stickers and packs, and the bot's own managed role (``Guild.self_role``)."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable

import disnake
from disnake_bot import BOT_ROLE, GENERAL, running
from emulator_world import APP_ID, BOT_ID, GUILD_ID
from PIL import Image
from platformpp.emulator import Emulator
from platformpp.emulator.default_world import STICKER_PACK_ID, WAVE_STICKER_ID


def png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (16, 16), (250, 200, 0)).save(buffer, "PNG")
    return buffer.getvalue()


async def until(condition: Callable[[], bool]) -> None:
    while not condition():
        await asyncio.sleep(0.02)


def test_bot_user_application_emojis_and_stickers(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    intents = disnake.Intents.default()
    with running(emu, disnake.Client, intents=intents) as bot:
        client: disnake.Client = bot.client
        info = bot.call(client.application_info())
        assert info.id == APP_ID and info.name == "Demo Game"

        # the bot's own role: managed, tagged with the bot, the top of the bot's roles
        guild = client.get_guild(GUILD_ID)
        assert guild.self_role is not None and guild.self_role.id == BOT_ROLE
        assert guild.self_role.is_bot_managed() and guild.self_role.tags.bot_id == BOT_ID
        assert guild.me.top_role.id == BOT_ROLE

        # the bot user edited: the library's own user follows USER_UPDATE (which disnake applies
        # without an event of its own)
        edited = bot.call(client.user.edit(username="puzzle_bot", avatar=png()))
        assert edited.name == "puzzle_bot" and edited.avatar is not None
        bot.call(until(lambda: client.user.name == "puzzle_bot"))
        assert client.user.avatar is not None and client.user.avatar.key == edited.avatar.key

        # application emoji: created, listed, fetched, used, deleted
        emoji = bot.call(client.create_application_emoji(name="puzzle_piece", image=png()))
        assert emoji.name == "puzzle_piece" and not emoji.animated
        assert [e.id for e in bot.call(client.fetch_application_emojis())] == [emoji.id]
        assert bot.call(client.fetch_application_emoji(emoji.id)).name == "puzzle_piece"
        channel = client.get_channel(GENERAL)
        message = bot.call(channel.send("solved"))
        bot.call(message.add_reaction(emoji))
        reacted = bot.call(channel.fetch_message(message.id))
        assert [getattr(r.emoji, "id", None) for r in reacted.reactions] == [emoji.id]
        bot.call(emoji.delete())
        assert bot.call(client.fetch_application_emojis()) == []

        # standard stickers
        sticker = bot.call(client.fetch_sticker(WAVE_STICKER_ID))
        assert isinstance(sticker, disnake.StandardSticker) and sticker.pack_id == STICKER_PACK_ID
        [pack] = bot.call(client.fetch_sticker_packs())
        assert pack.id == STICKER_PACK_ID and [s.id for s in pack.stickers][0] == WAVE_STICKER_ID
        assert pack.cover_sticker is not None and pack.cover_sticker.id == WAVE_STICKER_ID
