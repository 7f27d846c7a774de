"""disnake's own stage and soundboard helpers, unchanged, against the emulator: a stage channel made with
``Guild.create_stage_channel``, its instance opened, fetched, edited and closed (``StageChannel.create_instance``,
``fetch_instance``, ``StageInstance.edit`` / ``delete``, with the library's stage instance events); the
built-in sounds (``Client.fetch_default_soundboard_sounds``); a guild sound created from MP3 bytes, fetched,
edited and deleted (``Guild.create_soundboard_sound``, ``fetch_soundboard_sounds``, ``GuildSoundboardSound.edit``
/ ``delete``, the library's soundboard update event), and played in a voice channel the bot joined
(``Guild.change_voice_state``, ``VoiceChannel.send_soundboard_sound``, the library's voice channel effect
event)."""

from __future__ import annotations

import disnake
from disnake_bot import LOUNGE, make_bot_admin, running
from emulator_world import BOT_ID
from platformpp.emulator import Emulator
from stage_soundboard_helpers import mp3


def test_stage_instances_and_soundboard_sounds(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_bot_admin(emu)
    with running(emu, disnake.Client, intents=disnake.Intents.default()) as bot:
        client: disnake.Client = bot.client
        lounge: disnake.VoiceChannel = client.get_channel(LOUNGE)
        guild = lounge.guild

        # a stage: the channel, its instance through the library's events
        stage: disnake.StageChannel = bot.call(guild.create_stage_channel("Town Hall", category=lounge.category))
        assert stage.type is disnake.ChannelType.stage_voice
        opened = bot.expect("stage_instance_create", lambda: bot.call(stage.create_instance(topic="Launch")))
        assert opened.channel_id == stage.id and opened.topic == "Launch"
        assert opened.privacy_level is disnake.StagePrivacyLevel.guild_only
        assert stage.instance is not None and stage.instance.id == opened.id
        fetched = bot.call(stage.fetch_instance())
        assert fetched.id == opened.id and fetched.topic == "Launch"
        before, after = bot.expect("stage_instance_update", lambda: bot.call(fetched.edit(topic="Q&A")))
        assert before.topic == "Launch" and after.topic == "Q&A"
        closed = bot.expect("stage_instance_delete", lambda: bot.call(fetched.delete()))
        assert closed.id == opened.id and stage.instance is None
        try:
            bot.call(stage.fetch_instance())
            raise AssertionError("the closed stage still has an instance")
        except disnake.NotFound as missing:
            assert missing.code == 10067

        # the built-in sounds
        defaults = bot.call(client.fetch_default_soundboard_sounds())
        assert {"quack", "airhorn"} <= {s.name for s in defaults} and all(s.available for s in defaults)

        # a guild sound from MP3 bytes: created, listed, edited (the library's update event)
        _, _, created = bot.expect("guild_soundboard_sounds_update", lambda: bot.call(guild.create_soundboard_sound(
            name="gong", sound=mp3(1.0), volume=0.5, emoji="\U0001f514")))
        sound = next(s for s in created if s.name == "gong")
        assert sound.volume == 0.5 and sound.guild_id == guild.id and sound.user is not None
        assert sound.user.id == BOT_ID and str(sound.emoji) == "\U0001f514"
        assert [s.id for s in bot.call(guild.fetch_soundboard_sounds())] == [sound.id]
        edited = bot.call(sound.edit(name="bell", volume=1.0))
        assert edited.name == "bell" and edited.volume == 1.0
        assert bot.call(guild.fetch_soundboard_sound(sound.id)).name == "bell"
        try:
            bot.call(guild.create_soundboard_sound(name="long", sound=mp3(6.0)))
            raise AssertionError("a 6 s sound was accepted")
        except disnake.HTTPException as refused:
            assert refused.status == 400 and refused.code == 50035

        # played in the voice channel the bot joined: the library's voice channel effect event
        bot.expect("voice_state_update", lambda: bot.call(guild.change_voice_state(channel=lounge)),
                   check=lambda member, before, after: member.id == BOT_ID and after.channel is not None)
        channel, member, effect = bot.expect("voice_channel_effect",
                                             lambda: bot.call(lounge.send_soundboard_sound(edited)))
        assert channel.id == LOUNGE and member.id == BOT_ID
        assert effect.sound is not None and effect.sound.id == sound.id
        bot.call(guild.change_voice_state(channel=None))

        bot.call(edited.delete())
        assert bot.call(guild.fetch_soundboard_sounds()) == []
