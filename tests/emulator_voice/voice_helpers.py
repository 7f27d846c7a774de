"""Shared values and helpers of the voice service tests (a module of its own: `conftest` names
another module once several test folders are collected together)."""

from __future__ import annotations

import asyncio
import os
from datetime import datetime, timezone
from typing import Any, Callable

import davey
from voice_client import VoiceClient

BEFORE_E2EE = datetime(2026, 2, 1, tzinfo=timezone.utc)
AFTER_E2EE = datetime(2026, 3, 2, tzinfo=timezone.utc)


class FakeNowClock:
    """The emulator clock as the service sees it: a `now()` the test moves."""

    def __init__(self, instant: datetime) -> None:
        self.instant = instant

    def now(self) -> datetime:
        return self.instant


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.02)


async def executed_last(witness: VoiceClient, clients: list[VoiceClient]) -> None:
    """Wait until every client has executed the last transition `witness` prepared for."""
    await until(lambda: bool(witness.transitions))
    transition_id = witness.transitions[-1][1]
    await until(lambda: all(transition_id in c.executed for c in clients))


def agreed(clients: list[VoiceClient]) -> bool:
    """Every client is in the same DAVE epoch with the same members."""
    epochs = {c.dave.epoch for c in clients}
    users = [sorted(int(u) for u in c.dave.get_user_ids()) for c in clients]
    expected = sorted(c.user_id for c in clients)
    return len(epochs) == 1 and None not in epochs and all(c.dave.ready for c in clients) \
        and all(u == expected for u in users)


def opus_frame() -> bytes:
    """Synthetic Opus: a TOC byte for a 20 ms CELT frame, then random bytes (the relay never decodes)."""
    return b"\xfc" + os.urandom(60)


async def hears(receiver: VoiceClient, sender: VoiceClient) -> bool:
    """Sender sends one E2EE frame through the relay; the receiver decrypts it with davey. Packets
    from other senders still in flight (fan-out reaches every receiver) are skipped."""
    await until(lambda: sender.ssrc in receiver.ssrc_users)    # the gateway has processed Speaking
    frame = opus_frame()
    receiver.drain()
    sender.send_audio(frame)
    loop = asyncio.get_running_loop()
    while True:
        ssrc, _, e2ee, _ = await loop.run_in_executor(None, receiver.receive)
        if ssrc == sender.ssrc:
            break
    return receiver.dave.decrypt(sender.user_id, davey.MediaType.audio, e2ee) == frame
