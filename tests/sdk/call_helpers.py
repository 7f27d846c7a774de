"""Helpers shared by the SDK's call tests: a lobby both players are in, a capture callback that writes a
tone into the SDK's buffer, and a received callback that measures one user's frequency."""

from __future__ import annotations

import math
import threading

import numpy as np

import platformpp
from sdk_support import Outcome


def shared_lobby(alice: platformpp.Client, bob: platformpp.Client, secret: str) -> int:
    created, joined = Outcome(), Outcome()
    alice.create_or_join_lobby(secret, created)
    lobby_id = created.wait()[1]
    bob.create_or_join_lobby(secret, joined)
    assert joined.wait()[1] == lobby_id
    return lobby_id


class Tone:
    """A captured callback that writes a sine into the SDK's buffer (what it leaves is sent)."""

    def __init__(self, hz: float = 440.0) -> None:
        self.hz, self.phase, self.calls, self.addresses = hz, 0, 0, set()
        self.shapes: set[tuple[int, ...]] = set()

    def __call__(self, samples: np.ndarray, sample_rate: int) -> None:
        self.calls += 1
        self.shapes.add(samples.shape)
        self.addresses.add(samples.__array_interface__["data"][0])
        n = samples.shape[0]
        t = (np.arange(n) + self.phase) / sample_rate
        samples[:] = (8000 * np.sin(2 * math.pi * self.hz * t)).astype(np.int16)[:, None]
        self.phase += n


class Ear:
    """A received callback keeping one user's first channel (copied: the array is only valid in the call)."""

    def __init__(self, user_id: int) -> None:
        self.user_id, self.frames, self.lock = user_id, [], threading.Lock()
        self.flags: list[tuple[bool, bool, str]] = []

    def __call__(self, user_id: int, samples: np.ndarray, sample_rate: int) -> bool | None:
        if user_id == self.user_id:
            with self.lock:
                self.frames.append(samples[:, 0].copy())
                if len(self.flags) < 3:
                    self.flags.append((samples.flags.writeable, samples.flags.owndata, str(samples.dtype)))
        return None

    def count(self) -> int:
        with self.lock:
            return len(self.frames)

    def frequency(self) -> float:
        with self.lock:
            mono = np.concatenate(self.frames[-25:]).astype(np.float64)
        rising = np.nonzero((mono[:-1] < 0) & (mono[1:] >= 0))[0]
        exact = rising + (-mono[rising]) / (mono[rising + 1] - mono[rising])
        return (len(exact) - 1) * 48000.0 / (exact[-1] - exact[0])
