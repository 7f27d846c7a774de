"""Conformance of the soundboard operations (built-in sounds, a guild's sounds, playing one in a
voice channel): every success and error body checked against the published schema."""

from __future__ import annotations

import asyncio

import pytest
from conformance_client import ClientFactory
from emulator_world import BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission
from social_helpers import GatewayClient
from stage_soundboard_helpers import LOUNGE, data_uri, grant_bot, mp3

BOT = f"Bot {BOT_TOKEN}"
SOUNDS = f"/guilds/{GUILD_ID}/soundboard-sounds"


@pytest.mark.covers("GET /soundboard-default-sounds", "GET /guilds/{guild_id}/soundboard-sounds",
                    "POST /guilds/{guild_id}/soundboard-sounds", "GET /guilds/{guild_id}/soundboard-sounds/{sound_id}",
                    "PATCH /guilds/{guild_id}/soundboard-sounds/{sound_id}",
                    "DELETE /guilds/{guild_id}/soundboard-sounds/{sound_id}")
def test_guild_sounds(emu: Emulator, client: ClientFactory) -> None:
    bot, anonymous = client(BOT), client()
    defaults = bot.get("/soundboard-default-sounds")
    assert defaults.status_code == 200 and all("guild_id" not in s for s in defaults.json())
    assert anonymous.get("/soundboard-default-sounds").status_code == 401
    sound = data_uri("audio/mpeg", mp3(1.0))
    assert bot.post(SOUNDS, json={"name": "boop", "sound": sound}).status_code == 403
    grant_bot(emu, Permission.CREATE_GUILD_EXPRESSIONS | Permission.MANAGE_GUILD_EXPRESSIONS)
    assert bot.post(SOUNDS, json={"name": "b", "sound": sound}).status_code == 400
    created = bot.post(SOUNDS, json={"name": "boop", "sound": sound, "volume": 0.25, "emoji_name": "\U0001f514"})
    assert created.status_code == 201
    sound_id = created.json()["sound_id"]
    listed = bot.get(SOUNDS)
    assert listed.status_code == 200 and [s["sound_id"] for s in listed.json()["items"]] == [sound_id]
    assert bot.get("/guilds/1/soundboard-sounds").status_code == 404
    assert bot.get(f"{SOUNDS}/{sound_id}").json() == created.json()
    assert bot.get(f"{SOUNDS}/1").status_code == 404
    edited = bot.patch(f"{SOUNDS}/{sound_id}", json={"name": "beep", "volume": 1})
    assert edited.status_code == 200 and edited.json()["name"] == "beep"
    assert bot.patch(f"{SOUNDS}/{sound_id}", json={"volume": 2}).status_code == 400
    assert bot.delete(f"{SOUNDS}/{sound_id}").status_code == 204
    assert bot.delete(f"{SOUNDS}/{sound_id}").status_code == 404


@pytest.mark.covers("POST /channels/{channel_id}/send-soundboard-sound")
def test_send_sound(emu: Emulator, client: ClientFactory) -> None:
    bot = client(BOT)
    grant_bot(emu, Permission.USE_SOUNDBOARD)

    async def scenario() -> None:
        gateway = await GatewayClient.connect(emu)
        await gateway.identify(BOT_TOKEN, intents=1 | 1 << 7)
        try:
            away = await asyncio.to_thread(bot.post, f"/channels/{LOUNGE}/send-soundboard-sound", json={"sound_id": "1"})
            assert away.status_code == 400 and away.json()["code"] == 50168
            await gateway.send({"op": 4, "d": {"guild_id": str(GUILD_ID), "channel_id": str(LOUNGE),
                                               "self_mute": False, "self_deaf": False}})
            await gateway.dispatch("VOICE_STATE_UPDATE")
            sent = await asyncio.to_thread(bot.post, f"/channels/{LOUNGE}/send-soundboard-sound",
                                           json={"sound_id": "1"})
            assert sent.status_code == 204
            assert (await gateway.dispatch("VOICE_CHANNEL_EFFECT_SEND"))["d"]["sound_id"] == "1"
        finally:
            await gateway.close()

    asyncio.run(scenario())
