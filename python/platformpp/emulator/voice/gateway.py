"""The voice gateway (WebSocket, version 8): handshake, heartbeats, resume, speaking, DAVE opcodes.

One `VoiceGateway` serves every call of the service. It runs on the service's event loop; nothing
here blocks. Errors in client payloads close the socket with the platform's close code; everything
else about a call (other participants, the relay) carries on.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from dataclasses import dataclass
from typing import Any, Callable
from urllib.parse import urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from . import mls_wire as mls
from .call import Allocation, Call, Participant
from .dave import DaveCall
from .protocol import (
    CLOSE_REASONS,
    SESSION_ENDING_CLOSES,
    Close,
    Op,
    ProtocolViolation,
    decode_client_frame,
    parse_heartbeat,
    parse_identify,
    parse_resume,
    parse_select_protocol,
    parse_speaking,
    parse_transition_id,
    parse_version,
)
from .relay import Relay
from .streams import parse_video, video_codec
from .transport import SUPPORTED_MODES, TransportCipher

log = logging.getLogger("platformpp.emulator.voice.gateway")

HEARTBEAT_GRACE = 2.0          # missing heartbeats for this many intervals closes with 4009


@dataclass
class _SocketState:
    participant: Participant | None
    last_heartbeat: float


class _Connection:
    """One WebSocket: an ordered outbox drained by a writer task, so synchronous code can send."""

    def __init__(self, ws: ServerConnection) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.close_code: int | None = None
        self.writer_task = asyncio.get_running_loop().create_task(self._drain())

    def write(self, frame: str | bytes) -> None:
        if self.close_code is None:
            self.queue.put_nowait(("frame", frame))

    def close(self, code: int, detail: str = "") -> None:
        if self.close_code is None:
            self.close_code = code
            try:
                reason = CLOSE_REASONS[Close(code)]
            except ValueError:
                reason = detail
            self.queue.put_nowait(("close", (code, reason[:120])))

    async def _drain(self) -> None:
        try:
            while True:
                kind, item = await self.queue.get()
                if kind == "frame":
                    await self.ws.send(item)
                else:
                    await self.ws.close(*item)
                    return
        except ConnectionClosed:
            return


class VoiceGateway:
    def __init__(self, *, host: str, udp_port: Callable[[], int], relay: Relay,
                 external_sender: mls.ExternalSender, heartbeat_interval: float, resume_window: float,
                 transition_timeout: float, e2ee_required: Callable[[], bool],
                 events: Callable[[str, int, int, int | None], None]) -> None:
        self.host = host
        self._udp_port = udp_port
        self.relay = relay
        self.external_sender = external_sender
        self.heartbeat_interval = heartbeat_interval
        self.resume_window = resume_window
        self.transition_timeout = transition_timeout
        self.e2ee_required = e2ee_required
        self._events = events
        self.allocations: dict[str, Allocation] = {}
        self.calls: dict[int, Call] = {}
        self.by_ssrc: dict[int, Participant] = {}
        self._connections: dict[Participant, _Connection] = {}
        self._expiry: dict[Participant, asyncio.TimerHandle] = {}

    # ------------------------------------------------------------ owner operations (loop thread)

    def allocate(self, server_id: int, channel_id: int, user_id: int, session_id: str,
                 sends_media: bool = True) -> str:
        for token, existing in list(self.allocations.items()):
            if existing.user_id == user_id and existing.server_id == server_id:
                del self.allocations[token]          # a new VOICE_SERVER_UPDATE makes the old token stale
        token = secrets.token_hex(16)
        self.allocations[token] = Allocation(token, server_id, channel_id, user_id, session_id, sends_media)
        return token

    def find(self, server_id: int, user_id: int) -> Participant | None:
        for call in self.calls.values():
            participant = call.participants.get(user_id)
            if participant is not None and call.server_id == server_id:
                return participant
        return None

    def disconnect(self, server_id: int, user_id: int, code: int) -> bool:
        for token, existing in list(self.allocations.items()):
            if existing.user_id == user_id and existing.server_id == server_id:
                del self.allocations[token]
        participant = self.find(server_id, user_id)
        if participant is None:
            return False
        self.close_socket(participant, code)
        self._leave(participant)
        return True

    def close_socket(self, participant: Participant, code: int) -> bool:
        connection = self._connections.get(participant)
        if connection is None:
            return False
        connection.close(code)
        return True

    # ------------------------------------------------------------ WebSocket handler

    async def handle(self, ws: ServerConnection) -> None:
        connection = _Connection(ws)
        try:
            parse_version(urlsplit(ws.request.path if ws.request else "/").query)
        except ProtocolViolation as violation:
            connection.close(violation.code)
            await connection.writer_task
            return
        loop = asyncio.get_running_loop()
        state = _SocketState(None, loop.time())
        connection.write(json.dumps({"op": Op.HELLO, "d": {"heartbeat_interval": round(self.heartbeat_interval * 1000)}}))
        watchdog = loop.create_task(self._watch_heartbeats(connection, state))
        try:
            async for message in ws:
                if connection.close_code is not None:
                    break
                try:
                    self._dispatch(connection, state, message)
                except ProtocolViolation as violation:
                    log.info("voice gateway: closing %s: %s", violation.code, violation.detail)
                    connection.close(violation.code)
        except ConnectionClosed:
            pass
        finally:
            watchdog.cancel()
            if connection.close_code is not None and not connection.writer_task.done():
                try:
                    await asyncio.wait_for(connection.writer_task, 2.0)
                except (asyncio.TimeoutError, ConnectionClosed):
                    pass
            connection.writer_task.cancel()
            participant = state.participant
            if participant is not None and self._connections.get(participant) is connection:
                client_code = ws.close_code if connection.close_code is None else None
                self._detach(participant, connection.close_code, client_code)

    async def _watch_heartbeats(self, connection: _Connection, state: _SocketState) -> None:
        loop = asyncio.get_running_loop()
        limit = self.heartbeat_interval * HEARTBEAT_GRACE
        while connection.close_code is None:
            await asyncio.sleep(min(self.heartbeat_interval / 4, 1.0))
            if loop.time() - state.last_heartbeat > limit:
                connection.close(Close.SESSION_TIMEOUT)
                return

    def _dispatch(self, connection: _Connection, state: _SocketState, message: str | bytes) -> None:
        participant = state.participant
        frame = decode_client_frame(message)
        if frame.payload is not None:
            if participant is None:
                raise ProtocolViolation(Close.NOT_AUTHENTICATED, "binary frame before Identify")
            self._binary(participant, frame.op, frame.payload)
            return
        op, d = frame.op, frame.d
        if op == Op.HEARTBEAT:
            nonce, _ = parse_heartbeat(d)
            state.last_heartbeat = asyncio.get_running_loop().time()
            connection.write(json.dumps({"op": Op.HEARTBEAT_ACK, "d": {"t": nonce}}))
            return
        if op == Op.IDENTIFY:
            if participant is not None:
                raise ProtocolViolation(Close.ALREADY_AUTHENTICATED, "second Identify")
            state.participant = self._identify(connection, d)
            return
        if op == Op.RESUME:
            if participant is not None:
                raise ProtocolViolation(Close.ALREADY_AUTHENTICATED, "Resume after Identify")
            state.participant = self._resume(connection, d)
            return
        if participant is None:
            raise ProtocolViolation(Close.NOT_AUTHENTICATED, f"opcode {op} before Identify")
        if op == Op.SELECT_PROTOCOL:
            self._select_protocol(participant, d)
        elif op == Op.SPEAKING:
            self._speaking(participant, d)
        elif op == Op.VIDEO:
            self._video(participant, d)
        elif op == Op.DAVE_TRANSITION_READY:
            self._dave(participant).on_transition_ready(participant, parse_transition_id(d))
        elif op == Op.DAVE_MLS_INVALID_COMMIT_WELCOME:
            self._dave(participant).on_invalid_commit_welcome(participant, parse_transition_id(d))

    # ------------------------------------------------------------ opcodes

    def _identify(self, connection: _Connection, d: Any) -> Participant:
        identify = parse_identify(d)
        allocation = self.allocations.get(identify.token)
        if allocation is None:
            raise ProtocolViolation(Close.AUTHENTICATION_FAILED, "token: unknown or no longer valid")
        if allocation.server_id != identify.server_id:
            raise ProtocolViolation(Close.SERVER_NOT_FOUND, "server_id: no voice server for it")
        if allocation.user_id != identify.user_id or allocation.session_id != identify.session_id:
            raise ProtocolViolation(Close.AUTHENTICATION_FAILED, "user_id/session_id: do not match the token")
        if identify.max_dave_protocol_version == 0 and self.e2ee_required():
            raise ProtocolViolation(Close.DAVE_REQUIRED, "max_dave_protocol_version: E2EE is required")
        call = self.calls.get(allocation.channel_id)
        if call is None:
            call = Call(allocation.server_id, allocation.channel_id)
            call.dave = self._new_dave(call)
            self.calls[allocation.channel_id] = call
        previous = call.participants.get(allocation.user_id)
        if previous is not None:                       # a fresh Identify replaces the old session
            self.close_socket(previous, Close.SESSION_NO_LONGER_VALID)
            self._leave(previous)
        ssrc = self._new_ssrc()
        participant = Participant(call, allocation, ssrc, identify.max_dave_protocol_version)
        log.info("user %s joined the call in channel %s (DAVE up to version %d)", allocation.user_id,
                 allocation.channel_id, identify.max_dave_protocol_version)
        first = not call.participants
        call.participants[participant.user_id] = participant
        if first:
            self.calls[call.channel_id] = call
        self.by_ssrc[ssrc] = participant
        self._attach(participant, connection)
        participant.send_unsequenced(Op.READY, {
            "ssrc": ssrc, "ip": self.host, "port": self._udp_port(), "modes": list(SUPPORTED_MODES),
            "heartbeat_interval": 1, "experiments": []})
        others = [p for p in call.participants.values() if p is not participant]
        if others:
            participant.send(Op.CLIENTS_CONNECT, {"user_ids": [str(p.user_id) for p in others]})
        for other in others:
            other.send(Op.CLIENTS_CONNECT, {"user_ids": [str(participant.user_id)]})
            if other.speaking is not None:
                participant.send(Op.SPEAKING, {"user_id": str(other.user_id), "ssrc": other.ssrc,
                                               "speaking": other.speaking})
        if first:
            self._events("call_started", call.server_id, call.channel_id, None)
        self._events("participant_joined", call.server_id, call.channel_id, participant.user_id)
        return participant

    def _resume(self, connection: _Connection, d: Any) -> Participant:
        resume = parse_resume(d)
        participant = next((p for call in self.calls.values() for p in call.participants.values()
                            if p.allocation.token == resume.token and p.allocation.server_id == resume.server_id
                            and p.allocation.session_id == resume.session_id), None)
        if participant is None:
            raise ProtocolViolation(Close.SESSION_NO_LONGER_VALID, "no resumable session for these values")
        missed = participant.missed_since(resume.seq_ack)
        if missed is None:
            self.close_socket(participant, Close.SESSION_NO_LONGER_VALID)
            self._leave(participant, lost=True)
            raise ProtocolViolation(Close.SESSION_NO_LONGER_VALID, "seq_ack: missed messages are gone")
        old = self._connections.get(participant)
        if old is not None and old is not connection:
            old.close(Close.SESSION_NO_LONGER_VALID)
        self._attach(participant, connection)
        connection.write(json.dumps({"op": Op.RESUMED, "d": None}))
        for frame in missed:
            connection.write(frame)
        return participant

    def _select_protocol(self, participant: Participant, d: Any) -> None:
        selected = parse_select_protocol(d)
        if selected.mode not in SUPPORTED_MODES:
            raise ProtocolViolation(Close.UNKNOWN_ENCRYPTION_MODE, f"d.data.mode: {selected.mode!r} is not offered")
        key = secrets.token_bytes(32)
        participant.cipher = TransportCipher(selected.mode, key)
        if participant.udp_addr is None:
            self.relay.bind(participant, (selected.address, selected.port))
        dave = self._dave(participant)
        participant.send(Op.SESSION_DESCRIPTION, {
            "audio_codec": "opus", "video_codec": video_codec(d), "media_session_id": secrets.token_hex(16),
            "mode": selected.mode, "secret_key": list(key),
            "dave_protocol_version": dave.target_version() if participant.max_dave else 0})
        participant.dave_ready = True
        dave.on_session_ready(participant)

    def _speaking(self, participant: Participant, d: Any) -> None:
        flags = parse_speaking(d)
        participant.speaking = flags
        for other in participant.call.participants.values():
            if other is not participant:
                other.send(Op.SPEAKING, {"user_id": str(participant.user_id), "ssrc": participant.ssrc,
                                         "speaking": flags})

    def _video(self, participant: Participant, d: Any) -> None:
        video = parse_video(d)
        taken = {p.ssrc for p in participant.call.participants.values()} | {
            ssrc for p in participant.call.participants.values() if p is not participant for ssrc in p.video_ssrcs}
        if video.ssrcs & taken:
            raise ProtocolViolation(Close.BAD_REQUEST, "d.video_ssrc: an SSRC another source of the call uses")
        participant.video_ssrcs = video.ssrcs
        for other in participant.call.participants.values():
            if other is not participant:
                other.send(Op.VIDEO, {"user_id": str(participant.user_id), **video.announcement})

    def _binary(self, participant: Participant, op: int, payload: bytes) -> None:
        dave = self._dave(participant)
        if op == Op.DAVE_MLS_KEY_PACKAGE:
            try:
                dave.on_key_package(participant, payload)
            except (mls.MlsDecodeError, mls.MlsValidationError) as exc:
                dave.stats.key_packages_rejected += 1
                dave.stats.last_rejection = str(exc)
                log.info("voice DAVE: key package from user %s dropped: %s", participant.user_id, exc)
        else:
            dave.on_commit_welcome(participant, payload)

    # ------------------------------------------------------------ lifecycle

    def _dave(self, participant: Participant) -> DaveCall:
        dave = participant.call.dave
        assert isinstance(dave, DaveCall)
        return dave

    def _new_dave(self, call: Call) -> DaveCall:
        loop = asyncio.get_running_loop()
        return DaveCall(call.channel_id, self.external_sender,
                        members=lambda: list(call.participants.values()),
                        e2ee_required=self.e2ee_required,
                        call_later=lambda delay, fn: loop.call_later(delay, fn),
                        cancel=lambda handle: handle.cancel(),  # type: ignore[attr-defined]
                        transition_timeout=self.transition_timeout)

    def _new_ssrc(self) -> int:
        while True:
            ssrc = secrets.randbits(32)
            if ssrc and ssrc not in self.by_ssrc:
                return ssrc

    def _attach(self, participant: Participant, connection: _Connection) -> None:
        self._connections[participant] = connection
        participant.writer = connection.write
        timer = self._expiry.pop(participant, None)
        if timer is not None:
            timer.cancel()

    def _detach(self, participant: Participant, server_code: int | None, client_code: int | None) -> None:
        """The socket is gone. A session-ending close, or a client's normal close, ends the session;
        otherwise the participant may resume within the window."""
        self._connections.pop(participant, None)
        participant.writer = None
        if (server_code is not None and server_code in SESSION_ENDING_CLOSES) or client_code == 1000:
            self._leave(participant, lost=server_code == Close.SESSION_TIMEOUT)
            return
        loop = asyncio.get_running_loop()
        self._expiry[participant] = loop.call_later(self.resume_window, self._leave, participant, True)

    def _leave(self, participant: Participant, lost: bool = False) -> None:
        """The participant's voice session ends. ``lost``: it timed out (no heartbeats, or a dropped
        socket not resumed in time), which the owner hears as ``participant_lost`` before
        ``participant_left``: the platform then ends the user's voice state too."""
        call = participant.call
        if call.participants.get(participant.user_id) is not participant:
            return
        timer = self._expiry.pop(participant, None)
        if timer is not None:
            timer.cancel()
        connection = self._connections.pop(participant, None)
        if connection is not None:
            connection.close(Close.DISCONNECTED)
        participant.writer = None
        del call.participants[participant.user_id]
        self.by_ssrc.pop(participant.ssrc, None)
        self.relay.unbind(participant)
        for other in call.participants.values():
            other.send(Op.CLIENT_DISCONNECT, {"user_id": str(participant.user_id)})
        self._dave(participant).on_leave(participant.user_id)
        if lost:
            self._events("participant_lost", call.server_id, call.channel_id, participant.user_id)
        self._events("participant_left", call.server_id, call.channel_id, participant.user_id)
        if not call.participants:
            self.calls.pop(call.channel_id, None)
            self._events("call_ended", call.server_id, call.channel_id, None)
