"""The sound reader decodes untrusted bytes (areas/soundboard/audio.py): fuzzed with hypothesis. Any bytes,
and valid files cut short or with bytes changed, give a length or a BadSound, never another exception;
files built here frame by frame and page by page read back at the length they were built with; and over
HTTP a random upload is a 201 or a 400 naming ``sound``, never a 500."""

from __future__ import annotations

import math

import httpx
from emulator_world import BOT_TOKEN, GUILD_ID
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from platformpp.emulator import Emulator
from platformpp.emulator.areas.soundboard import audio
from platformpp.emulator.core.permissions import Permission
from stage_soundboard_helpers import data_uri, grant_bot, mp3, mp3_seconds, ogg_opus

CONTENT_TYPES = ("audio/mpeg", "audio/ogg")
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def read_or_refuse(content_type: str, data: bytes) -> float | None:
    try:
        seconds = audio.duration(content_type, data)
    except audio.BadSound as bad:
        assert str(bad)   # the reason becomes the field's error message
        return None
    assert math.isfinite(seconds) and seconds >= 0
    return seconds


@FAST
@given(st.sampled_from(CONTENT_TYPES), st.binary(max_size=4096))
def test_any_bytes_are_read_or_refused(content_type: str, data: bytes) -> None:
    read_or_refuse(content_type, data)


@FAST
@given(st.sampled_from(CONTENT_TYPES), st.binary(max_size=64))
def test_bytes_behind_a_valid_start_are_read_or_refused(content_type: str, tail: bytes) -> None:
    start = b"ID3\x04\x00\x00\x00\x00\x00\x02\x00\x00\xff\xfb" if content_type == "audio/mpeg" else ogg_opus(0.1)[:47]
    read_or_refuse(content_type, start + tail)


@FAST
@given(st.sampled_from(CONTENT_TYPES), st.data())
def test_damaged_files_are_read_or_refused(content_type: str, data: st.DataObject) -> None:
    original = bytearray(mp3(0.3, id3=True) if content_type == "audio/mpeg" else ogg_opus(0.3))
    for _ in range(data.draw(st.integers(1, 8))):
        at = data.draw(st.integers(0, len(original) - 1))
        original[at] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(original)))
    read_or_refuse(content_type, bytes(original[:cut]))


@settings(max_examples=60, deadline=None)
@given(st.floats(0.01, 6.0), st.booleans())
def test_an_mp3_reads_back_at_its_frame_count(seconds: float, id3: bool) -> None:
    built = mp3(seconds, id3=id3)
    frames = -(-round(seconds * 44100) // 1152) or 1
    assert audio.mp3_duration(built) == mp3_seconds(frames)
    # a trailing ID3v1 tag is not audio
    assert audio.mp3_duration(built + b"TAG" + bytes(125)) == mp3_seconds(frames)


def test_mpeg2_frames_count_576_samples_at_their_rate() -> None:
    # MPEG-2 layer III, 64 kbit/s, 22.05 kHz: 72 * 64000 // 22050 = 208 bytes a frame
    frame = b"\xff\xf3\x80\xc0" + bytes(204)
    assert audio.mp3_duration(frame * 50) == 50 * 576 / 22050


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6 * 48000), st.integers(0, 3840))
def test_an_ogg_opus_file_reads_back_at_its_granule_position(samples: int, pre_skip: int) -> None:
    assert audio.ogg_duration(ogg_opus(samples / 48000, pre_skip=pre_skip)) == samples / 48000


def test_random_uploads_over_http_are_accepted_or_refused_naming_the_field() -> None:
    with Emulator() as emu:
        grant_bot(emu, Permission.CREATE_GUILD_EXPRESSIONS | Permission.MANAGE_GUILD_EXPRESSIONS)
        emu.state.db.execute("DELETE FROM soundboard_sounds")
        http = httpx.Client(base_url=emu.api_base, headers={"Authorization": f"Bot {BOT_TOKEN}"}, timeout=10)

        @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(st.sampled_from(CONTENT_TYPES), st.binary(max_size=2048))
        def upload(content_type: str, data: bytes) -> None:
            response = http.post(f"/guilds/{GUILD_ID}/soundboard-sounds",
                                 json={"name": "fuzz", "sound": data_uri(content_type, data)})
            if response.status_code == 201:
                assert http.delete(f"/guilds/{GUILD_ID}/soundboard-sounds/{response.json()['sound_id']}"
                                   ).status_code == 204
            else:
                assert response.status_code == 400 and list(response.json()["errors"]) == ["sound"], response.text

        with http:
            upload()
