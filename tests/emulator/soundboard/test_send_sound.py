"""Playing a soundboard sound in a voice channel (POST /channels/{id}/send-soundboard-sound) over real
HTTP and the Gateway: the sender must be connected to that channel (50168), neither deafened, server
muted nor suppressed (403 / 50167), hold SPEAK and USE_SOUNDBOARD there (USE_EXTERNAL_SOUNDS too for
another guild's sound); those connected to the channel hear VOICE_CHANNEL_EFFECT_SEND (bots with
GUILD_VOICE_STATES), others do not; the admin API plays a sound as a user."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from emulator_world import ALICE, BOT_ID, BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.core.fixtures import default_world
from platformpp.emulator.core.permissions import Permission
from social_helpers import GatewayClient, user_token
from stage_soundboard_helpers import LOUNGE, bot_api, data_uri, grant_bot, make_stage_channel, mp3

GUILDS, GUILD_VOICE_STATES = 1 << 0, 1 << 7
OTHER_GUILD = 1200000000000000800
SOUNDBOARD = Permission.USE_SOUNDBOARD


def send(emu: Emulator, channel_id: int, body: Any) -> httpx.Response:
    with bot_api(emu) as http:
        return http.post(f"/channels/{channel_id}/send-soundboard-sound", json=body)


async def voice_session(emu: Emulator, token: str, channel_id: int, intents: int = GUILDS | GUILD_VOICE_STATES,
                        **flags: bool) -> GatewayClient:
    """A Gateway session that joins ``channel_id`` (opcode 4) and has seen its own voice state."""
    client = await GatewayClient.connect(emu)
    await client.identify(token, intents=intents)
    await client.send({"op": 4, "d": {"guild_id": str(GUILD_ID), "channel_id": str(channel_id),
                                      "self_mute": False, "self_deaf": flags.get("self_deaf", False)}})
    await client.dispatch("VOICE_STATE_UPDATE")
    return client


def test_a_connected_bot_plays_a_sound_heard_by_the_channel(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, Permission.CREATE_GUILD_EXPRESSIONS)
    with bot_api(emu) as http:
        sound = http.post(f"/guilds/{GUILD_ID}/soundboard-sounds",
                          json={"name": "gong", "sound": data_uri("audio/mpeg", mp3(1)), "volume": 0.4,
                                "emoji_name": "\U0001f514"}).json()

    async def scenario() -> None:
        missing = await asyncio.to_thread(send, emu, LOUNGE, {"sound_id": sound["sound_id"]})
        assert missing.status_code == 403 and "USE_SOUNDBOARD" in missing.json()["message"]
        grant_bot(emu, SOUNDBOARD)
        away = await asyncio.to_thread(send, emu, LOUNGE, {"sound_id": sound["sound_id"]})
        assert away.status_code == 400 and away.json()["code"] == 50168
        bot = await voice_session(emu, BOT_TOKEN, LOUNGE)
        alice = await voice_session(emu, await asyncio.to_thread(user_token, emu, ALICE), LOUNGE)
        played = await asyncio.to_thread(send, emu, LOUNGE, {"sound_id": int(sound["sound_id"]),
                                                             "source_guild_id": None})
        assert played.status_code == 204, played.text
        effect = (await bot.dispatch("VOICE_CHANNEL_EFFECT_SEND"))["d"]
        assert effect == {"channel_id": str(LOUNGE), "guild_id": str(GUILD_ID), "user_id": str(BOT_ID),
                          "emoji": {"id": None, "name": "\U0001f514"}, "sound_id": sound["sound_id"],
                          "sound_volume": 0.4}
        assert (await alice.dispatch("VOICE_CHANNEL_EFFECT_SEND"))["d"] == effect
        # a built-in sound needs no source guild
        assert (await asyncio.to_thread(send, emu, LOUNGE, {"sound_id": "2"})).status_code == 204
        assert (await bot.dispatch("VOICE_CHANNEL_EFFECT_SEND"))["d"]["sound_id"] == "2"
        unknown = await asyncio.to_thread(send, emu, LOUNGE, {"sound_id": "12345"})
        assert unknown.status_code == 404 and unknown.json()["code"] == 10097
        bad = await asyncio.to_thread(send, emu, LOUNGE, {"sound_id": "boop"})
        assert bad.status_code == 400 and "sound_id" in bad.json()["errors"]
        for client in (bot, alice):
            await client.close()

    asyncio.run(scenario())


def test_a_bot_without_the_intent_or_outside_the_channel_hears_nothing(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, SOUNDBOARD)

    async def scenario() -> None:
        bot = await voice_session(emu, BOT_TOKEN, LOUNGE, intents=GUILDS)   # no GUILD_VOICE_STATES
        alice = await GatewayClient.connect(emu)
        await alice.identify(await asyncio.to_thread(user_token, emu, ALICE))   # not in the call
        assert (await asyncio.to_thread(send, emu, LOUNGE, {"sound_id": "1"})).status_code == 204
        await bot.no_dispatch("VOICE_CHANNEL_EFFECT_SEND")
        await alice.no_dispatch("VOICE_CHANNEL_EFFECT_SEND")
        await bot.close()
        await alice.close()

    asyncio.run(scenario())


def test_deafened_muted_or_suppressed_senders_are_refused(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    stage = make_stage_channel(emu)
    grant_bot(emu, SOUNDBOARD | Permission.MUTE_MEMBERS | Permission.DEAFEN_MEMBERS)

    async def scenario() -> None:
        bot = await voice_session(emu, BOT_TOKEN, LOUNGE, self_deaf=True)
        deaf = await asyncio.to_thread(send, emu, LOUNGE, {"sound_id": "1"})
        assert deaf.status_code == 403 and deaf.json()["code"] == 50167
        await bot.send({"op": 4, "d": {"guild_id": str(GUILD_ID), "channel_id": str(LOUNGE),
                                       "self_mute": False, "self_deaf": False}})
        await bot.dispatch("VOICE_STATE_UPDATE")
        with bot_api(emu) as http:
            assert http.patch(f"/guilds/{GUILD_ID}/members/{BOT_ID}", json={"mute": True}).status_code == 200
        muted = await asyncio.to_thread(send, emu, LOUNGE, {"sound_id": "1"})
        assert muted.status_code == 403 and muted.json()["code"] == 50167
        with bot_api(emu) as http:
            assert http.patch(f"/guilds/{GUILD_ID}/members/{BOT_ID}", json={"mute": False}).status_code == 200
        # in a stage's audience (suppressed): refused; on stage: played
        await bot.send({"op": 4, "d": {"guild_id": str(GUILD_ID), "channel_id": str(stage),
                                       "self_mute": False, "self_deaf": False}})
        await bot.dispatch("VOICE_STATE_UPDATE")
        suppressed = await asyncio.to_thread(send, emu, stage, {"sound_id": "1"})
        assert suppressed.status_code == 403 and suppressed.json()["code"] == 50167
        with bot_api(emu) as http:
            assert http.patch(f"/guilds/{GUILD_ID}/voice-states/@me",
                              json={"channel_id": str(stage), "suppress": False}).status_code == 204
        assert (await asyncio.to_thread(send, emu, stage, {"sound_id": "1"})).status_code == 204
        wrong_channel = await asyncio.to_thread(send, emu, LOUNGE, {"sound_id": "1"})
        assert wrong_channel.status_code == 400 and wrong_channel.json()["code"] == 50168
        await bot.close()

    asyncio.run(scenario())


def test_another_guilds_sound_needs_use_external_sounds(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    world = default_world()
    world["guilds"].append({"id": str(OTHER_GUILD), "name": "Other Guild", "owner_id": str(ALICE),
                            "members": [{"user_id": str(ALICE)}, {"user_id": str(BOT_ID)}]})
    world["soundboard_sounds"] = [{"id": "1200000000000000801", "guild_id": str(OTHER_GUILD), "name": "far"}]
    assert httpx.post(f"{emu.base_url}/_emulator/seed?reset=true", json=world).status_code == 204
    grant_bot(emu, SOUNDBOARD)

    async def scenario() -> None:
        bot = await voice_session(emu, BOT_TOKEN, LOUNGE)
        body = {"sound_id": "1200000000000000801", "source_guild_id": str(OTHER_GUILD)}
        refused = await asyncio.to_thread(send, emu, LOUNGE, body)
        assert refused.status_code == 403 and "USE_EXTERNAL_SOUNDS" in refused.json()["message"]
        # without its source guild, the sound is looked for in the channel's guild
        assert (await asyncio.to_thread(send, emu, LOUNGE, {"sound_id": body["sound_id"]})).status_code == 404
        grant_bot(emu, SOUNDBOARD | Permission.USE_EXTERNAL_SOUNDS)
        assert (await asyncio.to_thread(send, emu, LOUNGE, body)).status_code == 204
        effect = (await bot.dispatch("VOICE_CHANNEL_EFFECT_SEND"))["d"]
        assert effect["sound_id"] == body["sound_id"] and effect["guild_id"] == str(GUILD_ID)
        await bot.close()

    asyncio.run(scenario())


def test_the_admin_api_plays_a_sound_as_a_user(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    grant_bot(emu, 0)

    async def scenario() -> None:
        bot = await voice_session(emu, BOT_TOKEN, LOUNGE)
        alice = await voice_session(emu, await asyncio.to_thread(user_token, emu, ALICE), LOUNGE)
        played = await asyncio.to_thread(httpx.post, f"{emu.base_url}/_emulator/channels/{LOUNGE}/send-soundboard-sound",
                                         json={"user_id": str(ALICE), "sound_id": "3"})
        assert played.status_code == 204, played.text   # Alice owns the guild: every permission
        effect = (await bot.dispatch("VOICE_CHANNEL_EFFECT_SEND"))["d"]
        assert effect["user_id"] == str(ALICE) and effect["sound_id"] == "3"
        for client in (bot, alice):
            await client.close()

    asyncio.run(scenario())
