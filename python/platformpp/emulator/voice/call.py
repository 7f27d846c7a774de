"""Calls and their participants: who is connected, with which SSRC, key, UDP address and rights.

A participant outlives its WebSocket: when the socket drops (not closed with a session-ending code)
the participant stays, receives nothing, and may resume within the resume window; the messages sent
meanwhile are buffered with their sequence numbers and replayed on resume (voice gateway v8).
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from .protocol import server_binary
from .transport import TransportCipher

if TYPE_CHECKING:
    from .dave import DaveCall

RESUME_BUFFER = 512      # sequenced messages kept per participant for resume


@dataclass
class Allocation:
    """What VOICE_SERVER_UPDATE handed out: valid for one Identify of that user in that channel."""

    token: str
    server_id: int
    channel_id: int
    user_id: int
    session_id: str
    # False for a stream's viewers: a Go Live stream has one sender (the streamer), the relay forwards
    # nothing from the others (voice/streams.py).
    sends_media: bool = True

    def __repr__(self) -> str:
        return f"Allocation(server_id={self.server_id}, channel_id={self.channel_id}, user_id={self.user_id})"


class Participant:
    def __init__(self, call: "Call", allocation: Allocation, ssrc: int, max_dave: int) -> None:
        self.call = call
        self.allocation = allocation
        self.user_id = allocation.user_id
        self.ssrc = ssrc
        self.max_dave = max_dave
        self.dave_ready = False            # has its Session Description
        self.cipher: TransportCipher | None = None
        self.udp_addr: tuple[str, int] | None = None
        self.speaking: int | None = None   # None until the first Speaking
        self.video_ssrcs: frozenset[int] = frozenset()   # announced with op 12 (video and its RTX)
        self.self_mute = self.self_deaf = False
        self.mute = self.deaf = False      # server-side, from the owner
        self.may_speak = allocation.sends_media   # SPEAK permission / not suppressed, from the owner
        self.writer: Callable[[str | bytes], None] | None = None   # None while detached (may resume)
        self._seq = -1
        self._buffer: deque[tuple[int, str | bytes]] = deque(maxlen=RESUME_BUFFER)
        self.rtp_seq_out = 0               # last RTP sequence forwarded from this sender
        self.rtp_ts_out = 0

    def __repr__(self) -> str:
        return f"Participant(user_id={self.user_id}, ssrc={self.ssrc}, connected={self.writer is not None})"

    @property
    def connected(self) -> bool:
        return self.writer is not None

    @property
    def hears(self) -> bool:
        return self.connected and self.cipher is not None and self.udp_addr is not None \
            and not self.deaf and not self.self_deaf

    @property
    def may_send_audio(self) -> bool:
        return self.may_speak and not self.mute and self.speaking is not None

    def _next_seq(self) -> int:
        self._seq = (self._seq + 1) & 0xFFFF
        return self._seq

    def _emit(self, seq: int, frame: str | bytes) -> None:
        self._buffer.append((seq, frame))
        if self.writer is not None:
            self.writer(frame)

    def send(self, op: int, d: object) -> None:
        """A sequenced JSON message (buffered for resume)."""
        seq = self._next_seq()
        self._emit(seq, json.dumps({"op": int(op), "d": d, "seq": seq}))

    def send_binary(self, op: int, payload: bytes) -> None:
        seq = self._next_seq()
        self._emit(seq, server_binary(seq, int(op), payload))

    def send_unsequenced(self, op: int, d: object) -> None:
        if self.writer is not None:
            self.writer(json.dumps({"op": int(op), "d": d}))

    def missed_since(self, seq_ack: int) -> list[str | bytes] | None:
        """Buffered messages after `seq_ack` (-1: none seen); None when some were already dropped."""
        if not self._buffer:
            return []
        if seq_ack == self._seq:
            return []
        first = self._buffer[0][0]
        wanted = (seq_ack + 1) & 0xFFFF
        if seq_ack == -1:
            wanted = 0
        distance_first = (wanted - first) & 0xFFFF
        if distance_first >= len(self._buffer):
            return None
        return [frame for _, frame in list(self._buffer)[distance_first:]]


@dataclass
class Call:
    server_id: int
    channel_id: int
    participants: dict[int, Participant] = field(default_factory=dict)
    dave: "DaveCall | None" = None       # set by the gateway when the call starts
    udp_drop_ratio: float = 0.0          # faults
    udp_delay: float = 0.0

    def connected(self) -> list[Participant]:
        return [p for p in self.participants.values() if p.connected]
