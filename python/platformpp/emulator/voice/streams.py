"""Go Live streams on the voice service: a stream is a call of its own, keyed by the stream's
``rtc_server_id`` (its server id and its call id, so the DAVE group id is that id too), with one
sender (the streamer) and viewers the relay forwards nothing from. Everything else is the call
machinery as it is: the same Identify (DAVE required from 2026-03-01, close 4017 before that without it),
transport encryption, relay fan-out and DAVE delivery service.

Video goes through the relay unchanged: RTP whose payload is a DAVE frame (or, before E2EE is required,
the bare frame), with the payload type the client announced for the codec in Select Protocol's
``codecs``. The relay never parses a frame: which bytes of a VP8/VP9 frame stay clear under DAVE is the
clients' business (the DAVE protocol's codec rules)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from .protocol import Close, ProtocolViolation

if TYPE_CHECKING:   # the voice gateway imports this module: the service only for types
    from .service import VoiceService

# Video codecs a client may announce in Select Protocol (``codecs: [{name, type, priority, payload_type}]``);
# Session Description names the one the session uses.
VIDEO_CODECS = ("AV1", "H265", "H264", "VP8", "VP9")
DEFAULT_VIDEO_CODEC = "H264"


def video_codec(select_protocol: Any) -> str:
    """The video codec of a session: the client's highest-priority (lowest number) known video codec in
    Select Protocol's ``codecs``, else H264 (clients that announce none, such as audio-only ones)."""
    codecs = select_protocol.get("codecs") if isinstance(select_protocol, dict) else None
    offered: list[tuple[int, str]] = []
    for codec in codecs if isinstance(codecs, list) else ():
        if not isinstance(codec, dict) or codec.get("type") != "video":
            continue
        name, priority = codec.get("name"), codec.get("priority", 0)
        if isinstance(name, str) and name.upper() in VIDEO_CODECS and isinstance(priority, int):
            offered.append((priority, name.upper()))
    return min(offered)[1] if offered else DEFAULT_VIDEO_CODEC


MAX_VIDEO_STREAMS = 8      # simulcast layers a client announces in op 12 (a few in practice)


class Video(NamedTuple):
    """A client's op 12: the SSRCs it sends video from (the relay accepts RTP from them) and what the
    other participants are told (with ``user_id`` added)."""

    ssrcs: frozenset[int]
    announcement: dict[str, Any]


def _ssrc(d: dict[str, Any], name: str, where: str) -> int:
    value = d.get(name, 0)
    if value is None:
        return 0
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 0xFFFFFFFF:
        raise ProtocolViolation(Close.BAD_REQUEST, f"{where}.{name}: must be an SSRC, an integer in 0..2^32-1")
    return value


def parse_video(d: Any) -> Video:
    """Op 12 ``{audio_ssrc, video_ssrc, rtx_ssrc, streams?: [{ssrc, rtx_ssrc, ...}]}``; 0 means none.
    Other fields of a stream (type, rid, quality, active, max_bitrate, ...) pass through to the others."""
    if not isinstance(d, dict):
        raise ProtocolViolation(Close.BAD_REQUEST, "d: Video needs an object")
    fields = {name: _ssrc(d, name, "d") for name in ("audio_ssrc", "video_ssrc", "rtx_ssrc")}
    streams = d.get("streams")
    if streams is None:
        streams = []
    if not isinstance(streams, list) or len(streams) > MAX_VIDEO_STREAMS \
            or not all(isinstance(entry, dict) for entry in streams):
        raise ProtocolViolation(Close.BAD_REQUEST, f"d.streams: must be a list of at most {MAX_VIDEO_STREAMS} objects")
    ssrcs = {fields["video_ssrc"], fields["rtx_ssrc"]}
    for index, entry in enumerate(streams):
        ssrcs |= {_ssrc(entry, "ssrc", f"d.streams[{index}]"), _ssrc(entry, "rtx_ssrc", f"d.streams[{index}]")}
    ssrcs.discard(0)
    return Video(frozenset(ssrcs), {**fields, "streams": streams})


def open_session(service: VoiceService, rtc_server_id: int, user_id: int, session_id: str,
                 sender: bool) -> tuple[str, str]:
    """(token, endpoint) for STREAM_SERVER_UPDATE: the streamer (``sender``) or a viewer."""
    return service.allocate(rtc_server_id, rtc_server_id, user_id, session_id, sends_media=sender)


def close_session(service: VoiceService, rtc_server_id: int, user_id: int) -> None:
    """The user is no longer on the stream: its stream session's socket closes with 4014."""
    service.disconnect(rtc_server_id, user_id, Close.DISCONNECTED)
