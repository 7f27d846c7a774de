"""The voice side's readers of stream payloads, fed anything JSON can carry: op 12 (Video) either yields
the SSRCs it names or refuses with 4020 naming the field; Session Description's video codec is always
one the emulator names, the client's highest-priority known one."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from platformpp.emulator.voice.protocol import Close, ProtocolViolation
from platformpp.emulator.voice.streams import VIDEO_CODECS, parse_video, video_codec

JSON = st.recursive(st.none() | st.booleans() | st.integers(min_value=-(1 << 40), max_value=1 << 40)
                    | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
SSRC = st.integers(min_value=0, max_value=0xFFFFFFFF)


@given(st.dictionaries(st.sampled_from(["audio_ssrc", "video_ssrc", "rtx_ssrc", "streams", "other"]), JSON))
def test_op_12_is_read_or_refused_with_4020_naming_the_field(d: dict[str, Any]) -> None:
    try:
        video = parse_video(d)
    except ProtocolViolation as refused:
        assert refused.code == Close.BAD_REQUEST and refused.detail.startswith("d")
        return
    assert 0 not in video.ssrcs and all(0 < ssrc <= 0xFFFFFFFF for ssrc in video.ssrcs)


@given(SSRC, SSRC, st.lists(st.tuples(SSRC, SSRC), max_size=3))
def test_op_12_names_every_video_and_rtx_ssrc(video: int, rtx: int, layers: list[tuple[int, int]]) -> None:
    parsed = parse_video({"audio_ssrc": 1, "video_ssrc": video, "rtx_ssrc": rtx,
                          "streams": [{"ssrc": s, "rtx_ssrc": r, "rid": str(i)} for i, (s, r) in enumerate(layers)]})
    assert parsed.ssrcs == {video, rtx, *(s for pair in layers for s in pair)} - {0}
    assert parsed.announcement["streams"][0]["rid"] == "0" if layers else parsed.announcement["streams"] == []


@given(st.lists(st.fixed_dictionaries({"name": st.sampled_from(["VP8", "vp9", "H264", "AV1", "opus", "x"]),
                                       "type": st.sampled_from(["video", "audio"]),
                                       "priority": st.integers(min_value=0, max_value=5000)}), max_size=6))
def test_the_video_codec_is_the_highest_priority_known_one(codecs: list[dict[str, Any]]) -> None:
    known = [(c["priority"], c["name"].upper()) for c in codecs
             if c["type"] == "video" and c["name"].upper() in VIDEO_CODECS]
    assert video_codec({"codecs": codecs}) == (min(known)[1] if known else "H264")


@given(JSON)
def test_any_select_protocol_gets_a_video_codec(d: Any) -> None:
    assert video_codec(d) in VIDEO_CODECS
