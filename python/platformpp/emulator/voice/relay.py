"""The UDP selective-forwarding relay: IP discovery, RTP fan-out with per-hop transport keys, RTCP.

For each RTP packet: find the sender by source address, open the transport layer with the sender's
key, then seal the same payload (the DAVE frame or, before E2EE is required, the Opus frame — the relay
never decodes it) for each receiver with that receiver's key, keeping the sender's RTP header (SSRC,
sequence, timestamp). Bad packets are dropped and counted; the call goes on.
"""

from __future__ import annotations

import asyncio
import logging
import random
import socket
import struct
import time
from collections import Counter
from typing import Callable

from .call import Participant
from .transport import RTCP_HEADER, DecryptError, is_rtcp, rtp_header_length

log = logging.getLogger("platformpp.emulator.voice.relay")

DISCOVERY_SIZE = 74
MAX_DATAGRAM = 1400                  # larger datagrams are not voice packets
SILENCE_FRAME = b"\xf8\xff\xfe"
DAVE_MAGIC = b"\xfa\xfa"
SILENCE_FRAMES_ON_MUTE = 5
RTCP_SR, RTCP_RR = 200, 201


# IP discovery (74 bytes): type (1 request, 2 response), length 70, SSRC, a NUL-padded 64-byte address,
# a port; all big-endian. The client half (request, parse of the response) pairs with the relay's.
_DISCOVERY_REQUEST_HEAD = struct.pack(">HH", 1, 70)
_DISCOVERY_RESPONSE_HEAD = struct.pack(">HH", 2, 70)


def discovery_request(ssrc: int) -> bytes:
    return _DISCOVERY_REQUEST_HEAD + struct.pack(">I", ssrc) + b"\0" * 66


def parse_discovery_request(packet: bytes) -> int | None:
    """The SSRC an IP discovery request asks about; None when the packet is not one."""
    if len(packet) != DISCOVERY_SIZE or packet[:4] != _DISCOVERY_REQUEST_HEAD:
        return None
    return int(struct.unpack(">I", packet[4:8])[0])


def discovery_response(ssrc: int, address: str, port: int) -> bytes:
    """The relay's answer: the address and port it saw the request come from."""
    host = address.encode("ascii", "replace")[:63]
    return (_DISCOVERY_RESPONSE_HEAD + struct.pack(">I", ssrc) + host + b"\0" * (64 - len(host))
            + struct.pack(">H", port))


def parse_discovery_response(packet: bytes) -> tuple[str, int]:
    """(address, port) of an IP discovery response; ValueError when the packet is not one."""
    if len(packet) != DISCOVERY_SIZE or packet[:4] != _DISCOVERY_RESPONSE_HEAD:
        raise ValueError("not an IP discovery response")
    address = packet[8:72].split(b"\0", 1)[0].decode("ascii")
    return address, struct.unpack(">H", packet[72:74])[0]


class Relay(asyncio.DatagramProtocol):
    def __init__(self, *, by_ssrc: Callable[[int], Participant | None]) -> None:
        self._by_ssrc = by_ssrc
        self.by_addr: dict[tuple[str, int], Participant] = {}
        self.transport: asyncio.DatagramTransport | None = None
        # The same socket, written directly on the hot path (asyncio's sendto adds ~1 us per copy);
        # a full send buffer falls back to the transport, which queues.
        self.sock: socket.socket | None = None
        self.stats: Counter[str] = Counter()
        self.random = random.Random()
        # Benchmarks set a list here to collect each RTP packet's processing time in the relay (seconds).
        self.processing_times: list[float] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def bind(self, participant: Participant, addr: tuple[str, int]) -> None:
        if participant.udp_addr is not None and self.by_addr.get(participant.udp_addr) is participant:
            del self.by_addr[participant.udp_addr]
        participant.udp_addr = addr
        self.by_addr[addr] = participant

    def unbind(self, participant: Participant) -> None:
        if participant.udp_addr is not None and self.by_addr.get(participant.udp_addr) is participant:
            del self.by_addr[participant.udp_addr]

    def _drop(self, reason: str) -> None:
        self.stats["dropped"] += 1
        self.stats[f"dropped_{reason}"] += 1

    def datagram_received(self, data: bytes, addr: tuple[str, int]) -> None:  # type: ignore[override]
        self.stats["received"] += 1
        if len(data) > MAX_DATAGRAM:
            self._drop("oversized")
            return
        if len(data) == DISCOVERY_SIZE:         # the cheap test first: this is the media hot path
            ssrc = parse_discovery_request(data)
            if ssrc is not None:
                self._discovery(ssrc, addr)
                return
        sender = self.by_addr.get(addr)
        if sender is None:
            self._drop("unknown_address")
            return
        if len(data) < 12 or data[0] >> 6 != 2:
            self._drop("malformed")
            return
        call = sender.call
        if call.udp_drop_ratio and self.random.random() < call.udp_drop_ratio:
            self._drop("fault")
            return
        if call.udp_delay:
            asyncio.get_running_loop().call_later(call.udp_delay, self._handle, sender, data)
            return
        timings = self.processing_times
        if timings is None:
            self._handle(sender, data)
            return
        started = time.perf_counter()
        self._handle(sender, data)
        timings.append(time.perf_counter() - started)

    def _discovery(self, ssrc: int, addr: tuple[str, int]) -> None:
        participant = self._by_ssrc(ssrc)
        if participant is None:
            self._drop("unknown_ssrc")
            return
        self.bind(participant, addr)
        reply = discovery_response(ssrc, addr[0], addr[1])
        self.stats["discovery"] += 1
        assert self.transport is not None
        self.transport.sendto(reply, addr)

    def _handle(self, sender: Participant, data: bytes) -> None:
        cipher = sender.cipher
        if cipher is None or not sender.connected:
            self._drop("no_session")
            return
        if is_rtcp(data):
            self._rtcp(sender, data)
            return
        try:
            header_length = rtp_header_length(data)
            payload = cipher.open(data, header_length)
        except ValueError as exc:
            self._drop("bad_tag" if isinstance(exc, DecryptError) else "malformed")
            return
        ssrc = struct.unpack(">I", data[8:12])[0]
        if ssrc != sender.ssrc and ssrc not in sender.video_ssrcs:
            self._drop("wrong_ssrc")
            return
        if not sender.may_send_audio:
            self._drop("not_permitted")
            return
        header = data[:header_length]
        sender.rtp_seq_out = struct.unpack(">H", data[2:4])[0]
        sender.rtp_ts_out = struct.unpack(">I", data[4:8])[0]
        self._fan_out(sender, header, payload)

    def _send(self, packet: bytes, addr: tuple[str, int]) -> None:
        transport = self.transport
        assert transport is not None and self.sock is not None
        if transport.get_write_buffer_size():  # type: ignore[attr-defined]  # keep order behind its queue
            transport.sendto(packet, addr)
            return
        try:
            self.sock.sendto(packet, addr)
        except (BlockingIOError, InterruptedError):
            transport.sendto(packet, addr)
        except OSError:
            self.stats["send_errors"] += 1

    def _fan_out(self, sender: Participant, header: bytes, payload: bytes) -> None:
        send = self._send
        protocol_frame = payload.endswith(DAVE_MAGIC) and payload != SILENCE_FRAME
        forwarded = 0
        for receiver in sender.call.participants.values():
            if receiver is sender or not receiver.hears:
                continue
            if protocol_frame and receiver.max_dave == 0:
                self.stats["withheld_e2ee_from_non_dave"] += 1
                continue
            assert receiver.cipher is not None and receiver.udp_addr is not None
            send(receiver.cipher.seal(header, payload), receiver.udp_addr)
            forwarded += 1
        self.stats["forwarded"] += forwarded
        self.stats["rtp"] += 1

    def _rtcp(self, sender: Participant, data: bytes) -> None:
        try:
            body = sender.cipher.open(data, RTCP_HEADER) if sender.cipher else b""
        except DecryptError:
            self._drop("bad_tag")
            return
        self.stats["rtcp"] += 1
        if data[1] != RTCP_SR or len(body) < 20:
            return
        # A sender report is answered with a receiver report about that sender's stream, as an SFU
        # does: no loss on the emulator's loopback, LSR = the middle 32 bits of the SR's NTP time.
        reporter_ssrc = struct.unpack(">I", data[4:8])[0]
        ntp = body[:8]
        lsr = ntp[2:6]
        block = (struct.pack(">I", reporter_ssrc) + b"\0\0\0\0"
                 + struct.pack(">I", sender.rtp_seq_out) + b"\0\0\0\0" + lsr + b"\0\0\0\0")
        header = struct.pack(">BBHI", 0x81, RTCP_RR, (8 + len(block)) // 4 - 1, 0)
        assert sender.cipher is not None and sender.udp_addr is not None
        self._send(sender.cipher.seal(header, block), sender.udp_addr)
        self.stats["rtcp_answered"] += 1

    def send_silence(self, sender: Participant) -> None:
        """The SFU-synthesised silence for a source that was just muted: five 0xF8FFFE frames."""
        for _ in range(SILENCE_FRAMES_ON_MUTE):
            sender.rtp_seq_out = (sender.rtp_seq_out + 1) & 0xFFFF
            sender.rtp_ts_out = (sender.rtp_ts_out + 960) & 0xFFFFFFFF
            header = struct.pack(">BBHII", 0x80, 0x78, sender.rtp_seq_out, sender.rtp_ts_out, sender.ssrc)
            self._fan_out(sender, header, SILENCE_FRAME)
        self.stats["silence_synthesised"] += SILENCE_FRAMES_ON_MUTE
