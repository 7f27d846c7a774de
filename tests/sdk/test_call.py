"""Voice calls from Python against the emulator: two players in a lobby call, the audio
callbacks' numpy arrays (views of the SDK's buffer, writable, no copy), exceptions in them, validation,
the event callbacks, and that callbacks are released with their Client."""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import Any

import numpy as np
import pytest
from call_helpers import Ear, Tone, shared_lobby
from sdk_support import Outcome, pump_until, ready_player

import platformpp

ALICE = 1100000000000000001
BOB = 1100000000000000002


@pytest.fixture
def players(platformpp_emulator: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[platformpp.Client, platformpp.Client]:
    monkeypatch.setenv("PLATFORMPP_AUDIO_BACKEND", "null")  # no sound server needed
    return ready_player(platformpp_emulator, "alice"), ready_player(platformpp_emulator, "bob")


def test_two_players_hear_each_other_through_numpy_views(players) -> None:
    alice, bob = players
    lobby_id = shared_lobby(alice, bob, "py-voice")
    lobby_voice: list[tuple[int, int, bool]] = []
    bob.set_voice_participant_changed_callback(lambda lobby, member, added: lobby_voice.append((lobby, member, added)))

    tone = Tone()
    alice_call = alice.start_call_with_audio_callbacks(lobby_id, None, tone)
    assert alice_call and alice_call.get_channel_id() == lobby_id and alice_call.get_guild_id() == 0
    assert not alice.start_call(lobby_id)  # already in it
    statuses: list[platformpp.Call.Status] = []
    alice_call.set_status_changed_callback(lambda status, error, detail: statuses.append(status))
    pump_until(lambda: alice_call.get_status() == platformpp.Call.Status.Connected)
    pump_until(lambda: (lobby_id, ALICE, True) in lobby_voice)
    info = bob.get_lobby_handle(lobby_id).get_call_info_handle()
    assert info is not None and info.get_participants() == [ALICE] and info.channel_id == lobby_id

    ear = Ear(ALICE)
    bob_call = bob.start_call_with_audio_callbacks(lobby_id, ear, None)
    speaking: list[tuple[int, bool]] = []
    bob_call.set_speaking_status_changed_callback(lambda user, on: speaking.append((user, on)))
    pump_until(lambda: bob_call.get_status() == platformpp.Call.Status.Connected)
    pump_until(lambda: ear.count() >= 50, timeout=15)
    assert abs(ear.frequency() - 440.0) <= 5.0
    pump_until(lambda: (ALICE, True) in speaking)

    # The arrays are (samples, channels) int16 views of one SDK buffer: writable, owning nothing.
    assert tone.shapes == {(960, 2)}
    assert len(tone.addresses) == 1
    assert ear.flags[0] == (True, False, "int16")
    # End to end encrypted: one DAVE group, the same verification code on both sides.
    pump_until(lambda: alice_call.get_e2ee_epoch_authenticator() == bob_call.get_e2ee_epoch_authenticator())
    assert alice_call.get_e2ee_protocol_version() == 1
    code = alice_call.get_e2ee_verification_code(BOB)
    assert code is not None and len(code) == 45 and code == bob_call.get_e2ee_verification_code(ALICE)

    changed: list[int] = []
    bob_call.set_on_voice_state_changed_callback(changed.append)
    alice_call.set_self_mute(True)
    pump_until(lambda: ALICE in changed)
    state = bob_call.get_voice_state_handle(ALICE)
    assert state is not None and state.self_mute and not state.self_deaf
    assert sorted(bob_call.get_participants()) == [ALICE, BOB]

    ended = Outcome()
    alice.end_call(lobby_id, ended)
    ended.wait()
    assert alice_call.get_status() == platformpp.Call.Status.Disconnected
    assert statuses[-1] == platformpp.Call.Status.Disconnected
    assert alice.get_calls() == [] and not alice.get_call(lobby_id)
    pump_until(lambda: (lobby_id, ALICE, False) in lobby_voice)
    all_ended = Outcome()
    bob.end_calls(all_ended)
    all_ended.wait()


def test_an_exception_in_an_audio_callback_is_reported_and_audio_goes_on(players) -> None:
    alice, bob = players
    lobby_id = shared_lobby(alice, bob, "py-voice-errors")
    caught: list[BaseException] = []
    platformpp.set_callback_error_hook(caught.append)
    try:
        tone = Tone()

        def failing_capture(samples: np.ndarray, sample_rate: int) -> None:
            tone(samples, sample_rate)
            if tone.calls % 10 == 0:
                raise RuntimeError("boom in capture")

        received = {"n": 0}

        def failing_receive(user_id: int, samples: np.ndarray, sample_rate: int) -> None:
            received["n"] += 1
            raise ValueError("boom in receive")

        alice.start_call_with_audio_callbacks(lobby_id, None, failing_capture)
        bob.start_call_with_audio_callbacks(lobby_id, failing_receive, None)
        pump_until(lambda: received["n"] >= 50, timeout=15)
        pump_until(lambda: any(isinstance(e, ValueError) for e in caught)
                   and any(isinstance(e, RuntimeError) for e in caught))
        assert tone.calls > 50  # the audio thread went on after each exception
    finally:
        platformpp.set_callback_error_hook(None)
        for player in players:
            done = Outcome()
            player.end_calls(done)
            done.wait()


def test_out_of_range_values_raise_validation_error_naming_the_parameter(players) -> None:
    alice, bob = players
    lobby_id = shared_lobby(alice, bob, "py-voice-values")
    call = alice.start_call(lobby_id)
    with pytest.raises(platformpp.ValidationError, match="volume"):
        call.set_participant_volume(BOB, 250.0)
    with pytest.raises(platformpp.ValidationError, match="threshold"):
        call.set_vad_threshold(False, 5.0)
    with pytest.raises(platformpp.ValidationError, match="release_delay_ms"):
        call.set_ptt_release_delay(2001)
    with pytest.raises(platformpp.ValidationError, match="audio_mode"):
        call.set_audio_mode(platformpp.AudioModeType.MODE_UNINIT)
    with pytest.raises(platformpp.ValidationError, match="input_volume"):
        alice.set_input_volume(101.0)
    with pytest.raises(platformpp.ValidationError, match="output_volume"):
        alice.set_output_volume(-1.0)
    with pytest.raises(platformpp.ValidationError, match="dbfs_threshold"):
        alice.set_no_audio_input_threshold(-101.0)
    # Nothing changed; valid values apply.
    assert call.get_participant_volume(BOB) == 100.0
    call.set_participant_volume(BOB, 150.0)
    call.set_vad_threshold(True, -45.0)
    call.set_ptt_release_delay(300)
    call.set_audio_mode(platformpp.AudioModeType.MODE_PTT)
    assert call.get_participant_volume(BOB) == 150.0
    vad = call.get_vad_threshold()
    assert vad.automatic and vad.vad_threshold == -45.0
    assert call.get_ptt_release_delay() == 300 and call.get_audio_mode() == platformpp.AudioModeType.MODE_PTT
    assert platformpp.Call.status_to_string(platformpp.Call.Status.Joining) == "Joining"
    assert platformpp.Call.error_to_string(platformpp.Call.Error.Forbidden) == "Forbidden"

    devices = Outcome()
    alice.get_input_devices(devices)
    (inputs,) = devices.wait()
    assert inputs and inputs[0].id == platformpp.Client.get_default_audio_device_id()
    refused = Outcome()
    alice.set_output_device("no-such-device", refused)
    assert refused.wait()[0].type == platformpp.ErrorType.ValidationError
    done = Outcome()
    alice.end_calls(done)
    done.wait()


def test_audio_callbacks_are_released_with_their_client(platformpp_emulator: Any, monkeypatch) -> None:
    monkeypatch.setenv("PLATFORMPP_AUDIO_BACKEND", "null")
    alice = ready_player(platformpp_emulator, "alice")
    created = Outcome()
    alice.create_or_join_lobby("py-voice-leak", created)
    lobby_id = created.wait()[1]
    tone = Tone()
    ref = weakref.ref(tone)
    call = alice.start_call_with_audio_callbacks(lobby_id, None, tone)
    pump_until(lambda: call.get_status() == platformpp.Call.Status.Connected)
    pump_until(lambda: tone.calls > 5)  # the audio thread is running the callback
    del tone, call
    del alice  # joins the audio thread without the GIL (it may be waiting for it in the callback)
    gc.collect()
    platformpp.run_callbacks()  # parked references are released here
    gc.collect()
    assert ref() is None


def test_the_voice_log_has_its_own_callback_and_file(players, tmp_path) -> None:
    alice, bob = players
    lobby_id = shared_lobby(alice, bob, "py-voice-log")
    lines: list[tuple[str, platformpp.LoggingSeverity]] = []
    alice.add_voice_log_callback(lambda line, severity: lines.append((line, severity)), platformpp.LoggingSeverity.Info)
    alice.set_voice_log_dir(str(tmp_path / "voice"), platformpp.LoggingSeverity.Info)
    call = alice.start_call(lobby_id)
    pump_until(lambda: call.get_status() == platformpp.Call.Status.Connected)
    pump_until(lambda: any("connected: " in line for line, _ in lines))
    assert all(severity >= platformpp.LoggingSeverity.Info for _, severity in lines)
    assert not any("voice logging to" in line for line, _ in lines)  # the Client's own line is not a voice line
    assert "connected: " in (tmp_path / "voice" / "platformpp-voice.log").read_text()
    done = Outcome()
    alice.end_calls(done)
    done.wait()


def test_the_completions_that_cannot_fail_are_awaitable(players) -> None:
    alice, bob = players
    lobby_id = shared_lobby(alice, bob, "py-voice-async")

    async def main() -> None:
        inputs = await alice.get_input_devices_async(timeout=10)
        assert [device.id for device in inputs][:1] == [platformpp.Client.get_default_audio_device_id()]
        current = await alice.get_current_output_device_async(timeout=10)
        assert isinstance(current, platformpp.AudioDevice) and current.id == "default"
        call = alice.start_call(lobby_id)
        for _ in range(500):
            if call.get_status() == platformpp.Call.Status.Connected:
                break
            await asyncio.sleep(0.02)
        assert call.get_status() == platformpp.Call.Status.Connected
        assert await alice.end_call_async(lobby_id, timeout=10) is None
        assert call.get_status() == platformpp.Call.Status.Disconnected
        assert await alice.end_calls_async(timeout=10) is None  # nothing left to end: completes at once

    asyncio.run(main())
