"""The DAVE delivery service without sockets: recording members stand in for connected clients (what
they are sent is kept), and each holds a real `davey` session to make key packages and commits."""

from __future__ import annotations

import json
from typing import Any

import davey

from platformpp.emulator.voice import mls_wire as mls
from platformpp.emulator.voice.dave import DaveCall

CHANNEL = 527121515262115840


class Recorder:
    """A connected participant as the delivery service sees it; keeps what it was sent."""

    def __init__(self, user_id: int, max_dave: int = 1) -> None:
        self.user_id, self.max_dave, self.dave_ready = user_id, max_dave, True
        self.sent: list[tuple[int, Any]] = []
        self.session = davey.DaveSession(1, user_id, CHANNEL)

    def send(self, op: int, d: object) -> None:
        self.sent.append((int(op), json.loads(json.dumps(d))))

    def send_binary(self, op: int, payload: bytes) -> None:
        self.sent.append((int(op), payload))

    def take(self, op: int) -> list[Any]:
        found = [payload for sent_op, payload in self.sent if sent_op == op]
        self.sent = [(o, p) for o, p in self.sent if o != op]
        return found


class Harness:
    def __init__(self, required: bool = True) -> None:
        self.members: dict[int, Recorder] = {}
        self.timers: list[Any] = []
        self.sender = mls.ExternalSender()
        self.call = DaveCall(CHANNEL, self.sender, members=lambda: list(self.members.values()),
                             e2ee_required=lambda: required,
                             call_later=self._later,
                             cancel=lambda handle: None, transition_timeout=2.0)

    def _later(self, delay: float, fn: Any) -> Any:
        self.timers.append(fn)
        return fn

    def join(self, user_id: int, max_dave: int = 1) -> Recorder:
        member = Recorder(user_id, max_dave)
        self.members[user_id] = member
        self.call.on_session_ready(member)
        return member

    def key_package(self, member: Recorder) -> None:
        member.session.set_external_sender(self.sender.package())
        self.call.on_key_package(member, member.session.get_serialized_key_package())

    def leave(self, member: Recorder) -> None:
        del self.members[member.user_id]
        self.call.on_leave(member.user_id)
