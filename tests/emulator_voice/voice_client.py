"""A minimal voice client for the tests, written from the platform's public protocol description and
independent of the emulator's code: `websockets` for the voice gateway, a UDP socket for media, the
transport AEADs called directly from `cryptography` / PyNaCl, and (optionally) `davey` for DAVE."""

from __future__ import annotations

import asyncio
import json
import socket
import ssl
import struct
from typing import Any

from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from nacl.bindings import crypto_aead_xchacha20poly1305_ietf_decrypt, crypto_aead_xchacha20poly1305_ietf_encrypt
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

AES = "aead_aes256_gcm_rtpsize"
XCHACHA = "aead_xchacha20_poly1305_rtpsize"


def client_seal(mode: str, key: bytes, counter: int, header: bytes, plaintext: bytes) -> bytes:
    nonce4 = struct.pack(">I", counter)
    if mode == AES:
        body = AESGCM(key).encrypt(nonce4 + bytes(8), plaintext, header)
    else:
        body = crypto_aead_xchacha20poly1305_ietf_encrypt(plaintext, header, nonce4 + bytes(20), key)
    return header + body + nonce4


def client_open(mode: str, key: bytes, packet: bytes, header_length: int) -> bytes:
    nonce4, header = packet[-4:], packet[:header_length]
    body = packet[header_length:-4]
    if mode == AES:
        return AESGCM(key).decrypt(nonce4 + bytes(8), body, header)
    return crypto_aead_xchacha20poly1305_ietf_decrypt(body, header, nonce4 + bytes(20), key)


class VoiceClient:
    def __init__(self, endpoint: str, server_id: int, user_id: int, session_id: str, token: str,
                 tls: ssl.SSLContext | None = None) -> None:
        """``tls``: connect with wss:// trusting this context (an emulator serving TLS), else ws://."""
        self.endpoint, self.server_id, self.user_id = endpoint, server_id, user_id
        self.tls = tls
        self.session_id, self.token = session_id, token
        self.ws: ClientConnection | None = None
        self.inbox: asyncio.Queue[Any] = asyncio.Queue()
        self.seq_ack = -1
        self.ssrc = 0
        self.udp_port = 0
        self.mode = ""
        self.key = b""
        self.counter = 0
        self.rtp_seq = 0
        self.sock: socket.socket | None = None
        self.ssrc_users: dict[int, int] = {}
        self._reader: asyncio.Task[None] | None = None
        self.dave: Any = None
        self.known_users: set[int] = set()
        self.transitions: list[tuple[str, int]] = []
        self.executed: list[int] = []
        self.dave_version = 0
        self.failure: Exception | None = None

    # ---------------------------------------------------------------- gateway

    async def open(self, heartbeat: bool = True) -> dict[str, Any]:
        scheme = "wss" if self.tls else "ws"
        self.ws = await connect(f"{scheme}://{self.endpoint}/?v=8", max_size=None, ssl=self.tls)
        hello = json.loads(await self.ws.recv())
        loop = asyncio.get_running_loop()
        self._reader = loop.create_task(self._read())
        if heartbeat:
            self._heartbeat = loop.create_task(self._beat(hello["d"]["heartbeat_interval"] / 1000))
        return hello

    async def _beat(self, interval: float) -> None:
        nonce = 0
        while self.ws is not None and self.ws.close_code is None:
            await asyncio.sleep(interval / 2)
            nonce += 1
            try:
                await self.send(3, {"t": nonce, "seq_ack": self.seq_ack})
            except Exception:
                return

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for message in self.ws:
                if isinstance(message, bytes):
                    self.seq_ack = struct.unpack(">H", message[:2])[0]
                    self._on_binary(message[2], message[3:])
                    continue
                payload = json.loads(message)
                if payload.get("seq") is not None:
                    self.seq_ack = payload["seq"]
                self._on_json(payload)
                await self.inbox.put(payload)
        except ConnectionClosed:      # the test reads close_code
            pass
        except Exception as exc:      # a handler failed: surface it to the waiting test
            self.failure = exc
        await self.inbox.put(None)

    async def send(self, op: int, d: Any) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps({"op": op, "d": d}))

    async def expect(self, op: int, timeout: float = 3.0) -> dict[str, Any]:
        """The next JSON message with this op (others before it are discarded)."""
        while True:
            payload = await asyncio.wait_for(self.inbox.get(), timeout)
            if payload is None:
                raise ConnectionError(f"closed while waiting for op {op}: {self.close_code}, "
                                      f"client failure: {self.failure!r}")
            if payload["op"] == op:
                return payload

    async def closed(self, timeout: float = 3.0) -> int | None:
        assert self.ws is not None
        await asyncio.wait_for(self.ws.wait_closed(), timeout)
        return self.ws.close_code

    @property
    def close_code(self) -> int | None:
        return self.ws.close_code if self.ws is not None else None

    async def identify(self, max_dave: int = 1) -> dict[str, Any]:
        await self.send(0, {"server_id": str(self.server_id), "user_id": str(self.user_id),
                            "session_id": self.session_id, "token": self.token,
                            "max_dave_protocol_version": max_dave})
        ready = (await self.expect(2))["d"]
        self.ssrc, self.udp_port = ready["ssrc"], ready["port"]
        return ready

    async def join(self, mode: str = AES, max_dave: int = 1) -> dict[str, Any]:
        """Hello, Identify, Ready, IP discovery, Select Protocol, Session Description."""
        await self.open()
        await self.identify(max_dave)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(2.0)
        address, port = self.discover()
        await self.send(1, {"protocol": "udp", "data": {"address": address, "port": port, "mode": mode}})
        description = (await self.expect(4))["d"]
        self.mode, self.key = description["mode"], bytes(description["secret_key"])
        return description

    def discover(self) -> tuple[str, int]:
        assert self.sock is not None
        self.sock.sendto(struct.pack(">HHI", 1, 70, self.ssrc) + bytes(66), ("127.0.0.1", self.udp_port))
        reply, _ = self.sock.recvfrom(2048)
        assert len(reply) == 74 and reply[:4] == b"\x00\x02\x00\x46"
        assert struct.unpack(">I", reply[4:8])[0] == self.ssrc
        return reply[8:72].split(b"\0")[0].decode(), struct.unpack(">H", reply[72:74])[0]

    async def speak(self, flags: int = 1) -> None:
        await self.send(5, {"speaking": flags, "delay": 0, "ssrc": self.ssrc})

    def stop_heartbeats(self) -> None:
        """Behave like a client that hangs: the socket stays open, no more heartbeats."""
        if getattr(self, "_heartbeat", None) is not None:
            self._heartbeat.cancel()

    def drop(self) -> None:
        """Lose the voice socket without a close frame (a network failure)."""
        self.stop_heartbeats()
        assert self.ws is not None
        self.ws.transport.abort()

    async def close(self) -> None:
        if getattr(self, "_heartbeat", None) is not None:
            self._heartbeat.cancel()
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)
        if self.sock is not None:
            self.sock.close()

    def _on_json(self, payload: dict[str, Any]) -> None:
        op, d = payload["op"], payload.get("d") or {}
        if op == 5:
            self.ssrc_users[d["ssrc"]] = int(d["user_id"])
        elif op == 11:
            self.known_users |= {int(u) for u in d["user_ids"]}
        elif op == 13:
            self.known_users.discard(int(d["user_id"]))
        elif op == 4:
            self.dave_version = d.get("dave_protocol_version", 0)
        if self.dave is not None:
            self._dave_json(op, d)

    # ---------------------------------------------------------------- media

    def send_audio(self, payload: bytes, *, e2ee: bool = True) -> bytes:
        """Send one frame; returns the bytes that went inside the transport layer."""
        assert self.sock is not None
        self.rtp_seq = (self.rtp_seq + 1) & 0xFFFF
        self.counter += 1
        frame = self.dave.encrypt_opus(payload) if (e2ee and self.dave is not None) else payload
        header = struct.pack(">BBHII", 0x80, 0x78, self.rtp_seq, self.rtp_seq * 960, self.ssrc)
        self.sock.sendto(client_seal(self.mode, self.key, self.counter, header, frame),
                         ("127.0.0.1", self.udp_port))
        return frame

    def receive(self, timeout: float = 2.0) -> tuple[int, int, bytes, bytes]:
        """(ssrc, rtp sequence, transport plaintext, raw packet) of the next RTP packet."""
        assert self.sock is not None
        self.sock.settimeout(timeout)
        while True:
            packet, _ = self.sock.recvfrom(4096)
            if 200 <= packet[1] <= 204:
                continue
            ssrc = struct.unpack(">I", packet[8:12])[0]
            seq = struct.unpack(">H", packet[2:4])[0]
            return ssrc, seq, client_open(self.mode, self.key, packet, 12), packet

    def drain(self) -> None:
        """Discard packets already waiting (earlier frames fanned out to this client)."""
        assert self.sock is not None
        self.sock.setblocking(False)
        try:
            while True:
                self.sock.recvfrom(4096)
        except (BlockingIOError, OSError):
            pass
        finally:
            self.sock.setblocking(True)

    def nothing_received(self, wait: float = 0.3) -> bool:
        assert self.sock is not None
        self.sock.settimeout(wait)
        try:
            self.sock.recvfrom(4096)
        except (TimeoutError, socket.timeout):
            return True
        return False

    # ---------------------------------------------------------------- DAVE (davey as the client)

    def enable_dave(self, channel_id: int) -> None:
        import davey
        self._davey = davey
        self.channel_id = channel_id
        self.dave = davey.DaveSession(1, self.user_id, channel_id)
        self.external_sender: bytes | None = None

    def _send_binary(self, op: int, payload: bytes) -> None:
        assert self.ws is not None
        asyncio.get_running_loop().create_task(self.ws.send(bytes([op]) + payload))

    def _send_json_soon(self, op: int, d: Any) -> None:
        asyncio.get_running_loop().create_task(self.send(op, d))

    def _on_binary(self, op: int, payload: bytes) -> None:
        if self.dave is None:
            return
        davey = self._davey
        if op == 25:
            if self.external_sender is not None:
                self.external_sender = payload      # kept for the group re-creation op 24 announces
                return
            self.external_sender = payload
            self.dave.set_external_sender(payload)
            self._send_binary(26, self.dave.get_serialized_key_package())
        elif op == 27:
            kind = davey.ProposalsOperationType.append if payload[0] == 0 else davey.ProposalsOperationType.revoke
            users = sorted(self.known_users | {self.user_id})
            result = self.dave.process_proposals(kind, payload[1:], users)
            if result is not None:
                self._send_binary(28, result.commit + (result.welcome or b""))
        elif op in (29, 30):
            transition_id = struct.unpack(">H", payload[:2])[0]
            try:
                if op == 29:
                    self.dave.process_commit(payload[2:])
                else:
                    self.dave.process_welcome(payload[2:])
            except Exception:
                self.transitions.append(("invalid", transition_id))
                self._send_json_soon(31, {"transition_id": transition_id})
                self._reset_and_send_key_package()
                return
            self.transitions.append(("commit" if op == 29 else "welcome", transition_id))
            self._send_json_soon(23, {"transition_id": transition_id})

    def _reset_and_send_key_package(self) -> None:
        self.dave.reinit(1, self.user_id, self.channel_id)
        if self.external_sender is not None:
            self.dave.set_external_sender(self.external_sender)
        self._send_binary(26, self.dave.get_serialized_key_package())

    def _dave_json(self, op: int, d: Any) -> None:
        if op == 22:
            self.executed.append(d["transition_id"])
        elif op == 24 and d["epoch"] == 1:
            self.dave_version = d["protocol_version"]
            self._reset_and_send_key_package()
        elif op == 21:
            self.dave_version = d["protocol_version"]
            if d["protocol_version"] == 0:
                self.dave.set_passthrough_mode(True)
            if d["transition_id"] != 0:
                self._send_json_soon(23, {"transition_id": d["transition_id"]})
