"""The owner interface of VoiceService: argument errors, unknown participants, stale tokens, a failing
owner callback, resume limits, a port already taken."""

from __future__ import annotations

import asyncio
import socket
from datetime import datetime, timezone

import pytest
from voice_helpers import BEFORE_E2EE, run
from voice_client import VoiceClient

from platformpp.emulator.voice.service import VoiceService, VoiceServiceError

GUILD, CHANNEL = 71771983423143937, 427121515262115840


def test_owner_calls_validate_their_arguments(voice) -> None:
    with pytest.raises(ValueError, match="user_id"):
        voice.allocate(GUILD, CHANNEL, 0, "s")
    with pytest.raises(ValueError, match="channel_id"):
        voice.allocate(GUILD, "x", 1, "s")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="session_id"):
        voice.allocate(GUILD, CHANNEL, 1, "")
    with pytest.raises(ValueError, match="delay_ms"):
        voice.faults.set_udp(CHANNEL, delay_ms=-1)
    with pytest.raises(VoiceServiceError, match="no call"):
        voice.faults.set_udp(CHANNEL, drop_ratio=0.5)
    assert voice.set_participant_state(GUILD, 12345, deaf=True) is False
    assert voice.disconnect(GUILD, 12345) is False
    assert voice.faults.close_gateway(GUILD, 12345) is False
    assert voice.participants(CHANNEL) == []
    with pytest.raises(ValueError, match="heartbeat_interval"):
        voice.set_timeouts(heartbeat_interval=0)
    with pytest.raises(ValueError, match="resume_window"):
        voice.set_timeouts(resume_window=7200)
    assert voice.timeouts() == {"heartbeat_interval": 1.0, "resume_window": 5.0}    # unchanged
    assert voice.set_timeouts(resume_window=2.5) == {"heartbeat_interval": 1.0, "resume_window": 2.5}


def test_calls_need_a_running_service() -> None:
    service = VoiceService(now=lambda: datetime.now(timezone.utc))
    with pytest.raises(VoiceServiceError, match="not running"):
        service.allocate(GUILD, CHANNEL, 1, "s")


def test_a_port_in_use_is_a_clear_start_error() -> None:
    taken = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    taken.bind(("127.0.0.1", 0))
    try:
        service = VoiceService(now=lambda: datetime.now(timezone.utc), udp_port=taken.getsockname()[1])
        with pytest.raises(VoiceServiceError, match="could not start"):
            service.start()
    finally:
        taken.close()


def test_token_is_stale_after_disconnect(voice, new_user) -> None:
    user = new_user()
    token, endpoint = voice.allocate(GUILD, CHANNEL, user, "s")

    async def scenario() -> int | None:
        first = VoiceClient(endpoint, GUILD, user, "s", token)
        await first.join()
        assert voice.disconnect(GUILD, user)
        assert await first.closed() == 4014
        again = VoiceClient(endpoint, GUILD, user, "s", token)
        await again.open()
        await again.send(0, {"server_id": str(GUILD), "user_id": str(user), "session_id": "s", "token": token,
                             "max_dave_protocol_version": 1})
        code = await again.closed()
        await first.close()
        await again.close()
        return code

    assert run(scenario()) == 4004


def test_a_failing_owner_callback_does_not_break_the_call(clock, new_user) -> None:
    def handler(kind: str, server_id: int, channel_id: int, user_id: int | None) -> None:
        raise RuntimeError("owner bug")

    with VoiceService(now=clock.now, on_event=handler) as service:
        user = new_user()
        token, endpoint = service.allocate(GUILD, CHANNEL, user, "s")

        async def scenario() -> None:
            c = VoiceClient(endpoint, GUILD, user, "s", token)
            description = await c.join()
            assert description["mode"] == "aead_aes256_gcm_rtpsize"
            await c.close()

        run(scenario())


def test_resume_fails_4006_when_the_missed_messages_are_no_longer_buffered(voice, clock, new_user) -> None:
    clock.instant = BEFORE_E2EE
    away, talker = new_user(), new_user()

    async def scenario() -> None:
        tokens = {u: voice.allocate(GUILD, CHANNEL, u, f"s{u}")[0] for u in (away, talker)}
        a = VoiceClient(voice.endpoint, GUILD, away, f"s{away}", tokens[away])
        b = VoiceClient(voice.endpoint, GUILD, talker, f"s{talker}", tokens[talker])
        await a.join(max_dave=0)
        await b.join(max_dave=0)
        await a.expect(11)
        seen = a.seq_ack
        assert voice.faults.close_gateway(GUILD, away, 4015)
        await a.closed()
        for flags in range(600):                        # more than the 512 buffered for resume
            await b.speak(flags % 2)
        await asyncio.sleep(0.3)
        back = VoiceClient(voice.endpoint, GUILD, away, f"s{away}", tokens[away])
        await back.open()
        await back.send(7, {"server_id": str(GUILD), "session_id": f"s{away}", "token": tokens[away],
                            "seq_ack": seen})
        assert await back.closed() == 4006
        assert voice.participants(CHANNEL) == [talker]     # the session that could not resume is over
        for c in (a, b, back):
            await c.close()

    run(scenario())
