"""Reading a soundboard upload (untrusted bytes): how long it plays, from the file itself. An MP3 is a
run of MPEG audio frames (after an optional ID3v2 tag), each header giving its length and samples;
an Ogg file is a run of pages whose last granule position counts the samples of its stream (Opus:
at 48 kHz, less the pre-skip of its OpusHead; Vorbis: at the rate of its identification header).
Nothing here trusts a length it has not bounds-checked; anything else is ``BadSound``."""

from __future__ import annotations

import struct

OGG_PAGE_HEADER = 27


class BadSound(ValueError):
    """Bytes that are not a sound this reads; the message says why (for the field's error)."""


# --- MP3 -----------------------------------------------------------------------------------------

# Bitrates in kbit/s by (MPEG-1?, layer) and index 1..14 (0 "free" and 15 are refused).
_BITRATES = {
    (True, 1): (32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448),
    (True, 2): (32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384),
    (True, 3): (32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320),
    (False, 1): (32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256),
    (False, 2): (8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160),
    (False, 3): (8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160),
}
# Sample rates by version bits (3 MPEG-1, 2 MPEG-2) and index 0..2.
_RATES = {3: (44100, 48000, 32000), 2: (22050, 24000, 16000)}


def _mp3_frame(data: bytes, at: int) -> tuple[int, int, int] | None:
    """The frame header at ``at``: (frame length in bytes, samples, sample rate), or None."""
    if at + 4 > len(data) or data[at] != 0xFF or data[at + 1] & 0xE0 != 0xE0:
        return None
    version, layer_bits = (data[at + 1] >> 3) & 3, (data[at + 1] >> 1) & 3
    bitrate_index, rate_index = data[at + 2] >> 4, (data[at + 2] >> 2) & 3
    padding = (data[at + 2] >> 1) & 1
    # version 1 is reserved, 0 the unofficial MPEG-2.5 (the platform refuses it too)
    if version in (0, 1) or layer_bits == 0 or bitrate_index in (0, 15) or rate_index == 3:
        return None
    layer = 4 - layer_bits   # bits 3, 2, 1 are layers I, II, III
    mpeg1 = version == 3
    bitrate = _BITRATES[(mpeg1, layer)][bitrate_index - 1] * 1000
    rate = _RATES[version][rate_index]
    if layer == 1:
        return (12 * bitrate // rate + padding) * 4, 384, rate
    samples = 1152 if layer == 2 or mpeg1 else 576
    return samples // 8 * bitrate // rate + padding, samples, rate


def _id3_end(data: bytes) -> int:
    """Where the audio starts: after an ID3v2 tag (its size is four 7-bit bytes), if there is one."""
    if not data.startswith(b"ID3") or len(data) < 10:
        return 0
    size_bytes = data[6:10]
    if any(b & 0x80 for b in size_bytes):
        raise BadSound("The ID3 tag's size is malformed.")
    size = 0
    for b in size_bytes:
        size = (size << 7) | b
    footer = 10 if data[5] & 0x10 else 0
    end = 10 + size + footer
    if end > len(data):
        raise BadSound("The ID3 tag runs past the end of the file.")
    return end


def mp3_duration(data: bytes) -> float:
    """Seconds of MPEG audio: the frames from the first header (right after any ID3v2 tag and zero
    padding) until the bytes stop being frames (a trailing ID3v1 or APE tag). A Xing / Info frame
    (the encoder's table of contents, silent) does not count."""
    at = _id3_end(data)
    while at < len(data) and data[at] == 0:
        at += 1
    samples_at: dict[int, int] = {}   # samples by sample rate: summed exactly, divided once
    frames = 0
    while True:
        frame = _mp3_frame(data, at)
        if frame is None:
            break
        length, samples, rate = frame
        if length < 4 or at + length > len(data):
            break   # a truncated last frame is not played
        if frames or not (b"Xing" in data[at:at + 64] or b"Info" in data[at:at + 64]):
            samples_at[rate] = samples_at.get(rate, 0) + samples
        frames += 1
        at += length
    if not frames:
        if at + 1 < len(data) and data[at] == 0xFF and data[at + 1] & 0xF8 == 0xE0:
            raise BadSound("MPEG-2.5 audio is not accepted: use MPEG-1 or MPEG-2.")
        raise BadSound("Not an MP3 file: no MPEG audio frame where the audio should start.")
    return sum(count / rate for rate, count in samples_at.items())


# --- Ogg -----------------------------------------------------------------------------------------

def _ogg_pages(data: bytes) -> list[tuple[int, int, bytes]]:
    """Each page as (serial number, granule position, its payload)."""
    pages, at = [], 0
    while at < len(data):
        if at + OGG_PAGE_HEADER > len(data) or data[at:at + 4] != b"OggS" or data[at + 4] != 0:
            raise BadSound(f"Not an Ogg page at byte {at}.")
        granule, serial = struct.unpack_from("<qI", data, at + 6)
        segments = data[at + 26]
        table_end = at + OGG_PAGE_HEADER + segments
        if table_end > len(data):
            raise BadSound("An Ogg page's segment table runs past the end of the file.")
        end = table_end + sum(data[at + OGG_PAGE_HEADER:table_end])
        if end > len(data):
            raise BadSound("An Ogg page runs past the end of the file.")
        pages.append((serial, granule, data[table_end:end]))
        at = end
    if not pages:
        raise BadSound("Not an Ogg file: no page.")
    return pages


def ogg_duration(data: bytes) -> float:
    """Seconds of the first logical stream of an Ogg Opus or Ogg Vorbis file."""
    pages = _ogg_pages(data)
    serial, _, head = pages[0]
    if head.startswith(b"OpusHead") and len(head) >= 19:
        rate, skip = 48000, struct.unpack_from("<H", head, 10)[0]
    elif head.startswith(b"\x01vorbis") and len(head) >= 16:
        rate, skip = struct.unpack_from("<I", head, 12)[0], 0
        if rate == 0:
            raise BadSound("The Vorbis header has a sample rate of 0.")
    else:
        raise BadSound("Not Ogg Opus or Ogg Vorbis: the first page has no OpusHead or Vorbis header.")
    granules = [granule for page_serial, granule, _ in pages if page_serial == serial and granule >= 0]
    if not granules:
        raise BadSound("The Ogg stream has no granule position.")
    return max(granules[-1] - skip, 0) / rate


def duration(content_type: str, data: bytes) -> float:
    """Seconds of ``data`` as ``content_type`` (audio/mpeg or audio/ogg); BadSound otherwise."""
    if content_type == "audio/mpeg":
        return mp3_duration(data)
    if content_type == "audio/ogg":
        return ogg_duration(data)
    raise BadSound(f"Unsupported content type {content_type}: use audio/mpeg or audio/ogg.")


def silent_mp3(seconds: float) -> bytes:
    """A valid MP3 of silence (MPEG-1 layer III, 128 kbit/s, 44.1 kHz, mono) at least ``seconds`` long:
    the built-in sounds' files, and a world file's sound given without one. Zero side information
    decodes to silence."""
    frame = b"\xff\xfb\x90\xc0" + bytes(413)   # 144 * 128000 // 44100 = 417 bytes a frame
    count = max(1, -(-int(seconds * 44100) // 1152))
    return frame * count
