"""hikari has no voice client of its own; what it has is the voice-state flow a voice library builds on:
update_voice_state joins a guild voice channel, hikari reports the bot's VOICE_STATE_UPDATE and the
VOICE_SERVER_UPDATE (token and endpoint) a voice client would connect with, the channel's status and start
time (set status, op 43 channel info), and update_voice_state with no channel leaves."""

from __future__ import annotations

import hikari
from emulator_world import BOT_ID, GUILD_ID
from hikari_bot import LOUNGE, HikariBot, make_bot_administrator
from platformpp.emulator import Emulator


def test_join_voice_channel_server_update_status_and_leave(platformpp_emulator: Emulator) -> None:
    emu = platformpp_emulator
    make_bot_administrator(emu)
    with HikariBot(emu) as running:
        bot = running.bot
        running.call(bot.update_voice_state(GUILD_ID, LOUNGE, self_deaf=True))
        joined = running.wait_event(hikari.VoiceStateUpdateEvent, lambda e: e.state.channel_id == LOUNGE)
        assert joined.state.user_id == BOT_ID and joined.state.guild_id == GUILD_ID
        assert joined.state.is_self_deafened and not joined.state.is_self_muted and joined.old_state is None
        assert joined.state.session_id
        server = running.wait_event(hikari.VoiceServerUpdateEvent)
        assert server.guild_id == GUILD_ID and server.token and server.raw_endpoint
        assert server.endpoint == f"wss://{server.raw_endpoint}"
        cached = bot.cache.get_voice_state(GUILD_ID, BOT_ID)
        assert cached is not None and cached.channel_id == LOUNGE
        assert running.call(bot.rest.fetch_my_voice_state(GUILD_ID)).channel_id == LOUNGE

        # the channel's status and when its call started, as hikari reports them
        started = running.wait_event(hikari.VoiceChannelStartTimeUpdateEvent,
                                     lambda e: e.channel_id == LOUNGE)
        assert started.voice_start_time is not None and started.voice_start_time.year >= 2025
        running.call(bot.rest.set_voice_channel_status(LOUNGE, "Raid in progress"))
        status = running.wait_event(hikari.VoiceChannelStatusUpdateEvent, lambda e: e.channel_id == LOUNGE)
        assert status.status == "Raid in progress" and status.guild_id == GUILD_ID
        audited = running.wait_event(hikari.AuditLogEntryCreateEvent, lambda e: e.entry.action_type
                                     == hikari.AuditLogEventType.VOICE_CHANNEL_STATUS_CREATE)
        assert isinstance(audited.entry.options, hikari.audit_logs.VoiceChannelStatusCreateEntryInfo)
        assert audited.entry.options.channel_id == LOUNGE
        assert audited.entry.options.status == "Raid in progress"
        fields = [hikari.api.ChannelInfoField.STATUS, hikari.api.ChannelInfoField.VOICE_START_TIME]
        running.call(bot.request_channel_info(GUILD_ID, fields=fields))
        info = running.wait_event(hikari.ChannelInfoEvent)
        assert info.guild_id == GUILD_ID
        lounge = info.channels[LOUNGE]
        assert lounge.status == "Raid in progress" and lounge.voice_start_time is not None

        # leave: no channel
        running.call(bot.update_voice_state(GUILD_ID, None))
        left = running.wait_event(hikari.VoiceStateUpdateEvent, lambda e: e.state.channel_id is None)
        assert left.state.user_id == BOT_ID
        assert left.old_state is not None and left.old_state.channel_id == LOUNGE
        assert bot.cache.get_voice_state(GUILD_ID, BOT_ID) is None
