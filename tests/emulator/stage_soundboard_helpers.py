"""Shared steps of the stage instance and soundboard tests: a stage channel made through the API, the
bot's permissions, and sound files built here byte by byte (MP3 frames, Ogg Opus pages with their
CRC), independently of the emulator's reader."""

from __future__ import annotations

import base64
import struct

import httpx
from channel_helpers import BOT_ROLE, set_role_permissions
from emulator_world import BOT_TOKEN, GUILD_ID
from platformpp.emulator import Emulator
from platformpp.emulator.core.permissions import Permission

VOICE_CATEGORY = 1200000000000000200
LOUNGE = 1200000000000000201
GENERAL = 1200000000000000101
STAGE_MODERATOR = Permission.MANAGE_CHANNELS | Permission.MUTE_MEMBERS | Permission.MOVE_MEMBERS


def bot_api(emu: Emulator) -> httpx.Client:
    return httpx.Client(base_url=emu.api_base, headers={"Authorization": f"Bot {BOT_TOKEN}"}, timeout=10)


def grant_bot(emu: Emulator, bits: int) -> None:
    """The bot's role holds exactly ``bits`` (besides @everyone's)."""
    set_role_permissions(emu, BOT_ROLE, int(bits))


def make_stage_channel(emu: Emulator, name: str = "Town Hall") -> int:
    """A stage channel created by the bot through the API (it keeps MANAGE_CHANNELS afterwards only if
    the caller grants it again)."""
    previous = emu.state.db.query_one("SELECT permissions FROM roles WHERE id = ?", (BOT_ROLE,))["permissions"]
    grant_bot(emu, int(previous) | Permission.MANAGE_CHANNELS)
    with bot_api(emu) as http:
        response = http.post(f"/guilds/{GUILD_ID}/channels",
                             json={"name": name, "type": 13, "parent_id": str(VOICE_CATEGORY)})
    assert response.status_code == 201, response.text
    set_role_permissions(emu, BOT_ROLE, int(previous))
    return int(response.json()["id"])


def data_uri(content_type: str, data: bytes) -> str:
    return f"data:{content_type};base64," + base64.b64encode(data).decode()


# --- MP3 -----------------------------------------------------------------------------------------

def mp3(seconds: float, *, id3: bool = False) -> bytes:
    """MPEG-1 layer III at 128 kbit/s and 44.1 kHz, mono: ``ceil(seconds * 44100 / 1152)`` frames of
    silence, each 417 bytes (418 with the padding bit, set on every third frame here). With ``id3``, an
    ID3v2.4 tag first."""
    frames = max(1, -(-round(seconds * 44100) // 1152))
    out = bytearray()
    if id3:
        body = b"TIT2" + struct.pack(">I", 6) + b"\x00\x00" + b"\x03test\x00"
        size = len(body)
        out += b"ID3\x04\x00\x00" + bytes([(size >> 21) & 0x7F, (size >> 14) & 0x7F, (size >> 7) & 0x7F,
                                             size & 0x7F]) + body
    for n in range(frames):
        padded = n % 3 == 2
        out += bytes([0xFF, 0xFB, 0x90 | (0x02 if padded else 0), 0xC0]) + bytes(413 + (1 if padded else 0))
    return bytes(out)


def mp3_seconds(frames: int) -> float:
    return frames * 1152 / 44100


# --- Ogg Opus ------------------------------------------------------------------------------------

def _crc_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7) if crc & 0x80000000 else crc << 1
        table.append(crc & 0xFFFFFFFF)
    return table


_CRC = _crc_table()


def _page(serial: int, sequence: int, granule: int, packets: list[bytes], header_type: int) -> bytes:
    lacing = [v for packet in packets for v in [255] * (len(packet) // 255) + [len(packet) % 255]]
    header = b"OggS" + bytes([0, header_type]) + struct.pack("<qIII", granule, serial, sequence, 0) \
        + bytes([len(lacing)]) + bytes(lacing)
    page = bytearray(header + b"".join(packets))
    crc = 0
    for b in page:
        crc = ((crc << 8) & 0xFFFFFFFF) ^ _CRC[((crc >> 24) & 0xFF) ^ b]
    page[22:26] = struct.pack("<I", crc)
    return bytes(page)


def ogg_opus(seconds: float, *, pre_skip: int = 312) -> bytes:
    """An Ogg Opus file whose last granule position is ``pre_skip + seconds * 48000``: an OpusHead page,
    an OpusTags page, then one page of 20 ms packets (each a one-byte silent Opus frame) per second."""
    serial = 0x5EED
    head = b"OpusHead" + bytes([1, 1]) + struct.pack("<HIhB", pre_skip, 48000, 0, 0)
    tags = b"OpusTags" + struct.pack("<I", 5) + b"tests" + struct.pack("<I", 0)
    pages = [_page(serial, 0, 0, [head], 2), _page(serial, 1, 0, [tags], 0)]
    total = round(seconds * 48000)
    done, sequence = 0, 2
    while done < total:
        chunk = min(48000, total - done)
        done += chunk
        packets = [b"\xf8"] * max(1, chunk // 960)
        pages.append(_page(serial, sequence, pre_skip + done, packets, 4 if done >= total else 0))
        sequence += 1
    return b"".join(pages)
